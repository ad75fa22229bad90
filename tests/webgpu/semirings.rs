//! The boolean and (min, +) semirings in every WebGPU kernel (global, tiled16,
//! register in the device's form), checks in tests/common/semirings.rs.

use crate::common::*;

boolean_tests!(Setup::WebGpu);
min_plus_tests!(Setup::WebGpu);
