//! The browser suites on the CPU backend (SIMD128 in Web Workers) and the products split
//! across devices: one test crate for the same reason as browser_webgl.rs (each suite is
//! a module in tests/cpu/).

#[macro_use]
mod common;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "cpu/api.rs"]
mod api;
#[path = "cpu/batched.rs"]
mod batched;
#[path = "cpu/blocks.rs"]
mod blocks;
#[path = "cpu/devices.rs"]
mod devices;
#[path = "cpu/linear.rs"]
mod linear;
#[path = "cpu/products.rs"]
mod products;
#[path = "cpu/programs.rs"]
mod programs;
#[path = "cpu/sparse.rs"]
mod sparse;
