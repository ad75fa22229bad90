//! WebGPU's register kernel in its staged GPU form with small tiles
//! (wgsl/matmul/3_register_64.wgsl with 64 × 64 tiles, which a real GPU runs on outputs
//! of fewer than 180 tiles of 128 × 128; forced here with RegisterParams::GPU_SMALL)
//! against the float64 reference: the product, chain and semiring checks of
//! tests/common, and the rule that picks the tile size. (products_narrow.rs: the
//! same file with 64 × 32 tiles.)

use crate::common::*;
use gpgpu_matrix::kernels::Kernel;
use gpgpu_matrix::ops::matmul::webgpu::RegisterParams;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::Semiring::Ordinary;
use wasm_bindgen_test::*;

product_tests!(Setup::WebGpuStaged64);
boolean_tests!(Setup::WebGpuStaged64);
min_plus_tests!(Setup::WebGpuStaged64);
chain_tests!(Setup::WebGpuStaged64);

/// With the GPU form chosen as a GPU gets it (not forced), an output of a few tiles
/// runs the 64 × 32 pipeline (its checks compiled out on whole tiles), one of 128 big
/// tiles the 64 × 64 one and one of 256 the 128 × 128 one; all agree with float64,
/// and info() says which runs when.
#[wasm_bindgen_test]
async fn the_tile_size_follows_the_output() {
    let t = Setup::WebGpu.make().await;
    t.g.engine()
        .webgpu()
        .unwrap()
        .set_register_params_by_size(RegisterParams::GPU)
        .unwrap();
    let info = t.g.engine().webgpu().unwrap().register_description();
    assert!(
        info.contains("128x128") && info.contains("64x64") && info.contains("64x32"),
        "{info}"
    );
    let mut expected = vec![];
    for (rows, cols, name) in [
        (256, 128, "register-64x32/ordinary/vec4/whole-tiles"),
        (100, 36, "register-64x32/ordinary/vec4"),
        (2048, 1024, "register-64x64/ordinary/vec4"),
        (2048, 2048, "register/ordinary/vec4/whole-tiles"),
    ] {
        let inner = 16;
        let a = uniform(rows as u32, rows * inner);
        let b = uniform(cols as u32 + 1, inner * cols);
        let want = reference::multiply(Ordinary, rows, inner, cols, &to_f64(&a), &to_f64(&b));
        let got =
            t.g.multiply_async(rows, inner, cols, &a, &b, &opts(Kernel::Register))
                .await;
        assert_close(
            &format!("{rows}x{inner}·{inner}x{cols}"),
            &got.unwrap(),
            &want,
            FROBENIUS_TOL,
        );
        expected.push(name.to_string());
        expected.sort();
        let names = t.g.engine().webgpu().unwrap().pipeline_names();
        let ran: Vec<String> = names
            .into_iter()
            .filter(|n| n.starts_with("register"))
            .collect();
        assert_eq!(ran, expected, "after {rows}x{cols}");
    }
}
