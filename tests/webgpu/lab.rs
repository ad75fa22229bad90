//! The kernel lab, on WebGpu (tests/common/lab.rs).

use crate::common::*;

lab_tests!(Backend::WebGpu);
