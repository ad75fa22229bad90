//! The batched small-matrix checks, written once for both backends: batched
//! products of every side from 1 to 32 (square and not) against the float64
//! reference, batches from 1 to thousands, batched powers, errors and the leak
//! check. Outputs are poisoned with NaN before every pass.

use super::*;
use gpgpu_matrix::plan::batched::reference_product;

/// The batched checks, one test each, on `$backend`.
macro_rules! batched_tests {
    ($backend:expr) => {
        checks!($backend; common::batched:
            batched_products_match_the_reference,
            batched_powers_match_the_reference,
            batched_errors_say_what_to_do,
            a_batch_too_big_for_the_device_is_refused_before_its_arrays_are_read,
            a_thousand_batched_calls_leak_nothing,
        );
    };
}

/// A batched product on `g`: blocking on WebGL, async on WebGPU.
async fn multiply(g: &Gpgpu, count: usize, dims: [usize; 3], a: &[f32], b: &[f32]) -> Vec<f32> {
    match g.backend() {
        Backend::WebGl => g.multiply_batched(count, dims, a, b).unwrap(),
        Backend::WebGpu | Backend::Cpu => {
            g.multiply_batched_async(count, dims, a, b).await.unwrap()
        }
    }
}

pub async fn batched_products_match_the_reference(backend: Backend) {
    let t = shared_on(backend).await;
    let g = &t.g;
    // (count, rows, inner, cols): sides 1..32, non-square, a batch large enough to
    // fill several atlas bands, n = 1.
    let cases = [
        (1, 1, 1, 1),
        (7, 3, 3, 3),
        (2000, 3, 3, 3),
        (33, 2, 5, 7),
        (5, 9, 9, 9),
        (300, 4, 4, 4),
        (3, 32, 32, 32),
        (17, 31, 1, 17),
    ];
    for (seed, &(count, r, k, c)) in cases.iter().enumerate() {
        let a = uniform(500 + seed as u32, count * r * k);
        let b = uniform(600 + seed as u32, count * k * c);
        let want = reference_product(count, [r, k, c], &a, &b);
        let got = multiply(g, count, [r, k, c], &a, &b).await;
        assert_close(
            &format!("{count} products {r}x{k}x{c}"),
            &got,
            &want,
            FROBENIUS_TOL,
        );
    }
    // Small integers: exact.
    let (count, n) = (1000, 3);
    let a = random::integers(7, count * n * n, -4, 4);
    let b = random::integers(8, count * n * n, -4, 4);
    let want: Vec<f32> = reference_product(count, [n, n, n], &a, &b)
        .iter()
        .map(|&v| v as f32)
        .collect();
    assert_eq!(
        multiply(g, count, [n, n, n], &a, &b).await,
        want,
        "1000 integer 3x3 products"
    );
}

pub async fn batched_powers_match_the_reference(backend: Backend) {
    let g = &shared_on(backend).await.g;
    let (count, n) = (50, 3);
    let m = random::integers(9, count * n * n, -1, 1);
    for p in [0, 1, 2, 5, 13] {
        let got = g.power_batched_async(count, n, &m, p).await.unwrap();
        let mut want = vec![];
        for s in 0..count {
            let one = &m[s * n * n..(s + 1) * n * n];
            let r = gpgpu_matrix::plan::reference::power(
                Semiring::Ordinary,
                n,
                &gpgpu_matrix::plan::reference::to_f64(one),
                p,
            );
            want.extend(r.iter().map(|&v| v as f32));
        }
        assert_eq!(got, want, "M^{p} for 50 integer 3x3 matrices");
    }
    if backend != Backend::WebGpu {
        let got = g.power_batched(count, n, &m, 2).unwrap();
        assert_eq!(got, g.power_batched_async(count, n, &m, 2).await.unwrap());
    }
}

/// A bad batched call and what it must say.
type Case = (
    &'static str,
    f64,
    [f64; 3],
    usize,
    usize,
    &'static str,
    &'static str,
);

pub async fn batched_errors_say_what_to_do(backend: Backend) {
    let api = js_on(backend).await;
    let n = |v: f64| JsValue::from(v);
    let arr = |len: usize| JsValue::from(Float32Array::new_with_length(len as u32));
    let call = |batch: f64, [r, k, c]: [f64; 3], la: usize, lb: usize| {
        JsFuture::from(api.multiply_batched_async(n(batch), n(r), n(k), n(c), arr(la), arr(lb)))
    };
    // (what, batch, [rows, inner, cols], a's length, b's length, code, in the message)
    let cases: [Case; 6] = [
        ("batch 0", 0.0, [2.0, 2.0, 2.0], 0, 0, "BAD_COUNT", "batch"),
        (
            "batch 1.5",
            1.5,
            [2.0, 2.0, 2.0],
            6,
            6,
            "BAD_COUNT",
            "batch",
        ),
        (
            "a side of 33",
            1.0,
            [33.0, 2.0, 2.0],
            66,
            4,
            "BAD_ARGUMENT",
            "at most 32",
        ),
        (
            "a side of 0",
            1.0,
            [2.0, 0.0, 2.0],
            0,
            0,
            "BAD_DIMENSION",
            "inner",
        ),
        (
            "a too short",
            3.0,
            [2.0, 2.0, 2.0],
            11,
            12,
            "BAD_LENGTH",
            "a has 11",
        ),
        (
            "b too long",
            3.0,
            [2.0, 2.0, 2.0],
            12,
            13,
            "BAD_LENGTH",
            "b has 13",
        ),
    ];
    for (what, batch, dims, la, lb, code, text) in cases {
        let e = call(batch, dims, la, lb).await.expect_err(what);
        let code_of = Reflect::get(&e, &"code".into()).unwrap().as_string();
        let message = Reflect::get(&e, &"message".into())
            .unwrap()
            .as_string()
            .unwrap();
        assert_eq!(code_of.as_deref(), Some(code), "{what}: {message}");
        assert!(message.contains(text), "{what}: {message}");
        // A batch of 0 and of 1.5 state the same range, the one that holds.
        if what.starts_with("batch") {
            assert!(
                message.ends_with("it must be a whole number from 1 to 4294967295."),
                "{what}: {message}"
            );
        }
    }
    // The Rust API checks the same, and the power's own arguments.
    let g = &shared_on(backend).await.g;
    let e = g.multiply_batched_async(0, [1, 1, 1], &[], &[]).await;
    assert_error(e, "BAD_COUNT", "batch");
    let e = g.power_batched_async(2, 3, &[0.0; 17], 2).await;
    assert_error(e, "BAD_LENGTH", "m has 17");
    let e = g.power_batched_async(1, 33, &[0.0; 33 * 33], 2).await;
    assert_error(e, "BAD_ARGUMENT", "at most 32");
    if backend == Backend::WebGpu {
        let e = api
            .multiply_batched(n(1.0), n(1.0), n(1.0), n(1.0), arr(1), arr(1))
            .map(JsValue::from);
        assert_js_error(e, "NEEDS_ASYNC", "multiplyBatchedAsync");
    }
}

/// A batch whose atlas the device cannot hold is SIZE_OVER_LIMIT before its arrays
/// are read (empty ones here), as a plain product's size is: the arrays were copied
/// into wasm memory first, so a batch given two arrays of 1 GiB (2.6e8 1×1 products)
/// trapped ("unreachable") on the copies, and every later call of the page hung.
pub async fn a_batch_too_big_for_the_device_is_refused_before_its_arrays_are_read(
    backend: Backend,
) {
    let api = js_on(backend).await;
    let n = |v: f64| JsValue::from(v);
    let empty = || JsValue::from(Float32Array::new_with_length(0));
    let most = u32::MAX as f64;
    let product = api.multiply_batched_async(n(most), n(32.0), n(32.0), n(32.0), empty(), empty());
    let power = api.power_batched_async(n(most), n(32.0), empty(), n(3.0));
    for (what, p) in [("product", product), ("power", power)] {
        let msg = assert_js_error(settle(p).await, "SIZE_OVER_LIMIT", "the atlas of a batch");
        assert!(msg.contains("4294967295 32x32 matrices"), "{what}: {msg}");
    }
    if backend != Backend::WebGpu {
        let r = api.multiply_batched(n(most), n(1.0), n(1.0), n(1.0), empty(), empty());
        assert_js_error(r, "SIZE_OVER_LIMIT", "the atlas of a batch");
        let r = api.power_batched(n(most), n(2.0), empty(), n(0.0));
        assert_js_error(r, "SIZE_OVER_LIMIT", "the atlas of a batch");
    }
}

pub async fn a_thousand_batched_calls_leak_nothing(backend: Backend) {
    let g = poisoned_on(backend).await;
    let (count, n) = (64, 3);
    let a = uniform(11, count * n * n);
    multiply(&g, count, [n, n, n], &a, &a).await;
    g.power_batched_async(count, n, &a, 5).await.unwrap();
    let after_first = g.live_objects();
    for i in 0..1000 {
        multiply(&g, count, [n, n, n], &a, &a).await;
        if i % 100 == 0 {
            g.power_batched_async(count, n, &a, 5).await.unwrap();
        }
    }
    assert_eq!(g.live_objects(), after_first, "after 1000 batched products");
}
