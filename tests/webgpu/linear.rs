//! Gaussian elimination and linear systems on WebGPU: factorizations, solutions,
//! singular matrices, errors and the leak check (tests/common/linear.rs).

use crate::common::*;

linear_tests!(Backend::WebGpu);

checks!(Backend::WebGpu; common::linear: a_random_1024_system_factors_and_solves);
