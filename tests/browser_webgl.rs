//! The browser suites on WebGL2 (and the few that compare both backends), one test
//! crate so that the shared helpers in tests/common are compiled, linked and started
//! in Chromium once rather than once per suite: with a crate per suite, building and
//! starting 33 crates took about half of `make test`. Each suite is a module in
//! tests/webgl/, usually one macro call from tests/common with its backend.

#[macro_use]
mod common;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "webgl/applications.rs"]
mod applications;
#[path = "webgl/async_and_runs.rs"]
mod async_and_runs;
#[path = "webgl/batched.rs"]
mod batched;
#[path = "webgl/blocks.rs"]
mod blocks;
#[path = "webgl/chains.rs"]
mod chains;
#[path = "webgl/errors.rs"]
mod errors;
#[path = "webgl/graphs.rs"]
mod graphs;
#[path = "webgl/guide.rs"]
mod guide;
#[path = "webgl/lab.rs"]
mod lab;
#[path = "webgl/leaks.rs"]
mod leaks;
#[path = "webgl/linear.rs"]
mod linear;
#[path = "webgl/mesh.rs"]
mod mesh;
#[path = "webgl/products.rs"]
mod products;
#[path = "webgl/programs.rs"]
mod programs;
#[path = "webgl/ransac.rs"]
mod ransac;
#[path = "webgl/rust_api.rs"]
mod rust_api;
#[path = "webgl/semirings.rs"]
mod semirings;
#[path = "webgl/sparse.rs"]
mod sparse;
#[path = "webgl/svd.rs"]
mod svd;
