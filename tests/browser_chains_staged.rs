//! WebGPU's register kernel in its staged GPU form (RegisterParams::GPU) on exact
//! integer products, repeated squaring and powers: the chain checks of
//! tests/common/products.rs, in its vec4 and scalar forms.

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

chain_tests!(Setup::WebGpuStaged);
