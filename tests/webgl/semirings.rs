//! The boolean and (min, +) semirings in every WebGL kernel (checks in
//! tests/common/semirings.rs; browser_semirings_webgpu.rs,
//! browser_boolean_staged.rs and browser_min_plus_staged.rs run them on WebGPU).

use crate::common::*;

boolean_tests!(Setup::WebGl);
min_plus_tests!(Setup::WebGl);
