//! WebGPU's register kernel in its staged GPU form (RegisterParams::GPU) on exact
//! integer products, repeated squaring and powers: the chain checks of
//! tests/common/products.rs, in its vec4 and scalar forms.

use crate::common::*;

chain_tests!(Setup::WebGpuStaged);
