//! The JavaScript API (wasm-bindgen): the class `Gpgpu` here, `Run` in [`run`], the
//! applications in [`apps`], batched small products in [`batched`] and SVDs in
//! [`svd`], Gaussian elimination and linear systems in [`linear`], the
//! `BlockSparse` class and its products in [`blocks`], Fox's and Cannon's algorithms in [`mesh`], argument reading in
//! [`args`]. Every operation has a Promise form (`…Async`) that works on
//! both backends; the blocking forms work on WebGL and are NEEDS_ASYNC on WebGPU,
//! naming the Async form (the mesh algorithms have only the Promise form).

pub mod apps;
pub mod args;
pub mod batched;
pub mod blocks;
pub mod cpu;
pub mod devices;
pub mod linear;
pub mod mesh;
pub mod ransac;
mod registry;
pub mod run;
pub mod sparse;
pub mod svd;

use js_sys::{Array, Float32Array, Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::api::{BackendChoice, CreateOptions, Gpgpu, Info};
use crate::blocks::grid;
use crate::engine::program::FragmentProgram;
use crate::engine::Engine;
use crate::engine::Handle;
use crate::error::{GpgpuError, Result};
use crate::gl::context::Canvas;
use crate::kernels::{Backend, Kernel};
use crate::ops::matmul::webgl::ProductProgram;
use crate::plan::passes::{self, PassPlan};
use crate::plan::semiring::Semiring;
use crate::plan::shape::{self, Shape, MAX_COUNT};
use crate::webgpu::adapter::power_preference;
use crate::work::{self, Options, Work};

pub use args::to_js_error;
use args::{
    array_len, canvas_arg, check_copies, drawn_object, held_checked, kernel_arg, kernel_names,
    matrix_arg, matrix_held, number_arg, options_arg, options_object, set, string_arg,
    string_option, style_arg, Held, SEMIRING_NAMES,
};
pub use run::JsRun;

/// `Gpgpu.create`'s backends and power preferences, as a message lists them.
const BACKENDS: &str = "'auto', 'webgl', 'webgpu' or 'cpu'";
const PREFERENCES: &str = "'low-power' or 'high-performance'";

/// TypeScript names for what the API takes and gives (the generated d.ts would
/// otherwise say `any` and `object`).
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** A row-major matrix: element (i, j) at index i*cols + j. Any numeric typed array
 *  or array of numbers; converted to float32. (Not any ArrayLike: an object such as
 *  { length: 4, 0: 1, … } is BAD_ARGUMENT at run time.) */
export type Matrix = Float32Array | Float64Array | Int32Array | Uint32Array | Int16Array
  | Uint16Array | Int8Array | Uint8Array | Uint8ClampedArray | readonly number[];
export type BackendName = "webgl" | "webgpu" | "cpu";
/** HTMLCanvasElement where TypeScript has the DOM's types (lib "dom"); `never` where it
 *  has only a worker's (lib "webworker", which has OffscreenCanvas but no
 *  HTMLCanvasElement), so that this file type-checks in a worker's project too. */
export type CanvasElement = typeof globalThis extends { HTMLCanvasElement: { prototype: infer T } }
  ? T : never;
/** WebGL kernels (fragment shaders), then WebGPU kernels (compute shaders), then the
 *  CPU's (wasm SIMD128 in Web Workers). */
export type KernelName = "naive" | "packed" | "blocked4" | "blocked8"
  | "global" | "tiled16" | "register" | "simd";
export type SemiringName = "ordinary" | "boolean" | "min-plus";
/** `backend`: "auto" (default: WebGPU on a hardware adapter, else WebGL), "webgl",
 *  "webgpu" or "cpu"; `canvas`: WebGL's canvas; `powerPreference`: WebGPU's adapter;
 *  `threads`: the CPU backend's Web Workers (default navigator.hardwareConcurrency;
 *  0 runs products on the calling thread). */
export interface CreateOptions { backend?: BackendName | "auto";
  canvas?: CanvasElement | OffscreenCanvas;
  powerPreference?: "low-power" | "high-performance"; threads?: number; }
/** A matrix of a Run: its input ("a", or "input"), B of a product, the latest pass's
 *  output, or the result once every pass has run. */
export type RunMatrix = "a" | "input" | "b" | "latest" | "result";
/** `kernel`: "auto" (default: the fastest for the shape) or a kernel of info().kernels. */
export interface KernelOptions { kernel?: KernelName | "auto"; }
/** The options of a step-through run (`startSquare`, …): no `maxTile`, since a run
 *  holds whole matrices. */
export interface RunOptions extends KernelOptions { semiring?: SemiringName; }
/** `maxTile`: cut matrices into tiles of at most this side (sizes past the device
 *  limit are tiled anyway); plain and Async calls only, not step-through runs. */
export interface ProductOptions extends RunOptions { maxTile?: number; }
export interface HeatmapStyle { range?: number; sequential?: boolean; logFloor?: number; }
export interface HeatmapDrawn { blockRows: number; blockCols: number; stride: number; }
export interface MatrixStats { maxAbs: number; nan: number; inf: number; sumAbs: number;
  sumSquares: number; min: number; max: number; }
export interface KernelInfo { name: KernelName; backend: BackendName; description: string;
  planes: number; file: string; }
/** WebGL: renderer, versions and texture limits; WebGPU: the adapter and its limits;
 *  the CPU: threads and simd. */
export interface DeviceInfo { backend: BackendName; maxDimension: number; kernels: KernelName[];
  timerQuery: boolean;
  renderer?: string; vendor?: string; webglVersion?: string;
  glslVersion?: string; maxTextureSize?: number; maxViewportDims?: [number, number];
  maxDrawBuffers?: number; maxTextureUnits?: number; floatRenderable?: boolean;
  architecture?: string; device?: string; description?: string; fallbackAdapter?: boolean;
  maxStorageBufferBindingSize?: number; maxBufferSize?: number; maxMatrixBytes?: number;
  maxComputeWorkgroupsPerDimension?: number; maxComputeWorkgroupStorageSize?: number;
  maxComputeInvocationsPerWorkgroup?: number; features?: string[]; registerKernel?: string;
  threads?: number; simd?: string; }
/** WebGL: textures, framebuffers, …; WebGPU: buffers, pipelines, …; the CPU: buffers
 *  (matrices in wasm memory) and workers. */
export type LiveObjects = Record<string, number>;
/** What every thrown error carries (`name === "GpgpuError"`). */
export type GpgpuErrorCode = "NO_WEBGL2" | "NO_FLOAT_RENDER_TARGET" | "SIZE_OVER_LIMIT"
  | "BAD_DIMENSION" | "BAD_COUNT" | "BAD_LENGTH" | "BAD_ARGUMENT" | "SHADER_COMPILE"
  | "PROGRAM_LINK" | "CONTEXT_LOST" | "FREED" | "GL_ERROR" | "NO_WEBGPU" | "DEVICE_LOST"
  | "OUT_OF_MEMORY" | "WEBGPU_ERROR" | "NEEDS_ASYNC" | "WORKER_ERROR";
export interface GpgpuError extends Error { name: "GpgpuError"; code: GpgpuErrorCode; }
/** `checkRunSize`'s two forms (merged into the class Gpgpu). */
export interface Gpgpu {
  /** Throws what `startSquare(n, …)` (or startPower, startSquareRepeatedly) would
   *  throw for an n × n input, with no arrays: SIZE_OVER_LIMIT past the device's limit
   *  or WebAssembly memory, BAD_DIMENSION. Ask before building a large input. */
  checkRunSize(n: number): void;
  /** The same for `startMultiply(rows, inner, cols, …)`: give all three sizes (two
   *  are BAD_ARGUMENT). */
  checkRunSize(rows: number, inner: number, cols: number): void;
}
export interface Reachability { matrix: Float32Array; connected: boolean; squarings: number; }
export interface ShortestPaths { distances: Float32Array; squarings: number; negativeCycle: boolean; }
export interface FibonacciResult { k: number; value: number; exactValue: string | null;
  exact: boolean; passes: number; }
/** maxDoublings 1..1000 (default 60), patience 0..1000 (default 0); d > 0, series only
 *  (with Newton–Schulz, the default method, `d` is BAD_ARGUMENT). */
export type InverseOptions = KernelOptions & { maxDoublings?: number; patience?: number; }
  & ({ method?: "newton-schulz"; d?: undefined } | { method: "series"; d?: number });
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

pub(crate) type JsResult<T> = std::result::Result<T, JsValue>;

/// What starts an operation on an engine: the arguments, already read and checked.
type Start = Box<dyn FnOnce(&mut Engine) -> Result<Work>>;

/// An operation once its arguments are read (and, for the products, its passes
/// queued): what is left to await. Boxed, so that every export shares the one
/// blocking runner and the one Promise runner below instead of instantiating
/// its own (the exports' state machines were the largest part of the wasm).
pub(crate) type Op = std::pin::Pin<Box<dyn std::future::Future<Output = Result<JsValue>>>>;

/// `op`'s remaining work, boxed.
pub(crate) fn op(f: impl std::future::Future<Output = Result<JsValue>> + 'static) -> Result<Op> {
    Ok(Box::pin(f))
}

impl JsGpgpu {
    /// An operation's work on the engine's handle, boxed.
    pub(crate) fn work<F>(&self, work: impl FnOnce(Handle) -> F) -> Result<Op>
    where
        F: std::future::Future<Output = Result<JsValue>> + 'static,
    {
        op(work(self.handle()))
    }
}

/// The Promise form of an operation: its arguments were read during the call,
/// a bad one rejects the Promise.
pub(crate) fn promise(op: Result<Op>) -> Promise {
    future_to_promise(async move { op.map_err(to_js_error)?.await.map_err(to_js_error) })
}

/// The blocking form of an operation: NEEDS_ASYNC on WebGPU before anything is
/// read or queued; on WebGL and the CPU `op` starts under [`crate::common::now`],
/// so that its reads are synchronous and it completes on the one poll.
pub(crate) fn now(
    handle: &Handle,
    call: &'static str,
    instead: &'static str,
    op: &mut dyn FnMut() -> Result<Op>,
) -> JsResult<JsValue> {
    work::can_block(handle, call, instead)
        .and_then(|()| crate::common::now(async { op()?.await }, call, instead))
        .map_err(to_js_error)
}

/// Both forms of one operation from one declaration: the blocking export (WebGL
/// and the CPU; NEEDS_ASYNC on WebGPU, naming the other) and its Promise export,
/// with the same parameters (`name: "TypeScript type"`, the optional ones after a
/// `;`), both running `op(self, &args…) -> Result<Op>`. On
/// `Gpgpu` by default; `Run:` for the step-through class, whose calls are named
/// `run.read()` and so on.
macro_rules! pair {
    (
        @impl $class:ident $ty:ident [$($mut:ident)?] [$pre:tt $post:tt]
        $(#[doc = $doc:tt])*
        $now:ident $js_now:ident -> $T:ident as $ret:tt;
        $(#[doc = $adoc:tt])*
        $later:ident $js_later:ident as $promise:tt;
        ($($arg:ident: $t:tt),* $(; $($opt:ident: $ot:tt),*)?) => $($op:ident)::+
    ) => {
        #[wasm_bindgen(js_class = $class)]
        impl $ty {
            $(#[doc = $doc])*
            #[wasm_bindgen(js_name = $js_now, unchecked_return_type = $ret)]
            pub fn $now(
                &$($mut)? self,
                $(#[wasm_bindgen(unchecked_param_type = $t)] $arg: JsValue,)*
                $($(#[wasm_bindgen(unchecked_optional_param_type = $ot)] $opt: JsValue,)*)?
            ) -> JsResult<$T> {
                let call = concat!($pre, stringify!($js_now), $post);
                let instead = concat!($pre, stringify!($js_later), $post);
                let handle = self.handle();
                let mut op = || $($op)::+(self, $(&$arg,)* $($(&$opt,)*)?);
                crate::js::now(&handle, call, instead, &mut op)
                    .map(wasm_bindgen::JsCast::unchecked_into)
            }

            $(#[doc = $adoc])*
            #[wasm_bindgen(js_name = $js_later, unchecked_return_type = $promise)]
            pub fn $later(
                &$($mut)? self,
                $(#[wasm_bindgen(unchecked_param_type = $t)] $arg: JsValue,)*
                $($(#[wasm_bindgen(unchecked_optional_param_type = $ot)] $opt: JsValue,)*)?
            ) -> Promise {
                crate::js::promise($($op)::+(self, $(&$arg,)* $($(&$opt,)*)?))
            }
        }
    };
    (Run: $($rest:tt)*) => { pair! { @impl Run JsRun [mut] ["run." "()"] $($rest)* } };
    ($($rest:tt)*) => { pair! { @impl Gpgpu JsGpgpu [] ["" ""] $($rest)* } };
}
pub(crate) use pair;

/// Reads JS arguments and returns what starts the matching operation; shared by the
/// blocking, Promise and step-through entry points. With `tiles` (the plain and
/// Promise calls) sizes past the device limit, or over `maxTile`, are multiplied in
/// tiles; step-through runs (`tiles` false) keep the device limit.
mod start {
    use super::*;

    fn dim(g: &Gpgpu, name: &str, value: &JsValue, tiles: bool) -> Result<usize> {
        let v = number_arg(name, value)?;
        match tiles {
            true => work::tiled_dimension(name, v),
            false => g.dim(name, v),
        }
    }

    fn plan(n: usize, m: Held, plan: PassPlan, options: Options, tiles: bool) -> Start {
        Box::new(move |e| match tiles {
            true => work::begin_plan(e, n, m.input(), plan, &options),
            false => work::start_plan(e, n, m.input(), plan, &options).map(Work::Whole),
        })
    }

    /// Whether a call's matrices may be held as the caller's arrays until their
    /// upload: on WebGPU, whose start runs during the call unless a lost device is
    /// being replaced (a queued start keeps copies: the caller may change its arrays
    /// after the call returns).
    fn direct(g: &Gpgpu) -> bool {
        let e = g.engine();
        e.backend() == Backend::WebGpu && !e.replacing()
    }

    /// Refuses, before the arrays are read, what could never be held: past the
    /// device limit without tiles, or more than WebAssembly memory (in f64: a shape
    /// past memory would overflow usize on wasm32).
    pub(super) fn check_sizes(
        g: &Gpgpu,
        inputs: &[Shape],
        result: Shape,
        tiles: bool,
    ) -> Result<()> {
        let e = g.engine();
        if !tiles {
            inputs
                .iter()
                .chain([&result])
                .try_for_each(|s| e.check_shape(*s))?;
        }
        grid::check_memory_on(
            e.backend(),
            "this operation",
            inputs,
            result,
            grid::SMALLER_MATRICES,
        )
    }

    /// The sizes of a step-through run (`checkRunSize`): as `startMultiply` checks
    /// them, with no arrays.
    pub fn run_size(g: &Gpgpu, [rows, inner, cols]: [&JsValue; 3]) -> Result<()> {
        // Rows alone: a square run's n, named as startSquare names it.
        let square = inner.is_undefined() && cols.is_undefined();
        if !square && (inner.is_undefined() || cols.is_undefined()) {
            // Two sizes once checked a product whose missing one was rows, unsaid.
            return Err(GpgpuError::BadArgument {
                name: "checkRunSize".into(),
                detail: "give rows, inner and cols (a product, as startMultiply takes \
                         them) or n alone (startSquare, startPower, startSquareRepeatedly), \
                         not two sizes"
                    .into(),
            });
        }
        let rows = dim(g, if square { "n" } else { "rows" }, rows, false)?;
        let (inner, cols) = match square {
            true => (rows, rows),
            false => (dim(g, "inner", inner, false)?, dim(g, "cols", cols, false)?),
        };
        let out = Shape::new(rows, cols);
        // A square run has one input, as startSquare counts it.
        let inputs = match square {
            true => vec![out],
            false => vec![Shape::new(rows, inner), Shape::new(inner, cols)],
        };
        check_sizes(g, &inputs, out, false)
    }

    pub fn square(
        g: &Gpgpu,
        n: &JsValue,
        m: &JsValue,
        options: &JsValue,
        tiles: bool,
    ) -> Result<Start> {
        let n = dim(g, "n", n, tiles)?;
        check_sizes(g, &[Shape::square(n)], Shape::square(n), tiles)?;
        let m = matrix_held("m", m, direct(g))?;
        let options = options_arg(options)?;
        Ok(plan(n, m, passes::power(2), options, tiles))
    }

    pub fn multiply(
        g: &Gpgpu,
        [rows, inner, cols]: [&JsValue; 3],
        a: &JsValue,
        b: &JsValue,
        options: &JsValue,
        tiles: bool,
    ) -> Result<Start> {
        let dims = [
            dim(g, "rows", rows, tiles)?,
            dim(g, "inner", inner, tiles)?,
            dim(g, "cols", cols, tiles)?,
        ];
        let (sa, sb) = (Shape::new(dims[0], dims[1]), Shape::new(dims[1], dims[2]));
        let out = Shape::new(dims[0], dims[2]);
        check_sizes(g, &[sa, sb], out, tiles)?;
        // Both lengths before either array is copied.
        let (la, lb) = (array_len("a", a)?, array_len("b", b)?);
        shape::check_len("a", sa, la)?;
        shape::check_len("b", sb, lb)?;
        check_copies("this product", &[("a", la, 4), ("b", lb, 4)])?;
        let (a, b) = (
            held_checked("a", a, direct(g))?,
            held_checked("b", b, direct(g))?,
        );
        let options = options_arg(options)?;
        Ok(Box::new(move |e| match tiles {
            true => work::begin_product(e, dims, a.input(), b.input(), &options),
            false => work::start_product(e, dims, a.input(), b.input(), &options).map(Work::Whole),
        }))
    }

    pub fn repeat(
        g: &Gpgpu,
        n: &JsValue,
        m: &JsValue,
        times: &JsValue,
        options: &JsValue,
        tiles: bool,
    ) -> Result<Start> {
        let n = dim(g, "n", n, tiles)?;
        let max = passes::MAX_SQUARINGS as f64;
        let times = shape::count("times", number_arg("times", times)?, max)?;
        check_sizes(g, &[Shape::square(n)], Shape::square(n), tiles)?;
        let m = matrix_held("m", m, direct(g))?;
        let options = options_arg(options)?;
        Ok(plan(n, m, passes::repeated_square(times)?, options, tiles))
    }

    pub fn power(
        g: &Gpgpu,
        n: &JsValue,
        m: &JsValue,
        p: &JsValue,
        options: &JsValue,
        tiles: bool,
    ) -> Result<Start> {
        let n = dim(g, "n", n, tiles)?;
        let p = shape::count("p", number_arg("p", p)?, MAX_COUNT)?;
        check_sizes(g, &[Shape::square(n)], Shape::square(n), tiles)?;
        let m = matrix_held("m", m, direct(g))?;
        let options = options_arg(options)?;
        Ok(plan(n, m, passes::power(p), options, tiles))
    }
}

/// Matrix products, repeated squaring and matrix powers on WebGL2 fragment shaders,
/// WebGPU compute shaders, or the CPU (a SIMD128 kernel in Web Workers).
#[wasm_bindgen(js_name = Gpgpu)]
pub struct JsGpgpu {
    pub(crate) gpu: Gpgpu,
}

/// `{ backend?, canvas?, powerPreference? }` of `Gpgpu.create`.
fn create_options(value: &JsValue) -> Result<CreateOptions> {
    let mut options = CreateOptions::default();
    let Some(obj) = options_object(value, "options", "{ backend: 'webgpu' }")? else {
        return Ok(options);
    };
    for key in crate::common::guard::keys(obj, "options")? {
        let v = crate::common::guard::field(value, "options", &key)?;
        if v.is_undefined() {
            continue;
        }
        match key.as_str() {
            "backend" => {
                options.backend = match string_option(value, "backend", BACKENDS)?.as_str() {
                    "auto" => BackendChoice::Auto,
                    "webgl" => BackendChoice::WebGl,
                    "webgpu" => BackendChoice::WebGpu,
                    "cpu" => BackendChoice::Cpu,
                    other => {
                        return Err(GpgpuError::BadArgument {
                            name: "options.backend".into(),
                            detail: format!("unknown backend '{other}'; use {BACKENDS}"),
                        })
                    }
                }
            }
            "canvas" => options.canvas = Some(Canvas::from_js(&v)?),
            "threads" => options.threads = Some(crate::js::cpu::threads_option(value)?),
            "powerPreference" => {
                let name = string_option(value, "powerPreference", PREFERENCES)?;
                options.power_preference =
                    Some(
                        power_preference(&name).ok_or_else(|| GpgpuError::BadArgument {
                            name: "options.powerPreference".into(),
                            detail: format!("unknown preference '{name}'; use {PREFERENCES}"),
                        })?,
                    );
            }
            other => {
                return Err(GpgpuError::BadArgument {
                    name: "options".into(),
                    detail: format!(
                        "unknown option '{other}'; known: backend, canvas, powerPreference, threads"
                    ),
                })
            }
        }
    }
    Ok(options)
}

impl JsGpgpu {
    fn handle(&self) -> Handle {
        self.gpu.handle()
    }

    /// A product or power: its passes are queued now, in call order (after a WebGPU
    /// device loss: once the new device is there); only the wait for the readback
    /// comes later, with no borrow held meanwhile.
    fn product(&self, start: Result<Start>) -> Result<Op> {
        let handle = self.handle();
        let queue = |handle: &Handle, start: Start| {
            handle.with(|e| {
                let work = start(e)?;
                work::finish_work_async(e, work)
            })
        };
        let start = start?;
        let queued = match handle.with(|e| Ok(e.replacing()))? {
            true => Err(start),
            false => Ok(queue(&handle, start)?),
        };
        op(async move {
            let pending = match queued {
                Ok(pending) => pending,
                Err(start) => {
                    handle.ready().await?;
                    queue(&handle, start)?
                }
            };
            Ok(pending.wait_js().await?.into())
        })
    }

    fn stepwise(&self, start: impl FnOnce(&Gpgpu) -> Result<Start>) -> JsResult<JsRun> {
        let make = || {
            let start = start(&self.gpu)?;
            let mut engine = self.gpu.engine();
            start(&mut engine)?.into_run(&mut engine)
        };
        let run = make().map_err(to_js_error)?;
        Ok(JsRun::new(self.gpu.shared(), run))
    }
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// `new Gpgpu(canvas?)`: WebGL2 on the given HTMLCanvasElement / OffscreenCanvas or
    /// on a canvas of its own. For WebGPU (or the automatic choice) use
    /// `await Gpgpu.create({ backend })`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "CanvasElement | OffscreenCanvas")]
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
        let gpu = Gpgpu::new(canvas).map_err(to_js_error)?;
        Ok(JsGpgpu { gpu })
    }

    /// `await Gpgpu.create({ backend, canvas, powerPreference })`: backend "auto"
    /// (default: WebGPU on a hardware adapter, WebGL2 when the only adapter is a
    /// software one or there is none), "webgl" or "webgpu".
    #[wasm_bindgen(unchecked_return_type = "Promise<Gpgpu>")]
    pub fn create(
        #[wasm_bindgen(unchecked_optional_param_type = "CreateOptions")] options: JsValue,
    ) -> Promise {
        console_error_panic_hook::set_once();
        let options = create_options(&options);
        future_to_promise(async move {
            let options = options.map_err(to_js_error)?;
            let gpu = Gpgpu::create(options).await.map_err(to_js_error)?;
            Ok(JsGpgpu { gpu }.into())
        })
    }

    /// Which backend this instance runs: "webgl" or "webgpu".
    #[wasm_bindgen(getter, unchecked_return_type = "BackendName")]
    pub fn backend(&self) -> String {
        self.gpu.backend().name().into()
    }

    /// `square` as a `Run` whose passes the caller steps through.
    #[wasm_bindgen(js_name = startSquare)]
    pub fn start_square(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RunOptions")] options: JsValue,
    ) -> JsResult<JsRun> {
        self.stepwise(|g| start::square(g, &n, &m, &options, false))
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
        #[wasm_bindgen(unchecked_optional_param_type = "RunOptions")] options: JsValue,
    ) -> JsResult<JsRun> {
        self.stepwise(|g| start::multiply(g, [&rows, &inner, &cols], &a, &b, &options, false))
    }

    /// `squareRepeatedly` as a `Run`.
    #[wasm_bindgen(js_name = startSquareRepeatedly)]
    pub fn start_square_repeatedly(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] times: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RunOptions")] options: JsValue,
    ) -> JsResult<JsRun> {
        self.stepwise(|g| start::repeat(g, &n, &m, &times, &options, false))
    }

    /// `power` as a `Run`.
    #[wasm_bindgen(js_name = startPower)]
    pub fn start_power(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] m: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] p: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RunOptions")] options: JsValue,
    ) -> JsResult<JsRun> {
        self.stepwise(|g| start::power(g, &n, &m, &p, &options, false))
    }

    /// Throws what `startMultiply(rows, inner, cols, …)` (inner and cols left out:
    /// `startSquare(rows, …)`, or a power of it) would throw for these sizes, with no
    /// arrays: SIZE_OVER_LIMIT past the device's limit or WebAssembly memory,
    /// BAD_DIMENSION. Give all three sizes or one: two are BAD_ARGUMENT. Call it
    /// before building inputs of that size, which can take long or fail in JavaScript.
    /// (Its d.ts is the two overloads in TS_TYPES, so that tsc refuses two sizes too.)
    #[wasm_bindgen(js_name = checkRunSize, skip_typescript)]
    pub fn check_run_size(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] inner: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] cols: JsValue,
    ) -> JsResult<()> {
        start::run_size(&self.gpu, [&rows, &inner, &cols]).map_err(to_js_error)
    }

    /// { backend, maxDimension, kernels, timerQuery, … }: WebGL adds renderer, vendor,
    /// versions and texture limits; WebGPU the adapter's description, limits and
    /// features, and the register kernel's form on this device.
    #[wasm_bindgen(unchecked_return_type = "DeviceInfo")]
    pub fn info(&self) -> Object {
        let o = Object::new();
        let engine = self.gpu.engine();
        set(&o, "backend", engine.backend().name());
        set(&o, "maxDimension", engine.max_dimension() as f64);
        let kernels: Array = engine
            .kernels()
            .iter()
            .map(|k| JsValue::from_str(k.name()))
            .collect();
        set(&o, "kernels", kernels);
        drop(engine);
        match self.gpu.info() {
            Info::WebGl(i) => {
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
                set(&o, "floatRenderable", i.float_renderable);
                set(&o, "timerQuery", i.timer_query);
            }
            Info::WebGpu(i) => {
                set(&o, "vendor", i.vendor.as_str());
                set(&o, "architecture", i.architecture.as_str());
                set(&o, "device", i.device.as_str());
                set(&o, "description", i.description.as_str());
                set(&o, "fallbackAdapter", i.fallback);
                let l = &i.limits;
                set(
                    &o,
                    "maxStorageBufferBindingSize",
                    l.max_storage_buffer_binding_size,
                );
                set(&o, "maxBufferSize", l.max_buffer_size);
                // maxDimension bounds one side; a whole matrix must also fit one buffer.
                set(&o, "maxMatrixBytes", l.max_matrix_bytes());
                set(
                    &o,
                    "maxComputeWorkgroupsPerDimension",
                    l.max_compute_workgroups_per_dimension,
                );
                set(
                    &o,
                    "maxComputeWorkgroupStorageSize",
                    l.max_compute_workgroup_storage_size,
                );
                set(
                    &o,
                    "maxComputeInvocationsPerWorkgroup",
                    l.max_compute_invocations_per_workgroup,
                );
                let features: Array = i.features.iter().map(|f| JsValue::from_str(f)).collect();
                set(&o, "features", features);
                set(&o, "timerQuery", i.timestamp_query);
                let register = self
                    .gpu
                    .engine()
                    .webgpu()
                    .map(|e| e.register_description())
                    .unwrap_or_default();
                set(&o, "registerKernel", register);
            }
            Info::Cpu { threads } => {
                set(&o, "threads", threads as u32);
                set(&o, "simd", "wasm SIMD128, 4x8 register tile");
                set(&o, "timerQuery", false);
            }
        }
        o
    }

    /// Every kernel of the library, WebGL's then WebGPU's:
    /// [{ name, backend, description, planes, file }].
    #[wasm_bindgen(unchecked_return_type = "KernelInfo[]")]
    pub fn kernels() -> Array {
        Kernel::ALL
            .iter()
            .map(|k| {
                let o = Object::new();
                set(&o, "name", k.name());
                set(&o, "backend", k.backend().name());
                set(&o, "description", k.description());
                set(&o, "planes", k.layout().planes() as u32);
                set(&o, "file", k.file());
                JsValue::from(o)
            })
            .collect()
    }

    /// The shader file of a kernel, as written (with its comments): GLSL for the
    /// WebGL kernels, WGSL for the WebGPU ones.
    #[wasm_bindgen(js_name = kernelSource)]
    pub fn kernel_source(
        #[wasm_bindgen(unchecked_param_type = "KernelName")] name: JsValue,
    ) -> JsResult<String> {
        string_arg("kernel", &name, &kernel_names())
            .and_then(|name| kernel_arg(&name))
            .map(|k| k.source().to_string())
            .map_err(to_js_error)
    }

    /// The vertex shader every WebGL program shares (the full-screen quad).
    #[wasm_bindgen(js_name = vertexSource)]
    pub fn vertex_source() -> String {
        crate::engine::program::quad_vertex_source()
    }

    /// The complete fragment shader the GPU compiles for a WebGL kernel and semiring.
    #[wasm_bindgen(js_name = programSource)]
    pub fn program_source(
        #[wasm_bindgen(unchecked_param_type = "KernelName")] name: JsValue,
        #[wasm_bindgen(
            unchecked_optional_param_type = "\"ordinary\" | \"boolean\" | \"min-plus\""
        )]
        semiring: JsValue,
    ) -> JsResult<String> {
        let source = || {
            let (kernel, semiring) = kernel_and_semiring(&name, &semiring)?;
            let other = match kernel.backend() {
                Backend::WebGl => None,
                Backend::WebGpu => Some(
                    "a WebGPU kernel; gpu.shaderSource(kernel) gives the WGSL a device compiles",
                ),
                Backend::Cpu => Some(
                    "the CPU kernel, Rust rather than a shader; Gpgpu.kernelSource('simd') \
                     gives its source",
                ),
            };
            if let Some(what) = other {
                return Err(GpgpuError::BadArgument {
                    name: "kernel".into(),
                    detail: format!("'{}' is {what}", kernel.name()),
                });
            }
            Ok(ProductProgram { kernel, semiring }.fragment_source())
        };
        source().map_err(to_js_error)
    }

    /// The complete shader this device compiles for a kernel of its backend and a
    /// semiring, for an n × n product (n: 1024 when absent; on WebGPU the register
    /// kernel's form and tile sizes depend on the device and on n).
    #[wasm_bindgen(js_name = shaderSource)]
    pub fn shader_source(
        &self,
        #[wasm_bindgen(unchecked_param_type = "KernelName | \"auto\"")] name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SemiringName")] semiring: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] n: JsValue,
    ) -> JsResult<String> {
        let source = || {
            let (kernel, semiring, n) = self.shader_choice(&name, &semiring, &n)?;
            Ok(self.gpu.engine().product_source(kernel, semiring, n))
        };
        source().map_err(to_js_error)
    }

    /// The file (as `Gpgpu.kernels()` lists them) of the shader `shaderSource` gives:
    /// for the register kernel on WebGPU, the form this device runs for an n × n
    /// product (n: 1024 when absent).
    #[wasm_bindgen(js_name = shaderFile)]
    pub fn shader_file(
        &self,
        #[wasm_bindgen(unchecked_param_type = "KernelName | \"auto\"")] name: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "number")] n: JsValue,
    ) -> JsResult<String> {
        let file = || {
            let (kernel, _, n) = self.shader_choice(&name, &JsValue::UNDEFINED, &n)?;
            Ok(self.gpu.engine().product_file(kernel, n).to_string())
        };
        file().map_err(to_js_error)
    }

    /// The kernel `auto` picks for an n×n product on this device.
    #[wasm_bindgen(js_name = defaultKernel, unchecked_return_type = "KernelName")]
    pub fn default_kernel(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
    ) -> JsResult<String> {
        let pick = || {
            let n = self.lookup_size(&n)?;
            let k = self.gpu.engine().choose_kernel(None, Shape::square(n))?;
            Ok(k.name().to_string())
        };
        pick().map_err(to_js_error)
    }

    /// Live GPU objects created by this instance (for leak checks): WebGL textures,
    /// framebuffers, …; WebGPU buffers, pipelines, bind groups, query sets.
    #[wasm_bindgen(js_name = liveObjects, unchecked_return_type = "LiveObjects")]
    pub fn live_objects(&self) -> Object {
        let o = Object::new();
        for (k, v) in self.gpu.live_objects() {
            set(&o, k, v);
        }
        o
    }

    /// Fill outputs with `value` (e.g. NaN) before every pass, so unwritten elements
    /// show; `null` turns it off. For tests and debugging.
    #[wasm_bindgen(js_name = setPoison)]
    pub fn set_poison(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | null")] value: JsValue,
    ) -> JsResult<()> {
        let poison = if value.is_null() || value.is_undefined() {
            None
        } else {
            let v = number_arg("value", &value).map_err(to_js_error)?;
            Some(args::f32_value("value", v).map_err(to_js_error)?)
        };
        self.gpu.set_poison(poison);
        Ok(())
    }

    /// Frees pooled GPU memory now rather than at its next reuse.
    pub fn trim(&self) {
        self.gpu.engine().trim();
    }

    /// The canvas the WebGL context lives on (null on WebGPU).
    #[wasm_bindgen(
        getter,
        unchecked_return_type = "CanvasElement | OffscreenCanvas | null"
    )]
    pub fn canvas(&self) -> JsValue {
        match &mut *self.gpu.engine() {
            Engine::WebGl(e) => e.canvas().js_value(),
            Engine::WebGpu(_) | Engine::Cpu(_) => JsValue::NULL,
        }
    }

    /// The GPUDevice (null on WebGL): for interop, and for tests that destroy it
    /// to stand in for a device loss. Typed `object` in the d.ts, so that it compiles
    /// without @webgpu/types; cast it to `GPUDevice` where those types are installed.
    // Typed `object`: TypeScript's DOM library has no GPUDevice (that is @webgpu/types).
    #[wasm_bindgen(getter, unchecked_return_type = "object | null")]
    pub fn device(&self) -> JsValue {
        match &mut *self.gpu.engine() {
            Engine::WebGpu(e) => e.gpu().device().clone().into(),
            Engine::WebGl(_) | Engine::Cpu(_) => JsValue::NULL,
        }
    }
}

impl JsGpgpu {
    fn start_heatmap(
        &self,
        rows: &JsValue,
        cols: &JsValue,
        data: &JsValue,
        canvas: &JsValue,
        style: &JsValue,
    ) -> Result<crate::ops::heatmap::PendingDraw> {
        // A side past the device's matrix limit (WebGL's texture side, the CPU's 16384)
        // is coloured here instead of refused: the picture needs only the canvas's
        // pixels (crate::ops::heatmap::heatmap_here).
        let side = |name: &str, value: &JsValue| -> Result<(usize, bool)> {
            let value = number_arg(name, value)?;
            match self.gpu.dim(name, value) {
                Err(e) if e.code() == "SIZE_OVER_LIMIT" => {
                    Ok((crate::work::tiled_dimension(name, value)?, true))
                }
                side => side.map(|d| (d, false)),
            }
        };
        let (rows, rows_past) = side("rows", rows)?;
        let (cols, cols_past) = side("cols", cols)?;
        let data = matrix_arg("data", data)?;
        let shape = Shape::new(rows, cols);
        shape::check_len("data", shape, data.len())?;
        let canvas = canvas_arg(canvas)?;
        let (style, range) = style_arg(style)?;
        // The range of the data as given (finite values only), as the page expects; at
        // least f32::MIN_POSITIVE, as the backends take an all-zero matrix's 0 (a range
        // must be > 0: Style::check).
        let range = range.or_else(|| {
            Some(
                data.iter()
                    .filter(|v| v.is_finite())
                    .fold(f32::MIN_POSITIVE, |a, v| a.max(v.abs())),
            )
        });
        if rows_past || cols_past {
            return crate::ops::heatmap::heatmap_here(shape, &data, &canvas, range, style);
        }
        let mut e = self.gpu.engine();
        let layout = match e.backend() {
            Backend::WebGl => crate::plan::layout::Layout::Scalar,
            Backend::WebGpu | Backend::Cpu => crate::plan::layout::Layout::Linear,
        };
        let m = e.upload(shape, layout, &data, 0.0)?;
        let drawn = e.heatmap(&m, &canvas, range, style);
        e.recycle(m);
        drawn
    }
}

/// A kernel name and an optional semiring name.
fn kernel_and_semiring(name: &JsValue, semiring: &JsValue) -> Result<(Kernel, Semiring)> {
    let kernel = kernel_arg(&string_arg("kernel", name, &kernel_names())?)?;
    let semiring = match semiring.is_undefined() {
        true => Semiring::Ordinary,
        false => {
            let s = string_arg("semiring", semiring, SEMIRING_NAMES)?;
            Semiring::parse(&s).ok_or_else(|| GpgpuError::BadArgument {
                name: "semiring".into(),
                detail: format!("unknown semiring '{s}'; use {SEMIRING_NAMES}"),
            })?
        }
    };
    Ok((kernel, semiring))
}

pair! {
    #[doc = " R = M·M for an n×n row-major Float32Array. WebGL and the CPU (WebGPU: squareAsync)."]
    square square -> Float32Array as "Float32Array";
    #[doc = " Like `square`, without blocking: WebGL reads back through a pixel-pack buffer"]
    #[doc = " and a fence, WebGPU through mapAsync."]
    square_async squareAsync as "Promise<Float32Array>";
    (n: "number", m: "Matrix"; options: "ProductOptions") => products::square
}

pair! {
    #[doc = " A·B with A rows×inner and B inner×cols. WebGL and the CPU (WebGPU: multiplyAsync)."]
    multiply multiply -> Float32Array as "Float32Array";
    #[doc = " Like `multiply`, without blocking."]
    multiply_async multiplyAsync as "Promise<Float32Array>";
    (rows: "number", inner: "number", cols: "number", a: "Matrix", b: "Matrix"; options: "ProductOptions") => products::multiply
}

pair! {
    #[doc = " M^(2^times): `times` squarings chained on the GPU; times = 0 returns M."]
    square_repeatedly squareRepeatedly -> Float32Array as "Float32Array";
    #[doc = " Like `squareRepeatedly`, without blocking."]
    square_repeatedly_async squareRepeatedlyAsync as "Promise<Float32Array>";
    (n: "number", m: "Matrix", times: "number"; options: "ProductOptions") => products::repeat
}

pair! {
    #[doc = " M^p for a whole p >= 0 by binary exponentiation; p = 0 gives the identity."]
    power power -> Float32Array as "Float32Array";
    #[doc = " Like `power`, without blocking."]
    power_async powerAsync as "Promise<Float32Array>";
    (n: "number", m: "Matrix", p: "number"; options: "ProductOptions") => products::power
}

pair! {
    #[doc = " Draws any rows×cols array (e.g. |GPU − double|) as a heatmap on `canvas`,"]
    #[doc = " through the same colour map. Returns { blockRows, blockCols, stride }."]
    #[doc = " WebGL and the CPU (WebGPU: drawHeatmapAsync)."]
    draw_heatmap drawHeatmap -> Object as "HeatmapDrawn";
    #[doc = " Like `drawHeatmap`, on either backend: resolves once the picture is on the"]
    #[doc = " canvas (WebGPU colours it in a compute pass and sends only the pixels back)."]
    draw_heatmap_async drawHeatmapAsync as "Promise<HeatmapDrawn>";
    (rows: "number", cols: "number", data: "Matrix", canvas: "CanvasElement | OffscreenCanvas"; style: "HeatmapStyle") => products::heatmap
}

/// The operations of the pairs above, once per product: what starts it, queued by
/// [`JsGpgpu::product`].
mod products {
    use super::*;

    pub fn square(g: &JsGpgpu, n: &JsValue, m: &JsValue, o: &JsValue) -> Result<Op> {
        g.product(start::square(&g.gpu, n, m, o, true))
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
        g.product(start::repeat(&g.gpu, n, m, t, o, true))
    }

    pub fn power(g: &JsGpgpu, n: &JsValue, m: &JsValue, p: &JsValue, o: &JsValue) -> Result<Op> {
        g.product(start::power(&g.gpu, n, m, p, o, true))
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
}

impl JsGpgpu {
    /// The n of `defaultKernel`, `shaderSource` and `shaderFile`: any size a product
    /// takes; past the device's limit a product runs in tiles of that limit, so the
    /// answer is the one for such a tile.
    fn lookup_size(&self, n: &JsValue) -> Result<usize> {
        let n = work::tiled_dimension("n", number_arg("n", n)?)?;
        Ok(n.min(self.gpu.max_dimension()))
    }

    /// The kernel, semiring and size `shaderSource` / `shaderFile` are asked about:
    /// 'auto' is the kernel the rule picks for an n × n product; n defaults to 1024.
    fn shader_choice(
        &self,
        name: &JsValue,
        semiring: &JsValue,
        n: &JsValue,
    ) -> Result<(Kernel, Semiring, usize)> {
        let n = match n.is_undefined() {
            true => 1024,
            false => self.lookup_size(n)?,
        };
        let engine = self.gpu.engine();
        let auto = format!("'auto' or {}", kernel_names());
        let (kernel, semiring) = match string_arg("kernel", name, &auto)?.as_str() {
            "auto" => {
                let (_, semiring) = kernel_and_semiring(&"naive".into(), semiring)?;
                (engine.choose_kernel(None, Shape::square(n))?, semiring)
            }
            _ => kernel_and_semiring(name, semiring)?,
        };
        engine.choose_kernel(Some(kernel), Shape::square(1))?;
        Ok((kernel, semiring, n))
    }
}

#[cfg(test)]
mod tests {
    /// Every code `GpgpuError::code` can give is in the TypeScript union, so that
    /// `if (e.code === 'WORKER_ERROR')` type-checks (read from error.rs's source, so a new
    /// code cannot be forgotten here).
    #[test]
    fn the_typescript_error_codes_are_every_code_the_library_gives() {
        let source = include_str!("../../plan/src/error.rs");
        let body = &source[source.find("pub fn code(&self)").unwrap()..];
        let body = &body[..body.find("\n    }\n").unwrap()];
        let codes: Vec<&str> = body
            .split("=> \"")
            .skip(1)
            .map(|s| &s[..s.find('"').unwrap()])
            .collect();
        assert!(codes.len() >= 19, "{codes:?}");
        let types = include_str!("mod.rs");
        let union = &types[types.find("export type GpgpuErrorCode =").unwrap()..];
        let union = &union[..union.find(';').unwrap()];
        for code in codes {
            assert!(
                union.contains(&format!("\"{code}\"")),
                "{code} is missing from GpgpuErrorCode"
            );
        }
    }
}
