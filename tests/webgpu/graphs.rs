//! Reachability against BFS and shortest paths against Floyd–Warshall, on WebGPU
//! (checks in tests/common/apps.rs, also run on WebGL by browser_graphs.rs).

use crate::common::*;

graph_tests!(Backend::WebGpu);
