//! Jacobi iteration and Fibonacci on WebGPU (checks in tests/common/apps.rs, also
//! run on WebGL by browser_applications.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

iteration_tests!(Backend::WebGpu);
