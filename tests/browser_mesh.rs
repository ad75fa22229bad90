//! Fox's and Cannon's algorithms simulated on one WebGL2 context (checks in
//! tests/common/mesh.rs, also run on WebGPU by browser_mesh_webgpu.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

mesh_tests!(Backend::WebGl);
