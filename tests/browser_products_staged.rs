//! WebGPU's register kernel in its staged GPU form (wgsl/matmul_register.wgsl, the
//! form an H100 runs; forced here on SwiftShader with RegisterParams::GPU) against
//! the float64 reference: the product checks of tests/common/products.rs, with
//! shapes whose inner and cols are multiples of 4 (its vec4 loads) and odd ones
//! (its scalar loads), and shapes across its 128 × 128 tiles.

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

product_tests!(Setup::WebGpuStaged);
