//! Gaussian elimination and linear systems on WebGL: factorizations, solutions,
//! singular matrices, errors and the leak check (tests/common/linear.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

linear_tests!(Backend::WebGl);
