//! The applications of matrix powers on WebGL (checks in tests/common/apps.rs):
//! the inverse by the doubling product, eigenpairs by the power method, Jacobi
//! iteration and Fibonacci. browser_applications_webgpu.rs and
//! browser_iterations_webgpu.rs run the same checks on WebGPU.

use crate::common::*;

algebra_tests!(Backend::WebGl);
iteration_tests!(Backend::WebGl);
