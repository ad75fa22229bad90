//! Batched SVDs by one-sided Jacobi on WebGPU: against the float64 reference,
//! degenerate matrices, the JavaScript form, errors and the leak check
//! (tests/common/svd.rs).

use crate::common::*;

svd_tests!(Backend::WebGpu);
