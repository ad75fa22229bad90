//! Programs the caller supplies, on Cpu (tests/common/programs.rs).

use crate::common::*;

program_tests!(Backend::Cpu);
