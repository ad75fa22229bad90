//! Stream-K tails of the 128 × 128 register kernel (wgsl/matmul/4_stream_k.wgsl and
//! wgsl/matmul/4_stream_k_fixup.wgsl, planned by plan/src/stream_k.rs), forced on SwiftShader
//! with small counts of workgroups running at once, so that small whole-tile products
//! share their last tiles' k out: products in the three semirings against the
//! float64 reference, a chain, and the measurement of the count.

use crate::common::*;
use gpgpu_matrix::ops::matmul::webgpu::Resident;
use gpgpu_matrix::plan::random;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::plan::semiring::Semiring::{self, Boolean, MinPlus, Ordinary};
use gpgpu_matrix::plan::semiring::NO_EDGE;
use gpgpu_matrix::Kernel;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_test::wasm_bindgen_test;

thread_local! {
    static STREAMED: RefCell<Option<Rc<Target>>> = const { RefCell::new(None) };
}

/// A poisoned WebGPU Gpgpu running the 128 × 128 form, shared by this file's checks
/// (SwiftShader takes seconds to compile each stream-K pipeline), with `resident` set
/// and the stream-K pipelines of `semirings` compiled (products would otherwise run
/// plainly until their background compiles arrive).
async fn streamed(resident: Resident, semirings: &[Semiring]) -> Rc<Target> {
    let t = match STREAMED.with(|s| s.borrow().clone()) {
        Some(t) => t,
        None => {
            let t = Rc::new(Setup::WebGpuStaged.make().await);
            STREAMED.with(|s| *s.borrow_mut() = Some(t.clone()));
            t
        }
    };
    let mut engine = t.g.engine();
    let e = engine.webgpu().unwrap();
    e.set_stream_k_resident(resident);
    for &s in semirings {
        e.compile_stream_k(s);
    }
    drop(engine);
    t
}

fn pipelines(t: &Target) -> Vec<String> {
    t.g.engine().webgpu().unwrap().pipeline_names()
}

/// Shapes whose last wave is shared out, with the count that makes it so: one shared
/// tile of 4 slices over 3 workgroups; one of 10 over 4; two of 3 over 5; two of 1
/// over 3 (one workgroup gets none); one of 64 over 7; non-square ones.
const CASES: [([usize; 3], u32); 6] = [
    ([256, 64, 256], 3),
    ([384, 160, 384], 4),
    ([512, 48, 384], 5),
    ([640, 16, 128], 3),
    ([256, 1024, 512], 7),
    ([128, 96, 640], 3),
];

#[wasm_bindgen_test]
async fn stream_k_products_match_the_reference() {
    for (i, &([rows, inner, cols], resident)) in CASES.iter().enumerate() {
        let t = streamed(Resident::Known(resident), &[Ordinary]).await;
        let (a, b, want) = random_product(70 + i as u32, [rows, inner, cols]);
        let got =
            t.g.multiply_async(rows, inner, cols, &a, &b, &opts(Kernel::Register))
                .await
                .unwrap();
        assert_close(
            &format!("stream-K {rows}x{inner}x{cols}, {resident} resident"),
            &got,
            &want,
            FROBENIUS_TOL,
        );
        let names = pipelines(&t);
        for name in [
            "register/ordinary/vec4/whole-tiles/stream-k",
            "stream-k-fixup/ordinary",
        ] {
            assert!(names.contains(&name.to_string()), "{names:?}");
        }
    }
    // Small integers: every partial sum is exact, so the product is.
    let t = streamed(Resident::Known(3), &[Ordinary]).await;
    // The page's shader view shows the form that runs: both passes.
    let source =
        t.g.engine()
            .webgpu()
            .unwrap()
            .product_source(Kernel::Register, Ordinary, 256);
    assert!(source.contains("// Stream-K: tiles 0..3 a workgroup each, the last 1 tiles"));
    assert!(source.contains("var<uniform> sk: StreamK;") && source.contains("fn first_iteration"));
    assert!(source.contains("sr_add(s.x, v.x)"));
    let n = 256;
    let s = random::integers(9, n * n, -9, 9);
    let got = t.g.square_async(n, &s, &opts(Kernel::Register)).await;
    assert_exact(
        "stream-K S² n=256",
        &got.unwrap(),
        &reference::square(Ordinary, n, &to_f64(&s)),
    );
}

/// The parts are added up in the semiring (OR of counts, min of path lengths) and
/// finished once: boolean and (min, +) products, exact.
#[wasm_bindgen_test]
async fn stream_k_works_in_every_semiring() {
    let t = streamed(Resident::Known(3), &[Boolean, MinPlus]).await;
    let n = 256;
    let a = random::integers(3, n * n, 0, 1);
    let b = random::integers(4, n * n, -2, 2);
    let want = reference::multiply(
        Boolean,
        n,
        n,
        n,
        &to_f64(&Boolean.prepare(&a)),
        &to_f64(&Boolean.prepare(&b)),
    );
    let sr = in_semiring(Kernel::Register, Boolean);
    let got = t.g.multiply_async(n, n, n, &a, &b, &sr).await.unwrap();
    assert_exact("stream-K boolean n=256", &got, &want);

    let mut w = random::integers(5, n * n, 1, 9);
    for (i, v) in w.iter_mut().enumerate() {
        if i % 7 == 0 {
            *v = NO_EDGE;
        }
    }
    let want = reference::square(MinPlus, n, &to_f64(&MinPlus.prepare(&w)));
    let mp = in_semiring(Kernel::Register, MinPlus);
    let got = t.g.square_async(n, &w, &mp).await.unwrap();
    let infinite = |x: f64| {
        if x >= NO_EDGE as f64 / 2.0 {
            f64::INFINITY
        } else {
            x
        }
    };
    let want: Vec<f64> = want.into_iter().map(infinite).collect();
    assert_exact("stream-K min-plus n=256", &got, &want);
    let names = pipelines(&t);
    for s in [Boolean, MinPlus] {
        let name = Semiring::name(&s);
        assert!(
            names.contains(&format!("stream-k-fixup/{name}")),
            "{names:?}"
        );
    }
}

/// A chain of squarings, each pass reading what the one before wrote (the scratch
/// buffer and the plan's uniform block are reused pass after pass).
#[wasm_bindgen_test]
async fn stream_k_chains_match_the_reference() {
    let t = streamed(Resident::Known(4), &[Ordinary]).await;
    let n = 384;
    let m: Vec<f32> = uniform(43, n * n).iter().map(|v| v / 16.0).collect();
    let want = reference::repeated_square(Ordinary, n, &to_f64(&m), 3);
    let got =
        t.g.square_repeatedly_async(n, &m, 3, &opts(Kernel::Register))
            .await
            .unwrap();
    assert_close("stream-K M^8 n=384", &got, &want, 8.0 * FROBENIUS_TOL);
}

/// The count: a product measures how many of its workgroups run at once, which arrives
/// later; a count under the product's tiles is kept, one equal to them (all at once)
/// leaves it unknown. Either way the products are right, and those after a kept
/// count run with stream-K where their tiles call for it.
#[wasm_bindgen_test]
async fn the_resident_count_is_measured_by_a_product() {
    let t = streamed(Resident::Unknown { tried: 0 }, &[Ordinary]).await;
    let n = 384; // 9 tiles
    let (a, b, want) = random_product(80, [n, n, n]);
    let got =
        t.g.multiply_async(n, n, n, &a, &b, &opts(Kernel::Register))
            .await
            .unwrap();
    assert_close("measuring product n=384", &got, &want, FROBENIUS_TOL);
    let resident = || t.g.engine().webgpu().unwrap().stream_k_resident();
    // The count's own readback was asked for before the product's: it arrives first,
    // or with the next call's.
    for _ in 0..20 {
        if !matches!(resident(), Resident::Measuring { .. }) {
            break;
        }
        // Any call that waits for the GPU lets the count's readback land.
        let small =
            t.g.square_async(4, &[0.0; 16], &opts(Kernel::Register))
                .await;
        small.unwrap();
    }
    match resident() {
        Resident::Known(w) => assert!((1..9).contains(&w), "{w}"),
        Resident::Unknown { tried } => assert_eq!(tried, 9),
        other => panic!("the count did not arrive: {other:?}"),
    }
    let names = pipelines(&t);
    assert!(
        names.contains(&"register/ordinary/vec4/whole-tiles/stream-k".to_string()),
        "{names:?}"
    );
    // A product after it, right whatever it runs.
    let (a, b, want) = random_product(82, [640, 32, 384]);
    let got =
        t.g.multiply_async(640, 32, 384, &a, &b, &opts(Kernel::Register))
            .await
            .unwrap();
    assert_close("after the count 640x32x384", &got, &want, FROBENIUS_TOL);
}

/// Without `compile_stream_k`, the stream-K pipelines compile in the background: the
/// products before they arrive run plainly, those after with stream-K, all right.
#[wasm_bindgen_test]
async fn stream_k_pipelines_compile_in_the_background() {
    // An engine of its own: the shared one has its stream-K pipelines compiled.
    let t = Setup::WebGpuStaged.make().await;
    t.g.engine()
        .webgpu()
        .unwrap()
        .set_stream_k_resident(Resident::Known(3));
    let (a, b, want) = random_product(90, [256, 64, 256]);
    let sk = "register/ordinary/vec4/whole-tiles/stream-k".to_string();
    let mut plain = 0;
    // SwiftShader compiles the kernel in seconds: up to a minute, a product every
    // 250 ms.
    for _ in 0..240 {
        let ran_sk = pipelines(&t).contains(&sk);
        let got =
            t.g.multiply_async(256, 64, 256, &a, &b, &opts(Kernel::Register))
                .await
                .unwrap();
        assert_close("stream-K in the background", &got, &want, FROBENIUS_TOL);
        if ran_sk {
            break;
        }
        plain += 1;
        sleep(250).await;
    }
    assert!(plain >= 1, "the first product waited for the compile");
    assert!(pipelines(&t).contains(&sk), "the pipelines never arrived");
    assert!(pipelines(&t).contains(&"register/ordinary/vec4/whole-tiles".to_string()));
}
