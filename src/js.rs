//! The JavaScript API (wasm-bindgen). Numbers arrive as JS numbers (f64) and
//! are validated here, so 2.5 or -1 is an error rather than a silent cast; errors
//! leave as `Error` objects with `name = "GpgpuError"` and a `code` property.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Float32Array, Function, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::future_to_promise;
use web_sys::HtmlCanvasElement;

use crate::api::{Gpgpu, Options};
use crate::error::{GpgpuError, Result};
use crate::gl::context::Canvas;
use crate::kernels::heatmap::{self, Drawn, Style};
use crate::kernels::reduce::{self, Stats};
use crate::kernels::{Kernel, ProgramKey};
use crate::plan::layout::Layout;
use crate::plan::passes;
use crate::plan::semiring::Semiring;
use crate::plan::shape::{self, Shape, MAX_COUNT};
use crate::run::Run;

/// TypeScript names for what the API takes and gives (the generated d.ts would
/// otherwise say `any` and `object`).
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** A row-major matrix: element (i, j) at index i*cols + j. Any numeric typed array
 *  or array of numbers; converted to float32. */
export type Matrix = Float32Array | Float64Array | Int32Array | Uint32Array | Int16Array
  | Uint16Array | Int8Array | Uint8Array | Uint8ClampedArray | ArrayLike<number>;
export type KernelName = "naive" | "packed" | "blocked4" | "blocked8";
export type SemiringName = "ordinary" | "boolean" | "min-plus";
/** A matrix of a Run: its input ("a", or "input"), B of a product, the latest pass's
 *  output, or the result once every pass has run. */
export type RunMatrix = "a" | "input" | "b" | "latest" | "result";
/** `kernel`: "auto" (default: the fastest for the shape) or a kernel of info().kernels. */
export interface KernelOptions { kernel?: KernelName | "auto"; }
export interface ProductOptions extends KernelOptions { semiring?: SemiringName; }
export interface HeatmapStyle { range?: number; sequential?: boolean; logFloor?: number; }
export interface HeatmapDrawn { blockRows: number; blockCols: number; stride: number; }
export interface MatrixStats { maxAbs: number; nan: number; inf: number; sumAbs: number;
  sumSquares: number; min: number; max: number; }
export interface KernelInfo { name: KernelName; description: string; planes: number; file: string; }
export interface DeviceInfo { renderer: string; vendor: string; webglVersion: string;
  glslVersion: string; maxTextureSize: number; maxViewportDims: [number, number];
  maxDrawBuffers: number; maxTextureUnits: number; maxDimension: number;
  floatRenderable: boolean; timerQuery: boolean; kernels: KernelName[]; }
export interface LiveObjects { textures: number; framebuffers: number; programs: number;
  shaders: number; buffers: number; vertexArrays: number; queries: number; syncs: number; }
/** What every thrown error carries (`name === "GpgpuError"`). */
export type GpgpuErrorCode = "NO_WEBGL2" | "NO_FLOAT_RENDER_TARGET" | "SIZE_OVER_LIMIT"
  | "BAD_DIMENSION" | "BAD_COUNT" | "BAD_LENGTH" | "BAD_ARGUMENT" | "SHADER_COMPILE"
  | "PROGRAM_LINK" | "CONTEXT_LOST" | "FREED" | "GL_ERROR";
export interface GpgpuError extends Error { name: "GpgpuError"; code: GpgpuErrorCode; }
export interface Reachability { matrix: Float32Array; connected: boolean; squarings: number; }
export interface ShortestPaths { distances: Float32Array; squarings: number; negativeCycle: boolean; }
export interface FibonacciResult { k: number; value: number; exactValue: string | null;
  exact: boolean; passes: number; }
/** maxDoublings 1..1000 (default 60), patience 0..1000 (default 0); d > 0, series only. */
export interface InverseOptions extends KernelOptions { method?: "newton-schulz" | "series";
  d?: number; maxDoublings?: number; patience?: number; }
export interface InverseResult { matrix: Float32Array; converged: boolean;
  residuals: Float64Array; scale: number; message: string; }
/** maxSquarings 1..120 (default 30). */
export interface EigenOptions extends KernelOptions { maxSquarings?: number; }
export interface EigenPair { value: number; vector: Float32Array; converged: boolean;
  history: Float64Array; residuals: Float64Array; }
export interface EigenResult { pairs: EigenPair[]; }
/** epsilon > 0 (default 1e-6), maxIterations 1..1e6 (default 1000), recordEvery 1..1e6. */
export interface JacobiOptions extends KernelOptions { epsilon?: number;
  maxIterations?: number; recordEvery?: number; }
export interface JacobiResult { x: Float32Array; converged: boolean; diverged: boolean;
  iterations: number; deltas: Float64Array; norms: Float64Array;
  history: { iteration: number; x: Float32Array }[]; }
"#;

/// Converts a library error into a JS `Error` with `code` set.
pub fn to_js_error(e: GpgpuError) -> JsValue {
    let err = js_sys::Error::new(&e.to_string());
    err.set_name("GpgpuError");
    let _ = Reflect::set(&err, &"code".into(), &e.code().into());
    err.into()
}

pub(crate) fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(obj, &key.into(), &value.into());
}

/// A matrix argument: a Float32Array, or any other numeric typed array or plain
/// array of numbers (converted to float32, as the GPU computes in float32 anyway).
pub fn matrix_arg(name: &str, value: &JsValue) -> Result<Vec<f32>> {
    if let Some(a) = value.dyn_ref::<Float32Array>() {
        return Ok(a.to_vec());
    }
    let bad = |detail: String| GpgpuError::BadArgument {
        name: name.into(),
        detail,
    };
    if let Some(array) = value.dyn_ref::<Array>() {
        // Float32Array.from would turn "1" into 1 and "x" into NaN without a word.
        let at = array.find_index(&mut |v, _, _| v.as_f64().is_none());
        if at >= 0 {
            return Err(bad(format!(
                "element {at} is {}, not a number; pass numbers (a Float32Array is fastest)",
                js_kind(&array.get(at as u32))
            )));
        }
        return Ok(Float32Array::new(value).to_vec());
    }
    let kind = js_kind(value);
    // BigInt arrays cannot convert to floats, and a DataView has no element type.
    let numeric_view = js_sys::ArrayBuffer::is_view(value)
        && !matches!(
            kind.as_str(),
            "a DataView" | "a BigInt64Array" | "a BigUint64Array"
        );
    if numeric_view {
        return Ok(Float32Array::new(value).to_vec());
    }
    Err(bad(format!(
        "expected a row-major Float32Array (or another numeric typed array, or an array \
         of numbers), got {kind}"
    )))
}

/// A number as JavaScript prints it, anything else by its kind.
fn js_kind_or_number(value: &JsValue) -> String {
    match value.as_f64() {
        Some(v) => crate::error::js_number(v),
        None => js_kind(value),
    }
}

/// How a value reads in a message: "null", "a string", "an Int32Array", ...
fn js_kind(value: &JsValue) -> String {
    if value.is_null() {
        return "null".into();
    }
    if value.is_undefined() {
        return "undefined".into();
    }
    // Object.create(null) has no constructor, hence the checked look-up.
    let name = Some(value)
        .filter(|v| v.is_object())
        .and_then(|v| Reflect::get(v, &"constructor".into()).ok())
        .and_then(|c| c.dyn_into::<Function>().ok())
        .map(|c| String::from(c.name()))
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| value.js_typeof().as_string().unwrap_or_default());
    let article = match name.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'A' | 'E' | 'I' | 'O' | 'U') => "an",
        _ => "a",
    };
    format!("{article} {name}")
}

/// A number argument; anything but a JS number is BAD_ARGUMENT naming what it was
/// (an f64 parameter would turn undefined into NaN, null into 0 and "4" into 4, and
/// throw a raw TypeError for a BigInt).
pub(crate) fn number_arg(name: &str, value: &JsValue) -> Result<f64> {
    value.as_f64().ok_or_else(|| GpgpuError::BadArgument {
        name: name.into(),
        detail: format!("must be a number, got {}", js_kind(value)),
    })
}

/// A string argument; anything else is BAD_ARGUMENT naming what was passed (a
/// `&str` parameter would let wasm-bindgen read a non-string as garbage memory).
pub(crate) fn string_arg(name: &str, value: &JsValue) -> Result<String> {
    value.as_string().ok_or_else(|| GpgpuError::BadArgument {
        name: name.into(),
        detail: format!("must be a string, got {}", js_kind_or_number(value)),
    })
}

pub(crate) fn string_option(obj: &JsValue, key: &str) -> Result<String> {
    let v = Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED);
    v.as_string().ok_or_else(|| GpgpuError::BadArgument {
        name: format!("options.{key}"),
        detail: "must be a string".into(),
    })
}

/// `{ kernel?: "auto" | "naive" | "packed" | "blocked4" | "blocked8",
///    semiring?: "ordinary" | "boolean" | "min-plus" }`
pub fn options_arg(value: &JsValue) -> Result<Options> {
    parse_options(value, &[], true)
}

/// For the applications: `{ kernel }` plus the operation's own `extra` keys (read
/// by the caller from the same object); no `semiring`, as each application fixes its
/// own.
pub fn options_with(value: &JsValue, extra: &[&str]) -> Result<Options> {
    parse_options(value, extra, false)
}

fn parse_options(value: &JsValue, extra: &[&str], semiring_allowed: bool) -> Result<Options> {
    let mut options = Options::default();
    if value.is_undefined() || value.is_null() {
        return Ok(options);
    }
    let Some(obj) = value.dyn_ref::<Object>().filter(|_| value.is_object()) else {
        return Err(GpgpuError::BadArgument {
            name: "options".into(),
            detail: "must be an object such as { kernel: 'packed' }".into(),
        });
    };
    let kernels: Vec<&str> = Kernel::ALL.iter().map(|k| k.name()).collect();
    for key in Object::keys(obj).iter().filter_map(|k| k.as_string()) {
        match key.as_str() {
            "kernel" => {
                let name = string_option(value, "kernel")?;
                options.kernel = match name.as_str() {
                    "auto" => None,
                    _ => Some(Kernel::parse(&name).ok_or_else(|| GpgpuError::BadArgument {
                        name: "options.kernel".into(),
                        detail: format!(
                            "unknown kernel '{name}'; use 'auto' or one of {}",
                            kernels.join(", ")
                        ),
                    })?),
                };
            }
            "semiring" if semiring_allowed => {
                let name = string_option(value, "semiring")?;
                options.semiring =
                    Semiring::parse(&name).ok_or_else(|| GpgpuError::BadArgument {
                        name: "options.semiring".into(),
                        detail: format!(
                            "unknown semiring '{name}'; use 'ordinary', 'boolean' or 'min-plus'"
                        ),
                    })?;
            }
            other if extra.contains(&other) => {}
            other => {
                let mut known = vec!["kernel"];
                if semiring_allowed {
                    known.push("semiring");
                }
                known.extend(extra);
                return Err(GpgpuError::BadArgument {
                    name: "options".into(),
                    detail: format!("unknown option '{other}'; known: {}", known.join(", ")),
                });
            }
        }
    }
    Ok(options)
}

/// A whole-number option in 1..=max, or `default` when absent.
pub(crate) fn count_option(obj: &JsValue, key: &str, default: usize, max: f64) -> Result<usize> {
    match number_option(obj, key)? {
        None => Ok(default),
        Some(v) if v >= 1.0 && v <= max && v.fract() == 0.0 => Ok(v as usize),
        Some(v) => Err(GpgpuError::BadArgument {
            name: format!("options.{key}"),
            detail: format!(
                "is {}; it must be a whole number from 1 to {}",
                crate::error::js_number(v),
                crate::error::js_number(max)
            ),
        }),
    }
}

pub(crate) fn number_option(obj: &JsValue, key: &str) -> Result<Option<f64>> {
    let v = Reflect::get(obj, &key.into()).unwrap_or(JsValue::UNDEFINED);
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.as_f64() {
        Some(x) if x.is_finite() => Ok(Some(x)),
        _ => Err(GpgpuError::BadArgument {
            name: format!("options.{key}"),
            detail: format!("is {}; it must be a finite number", js_kind_or_number(&v)),
        }),
    }
}

/// A number option that must be > 0 when given; `what` names the object in messages.
pub(crate) fn positive_option(obj: &JsValue, what: &str, key: &str) -> Result<Option<f64>> {
    match number_option(obj, key)? {
        Some(v) if v <= 0.0 => Err(GpgpuError::BadArgument {
            name: format!("{what}.{key}"),
            detail: format!("is {}; it must be > 0", crate::error::js_number(v)),
        }),
        v => Ok(v),
    }
}

/// `{ range?: number, sequential?: boolean, logFloor?: number }`; the range
/// defaults to the largest |finite value| of the matrix.
fn style_arg(value: &JsValue, default_range: f32) -> Result<Style> {
    let mut style = Style {
        sequential: false,
        range: default_range,
        log_floor: None,
    };
    if value.is_undefined() || value.is_null() {
        return Ok(style);
    }
    let Some(obj) = value.dyn_ref::<Object>().filter(|_| value.is_object()) else {
        return Err(GpgpuError::BadArgument {
            name: "style".into(),
            detail: "must be an object such as { range: 2 }".into(),
        });
    };
    if let Some(key) = Object::keys(obj)
        .iter()
        .filter_map(|k| k.as_string())
        .find(|k| !["range", "sequential", "logFloor"].contains(&k.as_str()))
    {
        return Err(GpgpuError::BadArgument {
            name: "style".into(),
            detail: format!("unknown key '{key}'; known: range, sequential, logFloor"),
        });
    }
    let positive = |key| positive_option(value, "style", key).map(|v| v.map(|v| v as f32));
    if let Some(r) = positive("range")? {
        style.range = r;
    }
    style.log_floor = positive("logFloor")?;
    style.sequential = Reflect::get(value, &"sequential".into())
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    Ok(style)
}

fn canvas_arg(value: &JsValue) -> Result<HtmlCanvasElement> {
    value
        .dyn_ref::<HtmlCanvasElement>()
        .cloned()
        .ok_or_else(|| GpgpuError::BadArgument {
            name: "canvas".into(),
            detail: "expected an HTMLCanvasElement to draw the heatmap on".into(),
        })
}

fn kernel_arg(name: &str) -> Result<Kernel> {
    Kernel::parse(name).ok_or_else(|| GpgpuError::BadArgument {
        name: "kernel".into(),
        detail: format!(
            "unknown kernel '{name}'; use one of {}",
            Kernel::ALL.map(|k| k.name()).join(", ")
        ),
    })
}

fn drawn_object(d: Drawn) -> Object {
    let o = Object::new();
    set(&o, "blockCols", d.block.0 as u32);
    set(&o, "blockRows", d.block.1 as u32);
    set(&o, "stride", d.stride as u32);
    o
}

fn stats_object(s: Stats) -> Object {
    let o = Object::new();
    set(&o, "maxAbs", s.max_abs);
    set(&o, "nan", s.nan);
    set(&o, "inf", s.inf);
    set(&o, "sumAbs", s.sum_abs);
    set(&o, "sumSquares", s.sum_sq);
    set(&o, "min", s.min);
    set(&o, "max", s.max);
    o
}

/// Validates JS arguments and starts the matching run; shared by the blocking,
/// non-blocking and step-through entry points.
mod start {
    use super::*;

    pub fn square(g: &mut Gpgpu, n: &JsValue, m: &JsValue, options: &JsValue) -> Result<Run> {
        let n = g.dim("n", number_arg("n", n)?)?;
        let m = matrix_arg("m", m)?;
        g.start_plan(n, &m, passes::power(2), &options_arg(options)?)
    }

    pub fn multiply(
        g: &mut Gpgpu,
        [rows, inner, cols]: [&JsValue; 3],
        a: &JsValue,
        b: &JsValue,
        options: &JsValue,
    ) -> Result<Run> {
        let rows = g.dim("rows", number_arg("rows", rows)?)?;
        let inner = g.dim("inner", number_arg("inner", inner)?)?;
        let cols = g.dim("cols", number_arg("cols", cols)?)?;
        let (a, b) = (matrix_arg("a", a)?, matrix_arg("b", b)?);
        g.start_product(rows, inner, cols, &a, &b, &options_arg(options)?)
    }

    pub fn repeat(
        g: &mut Gpgpu,
        n: &JsValue,
        m: &JsValue,
        times: &JsValue,
        opts: &JsValue,
    ) -> Result<Run> {
        let n = g.dim("n", number_arg("n", n)?)?;
        let max = passes::MAX_SQUARINGS as f64;
        let times = shape::count("times", number_arg("times", times)?, max)?;
        let m = matrix_arg("m", m)?;
        g.start_plan(n, &m, passes::repeated_square(times)?, &options_arg(opts)?)
    }

    pub fn power(
        g: &mut Gpgpu,
        n: &JsValue,
        m: &JsValue,
        p: &JsValue,
        opts: &JsValue,
    ) -> Result<Run> {
        let n = g.dim("n", number_arg("n", n)?)?;
        let p = shape::count("p", number_arg("p", p)?, MAX_COUNT)?;
        let m = matrix_arg("m", m)?;
        g.start_plan(n, &m, passes::power(p), &options_arg(opts)?)
    }
}

type Shared = Rc<RefCell<Gpgpu>>;
type JsResult<T> = std::result::Result<T, JsValue>;

/// Matrix products, repeated squaring and matrix powers on WebGL2 fragment shaders.
#[wasm_bindgen(js_name = Gpgpu)]
pub struct JsGpgpu {
    pub(crate) inner: Shared,
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// `new Gpgpu(canvas?)`: uses the given HTMLCanvasElement / OffscreenCanvas or
    /// makes its own.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "HTMLCanvasElement | OffscreenCanvas")]
        canvas: JsValue,
    ) -> JsResult<JsGpgpu> {
        // Here, not in the Rust `Gpgpu::new`: a Rust application keeps its own hook,
        // while a JavaScript one gets panics on the console with their message.
        console_error_panic_hook::set_once();
        let canvas = if canvas.is_undefined() || canvas.is_null() {
            None
        } else {
            Some(Canvas::from_js(&canvas).map_err(to_js_error)?)
        };
        let inner = Gpgpu::new(canvas).map_err(to_js_error)?;
        Ok(JsGpgpu {
            inner: Rc::new(RefCell::new(inner)),
        })
    }

    /// R = M·M for an n×n row-major Float32Array.
    pub fn square(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> JsResult<Float32Array> {
        self.blocking(|g| start::square(g, &n, &m, &options))
    }

    /// A·B with A rows×inner and B inner×cols.
    pub fn multiply(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] inner: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] b: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> JsResult<Float32Array> {
        self.blocking(|g| start::multiply(g, [&rows, &inner, &cols], &a, &b, &options))
    }

    /// M^(2^times): `times` squarings chained on the GPU; times = 0 returns M.
    #[wasm_bindgen(js_name = squareRepeatedly)]
    pub fn square_repeatedly(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] times: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> JsResult<Float32Array> {
        self.blocking(|g| start::repeat(g, &n, &m, &times, &options))
    }

    /// M^p for a whole p >= 0 by binary exponentiation; p = 0 gives the identity.
    pub fn power(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] p: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> JsResult<Float32Array> {
        self.blocking(|g| start::power(g, &n, &m, &p, &options))
    }

    /// Like `square`, but the readback goes through a pixel-pack buffer and a fence,
    /// so the main thread does not wait for the GPU.
    #[wasm_bindgen(js_name = squareAsync, unchecked_return_type = "Promise<Float32Array>")]
    pub fn square_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> Promise {
        self.non_blocking(|g| start::square(g, &n, &m, &options))
    }

    /// Like `multiply`, with a non-blocking readback.
    #[wasm_bindgen(js_name = multiplyAsync, unchecked_return_type = "Promise<Float32Array>")]
    pub fn multiply_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] inner: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] b: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> Promise {
        self.non_blocking(|g| start::multiply(g, [&rows, &inner, &cols], &a, &b, &options))
    }

    /// Like `squareRepeatedly`, with a non-blocking readback.
    #[wasm_bindgen(
        js_name = squareRepeatedlyAsync,
        unchecked_return_type = "Promise<Float32Array>"
    )]
    pub fn square_repeatedly_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] times: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> Promise {
        self.non_blocking(|g| start::repeat(g, &n, &m, &times, &options))
    }

    /// Like `power`, with a non-blocking readback.
    #[wasm_bindgen(js_name = powerAsync, unchecked_return_type = "Promise<Float32Array>")]
    pub fn power_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] p: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> Promise {
        self.non_blocking(|g| start::power(g, &n, &m, &p, &options))
    }

    /// `square` as a `Run` whose passes the caller steps through.
    #[wasm_bindgen(js_name = startSquare)]
    pub fn start_square(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> JsResult<JsRun> {
        self.stepwise(|g| start::square(g, &n, &m, &options))
    }

    /// `multiply` as a `Run`.
    #[wasm_bindgen(js_name = startMultiply)]
    pub fn start_multiply(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] inner: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] b: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> JsResult<JsRun> {
        self.stepwise(|g| start::multiply(g, [&rows, &inner, &cols], &a, &b, &options))
    }

    /// `squareRepeatedly` as a `Run`.
    #[wasm_bindgen(js_name = startSquareRepeatedly)]
    pub fn start_square_repeatedly(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] times: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> JsResult<JsRun> {
        self.stepwise(|g| start::repeat(g, &n, &m, &times, &options))
    }

    /// `power` as a `Run`.
    #[wasm_bindgen(js_name = startPower)]
    pub fn start_power(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] p: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ProductOptions")] options: JsValue,
    ) -> JsResult<JsRun> {
        self.stepwise(|g| start::power(g, &n, &m, &p, &options))
    }

    /// Draws any rows×cols array (e.g. |GPU − double|) as a heatmap on `canvas`,
    /// through the same colour-map shader. Returns { blockRows, blockCols, stride }.
    #[wasm_bindgen(js_name = drawHeatmap, unchecked_return_type = "HeatmapDrawn")]
    pub fn draw_heatmap(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] data: JsValue,
        #[wasm_bindgen(unchecked_param_type = "HTMLCanvasElement")] canvas: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "HeatmapStyle")] style: JsValue,
    ) -> JsResult<Object> {
        let mut g = self.inner.borrow_mut();
        let mut draw = || {
            let rows = g.dim("rows", number_arg("rows", &rows)?)?;
            let cols = g.dim("cols", number_arg("cols", &cols)?)?;
            let data = matrix_arg("data", &data)?;
            shape::check_len("data", Shape::new(rows, cols), data.len())?;
            let canvas = canvas_arg(&canvas)?;
            let range = data
                .iter()
                .filter(|v| v.is_finite())
                .fold(0f32, |a, v| a.max(v.abs()));
            let style = style_arg(&style, range)?;
            let e = g.engine();
            let m = e.upload(Shape::new(rows, cols), Layout::Scalar, &data, 0.0)?;
            let (w, h) = (canvas.width() as usize, canvas.height() as usize);
            let drawn = heatmap::draw(e, &m, w, h, style)
                .and_then(|d| heatmap::present(e, &canvas).map(|_| d));
            e.recycle(m);
            drawn.map(drawn_object)
        };
        draw().map_err(to_js_error)
    }

    /// { renderer, vendor, webglVersion, glslVersion, maxTextureSize, maxViewportDims,
    ///   maxDrawBuffers, maxTextureUnits, maxDimension, floatRenderable, timerQuery,
    ///   kernels (the names this device runs) }
    #[wasm_bindgen(unchecked_return_type = "DeviceInfo")]
    pub fn info(&self) -> Object {
        let g = self.inner.borrow();
        let i = g.info();
        let o = Object::new();
        set(&o, "renderer", i.renderer.as_str());
        set(&o, "vendor", i.vendor.as_str());
        set(&o, "webglVersion", i.webgl_version.as_str());
        set(&o, "glslVersion", i.glsl_version.as_str());
        set(&o, "maxTextureSize", i.limits.max_texture_size as u32);
        let dims = Array::of2(
            &(i.limits.max_viewport_dims.0 as u32).into(),
            &(i.limits.max_viewport_dims.1 as u32).into(),
        );
        set(&o, "maxViewportDims", dims);
        set(&o, "maxDrawBuffers", i.limits.max_draw_buffers as u32);
        set(&o, "maxTextureUnits", i.limits.max_texture_units as u32);
        set(&o, "maxDimension", i.limits.max_dimension() as u32);
        set(&o, "floatRenderable", i.float_renderable);
        set(&o, "timerQuery", i.timer_query);
        let kernels: Array = Kernel::ALL
            .iter()
            .filter(|k| k.supported(&i.limits))
            .map(|k| JsValue::from_str(k.name()))
            .collect();
        set(&o, "kernels", kernels);
        o
    }

    /// Every kernel of the library, naive first: [{ name, description, planes, file }].
    #[wasm_bindgen(unchecked_return_type = "KernelInfo[]")]
    pub fn kernels() -> Array {
        Kernel::ALL
            .iter()
            .map(|k| {
                let o = Object::new();
                set(&o, "name", k.name());
                set(&o, "description", k.description());
                set(&o, "planes", k.layout().planes() as u32);
                set(&o, "file", k.file());
                JsValue::from(o)
            })
            .collect()
    }

    /// The GLSL file of a kernel, as written (with its comments).
    #[wasm_bindgen(js_name = kernelSource)]
    pub fn kernel_source(
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    ) -> JsResult<String> {
        string_arg("kernel", &name)
            .and_then(|name| kernel_arg(&name))
            .map(|k| k.glsl().to_string())
            .map_err(to_js_error)
    }

    /// The vertex shader every program shares (the full-screen quad), as compiled.
    #[wasm_bindgen(js_name = vertexSource)]
    pub fn vertex_source() -> String {
        ProgramKey::vertex_source()
    }

    /// The complete fragment shader the GPU compiles for a kernel and semiring.
    #[wasm_bindgen(js_name = programSource)]
    pub fn program_source(
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(
            unchecked_optional_param_type = "\"ordinary\" | \"boolean\" | \"min-plus\""
        )]
        semiring: JsValue,
    ) -> JsResult<String> {
        let source = || {
            let kernel = kernel_arg(&string_arg("kernel", &name)?)?;
            let semiring = match semiring.is_undefined() {
                true => Semiring::Ordinary,
                false => {
                    let s = string_arg("semiring", &semiring)?;
                    options_arg(&{
                        let o = Object::new();
                        set(&o, "semiring", s.as_str());
                        o.into()
                    })?
                    .semiring
                }
            };
            Ok(ProgramKey::product(kernel, semiring).fragment_source())
        };
        source().map_err(to_js_error)
    }

    /// The kernel `auto` picks for an n×n product on this device.
    #[wasm_bindgen(js_name = defaultKernel)]
    pub fn default_kernel(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
    ) -> JsResult<String> {
        let g = self.inner.borrow();
        let pick = || {
            let n = g.dim("n", number_arg("n", &n)?)?;
            let k = g.choose_kernel(&Options::default(), Shape::square(n))?;
            Ok(k.name().to_string())
        };
        pick().map_err(to_js_error)
    }

    /// Live GL objects created by this instance (for leak checks).
    #[wasm_bindgen(js_name = liveObjects, unchecked_return_type = "LiveObjects")]
    pub fn live_objects(&self) -> Object {
        let c = self.inner.borrow().live_objects();
        let o = Object::new();
        for (k, v) in [
            ("textures", c.textures),
            ("framebuffers", c.framebuffers),
            ("programs", c.programs),
            ("shaders", c.shaders),
            ("buffers", c.buffers),
            ("vertexArrays", c.vertex_arrays),
            ("queries", c.queries),
            ("syncs", c.syncs),
        ] {
            set(&o, k, v);
        }
        o
    }

    /// Fill outputs with `value` (e.g. NaN) before every pass, so unwritten texels
    /// show; `null` turns it off. For tests and debugging.
    #[wasm_bindgen(js_name = setPoison)]
    pub fn set_poison(&self, value: Option<f64>) {
        self.inner.borrow_mut().set_poison(value.map(|v| v as f32));
    }

    /// Frees pooled GPU textures now rather than at their next reuse.
    pub fn trim(&self) {
        self.inner.borrow_mut().engine().trim();
    }

    /// The canvas the context lives on.
    #[wasm_bindgen(getter, unchecked_return_type = "HTMLCanvasElement | OffscreenCanvas")]
    pub fn canvas(&self) -> JsValue {
        self.inner.borrow_mut().engine().canvas().js_value()
    }

    fn blocking(&self, start: impl FnOnce(&mut Gpgpu) -> Result<Run>) -> JsResult<Float32Array> {
        let mut g = self.inner.borrow_mut();
        start(&mut g)
            .and_then(|run| g.finish(run))
            .map(|v| Float32Array::from(&v[..]))
            .map_err(to_js_error)
    }

    fn non_blocking(&self, start: impl FnOnce(&mut Gpgpu) -> Result<Run>) -> Promise {
        // The passes and the reads into pack buffers are queued now; only the wait
        // on the fence and the copy out come later, with no borrow held meanwhile.
        let pending = {
            let mut g = self.inner.borrow_mut();
            start(&mut g).and_then(|run| g.finish_async(run))
        };
        future_to_promise(async move {
            let pending = pending.map_err(to_js_error)?;
            let data = pending.wait().await.map_err(to_js_error)?;
            Ok(Float32Array::from(&data[..]).into())
        })
    }

    fn stepwise(&self, start: impl FnOnce(&mut Gpgpu) -> Result<Run>) -> JsResult<JsRun> {
        let run = start(&mut self.inner.borrow_mut()).map_err(to_js_error)?;
        Ok(JsRun {
            gpgpu: self.inner.clone(),
            run: Some(run),
        })
    }
}

/// Which matrix of a run to look at: "a" (the input M, or A), "b" (B of a
/// product), "latest" (the last pass's output) or "result".
fn pick<'r>(run: &'r Run, which: &JsValue) -> Result<&'r crate::engine::DeviceMatrix> {
    let which = string_arg("which", which)?;
    let slot = match which.as_str() {
        "a" | "input" => run.slot(0),
        "b" if run.is_product() => run.slot(1),
        "latest" => Some(run.latest()),
        "result" if run.is_done() => run.result(),
        "result" => {
            return Err(GpgpuError::BadArgument {
                name: "which".into(),
                detail: "the result exists once every pass has run".into(),
            })
        }
        _ => None,
    };
    let b = if run.is_product() { ", 'b'" } else { "" };
    slot.ok_or_else(|| GpgpuError::BadArgument {
        name: "which".into(),
        detail: format!(
            "'{which}' is not a matrix of this run; use 'a' (or 'input'){b}, 'latest' or 'result'"
        ),
    })
}

/// One operation stepped pass by pass, for teaching: its textures stay on the GPU
/// to be drawn, summarised and read between passes. Call `free()` when done.
#[wasm_bindgen(js_name = Run)]
pub struct JsRun {
    gpgpu: Shared,
    run: Option<Run>,
}

#[wasm_bindgen(js_class = Run)]
impl JsRun {
    fn with<T>(&mut self, f: impl FnOnce(&mut Gpgpu, &mut Run) -> Result<T>) -> JsResult<T> {
        let mut g = self.gpgpu.borrow_mut();
        let run = self.run.as_mut().ok_or_else(|| {
            to_js_error(GpgpuError::BadArgument {
                name: "run".into(),
                detail: "this run was finished or freed".into(),
            })
        })?;
        run.check_alive(g.engine())
            .and_then(|_| f(&mut g, run))
            .map_err(to_js_error)
    }

    fn peek<T>(&self, f: impl FnOnce(&Run) -> T) -> T {
        f(self.run.as_ref().expect("run is alive"))
    }

    /// Number of passes the plan has.
    #[wasm_bindgen(getter, js_name = passCount)]
    pub fn pass_count(&self) -> u32 {
        self.peek(|r| r.pass_count() as u32)
    }

    /// Number of passes run so far.
    #[wasm_bindgen(getter, js_name = passesDone)]
    pub fn passes_done(&self) -> u32 {
        self.peek(|r| r.passes_done() as u32)
    }

    #[wasm_bindgen(getter)]
    pub fn done(&self) -> bool {
        self.peek(|r| r.is_done())
    }

    /// The kernel running the passes.
    #[wasm_bindgen(getter)]
    pub fn kernel(&self) -> String {
        self.peek(|r| r.kernel().name().to_string())
    }

    /// One label per pass, e.g. "M^6 = M^3 · M^3".
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn labels(&self) -> Array {
        self.peek(|r| {
            r.plan()
                .labels()
                .iter()
                .map(|l| JsValue::from_str(l))
                .collect()
        })
    }

    /// Runs the next pass (timed with a GPU timer query when `timed` and the browser
    /// offers EXT_disjoint_timer_query_webgl2). Returns false when none was left.
    pub fn step(&mut self, timed: Option<bool>) -> JsResult<bool> {
        self.with(|g, run| run.step(g.engine(), timed.unwrap_or(false)))
    }

    /// Blocks until the GPU has finished every pass issued so far (a one-texel
    /// readback): wall time around `step` + `sync` is a pass's time when the timer
    /// extension is missing.
    pub fn sync(&mut self) -> JsResult<()> {
        self.with(|g, run| run.sync(g.engine()))
    }

    /// Resolves once the GPU has finished every pass issued so far, without
    /// blocking the page: a fence polled from the event loop.
    #[wasm_bindgen(js_name = whenDone, unchecked_return_type = "Promise<void>")]
    pub fn when_done(&mut self) -> Promise {
        let gl = self.with(|g, _| Ok(g.gl().clone()));
        future_to_promise(async move {
            let gl = gl?;
            crate::readback::gpu_idle(&gl).await.map_err(to_js_error)?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// GPU milliseconds of each pass run so far: a number once measured, null while
    /// pending (results arrive after control returns to the browser), NaN when the
    /// pass was not timed (no timer extension, or `step()` without `timed`) or the
    /// GPU reported the interval unreliable (disjoint).
    #[wasm_bindgen(js_name = gpuTimes, unchecked_return_type = "(number | null)[]")]
    pub fn gpu_times(&mut self) -> JsResult<Array> {
        self.with(|g, run| {
            Ok(run
                .gpu_times_ms(g.engine())
                .into_iter()
                .map(|t| t.map_or(JsValue::NULL, JsValue::from_f64))
                .collect())
        })
    }

    /// { maxAbs, nan, inf, sumAbs, sumSquares, min, max } of a matrix of the run, by GPU
    /// reduction (finite entries only in all but nan and inf).
    #[wasm_bindgen(unchecked_return_type = "MatrixStats")]
    pub fn stats(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "RunMatrix")] which: JsValue,
    ) -> JsResult<Object> {
        self.with(|g, run| reduce::stats(g.engine(), pick(run, &which)?).map(stats_object))
    }

    /// Reads a matrix of the run back (row-major Float32Array).
    pub fn read(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "RunMatrix")] which: JsValue,
    ) -> JsResult<Float32Array> {
        self.with(|g, run| {
            let m = pick(run, &which)?;
            let data = run.semiring().decode(g.engine().download(m)?);
            Ok(Float32Array::from(&data[..]))
        })
    }

    /// The answer (every pass must have run); M^0 gives the identity.
    pub fn result(&mut self) -> JsResult<Float32Array> {
        self.with(|g, run| {
            run.read_result(g.engine())
                .map(|v| Float32Array::from(&v[..]))
        })
    }

    /// Draws a matrix of the run on `canvas` as a heatmap straight from its GPU
    /// texture. `style`: { range?, sequential?, logFloor? }; the range defaults to
    /// the matrix's largest |finite value|. Returns { blockRows, blockCols, stride }.
    #[wasm_bindgen(js_name = drawHeatmap, unchecked_return_type = "HeatmapDrawn")]
    pub fn draw_heatmap(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "RunMatrix")] which: JsValue,
        #[wasm_bindgen(unchecked_param_type = "HTMLCanvasElement")] canvas: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "HeatmapStyle")] style: JsValue,
    ) -> JsResult<Object> {
        self.with(|g, run| {
            let canvas = canvas_arg(&canvas)?;
            let m = pick(run, &which)?;
            let e = g.engine();
            let range = reduce::stats(e, m)?.max_abs;
            let style = style_arg(&style, range)?;
            let (w, h) = (canvas.width() as usize, canvas.height() as usize);
            let drawn = heatmap::draw(e, m, w, h, style)?;
            heatmap::present(e, &canvas)?;
            Ok(drawn_object(drawn))
        })
    }
}

impl Drop for JsRun {
    fn drop(&mut self) {
        if let (Some(run), Ok(mut g)) = (self.run.take(), self.gpgpu.try_borrow_mut()) {
            run.recycle(g.engine());
        }
    }
}
