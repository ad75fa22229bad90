//! Batched small matrices for JavaScript: `multiplyBatched(Async)` and
//! `powerBatched(Async)` on the Gpgpu class. The matrices of a batch are given one
//! after another, row-major, in one array; results come back the same way.

use js_sys::{Float32Array, Promise};
use wasm_bindgen::prelude::*;

use super::args::{matrix_arg, matrix_pair, number_arg};
use super::{pair, JsGpgpu, JsResult, Op};
use crate::batched::products;
use crate::error::Result;
use crate::plan::batched;
use crate::plan::shape::{self, MAX_COUNT};

/// The arguments of a batched product, read and checked.
struct ProductArgs {
    count: usize,
    dims: [usize; 3],
    a: Vec<f32>,
    b: Vec<f32>,
}

/// The sizes are checked against the device before the arrays are read (see
/// [`products::check_product`]).
fn product_args(
    g: &JsGpgpu,
    batch: &JsValue,
    [rows, inner, cols]: [&JsValue; 3],
    a: &JsValue,
    b: &JsValue,
) -> Result<ProductArgs> {
    let count = batched::count(number_arg("batch", batch)?)?;
    let dims = [
        batched::side("rows", number_arg("rows", rows)?)?,
        batched::side("inner", number_arg("inner", inner)?)?,
        batched::side("cols", number_arg("cols", cols)?)?,
    ];
    products::check_product(&g.gpu.engine(), count, dims)?;
    let (a, b) = matrix_pair(("a", a), ("b", b))?;
    Ok(ProductArgs { count, dims, a, b })
}

/// The arguments of a batched power, read and checked.
struct PowerArgs {
    count: usize,
    n: usize,
    m: Vec<f32>,
    p: u64,
}

fn power_args(
    g: &JsGpgpu,
    batch: &JsValue,
    n: &JsValue,
    m: &JsValue,
    p: &JsValue,
) -> Result<PowerArgs> {
    let count = batched::count(number_arg("batch", batch)?)?;
    let n = batched::side("n", number_arg("n", n)?)?;
    let p = shape::count("p", number_arg("p", p)?, MAX_COUNT)?;
    products::check_power(&g.gpu.engine(), count, n, p)?;
    Ok(PowerArgs {
        count,
        n,
        p,
        m: matrix_arg("m", m)?,
    })
}

pair! {
    #[doc = " `batch` products A_s·B_s of small matrices (sides 1 to 32) in one pass: `a`"]
    #[doc = " holds the A_s one after another (batch·rows·inner numbers), `b` the B_s."]
    #[doc = " WebGL and the CPU (WebGPU: multiplyBatchedAsync)."]
    multiply_batched multiplyBatched -> Float32Array as "Float32Array";
    #[doc = " `multiplyBatched` as a Promise, on either backend."]
    multiply_batched_async multiplyBatchedAsync as "Promise<Float32Array>";
    (batch: "number", rows: "number", inner: "number", cols: "number", a: "Matrix", b: "Matrix") => multiply_op
}

pair! {
    #[doc = " M_s^p for `batch` n×n matrices (n from 1 to 32) by binary exponentiation,"]
    #[doc = " the whole batch in each pass; p = 0 gives identities. WebGL and the CPU (WebGPU:"]
    #[doc = " powerBatchedAsync)."]
    power_batched powerBatched -> Float32Array as "Float32Array";
    #[doc = " `powerBatched` as a Promise, on either backend."]
    power_batched_async powerBatchedAsync as "Promise<Float32Array>";
    (batch: "number", n: "number", m: "Matrix", p: "number") => power_op
}

fn multiply_op(
    g: &JsGpgpu,
    batch: &JsValue,
    rows: &JsValue,
    inner: &JsValue,
    cols: &JsValue,
    a: &JsValue,
    b: &JsValue,
) -> Result<Op> {
    let x = product_args(g, batch, [rows, inner, cols], a, b)?;
    g.work(move |h| async move {
        let v = products::multiply(&h, x.count, x.dims, x.a, x.b).await?;
        Ok(Float32Array::from(&v[..]).into())
    })
}

fn power_op(g: &JsGpgpu, batch: &JsValue, n: &JsValue, m: &JsValue, p: &JsValue) -> Result<Op> {
    let x = power_args(g, batch, n, m, p)?;
    g.work(move |h| async move {
        let v = products::power(&h, x.count, x.n, x.m, x.p).await?;
        Ok(Float32Array::from(&v[..]).into())
    })
}
