//! Reachability against BFS and shortest paths against Floyd–Warshall, on WebGPU
//! (checks in tests/common/apps.rs, also run on WebGL by browser_graphs.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

graph_tests!(Backend::WebGpu);
