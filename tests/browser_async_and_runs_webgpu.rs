//! The JavaScript API's Promise forms and the step-through `Run` on WebGPU (checks
//! in tests/common/runs.rs, also run on WebGL by browser_async_and_runs.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

run_tests!(Backend::WebGpu);
