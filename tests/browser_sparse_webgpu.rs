//! Sparse matrices (CSR, SpMV, PageRank, sparse Jacobi and power method) on WebGPU
//! with the JavaScript classes, errors
//! and the leak check (tests/common/sparse.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

sparse_tests!(Setup::WebGpu);
