//! The operations of `Gpgpu`'s pairs (gpgpu.rs), once per product: what starts it, queued by
//! [`JsGpgpu::product`].

use super::*;
use start::{POWER, TIMES};

pub fn square(g: &JsGpgpu, n: &JsValue, m: &JsValue, o: &JsValue) -> Result<Op> {
    g.product(start::on_square(&g.gpu, [n, m], None, o, true))
}

pub fn multiply(
    g: &JsGpgpu,
    rows: &JsValue,
    inner: &JsValue,
    cols: &JsValue,
    a: &JsValue,
    b: &JsValue,
    o: &JsValue,
) -> Result<Op> {
    g.product(start::multiply(&g.gpu, [rows, inner, cols], a, b, o, true))
}

pub fn repeat(g: &JsGpgpu, n: &JsValue, m: &JsValue, t: &JsValue, o: &JsValue) -> Result<Op> {
    g.product(start::on_square(&g.gpu, [n, m], Some((&TIMES, t)), o, true))
}

pub fn power(g: &JsGpgpu, n: &JsValue, m: &JsValue, p: &JsValue, o: &JsValue) -> Result<Op> {
    g.product(start::on_square(&g.gpu, [n, m], Some((&POWER, p)), o, true))
}

/// WebGL has drawn when this returns; the CPU colours the pixels when awaited.
pub fn heatmap(
    g: &JsGpgpu,
    rows: &JsValue,
    cols: &JsValue,
    data: &JsValue,
    canvas: &JsValue,
    style: &JsValue,
) -> Result<Op> {
    let pending = g.start_heatmap(rows, cols, data, canvas, style)?;
    op(async move { Ok(drawn_object(pending.wait().await?).into()) })
}
