//! The engines: one per backend, each with generic verbs only — allocate, upload,
//! read, run a program ([`program`]), recycle, limits, timers. [`Engine`] is a
//! WebGL2 context ([`webgl::GlEngine`]), a WebGPU device ([`webgpu::GpuEngine`]) or
//! the CPU's workers ([`crate::cpu::CpuEngine`]); [`Matrix`] is a matrix resident on
//! one of them. No operation is named here: each operation's folder under
//! `crate::ops` adds its verb to [`Engine`] and runs its programs through these.
//!
//! Data flows one way: upload → passes → readback. Readbacks return pending values
//! ([`PendingRead`], and the operations' own): on WebGL they may already hold the
//! answer (a blocking read), on WebGPU they resolve when `mapAsync` does.

pub mod handle;
pub mod input;
pub mod program;
pub mod webgl;
pub mod webgl_readback;
pub mod webgpu;

use js_sys::Float32Array;

use crate::cpu::{CpuEngine, CpuMatrix, CpuRead};
use crate::error::{GpgpuError, Result};
use crate::gl::objects::Query;
use crate::kernels::Backend;
use crate::plan::layout::Layout;
use crate::plan::semiring::Semiring;
use crate::plan::shape::{self, Shape};

pub use handle::Handle;
pub use input::Input;
pub use webgl::{GlEngine, GlMatrix};
pub use webgl_readback::GlRead;
pub use webgpu::{GpuEngine, GpuMatrix, GpuRead};

/// EXT_disjoint_timer_query_webgl2's enums.
const TIME_ELAPSED_EXT: u32 = 0x88BF;
const GPU_DISJOINT_EXT: u32 = 0x8FBB;

/// A WebGL2 context or a WebGPU device, with its caches and pools.
#[allow(clippy::large_enum_variant)]
pub enum Engine {
    WebGl(GlEngine),
    WebGpu(GpuEngine),
    /// The CPU's cores through Web Workers (see [`crate::cpu`]).
    Cpu(CpuEngine),
}

/// A matrix resident on the GPU of one backend (or in wasm memory for the CPU). Its
/// parts are read through getters and cannot be changed from outside the crate: a
/// shape (or WebGL layout) set by hand no longer described the GPU memory or the data
/// behind it, and the passes then read past it (the CPU's kernel panicked).
///
/// ```no_run
/// fn describe(m: &gpgpu_matrix::Matrix) -> String {
///     match m {
///         gpgpu_matrix::Matrix::Gl(m) => format!("{:?} in {:?}", m.shape(), m.layout()),
///         gpgpu_matrix::Matrix::Gpu(m) => format!("{:?}", m.shape()),
///         gpgpu_matrix::Matrix::Cpu(m) => format!("{:?}", m.shape()),
///     }
/// }
/// ```
///
/// ```compile_fail
/// fn reshape(m: &mut gpgpu_matrix::Matrix) {
///     if let gpgpu_matrix::Matrix::Cpu(m) = m {
///         m.shape = gpgpu_matrix::Shape::square(3);
///     }
/// }
/// ```
///
/// ```compile_fail
/// fn reshape(m: &mut gpgpu_matrix::Matrix) {
///     if let gpgpu_matrix::Matrix::Gpu(m) = m {
///         m.shape = gpgpu_matrix::Shape::square(3);
///     }
/// }
/// ```
///
/// ```compile_fail
/// fn relayout(m: &mut gpgpu_matrix::Matrix) {
///     if let gpgpu_matrix::Matrix::Gl(m) = m {
///         m.layout = gpgpu_matrix::plan::layout::Layout::Scalar;
///     }
/// }
/// ```
pub enum Matrix {
    Gl(GlMatrix),
    Gpu(GpuMatrix),
    Cpu(CpuMatrix),
}

impl Matrix {
    pub fn as_gl(&self) -> Option<&GlMatrix> {
        match self {
            Matrix::Gl(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_gpu(&self) -> Option<&GpuMatrix> {
        match self {
            Matrix::Gpu(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_cpu(&self) -> Option<&CpuMatrix> {
        match self {
            Matrix::Cpu(m) => Some(m),
            _ => None,
        }
    }

    pub fn shape(&self) -> Shape {
        match self {
            Matrix::Gl(m) => m.shape,
            Matrix::Gpu(m) => m.shape,
            Matrix::Cpu(m) => m.shape,
        }
    }

    pub fn layout(&self) -> Layout {
        match self {
            Matrix::Gl(m) => m.layout,
            Matrix::Gpu(_) | Matrix::Cpu(_) => Layout::Linear,
        }
    }
}

/// The GPU timing of one pass.
pub enum Timer {
    Gl(Query),
    Gpu(crate::webgpu::Timer),
}

/// "This matrix belongs to the other backend": a caller mixed engines.
/// An operation's form for each backend, over the matrices of that backend: the
/// arguments of [`Engine::by_backend`].
pub struct Forms<G, W, C> {
    pub webgl: G,
    pub webgpu: W,
    pub cpu: C,
}

/// Every one of `m` as a matrix of the backend `pick` accepts, or BAD_ARGUMENT.
fn all_of<'a, const N: usize, T: 'a>(
    m: [&'a Matrix; N],
    pick: impl Fn(&'a Matrix) -> Option<&'a T>,
) -> Result<[&'a T; N]> {
    let picked = m.map(pick);
    if picked.iter().any(Option::is_none) {
        return Err(foreign());
    }
    Ok(picked.map(|p| p.expect("checked above")))
}

impl Engine {
    /// Runs the form of an operation for this engine's backend on `m`, each a matrix
    /// of this backend (else BAD_ARGUMENT): the one place where an
    /// operation meets the three engines.
    pub fn by_backend<'m, const N: usize, T>(
        &mut self,
        m: [&'m Matrix; N],
        forms: Forms<
            impl FnOnce(&mut GlEngine, [&'m GlMatrix; N]) -> Result<T>,
            impl FnOnce(&mut GpuEngine, [&'m GpuMatrix; N]) -> Result<T>,
            impl FnOnce(&mut CpuEngine, [&'m CpuMatrix; N]) -> Result<T>,
        >,
    ) -> Result<T> {
        match self {
            Engine::WebGl(e) => (forms.webgl)(e, all_of(m, Matrix::as_gl)?),
            Engine::WebGpu(e) => (forms.webgpu)(e, all_of(m, Matrix::as_gpu)?),
            Engine::Cpu(e) => (forms.cpu)(e, all_of(m, Matrix::as_cpu)?),
        }
    }

    /// [`Self::by_backend`] for a pass timed where the device can (the timer comes
    /// back): WebGL by a timer query around it, WebGPU by timestamps; the CPU's
    /// passes are not timed.
    pub fn by_backend_timed<'m, const N: usize>(
        &mut self,
        m: [&'m Matrix; N],
        timed: bool,
        forms: Forms<
            impl FnOnce(&mut GlEngine, [&'m GlMatrix; N]) -> Result<()>,
            impl FnOnce(&mut GpuEngine, [&'m GpuMatrix; N], Option<&crate::webgpu::Timer>) -> Result<()>,
            impl FnOnce(&mut CpuEngine, [&'m CpuMatrix; N]) -> Result<()>,
        >,
    ) -> Result<Option<Timer>> {
        let Forms { webgl, webgpu, cpu } = forms;
        self.by_backend(
            m,
            Forms {
                webgl: |e: &mut GlEngine, m| gl_timed(e, timed, |e| webgl(e, m)),
                webgpu: |e: &mut GpuEngine, m| gpu_timed(e, timed, |e, t| webgpu(e, m, t)),
                cpu: |e: &mut CpuEngine, m| cpu(e, m).map(|()| None),
            },
        )
    }
}

pub(crate) fn foreign() -> GpgpuError {
    GpgpuError::BadArgument {
        name: "matrix".into(),
        detail: "a matrix of another backend (or another Gpgpu): use matrices of the \
                 engine that made them"
            .into(),
    }
}

impl Engine {
    pub fn backend(&self) -> Backend {
        match self {
            Engine::WebGl(_) => Backend::WebGl,
            Engine::WebGpu(_) => Backend::WebGpu,
            Engine::Cpu(_) => Backend::Cpu,
        }
    }

    /// This engine's identity: no two engines of a page share one.
    pub fn id(&self) -> u64 {
        match self {
            Engine::WebGl(e) => e.id(),
            Engine::WebGpu(e) => e.id(),
            Engine::Cpu(e) => e.id(),
        }
    }

    /// Changes when the context or device is lost (and replaced): objects of an
    /// older generation are gone.
    pub fn generation(&self) -> u32 {
        match self {
            Engine::WebGl(e) => e.gl().generation(),
            Engine::WebGpu(e) => e.generation(),
            Engine::Cpu(_) => 0,
        }
    }

    /// The error for a run whose GPU objects died with a lost context or device.
    pub fn outlived(&self) -> GpgpuError {
        match self {
            Engine::WebGl(_) => GpgpuError::RunOutlivedContext,
            Engine::WebGpu(_) | Engine::Cpu(_) => GpgpuError::RunOutlivedDevice,
        }
    }

    /// Fails while the context or device is lost; rebuilds once it is back.
    pub fn ensure(&mut self) -> Result<()> {
        match self {
            Engine::WebGl(e) => e.ensure(),
            Engine::WebGpu(e) => e.ensure(),
            Engine::Cpu(_) => Ok(()),
        }
    }

    /// Whether a lost device is being replaced (an async call may wait for it).
    pub fn replacing(&self) -> bool {
        match self {
            Engine::WebGl(_) | Engine::Cpu(_) => false,
            Engine::WebGpu(e) => e.replacing(),
        }
    }

    /// How many replacements for lost devices have been asked for (WebGPU; 0 elsewhere).
    pub fn replacement_requests(&self) -> u64 {
        match self {
            Engine::WebGl(_) | Engine::Cpu(_) => 0,
            Engine::WebGpu(e) => e.replacement_requests(),
        }
    }

    /// The number of the failed request for a replacement that the next `ensure`
    /// reports (WebGPU).
    pub fn failed_replacement(&self) -> Option<u64> {
        match self {
            Engine::WebGl(_) | Engine::Cpu(_) => None,
            Engine::WebGpu(e) => e.failed_replacement(),
        }
    }

    /// The largest dimension a matrix may have on this device.
    pub fn max_dimension(&self) -> usize {
        match self {
            Engine::WebGl(e) => e.info().limits.max_dimension(),
            Engine::WebGpu(e) => e.max_dimension(),
            Engine::Cpu(_) => crate::cpu::MAX_DIMENSION,
        }
    }

    /// A dimension given as a JS number: a whole number from 1 to the device's limit.
    pub fn dimension(&self, name: &str, value: f64) -> Result<usize> {
        match self {
            Engine::WebGl(e) => shape::dimension(name, value, e.info().limits.max_dimension()),
            Engine::WebGpu(e) => {
                // The device's limit first, on the number as given: past usize::MAX
                // (4294967296 on wasm32) the texture-limit message would be wrong here.
                if value.is_finite() && value >= 1.0 && value.fract() == 0.0 {
                    e.check_dimension(name, value)?;
                }
                shape::dimension(name, value, usize::MAX)
            }
            Engine::Cpu(_) => {
                let limit = crate::cpu::MAX_DIMENSION;
                // No GPU here: the limit is WebAssembly's memory, and the message says so.
                if value.is_finite() && value > limit as f64 && value.fract() == 0.0 {
                    return Err(shape::SideBound {
                        limit,
                        named: "the CPU backend's limit (info().maxDimension)",
                        hint: crate::error::CPU_LIMIT_HINT,
                    }
                    .refuse(name, value));
                }
                shape::dimension(name, value, limit)
            }
        }
    }

    /// How wide the atlases of many small matrices are (block-sparse blocks,
    /// batches): 4096 entries, or the device's limit if smaller.
    pub fn atlas_width(&self) -> usize {
        4096.min(self.max_dimension())
    }

    /// Refuses an atlas of `shape` the device cannot hold as one texture or buffer
    /// (SIZE_OVER_LIMIT naming `what` and the limit, with `hint`: what is fewer or
    /// smaller depends on the call, e.g. [`BATCH_ATLAS_HINT`]).
    pub fn check_atlas(&self, what: &str, shape: Shape, hint: &'static str) -> Result<()> {
        let limit = self.max_dimension();
        let side = shape.rows.max(shape.cols);
        if side > limit {
            return Err(GpgpuError::DeviceLimit {
                what: format!(
                    "the atlas of {what} ({}x{} entries)",
                    shape.rows, shape.cols
                ),
                needed: side as f64,
                unit: "entries along one side",
                limit_name: "this device's largest matrix side (info().maxDimension)",
                limit: limit as f64,
                hint,
            });
        }
        self.check_shape(shape)
    }

    /// Checks that a matrix of `shape` fits the device (WebGPU: one buffer).
    pub fn check_shape(&self, shape: Shape) -> Result<()> {
        match self {
            Engine::WebGl(_) => Ok(()),
            Engine::WebGpu(e) => e.check_shape(shape),
            Engine::Cpu(_) => Ok(()),
        }
    }

    /// Uploads a row-major matrix into `layout`, padding (WebGL) with `pad`; `data`
    /// holds rows × cols numbers, else BAD_LENGTH.
    pub fn upload(
        &mut self,
        shape: Shape,
        layout: Layout,
        data: &[f32],
        pad: f32,
    ) -> Result<Matrix> {
        // Public: a wrong length asserted in WebGL's texture upload, left the rest of a
        // pooled WebGPU buffer as it was, and made a CPU matrix of another length.
        shape::check_len("data", shape, data.len())?;
        match self {
            Engine::WebGl(e) => e.upload(shape, layout, data, pad).map(Matrix::Gl),
            Engine::WebGpu(e) => e.upload(shape, data).map(Matrix::Gpu),
            Engine::Cpu(e) => e.upload(shape, data).map(Matrix::Cpu),
        }
    }

    /// Uploads a JavaScript array whose numbers go to the device as they are (the
    /// ordinary semiring): WebGPU writes it straight into its buffer, the other
    /// backends take it through wasm memory.
    pub fn upload_js(
        &mut self,
        shape: Shape,
        layout: Layout,
        data: &Float32Array,
    ) -> Result<Matrix> {
        shape::check_len("data", shape, data.length() as usize)?;
        match self {
            Engine::WebGpu(e) => e.upload_js(shape, data).map(Matrix::Gpu),
            this => {
                let copy = Input::Js(data).in_wasm()?;
                this.upload(shape, layout, &copy, 0.0)
            }
        }
    }

    /// A matrix-sized output, from the pool when one fits.
    pub fn alloc(&mut self, shape: Shape, layout: Layout) -> Result<Matrix> {
        match self {
            Engine::WebGl(e) => e.alloc(shape, layout).map(Matrix::Gl),
            Engine::WebGpu(e) => e.alloc(shape).map(Matrix::Gpu),
            Engine::Cpu(e) => e.alloc(shape).map(Matrix::Cpu),
        }
    }

    /// Returns a matrix's GPU memory to the pool (or frees it).
    pub fn recycle(&mut self, m: Matrix) {
        match (self, m) {
            (Engine::WebGl(e), Matrix::Gl(m)) => e.recycle(m),
            (Engine::WebGpu(e), Matrix::Gpu(m)) => e.recycle(m),
            (Engine::Cpu(e), Matrix::Cpu(m)) => e.recycle(m),
            // Another backend's matrix: dropping it frees it.
            _ => {}
        }
    }

    /// Frees pooled GPU memory now rather than at its next reuse.
    pub fn trim(&mut self) {
        match self {
            Engine::WebGl(e) => e.trim(),
            Engine::WebGpu(e) => e.trim(),
            Engine::Cpu(_) => {}
        }
    }

    /// Fill every output with `value` before each pass (tests use NaN).
    pub fn set_poison(&mut self, value: Option<f32>) {
        match self {
            Engine::WebGl(e) => e.set_poison(value),
            Engine::WebGpu(e) => e.set_poison(value),
            Engine::Cpu(e) => e.set_poison(value),
        }
    }

    /// Reads a matrix back, blocking until the GPU is done: WebGL only (WebGPU:
    /// NeedsAsync naming `instead`).
    pub fn download(
        &mut self,
        m: &Matrix,
        call: &'static str,
        instead: &'static str,
    ) -> Result<Vec<f32>> {
        match (self, m) {
            (Engine::WebGl(e), Matrix::Gl(m)) => e.download(m),
            (Engine::WebGpu(_), Matrix::Gpu(_)) => Err(GpgpuError::NeedsAsync { call, instead }),
            (Engine::Cpu(e), Matrix::Cpu(m)) => e.download(m),
            _ => Err(foreign()),
        }
    }

    /// [`Self::download`] as a JavaScript array, decoded for `semiring`: on the CPU
    /// copied there from the matrix itself, with no copy in wasm memory.
    pub fn download_js(
        &mut self,
        m: &Matrix,
        semiring: Semiring,
        call: &'static str,
        instead: &'static str,
    ) -> Result<js_sys::Float32Array> {
        match (self, m) {
            (Engine::Cpu(e), Matrix::Cpu(m)) => {
                crate::common::now(e.read(m, semiring).wait(), call, instead)
            }
            (e, m) => {
                let data = semiring.decode(e.download(m, call, instead)?);
                Ok(js_sys::Float32Array::from(&data[..]))
            }
        }
    }

    /// Starts reading `m` back without blocking; results decoded for `semiring`.
    pub fn read(&mut self, m: &Matrix, semiring: Semiring) -> Result<PendingRead> {
        match (self, m) {
            (Engine::WebGl(e), Matrix::Gl(m)) => {
                e.ensure()?;
                let read = GlRead::start(e.gl(), m)?.in_semiring(semiring);
                Ok(PendingRead(ReadState::Gl(read)))
            }
            (Engine::WebGpu(e), Matrix::Gpu(m)) => {
                Ok(PendingRead(ReadState::Gpu(e.read(m)?, semiring)))
            }
            (Engine::Cpu(e), Matrix::Cpu(m)) => {
                Ok(PendingRead(ReadState::Cpu(e.read(m, semiring))))
            }
            _ => Err(foreign()),
        }
    }

    /// Blocks until the GPU has finished the work issued so far: WebGL only.
    pub fn sync(&mut self, m: &Matrix, call: &'static str, instead: &'static str) -> Result<()> {
        match (self, m) {
            (Engine::WebGl(_), Matrix::Gl(m)) => m.target.read_texel(0).map(|_| ()),
            (Engine::WebGpu(_), Matrix::Gpu(_)) => Err(GpgpuError::NeedsAsync { call, instead }),
            (Engine::Cpu(e), Matrix::Cpu(_)) => e.finish_now(),
            _ => Err(foreign()),
        }
    }

    /// Resolves once the GPU has finished the work issued so far, without blocking.
    pub fn idle(&mut self) -> Result<Idle> {
        match self {
            Engine::WebGl(e) => {
                e.ensure()?;
                Ok(Idle::Gl(e.gl().clone()))
            }
            Engine::WebGpu(e) => Ok(Idle::Gpu(e.gpu().clone(), e.idle()?)),
            Engine::Cpu(e) => Ok(Idle::Cpu(e.idle())),
        }
    }

    /// A pass's GPU time in ms: None while pending, NaN when unreliable.
    pub fn timer_ms(&self, timer: &Timer) -> Option<f64> {
        match (self, timer) {
            (Engine::WebGl(e), Timer::Gl(q)) => {
                let gl = e.gl();
                let disjoint = gl
                    .get_parameter(GPU_DISJOINT_EXT)
                    .ok()
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false);
                let ready = gl
                    .get_query_parameter(q.raw(), crate::gl::GL::QUERY_RESULT_AVAILABLE)
                    .as_bool()
                    .unwrap_or(false);
                if disjoint {
                    return Some(f64::NAN);
                }
                if !ready {
                    return None;
                }
                let ns = gl
                    .get_query_parameter(q.raw(), crate::gl::GL::QUERY_RESULT)
                    .as_f64();
                Some(ns.map_or(f64::NAN, |ns| ns / 1e6))
            }
            (Engine::WebGpu(_), Timer::Gpu(t)) => t.ms(),
            _ => Some(f64::NAN),
        }
    }

    /// Live GPU objects of this engine, by kind (for leak checks).
    pub fn live_objects(&self) -> Vec<(&'static str, u32)> {
        match self {
            Engine::WebGl(e) => e.live_objects().named(),
            Engine::WebGpu(e) => e.live_objects().named(),
            Engine::Cpu(e) => vec![
                ("buffers", e.live_matrices()),
                ("workers", e.live_workers()),
            ],
        }
    }

    /// The WebGL engine, if this is one.
    pub fn webgl(&mut self) -> Option<&mut GlEngine> {
        match self {
            Engine::WebGl(e) => Some(e),
            Engine::WebGpu(_) | Engine::Cpu(_) => None,
        }
    }

    /// The WebGPU engine, if this is one.
    pub fn webgpu(&mut self) -> Option<&mut GpuEngine> {
        match self {
            Engine::WebGpu(e) => Some(e),
            Engine::WebGl(_) | Engine::Cpu(_) => None,
        }
    }

    /// The CPU engine, if this is one.
    pub fn cpu(&mut self) -> Option<&mut CpuEngine> {
        match self {
            Engine::Cpu(e) => Some(e),
            _ => None,
        }
    }
}

/// Runs a WebGL pass inside a timer query when `timed` and the context has one.
pub(crate) fn gl_timed(
    e: &mut GlEngine,
    timed: bool,
    pass: impl FnOnce(&mut GlEngine) -> Result<()>,
) -> Result<Option<Timer>> {
    let query = match timed && e.info().timer_query {
        true => Some(Query::new(e.gl())?),
        false => None,
    };
    if let Some(q) = &query {
        e.gl().begin_query(TIME_ELAPSED_EXT, q.raw());
    }
    let ran = pass(e);
    if query.is_some() {
        e.gl().end_query(TIME_ELAPSED_EXT);
        // Send the pass with its query now: ANGLE otherwise submits the query's end
        // with the next work, and the time includes the wait.
        e.gl().flush();
    }
    ran.map(|_| query.map(Timer::Gl))
}

/// Runs a WebGPU pass with timestamp writes when `timed` and the device has them,
/// and resolves them after it.
pub(crate) fn gpu_timed(
    e: &mut GpuEngine,
    timed: bool,
    pass: impl FnOnce(&mut GpuEngine, Option<&crate::webgpu::Timer>) -> Result<()>,
) -> Result<Option<Timer>> {
    let timer = if timed { e.timer()? } else { None };
    pass(e, timer.as_ref())?;
    if let Some(t) = &timer {
        e.collect(t)?;
    }
    Ok(timer.map(Timer::Gpu))
}

/// What helps when a batch's atlas is over the device's limit.
pub const BATCH_ATLAS_HINT: &str = "Use a smaller batch (fewer matrices per call, over several \
     calls if need be): the device holds a batch's matrices side by side in one texture or buffer.";

enum ReadState {
    Ready(Vec<f32>),
    Gl(GlRead),
    Gpu(GpuRead, Semiring),
    /// Already decoded, in JavaScript memory (see [`CpuEngine::read`]).
    Cpu(CpuRead<js_sys::Float32Array>),
    /// A tiled matrix: each tile's read, with where the tile goes.
    Tiles {
        shape: Shape,
        tiles: Vec<(PendingRead, (usize, usize), Shape)>,
    },
}

/// A readback on its way; `wait` resolves to the row-major matrix.
pub struct PendingRead(ReadState);

impl PendingRead {
    /// A result known without the GPU (e.g. M^0 = I).
    pub fn ready(data: Vec<f32>) -> PendingRead {
        PendingRead(ReadState::Ready(data))
    }

    /// A matrix of `shape` read as tiles: each tile's read and its top-left corner.
    pub fn tiles(shape: Shape, tiles: Vec<(PendingRead, (usize, usize), Shape)>) -> PendingRead {
        PendingRead(ReadState::Tiles { shape, tiles })
    }

    /// The data, once on the CPU.
    pub async fn wait(self) -> Result<Vec<f32>> {
        match self.0 {
            ReadState::Ready(data) => Ok(data),
            ReadState::Tiles { shape, tiles } => {
                let mut data = crate::error::filled(shape.len(), 0f32, || {
                    format!("the readback of a {}x{} matrix", shape.rows, shape.cols)
                })?;
                for (read, corner, tile) in tiles {
                    let piece = Box::pin(read.wait()).await?;
                    crate::plan::blocks::paste(&mut data, shape.cols, corner, &piece, tile.cols);
                }
                Ok(data)
            }
            ReadState::Gl(read) => read.wait().await,
            ReadState::Gpu(read, semiring) => Ok(semiring.decode(read.wait_f32().await?)),
            ReadState::Cpu(read) => {
                let array = read.wait().await?;
                let len = array.length();
                crate::common::arrays::copy_f32(&array, || format!("a readback of {len} numbers"))
            }
        }
    }

    /// The data as a JavaScript Float32Array; on WebGPU in the ordinary and boolean
    /// semirings it goes from the mapped buffer to JavaScript without passing
    /// through wasm memory (64 MB at n = 4096).
    pub async fn wait_js(self) -> Result<js_sys::Float32Array> {
        match self.0 {
            ReadState::Gpu(read, Semiring::Ordinary | Semiring::Boolean) => read.wait_js().await,
            ReadState::Cpu(read) => read.wait().await,
            other => {
                let data = PendingRead(other).wait().await?;
                Ok(js_sys::Float32Array::from(&data[..]))
            }
        }
    }
}

/// The GPU finishing its queued work.
pub enum Idle {
    Gl(crate::gl::Gl),
    Gpu(crate::webgpu::Gpu, wasm_bindgen_futures::JsFuture),
    /// The CPU's queue, run (its products on the workers) when awaited.
    Cpu(crate::cpu::CpuIdle),
}

impl Idle {
    pub async fn wait(self) -> Result<()> {
        match self {
            Idle::Gl(gl) => webgl_readback::gpu_idle(&gl).await,
            Idle::Gpu(gpu, done) => {
                // Firefox answers onSubmittedWorkDone on its GPU process's poll.
                let _waiting = gpu.nudger().wait();
                let finished = done.await;
                gpu.settle().await?;
                // onSubmittedWorkDone resolves on a destroyed device too, the work
                // lost; the loss is reported before its queue finishes.
                if gpu.is_lost() {
                    return Err(gpu.gone());
                }
                finished.map(|_| ()).map_err(|_| gpu.gone())
            }
            Idle::Cpu(queue) => queue.wait().await,
        }
    }
}

/// `held` if `made` (its filling with device matrices) succeeded; else `release`
/// gives back what it had made before the error is returned (a multi-pass run's
/// start, which allocates several matrices, any of which may be refused). Inlined:
/// called apart, it moved each run's struct through memory (170 B more wasm).
#[inline(always)]
pub fn kept_or_released<T>(
    e: &mut Engine,
    mut held: T,
    made: Result<()>,
    release: impl FnOnce(&mut T, &mut Engine),
) -> Result<T> {
    match made {
        Ok(()) => Ok(held),
        Err(err) => {
            release(&mut held, e);
            Err(err)
        }
    }
}

/// Starts reading `m` back for the calling operation, decoded for `semiring` (the
/// algorithms' read, below `work` and `run`, which use it). Under a blocking call on WebGL
/// the pixels are read at once: [`crate::common::now`] polls only once, and a
/// fenced read completes on a later turn of the event loop.
pub fn read_for_caller(e: &mut Engine, m: &Matrix, semiring: Semiring) -> Result<PendingRead> {
    if crate::common::blocking() && e.backend() == Backend::WebGl {
        // WebGL never answers NeedsAsync: the names are not shown.
        let data = e.download(m, "read", "readAsync")?;
        return Ok(PendingRead::ready(semiring.decode(data)));
    }
    e.read(m, semiring)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A CPU engine with no workers: natively, every pass runs on this thread.
    pub(crate) fn cpu() -> Engine {
        Engine::Cpu(CpuEngine::new(Some(0)).unwrap())
    }

    #[test]
    fn uploads_of_the_wrong_length_are_refused() {
        // A CPU matrix was made of the data's length, which its passes then indexed as
        // one of its shape.
        let mut e = cpu();
        let l = Layout::Linear;
        for len in [0, 3, 5] {
            let r = e
                .upload(Shape::square(2), l, &vec![1.0; len], 0.0)
                .map(|_| ());
            assert_eq!(r.unwrap_err().code(), "BAD_LENGTH");
        }
        let m = e.upload(Shape::square(2), l, &[1.0; 4], 0.0).unwrap();
        assert_eq!(e.download(&m, "read", "readAsync").unwrap(), [1.0; 4]);
    }
}
