//! WebGPU's register kernel in its staged GPU form (wgsl/matmul/3_register.wgsl, the
//! form an H100 runs; forced here on SwiftShader with RegisterParams::GPU) against
//! the float64 reference: the product checks of tests/common/products.rs, with
//! shapes whose inner and cols are multiples of 4 (its vec4 loads) and odd ones
//! (its scalar loads), and shapes across its 128 × 128 tiles.

use crate::common::*;
use gpgpu_matrix::kernels::Kernel;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::Semiring::Ordinary;
use wasm_bindgen_test::*;

product_tests!(Setup::WebGpuStaged);

/// Whole tiles (rows and cols multiples of 128, inner of 16) run the pipeline compiled
/// without edge checks; one row more runs the checked one, and both agree with float64.
#[wasm_bindgen_test]
async fn whole_tiles_run_the_pipeline_without_edge_checks() {
    let t = Setup::WebGpuStaged.make().await;
    let names = || t.g.engine().webgpu().unwrap().pipeline_names();
    let tiles = "register/ordinary/vec4/whole-tiles".to_string();
    let checked = "register/ordinary/vec4".to_string();
    for (rows, seed) in [(256, 1), (257, 2)] {
        let (inner, cols) = (32, 128);
        let a = uniform(seed, rows * inner);
        let b = uniform(seed + 10, inner * cols);
        let want = reference::multiply(Ordinary, rows, inner, cols, &to_f64(&a), &to_f64(&b));
        let o = opts(Kernel::Register);
        let got = t.g.multiply_async(rows, inner, cols, &a, &b, &o).await;
        assert_close(
            &format!("{rows}x{inner}·{inner}x{cols}"),
            &got.unwrap(),
            &want,
            FROBENIUS_TOL,
        );
        let expected = if rows == 256 {
            vec![tiles.clone()]
        } else {
            vec![checked.clone(), tiles.clone()]
        };
        let ran: Vec<String> = names()
            .into_iter()
            .filter(|n| n.starts_with("register/"))
            .collect();
        assert_eq!(ran, expected, "pipelines after {rows} rows");
    }
}
