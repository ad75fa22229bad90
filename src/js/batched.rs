//! Batched small matrices for JavaScript: `multiplyBatched(Async)` and
//! `powerBatched(Async)` on the Gpgpu class. The matrices of a batch are given one
//! after another, row-major, in one array; results come back the same way.

use js_sys::{Float32Array, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::args::{matrix_arg, matrix_pair, number_arg, to_js_error};
use super::{JsGpgpu, JsResult};
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

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// `batch` products A_s·B_s of small matrices (sides 1 to 32) in one pass: `a`
    /// holds the A_s one after another (batch·rows·inner numbers), `b` the B_s.
    /// WebGL and the CPU (WebGPU: multiplyBatchedAsync).
    #[wasm_bindgen(js_name = multiplyBatched)]
    pub fn multiply_batched(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] batch: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] inner: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] b: JsValue,
    ) -> JsResult<Float32Array> {
        let run = || {
            let x = product_args(self, &batch, [&rows, &inner, &cols], &a, &b)?;
            products::multiply_now(&mut self.gpu.engine(), x.count, x.dims, x.a, x.b)
        };
        run()
            .map(|v| Float32Array::from(&v[..]))
            .map_err(to_js_error)
    }

    /// `multiplyBatched` as a Promise, on either backend.
    #[wasm_bindgen(js_name = multiplyBatchedAsync, unchecked_return_type = "Promise<Float32Array>")]
    pub fn multiply_batched_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] batch: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] inner: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] b: JsValue,
    ) -> Promise {
        let args = product_args(self, &batch, [&rows, &inner, &cols], &a, &b);
        let handle = self.gpu.handle();
        future_to_promise(async move {
            let x = args.map_err(to_js_error)?;
            let v = products::multiply(&handle, x.count, x.dims, x.a, x.b).await;
            Ok(Float32Array::from(&v.map_err(to_js_error)?[..]).into())
        })
    }

    /// M_s^p for `batch` n×n matrices (n from 1 to 32) by binary exponentiation,
    /// the whole batch in each pass; p = 0 gives identities. WebGL and the CPU (WebGPU:
    /// powerBatchedAsync).
    #[wasm_bindgen(js_name = powerBatched)]
    pub fn power_batched(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] batch: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] p: JsValue,
    ) -> JsResult<Float32Array> {
        let run = || {
            let x = power_args(self, &batch, &n, &m, &p)?;
            products::power_now(&mut self.gpu.engine(), x.count, x.n, x.m, x.p)
        };
        run()
            .map(|v| Float32Array::from(&v[..]))
            .map_err(to_js_error)
    }

    /// `powerBatched` as a Promise, on either backend.
    #[wasm_bindgen(js_name = powerBatchedAsync, unchecked_return_type = "Promise<Float32Array>")]
    pub fn power_batched_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] batch: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] p: JsValue,
    ) -> Promise {
        let args = power_args(self, &batch, &n, &m, &p);
        let handle = self.gpu.handle();
        future_to_promise(async move {
            let x = args.map_err(to_js_error)?;
            let v = products::power(&handle, x.count, x.n, x.m, x.p).await;
            Ok(Float32Array::from(&v.map_err(to_js_error)?[..]).into())
        })
    }
}
