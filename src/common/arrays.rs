//! Typed arrays of the caller's, read into wasm memory safely: an array over wasm
//! memory itself is detached when that memory grows, and a copy asks for its room
//! first, so that memory that cannot give it is OUT_OF_MEMORY, not a trap.

use js_sys::{Float32Array, Object};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::guard;
use crate::error::Result;

/// Whether a typed array views WebAssembly memory itself (which growing that memory
/// detaches).
pub(crate) fn views_wasm_memory(value: &JsValue) -> bool {
    Object::is(&guard::typed_buffer(value), &wasm_memory_buffer())
}

pub(crate) fn wasm_memory_buffer() -> JsValue {
    wasm_bindgen::memory()
        .unchecked_into::<js_sys::WebAssembly::Memory>()
        .buffer()
}

/// A Float32Array copied into wasm memory, its room asked for first
/// (`crate::error::room`): OUT_OF_MEMORY where memory cannot give it, not a trap.
/// `what` names the copy (an argument, a readback).
pub(crate) fn copy_f32(array: &Float32Array, what: impl FnOnce() -> String) -> Result<Vec<f32>> {
    // An array over wasm memory itself is detached if making the room grows memory
    // (copy_to_uninit then found it empty and panicked): copied in JavaScript first,
    // by the constructor, which reads the array's own slots (a subclass's slice() that
    // returned something else had failed an assertion: RuntimeError: unreachable).
    let copy;
    let array = match views_wasm_memory(array) {
        true => {
            copy = Float32Array::new(array);
            &copy
        }
        false => array,
    };
    let len = array.length() as usize;
    let mut v = crate::error::room(len, what)?;
    // Copied into the reserved room as it is: zero-filling it first (resize) was a
    // second pass over the bytes, 64 MiB at n = 4096.
    array.copy_to_uninit(&mut v.spare_capacity_mut()[..len]);
    // SAFETY: copy_to_uninit initialised the first `len` elements.
    unsafe { v.set_len(len) };
    Ok(v)
}
