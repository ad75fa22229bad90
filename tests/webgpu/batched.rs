//! Batched small products and powers on WebGPU, errors and the leak check
//! (tests/common/batched.rs).

use crate::common::*;

batched_tests!(Backend::WebGpu);
