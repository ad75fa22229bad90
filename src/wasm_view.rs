//! Typed-array views of wasm memory that are still attached when they are used.
//!
//! `Float32Array::view(data)` makes a JS object that wasm-bindgen keeps in its externref
//! table. When that table is full, its bookkeeping (a `Vec` in wasm memory) grows, and
//! that allocation can grow the memory itself, which detaches every view made on the old
//! buffer: the view just made then has length 0. texSubImage2D refuses it ("ArrayBufferView
//! not big enough", GL_ERROR 0x0502: Cannon's algorithm at n = 64, q = 8 as the first call
//! of a page, its 128 block uploads filling the table), and a `set` or `getBufferSubData`
//! through it copies nothing, without an error. So a view is made last, after every
//! other JS object the call needs, and made again while it came out detached: the second
//! time the table has room.

use js_sys::{Float32Array, Uint32Array};

/// `make()` again until the view has `len` elements (a few tries: one is enough once the
/// table has grown).
fn attached<V>(len: usize, make: impl Fn() -> V, length: impl Fn(&V) -> u32) -> V {
    let mut view = make();
    for _ in 0..3 {
        if length(&view) as usize == len {
            break;
        }
        view = make();
    }
    view
}

/// A Float32Array over `data`, attached.
///
/// # Safety
/// As `Float32Array::view`: nothing may allocate in wasm memory (nor make a JS object
/// that Rust keeps) between this call and the view's last use.
pub unsafe fn f32_view(data: &[f32]) -> Float32Array {
    attached(
        data.len(),
        || Float32Array::view(data),
        Float32Array::length,
    )
}

/// A Float32Array over `data` that JavaScript writes into, attached.
///
/// # Safety
/// As [`f32_view`].
pub unsafe fn f32_view_mut(data: &mut [f32]) -> Float32Array {
    let (ptr, len) = (data.as_mut_ptr(), data.len());
    attached(
        len,
        || Float32Array::view_mut_raw(ptr, len),
        Float32Array::length,
    )
}

/// A Uint32Array over `data`, attached.
///
/// # Safety
/// As [`f32_view`].
pub unsafe fn u32_view(data: &[u32]) -> Uint32Array {
    attached(data.len(), || Uint32Array::view(data), Uint32Array::length)
}
