//! Every WebGL kernel (naive, packed, blocked4, blocked8) against the float64
//! reference: the product checks of tests/common/products.rs (shapes, NaN and
//! infinity), which browser_products_{webgpu,staged}.rs run on WebGPU; and WebGL's
//! blocking forms, which must give what the async forms give.

use crate::common::*;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::Semiring::Ordinary;
use wasm_bindgen_test::*;

product_tests!(Setup::WebGl);

// On WebGPU the blocking forms are NEEDS_ASYNC (browser_rust_api.rs).
#[wasm_bindgen_test]
async fn blocking_forms_on_webgl_equal_the_async_forms() {
    let g = poisoned_on(Backend::WebGl).await;
    let n = 33;
    let m = uniform(12, n * n);
    let b = uniform(13, n * 5);
    for kernel in kernels(&g) {
        let o = opts(kernel);
        let k = kernel.name();
        assert_eq!(
            g.square(n, &m, &o).unwrap(),
            g.square_async(n, &m, &o).await.unwrap(),
            "{k} square"
        );
        assert_eq!(
            g.multiply(n, n, 5, &m, &b, &o).unwrap(),
            g.multiply_async(n, n, 5, &m, &b, &o).await.unwrap(),
            "{k} multiply"
        );
        assert_eq!(
            g.square_repeatedly(n, &m, 3, &o).unwrap(),
            g.square_repeatedly_async(n, &m, 3, &o).await.unwrap(),
            "{k} square_repeatedly"
        );
        assert_eq!(
            g.power(n, &m, 7, &o).unwrap(),
            g.power_async(n, &m, 7, &o).await.unwrap(),
            "{k} power"
        );
        let want = reference::power(Ordinary, n, &to_f64(&m), 7);
        assert_close(
            &format!("{k} blocking power"),
            &g.power(n, &m, 7, &o).unwrap(),
            &want,
            4.0 * FROBENIUS_TOL,
        );
    }
}
