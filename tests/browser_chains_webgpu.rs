//! Every WebGPU kernel (global, tiled16, and register in the form the device
//! picks) on exact integer products, repeated squaring and powers: the chain
//! checks of tests/common/products.rs.

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

chain_tests!(Setup::WebGpu);
