//! Every WebGL kernel (naive, packed, blocked4, blocked8) on exact integer
//! products, repeated squaring and powers: the chain checks of
//! tests/common/products.rs, which browser_chains_{webgpu,staged}.rs run on WebGPU.

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

chain_tests!(Setup::WebGl);
