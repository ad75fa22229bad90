//! Fox's and Cannon's algorithms simulated on one WebGPU device (checks in
//! tests/common/mesh.rs, also run on WebGL by browser_mesh.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mesh_tests!(Backend::WebGpu);
