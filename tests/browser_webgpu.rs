//! The browser suites on WebGPU, the staged register kernel included: one test crate
//! for the same reason as browser_webgl.rs (each suite is a module in tests/webgpu/).

#[macro_use]
mod common;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "webgpu/applications.rs"]
mod applications;
#[path = "webgpu/async_and_runs.rs"]
mod async_and_runs;
#[path = "webgpu/batched.rs"]
mod batched;
#[path = "webgpu/blocks.rs"]
mod blocks;
#[path = "webgpu/boolean_staged.rs"]
mod boolean_staged;
#[path = "webgpu/chains.rs"]
mod chains;
#[path = "webgpu/chains_staged.rs"]
mod chains_staged;
#[path = "webgpu/device.rs"]
mod device;
#[path = "webgpu/errors.rs"]
mod errors;
#[path = "webgpu/gpu_blocks.rs"]
mod gpu_blocks;
#[path = "webgpu/graphs.rs"]
mod graphs;
#[path = "webgpu/iterations.rs"]
mod iterations;
#[path = "webgpu/lab.rs"]
mod lab;
#[path = "webgpu/linear.rs"]
mod linear;
#[path = "webgpu/mesh.rs"]
mod mesh;
#[path = "webgpu/min_plus_staged.rs"]
mod min_plus_staged;
#[path = "webgpu/products.rs"]
mod products;
#[path = "webgpu/products_double.rs"]
mod products_double;
#[path = "webgpu/products_narrow.rs"]
mod products_narrow;
#[path = "webgpu/products_staged.rs"]
mod products_staged;
#[path = "webgpu/products_staged64.rs"]
mod products_staged64;
#[path = "webgpu/products_stream_k.rs"]
mod products_stream_k;
#[path = "webgpu/programs.rs"]
mod programs;
#[path = "webgpu/ransac.rs"]
mod ransac;
#[path = "webgpu/semirings.rs"]
mod semirings;
#[path = "webgpu/sparse.rs"]
mod sparse;
#[path = "webgpu/svd.rs"]
mod svd;
