//! The applications of matrix powers on the CPU backend (reachability, shortest
//! paths, inverse, eigenpairs, Jacobi, Fibonacci): the shared checks of
//! tests/common/apps.rs, built on the engine's products and element-wise passes.

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

graph_tests!(Backend::Cpu);
algebra_tests!(Backend::Cpu);
iteration_tests!(Backend::Cpu);
