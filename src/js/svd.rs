//! The batched SVD for JavaScript: `svdBatched` (WebGL) and `svdBatchedAsync`
//! (either backend) on the Gpgpu class (crate::batched::svd). The matrices of a
//! batch are given one after another, row-major, in one array; the results come
//! back the same way.

use js_sys::{Float32Array, Object, Promise, Uint32Array};
use wasm_bindgen::prelude::*;

use super::args::{array_len, check_copies, copy_checked, number_arg, set};
use super::{pair, JsGpgpu, JsResult, Op};
use crate::batched::svd;
use crate::error::Result;
use crate::plan::svd::{Svd, SvdShape};

#[wasm_bindgen(typescript_custom_section)]
const TS_SVD: &str = r#"
/** The SVDs of a batch, A_s = U_s · diag(s_s) · V_sᵀ, matrix after matrix, row-major:
 *  `s` batch·cols singular values, decreasing within each matrix; `u` batch·rows·cols
 *  (a zero column where a singular value is 0); `v` batch·cols·cols, orthonormal; each
 *  pair of columns (u_j, v_j) signed so that v_j's largest entry is positive.
 *  `sweeps`: per matrix, the Jacobi sweeps that rotated a pair (30 means the cap
 *  stopped it). */
export interface SvdResult { s: Float32Array; u: Float32Array; v: Float32Array;
  sweeps: Uint32Array; }
"#;

/// The arguments of a batched SVD, read and checked: the batch against the device
/// and WebAssembly memory, and a's length, before a is copied (a batch's array was
/// copied first, so one too large trapped).
fn svd_args(
    g: &JsGpgpu,
    batch: &JsValue,
    rows: &JsValue,
    cols: &JsValue,
    a: &JsValue,
) -> Result<(SvdShape, Vec<f32>)> {
    let shape = SvdShape::from_numbers(
        number_arg("batch", batch)?,
        number_arg("rows", rows)?,
        number_arg("cols", cols)?,
    )?;
    svd::check_batch(&g.gpu.engine(), shape)?;
    let len = array_len("a", a)?;
    shape.check_len("a", len)?;
    check_copies("this batch", &[("a", len, 4)])?;
    Ok((shape, copy_checked("a", a)?))
}

/// `{ s, u, v, sweeps }`.
fn svd_object(r: &Svd) -> Object {
    let o = Object::new();
    set(&o, "s", Float32Array::from(&r.s[..]));
    set(&o, "u", Float32Array::from(&r.u[..]));
    set(&o, "v", Float32Array::from(&r.v[..]));
    set(&o, "sweeps", Uint32Array::from(&r.sweeps[..]));
    o
}

pair! {
    #[doc = " The SVDs of `batch` rows × cols matrices (cols ≤ rows ≤ 32, cols ≤ 16) given"]
    #[doc = " one after another in `a`, by one-sided Jacobi on the GPU. Returns"]
    #[doc = " { s, u, v, sweeps } (see SvdResult). WebGL and the CPU (WebGPU: svdBatchedAsync)."]
    svd_batched svdBatched -> Object as "SvdResult";
    #[doc = " `svdBatched` as a Promise, on either backend (one dispatch on WebGPU)."]
    svd_batched_async svdBatchedAsync as "Promise<SvdResult>";
    (batch: "number", rows: "number", cols: "number", a: "Matrix") => svd_op
}

fn svd_op(g: &JsGpgpu, batch: &JsValue, rows: &JsValue, cols: &JsValue, a: &JsValue) -> Result<Op> {
    let (s, a) = svd_args(g, batch, rows, cols, a)?;
    g.work(move |h| async move {
        let r = svd::svd(&h, s.count, s.rows, s.cols, &a).await?;
        Ok(svd_object(&r).into())
    })
}
