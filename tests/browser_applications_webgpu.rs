//! The inverse by the doubling product and eigenpairs by the power method on
//! WebGPU (checks in tests/common/apps.rs, also run on WebGL by
//! browser_applications.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

algebra_tests!(Backend::WebGpu);
