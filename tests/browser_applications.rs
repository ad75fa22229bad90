//! The applications of matrix powers on WebGL (checks in tests/common/apps.rs):
//! the inverse by the doubling product, eigenpairs by the power method, Jacobi
//! iteration and Fibonacci. browser_applications_webgpu.rs and
//! browser_iterations_webgpu.rs run the same checks on WebGPU.

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

algebra_tests!(Backend::WebGl);
iteration_tests!(Backend::WebGl);
