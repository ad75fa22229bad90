//! The (min, +) semiring in WebGPU's register kernel in its staged GPU form
//! (RegisterParams::GPU, as an H100 runs it), checks in tests/common/semirings.rs:
//! its vec4 and scalar loads.

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

min_plus_tests!(Setup::WebGpuStaged);
