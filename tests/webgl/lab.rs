//! The kernel lab, on WebGl (tests/common/lab.rs).

use crate::common::*;

lab_tests!(Backend::WebGl);
