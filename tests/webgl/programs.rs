//! Programs the caller supplies, on WebGl (tests/common/programs.rs).

use crate::common::*;

program_tests!(Backend::WebGl);
