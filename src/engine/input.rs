//! A matrix's numbers on their way to the device: in WebAssembly memory, or the
//! JavaScript caller's Float32Array itself. WebGPU uploads the latter straight from the
//! caller's array, which saves copying it into wasm memory first: at n = 4096 that copy
//! was 12.4 of a single product's 82 ms on the H200 (bench/NOTES.md, "Where a single
//! product's time goes"). Other backends, and semirings that rewrite the numbers
//! first, take a copy as before.

use std::borrow::Cow;

use js_sys::Float32Array;

use crate::error::Result;

#[derive(Clone, Debug)]
pub enum Input<'a> {
    Wasm(Cow<'a, [f32]>),
    /// Read when the upload happens, which must be during the caller's call (the
    /// caller may change the array after it).
    Js(&'a Float32Array),
}

impl<'a> Input<'a> {
    /// How many numbers it holds.
    pub fn len(&self) -> usize {
        match self {
            Input::Wasm(d) => d.len(),
            Input::Js(a) => a.length() as usize,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The numbers in wasm memory: borrowed as they are, or copied from JavaScript
    /// (OUT_OF_MEMORY where wasm memory cannot hold the copy).
    pub fn in_wasm(&self) -> Result<Cow<'a, [f32]>> {
        match self {
            Input::Wasm(d) => Ok(d.clone()),
            Input::Js(a) => {
                let len = a.length();
                crate::common::arrays::copy_f32(a, || {
                    format!("the copy of an array of {len} numbers")
                })
                .map(Cow::Owned)
            }
        }
    }
}

impl<'a> From<&'a [f32]> for Input<'a> {
    fn from(d: &'a [f32]) -> Input<'a> {
        Input::Wasm(Cow::Borrowed(d))
    }
}

impl<'a> From<&'a Vec<f32>> for Input<'a> {
    fn from(d: &'a Vec<f32>) -> Input<'a> {
        Input::Wasm(Cow::Borrowed(d))
    }
}

impl<'a, const N: usize> From<&'a [f32; N]> for Input<'a> {
    fn from(d: &'a [f32; N]) -> Input<'a> {
        Input::Wasm(Cow::Borrowed(d))
    }
}

impl<'a> From<&'a Float32Array> for Input<'a> {
    fn from(a: &'a Float32Array) -> Input<'a> {
        Input::Js(a)
    }
}
