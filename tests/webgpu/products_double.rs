//! WebGPU's register kernel in its double-buffered form
//! (wgsl/matmul/3_register_double.wgsl: 128 × 32 tiles, two slices of k in workgroup
//! memory, one barrier a slice, whole tiles only; a real GPU runs it on whole-tile
//! outputs of about 1024 × 1024), forced here, against the float64 reference: the
//! product, chain and semiring checks of tests/common. Their shapes of whole tiles
//! with k a multiple of 32 run this form; the others run the form it gives way to.

use crate::common::*;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::plan::semiring::Semiring::Ordinary;
use gpgpu_matrix::Kernel;
use wasm_bindgen_test::wasm_bindgen_test;

product_tests!(Setup::WebGpuDouble);
boolean_tests!(Setup::WebGpuDouble);
min_plus_tests!(Setup::WebGpuDouble);
chain_tests!(Setup::WebGpuDouble);

/// The form really runs on whole tiles (several of them across and down, several
/// pairs of slices), and a shape it cannot run (inner not a multiple of 32) goes to
/// the narrow GPU form, both right.
#[wasm_bindgen_test]
async fn whole_tiles_run_the_double_buffered_pipeline() {
    let t = Setup::WebGpuDouble.make().await;
    for (rows, inner, cols) in [(128, 64, 256), (384, 96, 64), (256, 48, 128)] {
        let (a, b, want) = random_product(31, [rows, inner, cols]);
        let got =
            t.g.multiply_async(rows, inner, cols, &a, &b, &opts(Kernel::Register))
                .await
                .unwrap();
        assert_close(
            &format!("double {rows}x{inner}x{cols}"),
            &got,
            &want,
            FROBENIUS_TOL,
        );
    }
    // A chain of squarings on whole tiles (each pass reads what the one before
    // wrote), and small integers, whose products are exact.
    let n = 256;
    let m: Vec<f32> = uniform(41, n * n).iter().map(|v| v / 16.0).collect();
    let want = reference::repeated_square(Ordinary, n, &to_f64(&m), 3);
    let o = opts(Kernel::Register);
    let got = t.g.square_repeatedly_async(n, &m, 3, &o).await.unwrap();
    assert_close("double M^8 n=256", &got, &want, 8.0 * FROBENIUS_TOL);
    let s = gpgpu_matrix::plan::random::integers(5, 128 * 128, -9, 9);
    let got = t.g.square_async(128, &s, &o).await;
    assert_exact(
        "double S² n=128",
        &got.unwrap(),
        &reference::square(Ordinary, 128, &to_f64(&s)),
    );
    let names = t.g.engine().webgpu().unwrap().pipeline_names();
    assert!(
        names.contains(&"register-128x32-double/ordinary/vec4/whole-tiles".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"register-64x32/ordinary/vec4/whole-tiles".to_string()),
        "{names:?}"
    );
}
