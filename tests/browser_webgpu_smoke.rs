//! Smoke test of the WebGPU backend.
mod common;

use common::*;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::Backend;
use gpgpu_matrix::Semiring::Ordinary;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn square_on_webgpu() {
    let g = on(Backend::WebGpu).await;
    g.set_poison(Some(f32::NAN));
    for kernel in kernels(&g) {
        for &n in &[1usize, 3, 17, 64, 100] {
            let m = uniform(n as u32, n * n);
            let got = g.square_async(n, &m, &opts(kernel)).await.unwrap();
            let want = reference::square(Ordinary, n, &to_f64(&m));
            assert_close(&format!("{kernel:?} n={n}"), &got, &want, FROBENIUS_TOL);
        }
    }
}
