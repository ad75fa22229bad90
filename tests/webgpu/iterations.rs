//! Jacobi iteration and Fibonacci on WebGPU (checks in tests/common/apps.rs, also
//! run on WebGL by browser_applications.rs).

use crate::common::*;

iteration_tests!(Backend::WebGpu);
