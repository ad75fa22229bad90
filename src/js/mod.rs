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
pub mod gpu_blocks;
pub mod lab;
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
    matrix_arg, matrix_held, number_arg, objects, options_arg, options_object, set, string_arg,
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
 *  the CPU: threads and simd. `fallback`: why 'auto' made WebGL2 although the browser
 *  has a hardware WebGPU adapter ("requestDevice() failed: …", "the WebGPU device was
 *  lost before its first use: …"); absent otherwise. `timerResolutionMs`: the step of
 *  performance.now() in this browser (1 ms in Firefox unless cross-origin isolated,
 *  0.1 ms in Chromium), measured once: the library's wall-clock figures are returned
 *  unrounded, and one reading is good to this step only. */
export interface DeviceInfo { backend: BackendName; maxDimension: number; kernels: KernelName[];
  timerQuery: boolean; timerResolutionMs: number; fallback?: string;
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

/// One export from one declaration: its docs, Rust and JS names, TypeScript return
/// type (`as "…"`, where not the Rust type's) and Rust return type; the receiver in
/// brackets; the parameters as `name: "TypeScript type"` (`name as jsName: …` where
/// JavaScript calls it otherwise), the optional ones after a `;`, each arriving as a
/// `JsValue` of that name; then the body. On `Gpgpu` unless
/// the declaration starts with `Class JsType:`. Docs are written `#[doc = " …"]`: a
/// `///` comment passed through a macro reaches wasm-bindgen as a raw string, whose
/// `r"` it would copy into the .d.ts.
macro_rules! export {
    (
        $class:ident $ty:ident:
        $(#[doc = $doc:tt])*
        $name:ident $js:ident $(as $ret:tt)? -> $R:ty;
        [$($recv:tt)+] ($($arg:ident $(as $js_arg:ident)?: $t:tt),* $(; $($opt:ident: $ot:tt),*)?) => $body:expr
    ) => {
        #[wasm_bindgen(js_class = $class)]
        impl $ty {
            $(#[doc = $doc])*
            #[wasm_bindgen(js_name = $js $(, unchecked_return_type = $ret)?)]
            pub fn $name(
                $($recv)+,
                $(#[wasm_bindgen($(js_name = $js_arg,)? unchecked_param_type = $t)] $arg: JsValue,)*
                $($(#[wasm_bindgen(unchecked_optional_param_type = $ot)] $opt: JsValue,)*)?
            ) -> $R {
                $body
            }
        }
    };
    ($($rest:tt)*) => { crate::js::export! { Gpgpu JsGpgpu: $($rest)* } };
}
pub(crate) use export;

/// Both forms of one operation from one declaration: the blocking export (WebGL
/// and the CPU; NEEDS_ASYNC on WebGPU, naming the other) and its Promise export,
/// with the same parameters (`name: "TypeScript type"`, the optional ones after a
/// `;`), both running `op(self, &args…) -> Result<Op>`. On
/// `Gpgpu` by default; `Run:` for the step-through class, whose calls are named
/// `run.read()` and so on.
macro_rules! pair {
    (
        @impl $class:ident $ty:ident $mut:tt $names:tt
        $(#[doc = $doc:tt])*
        $now:ident $js_now:ident -> $T:ident as $ret:tt;
        $(#[doc = $adoc:tt])*
        $later:ident $js_later:ident as $promise:tt;
        $params:tt => $($op:ident)::+
    ) => {
        pair! {
            @fn now $class $ty $mut $names [$js_now $js_later]
            $(#[doc = $doc])* $now $js_now as $ret -> JsResult<$T>; $params => $($op)::+
        }
        pair! {
            @fn later $class $ty $mut $names [$js_now $js_later]
            $(#[doc = $adoc])* $later $js_later as $promise -> Promise; $params => $($op)::+
        }
    };
    // One of the two exports, its parameters declared as the pair gives them.
    (
        @fn $form:ident $class:ident $ty:ident [$($mut:ident)?] $names:tt $pair:tt
        $(#[doc = $doc:tt])* $name:ident $js:ident as $ret:tt -> $R:ty;
        ($($arg:ident: $t:tt),* $(; $($opt:ident: $ot:tt),*)?) => $($op:ident)::+
    ) => {
        crate::js::export! {
            $class $ty: $(#[doc = $doc])* $name $js as $ret -> $R;
            [&$($mut)? self] ($($arg: $t),* $(; $($opt: $ot),*)?)
                => pair!(@$form self $names $pair $($op)::+(self, $(&$arg,)* $($(&$opt,)*)?))
        }
    };
    (@now $self:tt [$pre:tt $post:tt] [$js_now:ident $js_later:ident] $op:expr) => {{
        let call = concat!($pre, stringify!($js_now), $post);
        let instead = concat!($pre, stringify!($js_later), $post);
        let handle = $self.handle();
        crate::js::now(&handle, call, instead, &mut || $op)
            .map(wasm_bindgen::JsCast::unchecked_into)
    }};
    (@later $self:tt $names:tt $pair:tt $op:expr) => { crate::js::promise($op) };
    (Run: $($rest:tt)*) => { pair! { @impl Run JsRun [mut] ["run." "()"] $($rest)* } };
    ($($rest:tt)*) => { pair! { @impl Gpgpu JsGpgpu [] ["" ""] $($rest)* } };
}
pub(crate) use pair;

/// Reads JS arguments and returns what starts the matching operation; shared by the
/// blocking, Promise and step-through entry points. With `tiles` (the plain and
/// Promise calls) sizes past the device limit, or over `maxTile`, are multiplied in
/// tiles; step-through runs (`tiles` false) keep the device limit.
mod start;

mod gpgpu;
/// The operations of the pairs of `Gpgpu`, once per product: what starts it, queued by
/// `JsGpgpu::product`.
mod products;

pub use gpgpu::JsGpgpu;

#[cfg(test)]
mod tests {
    /// Every code `GpgpuError::code` can give is in the TypeScript union, so that
    /// `if (e.code === 'WORKER_ERROR')` type-checks (read from error.rs's source, so a new
    /// code cannot be forgotten here).
    #[test]
    fn the_typescript_error_codes_are_every_code_the_library_gives() {
        let source = include_str!("../../error/src/error.rs");
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
