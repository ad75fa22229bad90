//! Homographies by RANSAC on WebGL: exact data, noise and outliers against
//! the ground truth and the float64 steps, errors (tests/common/ransac.rs).

use crate::common::*;

ransac_tests!(Backend::WebGl);
