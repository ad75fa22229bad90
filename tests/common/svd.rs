//! The batched SVD checks, written once for both backends: random matrices of
//! every kind of shape against the float64 reference (reconstruction, orthonormal
//! U and V, singular values), zero and rank-deficient matrices, batches of 1 to
//! 1000, the JavaScript form, errors and the leak check. Outputs are poisoned with
//! NaN before every pass.

use super::*;
use gpgpu_matrix::batched::svd as batched_svd;
use gpgpu_matrix::plan::svd::{reference, Svd, SvdShape, MAX_SWEEPS};

/// The SVD checks, one test each, on `$backend`.
macro_rules! svd_tests {
    ($backend:expr) => {
        checks!($backend; common::svd:
            svds_match_the_reference,
            zero_and_rank_deficient_matrices,
            matrices_near_the_ends_of_float32s_range,
            the_javascript_form_returns_the_same,
            svd_errors_say_what_to_do,
            two_hundred_svd_calls_leak_nothing,
        );
    };
}

/// Relative tolerance of the checks: ‖A − UΣVᵀ‖_F/‖A‖_F, ‖UᵀU − I‖_F, ‖VᵀV − I‖_F,
/// and each σ against the reference. Float32 Jacobi reaches 2e-6, 4e-6, 7e-6 and
/// 4e-6 on these shapes (plan/src/svd.rs measures it natively).
const SVD_TOL: f64 = 1e-5;

/// A batched SVD on `g`: blocking on WebGL, async on WebGPU.
async fn decompose(g: &Gpgpu, count: usize, rows: usize, cols: usize, a: &[f32]) -> Svd {
    let r = match g.backend() {
        Backend::WebGl => g.svd_batched(count, rows, cols, a),
        Backend::WebGpu | Backend::Cpu => batched_svd::svd(&g.handle(), count, rows, cols, a).await,
    };
    r.unwrap_or_else(|e| panic!("{count} SVDs {rows}x{cols}: {e}"))
}

/// Well-conditioned matrices: uniform in [-1, 1] plus 4 on the diagonal (condition
/// numbers below 10 at 16×16, where plain uniform ones reach 1e3).
fn well_conditioned(seed: u32, count: usize, rows: usize, cols: usize) -> Vec<f32> {
    let mut a = uniform(seed, count * rows * cols);
    for m in a.chunks_mut(rows * cols) {
        for j in 0..cols {
            m[j * cols + j] += 4.0;
        }
    }
    a
}

/// ‖A − UΣVᵀ‖_F/‖A‖_F (absolute when A = 0), ‖UᵀU − I‖_F over the columns with
/// σ > 0, ‖VᵀV − I‖_F, for matrix `k` of the batch.
fn errors(rows: usize, cols: usize, a: &[f32], r: &Svd, k: usize) -> [f64; 3] {
    let a = &a[k * rows * cols..(k + 1) * rows * cols];
    let u = &r.u[k * rows * cols..(k + 1) * rows * cols];
    let v = &r.v[k * cols * cols..(k + 1) * cols * cols];
    let s = &r.s[k * cols..(k + 1) * cols];
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..rows {
        for j in 0..cols {
            let x: f64 = (0..cols)
                .map(|c| u[i * cols + c] as f64 * s[c] as f64 * v[j * cols + c] as f64)
                .sum();
            num += (a[i * cols + j] as f64 - x).powi(2);
            den += (a[i * cols + j] as f64).powi(2);
        }
    }
    let gram = |m: &[f32], n: usize, keep: &dyn Fn(usize) -> bool| {
        let mut e = 0.0;
        for p in (0..cols).filter(|&p| keep(p)) {
            for q in (0..cols).filter(|&q| keep(q)) {
                let d: f64 = (0..n)
                    .map(|i| m[i * cols + p] as f64 * m[i * cols + q] as f64)
                    .sum();
                e += (d - if p == q { 1.0 } else { 0.0 }).powi(2);
            }
        }
        e.sqrt()
    };
    [
        if den > 0.0 {
            (num / den).sqrt()
        } else {
            num.sqrt()
        },
        gram(u, rows, &|p| s[p] > 0.0),
        gram(v, cols, &|_| true),
    ]
}

/// Checks every matrix of a batch: the three norms, σ decreasing, no poison left,
/// sweeps under the cap; `sigma_check` compares σ with the reference's.
fn check_batch(what: &str, shape: SvdShape, a: &[f32], r: &Svd, sigma_tol: Option<f64>) {
    let SvdShape { count, rows, cols } = shape;
    assert_eq!(
        (r.s.len(), r.u.len(), r.v.len(), r.sweeps.len()),
        (
            count * cols,
            count * rows * cols,
            count * cols * cols,
            count
        ),
        "{what}: lengths"
    );
    for x in [&r.s, &r.u, &r.v] {
        assert!(
            x.iter().all(|v| v.is_finite()),
            "{what}: NaN left (unwritten?)"
        );
    }
    let want = sigma_tol.map(|_| reference(shape, a));
    for k in 0..count {
        let e = errors(rows, cols, a, r, k);
        assert!(
            e.iter().all(|&x| x <= SVD_TOL),
            "{what}, matrix {k}: [A − UΣVᵀ, UᵀU − I, VᵀV − I] = {e:?}"
        );
        let s = &r.s[k * cols..(k + 1) * cols];
        assert!(s.windows(2).all(|w| w[0] >= w[1]), "{what} {k}: σ {s:?}");
        assert!(
            (r.sweeps[k] as usize) < MAX_SWEEPS,
            "{what} {k}: {} sweeps",
            r.sweeps[k]
        );
        if let (Some(tol), Some(want)) = (sigma_tol, &want) {
            let w = &want[k].s;
            for c in (0..cols).filter(|&c| w[c] >= 1e-3 * w[0]) {
                let rel = (s[c] as f64 - w[c]).abs() / w[c];
                assert!(
                    rel <= tol,
                    "{what} {k}: σ_{c} = {} vs {} ({rel:e})",
                    s[c],
                    w[c]
                );
            }
        }
    }
}

/// How many matrices took each number of sweeps, for the log.
fn histogram(sweeps: &[u32]) -> String {
    let mut h = std::collections::BTreeMap::new();
    for &s in sweeps {
        *h.entry(s).or_insert(0) += 1;
    }
    format!("{h:?}")
}

pub async fn svds_match_the_reference(backend: Backend) {
    let g = &shared_on(backend).await.g;
    // (count, rows, cols): the log's 9×9, one column, tall, square at the limits.
    let cases = [
        (1, 1, 1),
        (7, 2, 2),
        (7, 3, 3),
        (7, 9, 9),
        (1000, 9, 9),
        (5, 12, 7),
        (3, 32, 16),
        (3, 16, 16),
        (9, 32, 1),
        (70, 5, 4),
    ];
    for (seed, &(count, rows, cols)) in cases.iter().enumerate() {
        let shape = SvdShape::new(count, rows, cols).unwrap();
        let what = format!("{count} SVDs {rows}x{cols}");
        let a = well_conditioned(900 + seed as u32, count, rows, cols);
        let start = js_sys::Date::now();
        let r = decompose(g, count, rows, cols, &a).await;
        let ms = js_sys::Date::now() - start;
        web_sys::console::log_1(
            &format!("{what}: {ms:.0} ms, sweeps {}", histogram(&r.sweeps)).into(),
        );
        check_batch(&what, shape, &a, &r, Some(SVD_TOL));
    }
    // Plain uniform matrices are less well conditioned: σ to 1e-5 of σ_max.
    let (count, n) = (4, 16);
    let a = uniform(77, count * n * n);
    let r = decompose(g, count, n, n, &a).await;
    let shape = SvdShape::new(count, n, n).unwrap();
    check_batch("uniform 16x16", shape, &a, &r, None);
    for (k, want) in reference(shape, &a).iter().enumerate() {
        for c in 0..n {
            let d = (r.s[k * n + c] as f64 - want.s[c]).abs() / want.s[0];
            assert!(
                d <= SVD_TOL,
                "uniform 16x16 {k}: σ_{c} off by {d:e} of σ_max"
            );
        }
    }
    // A diagonal matrix is already orthogonal: no sweep, σ sorted, V a permutation.
    let d = [1.0, 0.0, 0.0, 0.0, -3.0, 0.0, 0.0, 0.0, 2.0];
    let r = decompose(g, 1, 3, 3, &d).await;
    assert_eq!(r.sweeps, [0]);
    assert_eq!(r.s, [3.0, 2.0, 1.0]);
    assert_eq!(r.v, [0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    assert_eq!(r.u, [0.0, 0.0, 1.0, -1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
}

pub async fn zero_and_rank_deficient_matrices(backend: Backend) {
    let g = &shared_on(backend).await.g;
    // Zero matrices: σ = 0, U = 0, V = I, nothing to rotate.
    let (count, rows, cols) = (7, 9, 9);
    let zeros = vec![0.0; count * rows * cols];
    let r = decompose(g, count, rows, cols, &zeros).await;
    assert!(r.s.iter().all(|&s| s == 0.0), "{:?}", r.s);
    assert!(r.u.iter().all(|&u| u == 0.0));
    assert_eq!(r.sweeps, [0; 7]);
    for k in 0..count {
        assert_eq!(errors(rows, cols, &zeros, &r, k), [0.0; 3]);
        for i in 0..cols {
            for j in 0..cols {
                let want = if i == j { 1.0 } else { 0.0 };
                assert_eq!(r.v[k * cols * cols + i * cols + j], want);
            }
        }
    }
    // Rank 3 of 7 columns (A = B·C): four σ at float32 noise, U and V still
    // orthonormal, A rebuilt.
    let (count, rows, cols, rank) = (20, 12, 7, 3);
    let mut a = vec![];
    for k in 0..count {
        let b = uniform(300 + k as u32, rows * rank);
        let c = uniform(400 + k as u32, rank * cols);
        let p = gpgpu_matrix::plan::batched::reference_product(1, [rows, rank, cols], &b, &c);
        a.extend(p.iter().map(|&x| x as f32));
    }
    let r = decompose(g, count, rows, cols, &a).await;
    let shape = SvdShape::new(count, rows, cols).unwrap();
    check_batch("rank 3 of 12x7", shape, &a, &r, None);
    for k in 0..count {
        let s = &r.s[k * cols..(k + 1) * cols];
        assert!(s[rank - 1] > 1e-3 * s[0], "{k}: {s:?}");
        assert!(s[rank..].iter().all(|&x| x <= 1e-5 * s[0]), "{k}: {s:?}");
    }
    // Equal columns: the 45° rotation cancels one of them.
    let a = [1.0, 1.0, 2.0, 2.0, -3.0, -3.0];
    let r = decompose(g, 1, 3, 2, &a).await;
    assert!((r.s[0] as f64 - 28f64.sqrt()).abs() < 1e-5, "{:?}", r.s);
    assert!(r.s[1] <= 1e-6, "{:?}", r.s);
    check_batch(
        "equal columns",
        SvdShape::new(1, 3, 2).unwrap(),
        &a,
        &r,
        None,
    );
}

pub async fn matrices_near_the_ends_of_float32s_range(backend: Backend) {
    // Jacobi squares column norms: entries of 1e37 overflowed float32 (σ and U came
    // back non-finite) and entries of 1e-35 underflowed (σ = 0, nothing rotated).
    let g = &shared_on(backend).await.g;
    let (count, rows, cols) = (4, 9, 9);
    let shape = SvdShape::new(count, rows, cols).unwrap();
    for scale in [1e37f32, 1e-35] {
        let a: Vec<f32> = well_conditioned(31, count, rows, cols)
            .iter()
            .map(|v| v * scale)
            .collect();
        let r = decompose(g, count, rows, cols, &a).await;
        check_batch(
            &format!("9x9 times {scale:e}"),
            shape,
            &a,
            &r,
            Some(SVD_TOL),
        );
    }
}

pub async fn the_javascript_form_returns_the_same(backend: Backend) {
    let api = js_on(backend).await;
    let g = &shared_on(backend).await.g;
    let (count, rows, cols) = (7, 9, 9);
    let a = well_conditioned(55, count, rows, cols);
    let want = decompose(g, count, rows, cols, &a).await;
    let (b, r, c) = (num(count as f64), num(rows as f64), num(cols as f64));
    let got = settle(api.svd_batched_async(b.clone(), r.clone(), c.clone(), js(&a)))
        .await
        .expect("svdBatchedAsync");
    let sweeps = js_sys::Uint32Array::new(&prop(&got, "sweeps")).to_vec();
    assert_eq!(floats(&prop(&got, "s")), want.s);
    assert_eq!(floats(&prop(&got, "u")), want.u);
    assert_eq!(floats(&prop(&got, "v")), want.v);
    assert_eq!(sweeps, want.sweeps);
    match backend {
        Backend::WebGl | Backend::Cpu => {
            let now = api.svd_batched(b, r, c, js(&a)).expect("svdBatched");
            assert_eq!(floats(&prop(&now, "s")), want.s);
            let rust_async = batched_svd::svd(&g.handle(), count, rows, cols, &a).await;
            let rust_now = g.svd_batched(count, rows, cols, &a);
            assert_eq!(rust_async.unwrap(), want, "svd on {backend:?}");
            assert_eq!(rust_now.unwrap(), want, "svd_now on {backend:?}");
        }
        Backend::WebGpu => {
            let e = api.svd_batched(b, r, c, js(&a)).map(JsValue::from);
            assert_js_error(e, "NEEDS_ASYNC", "svdBatchedAsync");
            let e = g.svd_batched(count, rows, cols, &a);
            assert_error(e, "NEEDS_ASYNC", "svdBatchedAsync");
        }
    }
}

pub async fn svd_errors_say_what_to_do(backend: Backend) {
    let api = js_on(backend).await;
    // (what, batch, rows, cols, a's length, code, in the message)
    let cases: [(&str, f64, f64, f64, usize, &str, &str); 7] = [
        ("batch 0", 0.0, 3.0, 3.0, 0, "BAD_COUNT", "batch"),
        ("batch 2.5", 2.5, 3.0, 3.0, 18, "BAD_COUNT", "batch"),
        ("a too short", 2.0, 3.0, 3.0, 17, "BAD_LENGTH", "a has 17"),
        ("a too long", 1.0, 3.0, 2.0, 7, "BAD_LENGTH", "a has 7"),
        (
            "17 columns",
            1.0,
            20.0,
            17.0,
            340,
            "BAD_ARGUMENT",
            "at most 16",
        ),
        (
            "rows < cols",
            1.0,
            3.0,
            5.0,
            15,
            "BAD_ARGUMENT",
            "transpose",
        ),
        ("33 rows", 1.0, 33.0, 3.0, 99, "BAD_ARGUMENT", "at most 32"),
    ];
    for (what, batch, rows, cols, len, code, text) in cases {
        let e = settle(api.svd_batched_async(num(batch), num(rows), num(cols), f32s(len)))
            .await
            .expect_err(what);
        let message = prop(&e, "message").as_string().unwrap();
        assert_eq!(js_code(&e).as_deref(), Some(code), "{what}: {message}");
        assert!(message.contains(text), "{what}: {message}");
    }
    let e = settle(api.svd_batched_async(num(1.0), num(0.0), num(0.0), f32s(0))).await;
    assert_js_error(e, "BAD_DIMENSION", "rows");
    // The Rust API checks the same.
    let g = &shared_on(backend).await.g;
    let h = g.handle();
    assert_error(
        batched_svd::svd(&h, 0, 3, 3, &[]).await,
        "BAD_COUNT",
        "batch",
    );
    let e = batched_svd::svd(&h, 2, 4, 3, &[0.0; 23]).await;
    assert_error(e, "BAD_LENGTH", "a has 23");
    let e = batched_svd::svd(&h, 1, 17, 17, &[0.0; 289]).await;
    assert_error(e, "BAD_ARGUMENT", "at most 16");
    let e = batched_svd::svd(&h, 1, 2, 3, &[0.0; 6]).await;
    assert_error(e, "BAD_ARGUMENT", "transpose");
    // NaN and ±Inf: refused on every backend (they would give each its own NaNs).
    let e = batched_svd::svd(&h, 1, 2, 2, &[1.0, f32::NAN, 0.0, 1.0]).await;
    assert_error(
        e,
        "BAD_ARGUMENT",
        "a[1] is NaN: the SVD needs finite numbers",
    );
    let a = js(&[1.0, 0.0, f32::NEG_INFINITY, 1.0]);
    let e = settle(api.svd_batched_async(num(1.0), num(2.0), num(2.0), a)).await;
    assert_js_error(e, "BAD_ARGUMENT", "a[2] is -Infinity");
}

pub async fn two_hundred_svd_calls_leak_nothing(backend: Backend) {
    let g = poisoned_on(backend).await;
    let (count, rows, cols) = (4, 3, 2);
    let a = well_conditioned(12, count, rows, cols);
    let first = decompose(&g, count, rows, cols, &a).await;
    let after_first = g.live_objects();
    for i in 0..200 {
        let r = decompose(&g, count, rows, cols, &a).await;
        if i % 50 == 0 {
            assert_eq!(r, first, "call {i} differs from the first");
        }
    }
    assert_eq!(g.live_objects(), after_first, "after 200 batched SVDs");
}
