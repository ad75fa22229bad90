//! The Rust example of docs/guide.md, run on every backend: tests/guide/square.rs is the
//! guide's block, character for character (tests/e2e/package.test.mjs checks that).

use crate::common::{skipped_without, Backend};
use gpgpu_matrix::BackendChoice;
use wasm_bindgen_test::*;

mod example {
    include!("../guide/square.rs");
}

#[wasm_bindgen_test]
async fn the_guides_rust_example_runs_on_webgl() {
    let r = example::square_two_by_two(BackendChoice::WebGl).await;
    assert_eq!(r.unwrap(), [7.0, 10.0, 15.0, 22.0]);
}

#[wasm_bindgen_test]
async fn the_guides_rust_example_runs_on_webgpu() {
    if skipped_without(Backend::WebGpu, "the_guides_rust_example_runs_on_webgpu") {
        return;
    }
    let r = example::square_two_by_two(BackendChoice::WebGpu).await;
    assert_eq!(r.unwrap(), [7.0, 10.0, 15.0, 22.0]);
}

#[wasm_bindgen_test]
async fn the_guides_rust_example_runs_on_the_cpu() {
    let r = example::square_two_by_two(BackendChoice::Cpu).await;
    assert_eq!(r.unwrap(), [7.0, 10.0, 15.0, 22.0]);
}
