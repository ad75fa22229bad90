//! What a Rust caller can do that a JavaScript caller cannot (any u64 count, a
//! hand-made pass plan, a `Run` moved from one `Gpgpu` to another): each is a
//! `GpgpuError` the caller can act on, never a panic or a silently wrong result.

mod common;

use gpgpu_matrix::{Gpgpu, GpgpuError, Options};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn gpgpu() -> Gpgpu {
    Gpgpu::new(None).expect("WebGL2")
}

/// Asserts an error with `code` whose message mentions `needle`.
fn assert_error<T: std::fmt::Debug>(r: Result<T, GpgpuError>, code: &str, needle: &str) {
    let e = r.expect_err(&format!("expected a {code} error"));
    let msg = e.to_string();
    assert_eq!(e.code(), code, "message: {msg}");
    assert!(msg.contains(needle), "'{msg}' should mention '{needle}'");
}

#[wasm_bindgen_test]
fn repeat_counts_past_64_are_refused_as_in_javascript() {
    let mut g = gpgpu();
    let m = [2.0f32, 0.0, 0.0, 2.0];
    let o = Options::default();
    // 2^32 wrapped to 0 squarings (M itself) as a wasm32 usize; u64::MAX panicked.
    for times in [65, 1 << 32, u64::MAX] {
        assert_error(
            g.square_repeatedly(2, &m, times, &o),
            "BAD_COUNT",
            "is larger than 64",
        );
    }
    let r = g.square_repeatedly(2, &m, 2, &o).unwrap();
    assert_eq!(r, [16.0, 0.0, 0.0, 16.0]);
}
