//! The (min, +) semiring in WebGPU's register kernel in its staged GPU form
//! (RegisterParams::GPU, as an H100 runs it), checks in tests/common/semirings.rs:
//! its vec4 and scalar loads.

use crate::common::*;

min_plus_tests!(Setup::WebGpuStaged);
