//! Every WebGPU kernel (global, tiled16, and register in the form the device
//! picks: on SwiftShader its CPU form) against the float64 reference: the product
//! checks of tests/common/products.rs (shapes, NaN and infinity).

use crate::common::*;
use gpgpu_matrix::plan::random;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::Semiring;

product_tests!(Setup::WebGpu);
checks!(Setup::WebGpu; common::products: a_long_k_is_summed_in_full);

/// A run holds its matrices whole, so on a software adapter (where a shader's loops may
/// end after 65,535 iterations) global and tiled16 refuse a k longer than one pass sums,
/// saying what to use; the register kernel takes it (its CPU form sums k in passes).
#[wasm_bindgen_test::wasm_bindgen_test]
async fn a_run_of_a_teaching_kernel_refuses_a_k_a_software_adapter_cuts_short() {
    use gpgpu_matrix::Kernel::{Global, Register, Tiled16};
    let g = on(Backend::WebGpu).await;
    let software = g.engine().webgpu().unwrap().info().is_software();
    let k = 2 * gpgpu_matrix::ops::matmul::webgpu::register::CPU_K_PASS + 5;
    let (a, b) = (random::integers(5, k, -2, 2), random::integers(6, k, -2, 2));
    let want = reference::multiply(Semiring::Ordinary, 1, k, 1, &to_f64(&a), &to_f64(&b));
    for kernel in [Global, Tiled16, Register] {
        let run = g.start_product(1, k, 1, &a, &b, &opts(kernel)).unwrap();
        let read = g.finish_async(run);
        if software && kernel != Register {
            let e = assert_error(read.map(|_| ()), "SIZE_OVER_LIMIT", "65,535 iterations");
            assert!(e.to_string().contains("Use the register kernel"), "{e}");
        } else {
            let got = read.unwrap().wait().await.unwrap();
            assert_exact(&format!("{kernel:?} run, k = {k}"), &got, &want);
        }
    }
}
