//! Reachability against BFS and shortest paths against Floyd–Warshall, on WebGL
//! (checks in tests/common/apps.rs; browser_graphs_webgpu.rs runs them on WebGPU).

use crate::common::*;

graph_tests!(Backend::WebGl);
