//! Reachability against BFS and shortest paths against Floyd–Warshall, on WebGL
//! (checks in tests/common/apps.rs; browser_graphs_webgpu.rs runs them on WebGPU).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

graph_tests!(Backend::WebGl);
