//! Every WebGPU kernel (global, tiled16, and register in the form the device
//! picks: on SwiftShader its CPU form) against the float64 reference: the product
//! checks of tests/common/products.rs (shapes, NaN and infinity).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

product_tests!(Setup::WebGpu);
