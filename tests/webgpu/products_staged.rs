//! WebGPU's register kernel in its staged GPU form (wgsl/matmul_register.wgsl, the
//! form an H100 runs; forced here on SwiftShader with RegisterParams::GPU) against
//! the float64 reference: the product checks of tests/common/products.rs, with
//! shapes whose inner and cols are multiples of 4 (its vec4 loads) and odd ones
//! (its scalar loads), and shapes across its 128 × 128 tiles.

use crate::common::*;

product_tests!(Setup::WebGpuStaged);
