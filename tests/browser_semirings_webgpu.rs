//! The boolean and (min, +) semirings in every WebGPU kernel (global, tiled16,
//! register in the device's form), checks in tests/common/semirings.rs.

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

boolean_tests!(Setup::WebGpu);
min_plus_tests!(Setup::WebGpu);
