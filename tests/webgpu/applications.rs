//! The inverse by the doubling product and eigenpairs by the power method on
//! WebGPU (checks in tests/common/apps.rs, also run on WebGL by
//! browser_applications.rs).

use crate::common::*;

algebra_tests!(Backend::WebGpu);
