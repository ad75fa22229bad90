//! Batched small products and powers on WebGL, errors and the leak check
//! (tests/common/batched.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

batched_tests!(Backend::WebGl);
