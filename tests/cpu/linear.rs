//! Gaussian elimination and linear systems on the CPU backend: factorizations,
//! solutions, singular matrices, errors and the leak check (tests/common/linear.rs).

use crate::common::*;

linear_tests!(Backend::Cpu);
