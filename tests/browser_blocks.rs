//! Partitioned matrices on WebGL: tiled products past a forced tile
//! limit, block-sparse products, repeated squaring, the JavaScript class, errors
//! and the leak check (tests/common/blocks.rs).

#[macro_use]
mod common;

use common::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

block_tests!(Setup::WebGl);
