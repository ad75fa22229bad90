//! Homographies by RANSAC on WebGL: exact data, noise and outliers against
//! the ground truth and the float64 steps, errors (tests/common/ransac.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

ransac_tests!(Backend::WebGl);
