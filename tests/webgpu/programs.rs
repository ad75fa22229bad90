//! Programs the caller supplies, on WebGpu (tests/common/programs.rs).

use crate::common::*;

program_tests!(Backend::WebGpu);
