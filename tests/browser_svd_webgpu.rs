//! Batched SVDs by one-sided Jacobi on WebGPU: against the float64 reference,
//! degenerate matrices, the JavaScript form, errors and the leak check
//! (tests/common/svd.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

svd_tests!(Backend::WebGpu);
