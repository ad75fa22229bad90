//! WebGPU's register kernel in its double-buffered form
//! (wgsl/matmul_register_double.wgsl: two slices of k in workgroup memory, one barrier
//! a slice, whole tiles only; a GPU with 48 KiB of workgroup memory runs it with
//! 256 × 128 tiles on large outputs), forced here with 128 × 128 tiles, which fit
//! SwiftShader's 32 KiB, against the float64 reference: the product, chain and
//! semiring checks of tests/common. Their shapes of whole tiles with k a multiple of
//! 32 run this form; the others run the GPU form it gives way to.

use crate::common::*;
use gpgpu_matrix::Kernel;
use wasm_bindgen_test::wasm_bindgen_test;

product_tests!(Setup::WebGpuDouble);
boolean_tests!(Setup::WebGpuDouble);
min_plus_tests!(Setup::WebGpuDouble);
chain_tests!(Setup::WebGpuDouble);

/// The form really runs on whole tiles, and a shape it cannot run (inner not a
/// multiple of 32) goes to the single-buffered GPU form, both right.
#[wasm_bindgen_test]
async fn whole_tiles_run_the_double_buffered_pipeline() {
    let t = Setup::WebGpuDouble.make().await;
    for (rows, inner, cols) in [(128, 64, 256), (256, 48, 128)] {
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
    let names = t.g.engine().webgpu().unwrap().pipeline_names();
    assert!(
        names.contains(&"register-128x128-double/ordinary/vec4/whole-tiles".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"register/ordinary/vec4/whole-tiles".to_string()),
        "{names:?}"
    );
}
