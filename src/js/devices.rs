//! Several devices for JavaScript: `new Devices([gpgpu, …])` and
//! `devices.multiplySplitAsync(rows, inner, cols, a, b, { ratios })`, the course
//! report's split of C's rows among unequal devices (see [`crate::devices`]).

use std::rc::Rc;

use js_sys::{Array, Float32Array, Object, Promise, Reflect};
use wasm_bindgen::convert::TryFromJsValue;
use wasm_bindgen::prelude::*;

use super::args::{matrix_pair, number_arg, objects, parse_options, set, to_js_error, unknown_key};
use super::{op, promise, JsGpgpu, JsResult};
use crate::devices::{Devices, Ratios, Split};
use crate::engine::Handle;
use crate::error::{GpgpuError, Result};
use crate::kernels::Backend;

#[wasm_bindgen(typescript_custom_section)]
const TS_DEVICES: &str = r#"
/** `ratios`: one number >= 0 per device (its share of C's rows; not all 0), or
 *  "auto" (default): proportional to each device's measured throughput, refined
 *  after every run, leaving out a device freed or lost (its part runs on the
 *  others). `semiring` as for multiply. */
export interface SplitOptions { ratios?: number[] | "auto"; semiring?: SemiringName; }
/** One device's part: its backend, rows of C, and ms from the common start to its
 *  rows' arrival (uploads, product and readback). */
export interface SplitPart { backend: BackendName; rows: number; ms: number; }
/** C (rows×cols), each device's part, the time to C assembled, C's rows, and the
 *  ratios used (adding up to 1). */
export interface SplitResult { c: Float32Array; parts: SplitPart[]; totalMs: number;
  rows: number; ratios: number[]; }
"#;

/// A Gpgpu's engine as a Devices holds it (weakly: freeing the Gpgpu ends its
/// parts with FREED).
#[wasm_bindgen]
pub struct EngineRef {
    handle: Handle,
    backend: Backend,
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// For `new Devices([...])`: this Gpgpu's engine, held weakly.
    #[wasm_bindgen(js_name = __engineRef, skip_typescript)]
    pub fn engine_ref(&self) -> EngineRef {
        EngineRef {
            handle: self.gpu.handle(),
            backend: self.gpu.backend(),
        }
    }
}

/// Several Gpgpu engines (any mix of WebGL, WebGPU adapters and the CPU) sharing
/// products: the rows of A and C split among them.
#[wasm_bindgen(js_name = Devices)]
pub struct JsDevices {
    inner: Rc<Devices>,
}

fn engine_of(value: &JsValue, i: usize) -> Result<(Handle, Backend)> {
    let not = || GpgpuError::BadArgument {
        name: format!("devices[{i}]"),
        detail: format!("is {}; give Gpgpu objects", super::args::js_kind(value)),
    };
    let method = Reflect::get(value, &"__engineRef".into()).map_err(|_| not())?;
    let method: js_sys::Function = method.dyn_into().map_err(|_| not())?;
    // A Gpgpu whose method throws was freed (it said "is a Gpgpu; give Gpgpu objects").
    let freed = || super::args::js_kind(value) == "a Gpgpu";
    let made = method.call0(value).map_err(|_| match freed() {
        true => GpgpuError::FreedArgument {
            name: format!("devices[{i}]"),
            detail: "is a Gpgpu that was freed (free() was called on it): give Gpgpu \
                     objects still in use"
                .into(),
        },
        false => not(),
    })?;
    let r = EngineRef::try_from_js_value(made).map_err(|_| not())?;
    Ok((r.handle, r.backend))
}

fn ratios_option(options: &JsValue) -> Result<Ratios> {
    if !options.is_object() {
        return Ok(Ratios::Auto);
    }
    let v = crate::common::guard::field(options, "options", "ratios")?;
    if v.is_undefined() || v.as_string().as_deref() == Some("auto") {
        return Ok(Ratios::Auto);
    }
    if !Array::is_array(&v) {
        return Err(GpgpuError::BadArgument {
            name: "options.ratios".into(),
            detail: format!(
                "is {}; give an array of numbers (one per device) or 'auto'",
                super::args::js_kind(&v)
            ),
        });
    }
    let mut r = vec![];
    for (i, x) in Array::from(&v).iter().enumerate() {
        r.push(number_arg(&format!("options.ratios[{i}]"), &x)?);
    }
    Ok(Ratios::Given(r))
}

/// The keys a split takes: `ratios` and `semiring` (docs/api.md, "Several devices"). Any
/// other is BAD_ARGUMENT, `kernel` and `maxTile` too, even as 'auto': each device
/// picks its own kernel and tiles.
fn split_keys(options: &JsValue) -> Result<()> {
    match unknown_key(
        options,
        "options",
        &["ratios", "semiring"],
        "{ ratios: 'auto' }",
    )? {
        None => Ok(()),
        Some(key) => Err(GpgpuError::BadArgument {
            name: "options".into(),
            detail: match key.as_str() {
                "kernel" | "maxTile" => format!(
                    "'{key}' is not an option of a split: each device picks its own kernel \
                     and tiles; give ratios and semiring only"
                ),
                _ => format!("unknown option '{key}'; known: ratios, semiring"),
            },
        }),
    }
}

fn split_object(s: Split, rows: usize) -> Object {
    let o = Object::new();
    set(&o, "c", Float32Array::from(&s.c[..]));
    let parts = objects(&s.parts, |p, po| {
        set(po, "backend", p.backend.name());
        set(po, "rows", p.rows as f64);
        set(po, "ms", p.ms);
    });
    set(&o, "parts", parts);
    set(&o, "totalMs", s.total_ms);
    set(&o, "rows", rows as f64);
    let ratios: Array = s.ratios.iter().map(|&r| JsValue::from(r)).collect();
    set(&o, "ratios", ratios);
    o
}

#[wasm_bindgen(js_class = Devices)]
impl JsDevices {
    /// `new Devices([webgl, webgpu, cpu])`: at least one Gpgpu, held weakly.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Gpgpu[]")] engines: JsValue,
    ) -> JsResult<JsDevices> {
        let list = match Array::is_array(&engines) {
            true => Array::from(&engines),
            false => {
                return Err(to_js_error(GpgpuError::BadArgument {
                    name: "devices".into(),
                    detail: "must be an array of Gpgpu objects".into(),
                }))
            }
        };
        let mut handles = vec![];
        for (i, v) in list.iter().enumerate() {
            handles.push(engine_of(&v, i).map_err(to_js_error)?);
        }
        let inner = Devices::new(handles).map_err(to_js_error)?;
        Ok(JsDevices {
            inner: Rc::new(inner),
        })
    }

    /// The devices' backends, in order.
    #[wasm_bindgen(getter, unchecked_return_type = "BackendName[]")]
    pub fn backends(&self) -> Array {
        self.inner
            .backends()
            .iter()
            .map(|b| JsValue::from_str(b.name()))
            .collect()
    }

    /// The ratios 'auto' would use now (equal before the first run; adding up to 1).
    #[wasm_bindgen(js_name = autoRatios)]
    pub fn auto_ratios(&self) -> Vec<f64> {
        self.inner.auto_ratios()
    }

    /// C = A·B with C's rows split among the devices; resolves to a SplitResult.
    #[wasm_bindgen(js_name = multiplySplitAsync, unchecked_return_type = "Promise<SplitResult>")]
    pub fn multiply_split_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] inner: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] b: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SplitOptions")] options: JsValue,
    ) -> Promise {
        let read = || -> Result<_> {
            // As multiplyAsync reads them: each part is a plain product, tiled past its
            // device's limit, so only WebAssembly memory bounds them (read against
            // usize::MAX, 2^32 was "this device's limit of 4294967295").
            let dim =
                |name: &str, v: &JsValue| crate::work::tiled_dimension(name, number_arg(name, v)?);
            let dims = [
                dim("rows", &rows)?,
                dim("inner", &inner)?,
                dim("cols", &cols)?,
            ];
            split_keys(&options)?;
            let opts = parse_options(&options, &["ratios"], true)?;
            let (a, b) = matrix_pair(("a", &a), ("b", &b))?;
            Ok((dims, a, b, ratios_option(&options)?, opts))
        };
        let args = read();
        let devices = self.inner.clone();
        promise(args.and_then(|(dims, a, b, ratios, opts)| {
            op(async move {
                let split = devices.multiply_split(dims, &a, &b, &ratios, &opts).await?;
                Ok(split_object(split, dims[0]).into())
            })
        }))
    }
}
