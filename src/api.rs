//! The Rust API: the operations of the JavaScript API with Rust types, on either
//! backend. Every call validates its input, then runs upload → passes → one
//! readback. Matrices are row-major `&[f32]` (element (i, j) of a rows×cols matrix
//! at `i*cols + j`); results are new `Vec<f32>`s, inputs are never modified.
//!
//! Blocking calls (`square`, …) need a backend that can wait: WebGL, or the CPU
//! (which then computes on the calling thread). The `*_async` forms work on every
//! backend; on WebGPU they are the only way (a blocking call there is `NeedsAsync`,
//! naming its async form).

use std::cell::{RefCell, RefMut};
use std::rc::Rc;

use crate::batched::{self, ransac::Ransac};

use crate::blocks::mesh::{self, MeshRun};
use crate::blocks::resident::{self, GpuBlocks, NumericPath};
use crate::blocks::sparse;
use crate::cpu::CpuEngine;
use crate::engine::webgpu::lost_at_once;
use crate::engine::{Engine, GlEngine, GpuEngine, PendingRead};
use crate::error::{GpgpuError, Result};
use crate::gl::capabilities::DeviceInfo;
use crate::gl::context::Canvas;
use crate::kernels::{Backend, Kernel};
use crate::linear::{
    self,
    lu::{Lu, Solution},
};
use crate::plan::blocks::BlockSparse;
use crate::plan::homography::RansacOptions;
use crate::plan::passes::{self, PassPlan};

use crate::plan::shape::Shape;
use crate::plan::svd::Svd;
use crate::run::Run;
use crate::webgpu::adapter::{is_software, request_adapter, request_device};
use crate::webgpu::GpuInfo;
use crate::work::{begin_plan, begin_product, finish_work, finish_work_async};

// Where these lived before the layers were drawn apart; their homes are lower now,
// and the names stay here for callers of `gpgpu_matrix::api::…`.
#[doc(hidden)]
pub use crate::common::{blocking, now};
pub use crate::engine::Handle;
pub use crate::work::{finish_async, start_plan, start_product, tiled_dimension, Options, Work};

/// Which backend [`Gpgpu::create`] makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BackendChoice {
    /// WebGPU on a hardware adapter; WebGL2 when the only adapter is a software
    /// (fallback) one, such as SwiftShader, or there is none (see [`choose_backend`]).
    #[default]
    Auto,
    WebGl,
    WebGpu,
    /// The CPU's cores: a SIMD128 kernel in Web Workers (see [`crate::cpu`]).
    Cpu,
}

/// What [`Gpgpu::create`] takes.
#[derive(Clone, Default)]
pub struct CreateOptions {
    pub backend: BackendChoice,
    /// WebGL: the canvas to draw with (None: a canvas of the library's own).
    pub canvas: Option<Canvas>,
    /// WebGPU: the adapter to ask for ("low-power" or "high-performance").
    pub power_preference: Option<web_sys::GpuPowerPreference>,
    /// CPU: worker threads (None: `navigator.hardwareConcurrency`; 0: none, every
    /// product on the calling thread).
    pub threads: Option<usize>,
}

/// The 'auto' backend rule, from the bench (bench/NOTES.md): a hardware WebGPU
/// adapter runs the register kernel 52–58× faster than WebGL's best fragment kernel
/// (H100, n = 4096: 34–38 against 0.66 TFLOP/s), while a software adapter
/// (SwiftShader on the CPU) runs it slower than WebGL's fragment kernels do on the
/// same CPU. So: WebGPU unless the adapter is a software one.
pub fn choose_backend(adapter_is_software: Option<bool>) -> Backend {
    match adapter_is_software {
        Some(false) => Backend::WebGpu,
        _ => Backend::WebGl,
    }
}

/// An engine on a device of the hardware adapter `'auto'` chose, or why it cannot be
/// used: `requestDevice` failed, or the device was lost before its first use (checked
/// once its queue has answered, so that a device that came lost is not handed out).
async fn usable_device(
    adapter: &web_sys::GpuAdapter,
    power: Option<web_sys::GpuPowerPreference>,
) -> std::result::Result<GpuEngine, String> {
    let device = match request_device(adapter).await {
        Ok(device) => device,
        Err(GpgpuError::NoWebGpu { detail }) => return Err(detail),
        Err(e) => return Err(e.to_string()),
    };
    if let Some(why) = lost_at_once(&device).await {
        return Err(format!(
            "the WebGPU device was lost before its first use: {why}"
        ));
    }
    Ok(GpuEngine::on_device(adapter.clone(), device, power))
}

/// What the device is: a WebGL2 context or a WebGPU adapter.
#[derive(Clone, Debug, PartialEq)]
pub enum Info {
    WebGl(DeviceInfo),
    WebGpu(GpuInfo),
    /// The CPU backend and its worker threads.
    Cpu {
        threads: usize,
    },
}

/// One WebGL2 context or WebGPU device with its compiled programs and a pool of GPU
/// memory: the handle every operation goes through. Dropping it frees the context or
/// device (browsers keep only about 16 WebGL contexts per page); a context on a canvas
/// of the library's own is kept for the next `Gpgpu` instead (WebKit counts a lost
/// context against that limit until it is garbage collected).
///
/// The blocking calls ([`square`](Gpgpu::square), [`multiply`](Gpgpu::multiply),
/// [`square_repeatedly`](Gpgpu::square_repeatedly), [`power`](Gpgpu::power)) wait for
/// the GPU at the readback: WebGL and the CPU (WebGPU: NeedsAsync). The async forms
/// ([`square_async`](Gpgpu::square_async), …) work on every backend. For step-by-step
/// work, start a [`Run`] ([`start_plan`](Gpgpu::start_plan),
/// [`start_product`](Gpgpu::start_product)), step it, and finish it with
/// [`finish`](Gpgpu::finish) or [`finish_async`](Gpgpu::finish_async).
///
/// After a WebGL context loss calls fail with `ContextLost` until the browser
/// restores the context; the next call then rebuilds everything. After a WebGPU
/// device loss the library asks for a new device at once; async calls wait for it.
pub struct Gpgpu {
    engine: Rc<RefCell<Engine>>,
    /// Why `'auto'` made WebGL2 on a browser whose WebGPU adapter it would have used.
    fallback: Option<String>,
}

impl Gpgpu {
    /// A WebGL2 context on `canvas` (an element or an `OffscreenCanvas`), or on a
    /// 1×1 canvas of the library's own. `NoWebGl2` or `NoFloatRenderTarget` when the
    /// browser or GPU cannot do it. Leaves the panic hook alone: install
    /// `console_error_panic_hook` yourself if you want panics on the console.
    pub fn new(canvas: Option<Canvas>) -> Result<Gpgpu> {
        let (canvas, owned) = match canvas {
            Some(c) => (c, false),
            None => (Canvas::for_engine()?, true),
        };
        Ok(Gpgpu::wrap(Engine::WebGl(GlEngine::new(canvas, owned)?)))
    }

    /// A Gpgpu on the chosen backend; `Auto` follows [`choose_backend`], falling
    /// back to the other backend when the preferred one cannot be made: WebGL2 when
    /// the hardware adapter's `requestDevice` fails or its device is lost before its
    /// first use, which [`fallback`](Gpgpu::fallback) then tells.
    pub async fn create(options: CreateOptions) -> Result<Gpgpu> {
        let webgl = |canvas: Option<Canvas>| Gpgpu::new(canvas);
        match options.backend {
            BackendChoice::WebGl => webgl(options.canvas),
            BackendChoice::Cpu => Ok(Gpgpu::wrap(Engine::Cpu(CpuEngine::new(options.threads)?))),
            BackendChoice::WebGpu => Ok(Gpgpu::wrap(Engine::WebGpu(
                GpuEngine::create(options.power_preference).await?,
            ))),
            BackendChoice::Auto => {
                let power = options.power_preference;
                // The adapter decides; a device is asked for only if it will be used.
                let adapter = request_adapter(power).await;
                let software = adapter.as_ref().ok().map(is_software);
                let mut fallback = None;
                if let (Backend::WebGpu, Ok(adapter)) = (choose_backend(software), &adapter) {
                    match usable_device(adapter, power).await {
                        Ok(engine) => return Ok(Gpgpu::wrap(Engine::WebGpu(engine))),
                        Err(why) => fallback = Some(why),
                    }
                }
                match (webgl(options.canvas), adapter, fallback) {
                    (Ok(g), _, fallback) => Ok(Gpgpu { fallback, ..g }),
                    // Neither: why WebGPU failed, and why WebGL2 did.
                    (Err(e), _, Some(why)) => Err(GpgpuError::NoWebGpu {
                        detail: format!("{why}; and no WebGL2 to fall back on: {e}"),
                    }),
                    // No WebGL2 either: a software WebGPU adapter still works.
                    (Err(_), Ok(adapter), None) => Ok(Gpgpu::wrap(Engine::WebGpu(
                        GpuEngine::on_adapter(adapter, power).await?,
                    ))),
                    (Err(e), Err(_), None) => Err(e),
                }
            }
        }
    }

    fn wrap(engine: Engine) -> Gpgpu {
        Gpgpu {
            engine: Rc::new(RefCell::new(engine)),
            fallback: None,
        }
    }

    /// Why `'auto'` made WebGL2 although the browser has a hardware WebGPU adapter
    /// ("requestDevice() failed: …", "the WebGPU device was lost before its first use:
    /// …"); None when it made what its rule picks, and on the other choices.
    pub fn fallback(&self) -> Option<&str> {
        self.fallback.as_deref()
    }

    /// The engine underneath, for stepping a [`Run`] and for the low-level
    /// operations (upload, product passes, readback).
    pub fn engine(&self) -> RefMut<'_, Engine> {
        self.engine.borrow_mut()
    }

    /// The shared engine (what a JavaScript `Run` keeps alive).
    pub fn shared(&self) -> Rc<RefCell<Engine>> {
        self.engine.clone()
    }

    /// A handle for async work, which does not keep the engine alive.
    pub fn handle(&self) -> Handle {
        Handle::on(&self.engine)
    }

    /// Which backend this Gpgpu runs.
    pub fn backend(&self) -> Backend {
        self.engine.borrow().backend()
    }

    /// What the device is and offers.
    pub fn info(&self) -> Info {
        match &*self.engine.borrow() {
            Engine::WebGl(e) => Info::WebGl(e.info().clone()),
            Engine::WebGpu(e) => Info::WebGpu(e.info().clone()),
            Engine::Cpu(e) => Info::Cpu {
                threads: e.threads(),
            },
        }
    }

    /// Live GPU objects of this context or device, by kind (for leak checks).
    pub fn live_objects(&self) -> Vec<(&'static str, u32)> {
        self.engine.borrow().live_objects()
    }

    /// The number of live objects of one kind ("buffers", "textures", …; 0 if the
    /// backend has no such kind).
    pub fn live(&self, kind: &str) -> u32 {
        self.live_objects()
            .into_iter()
            .find(|(k, _)| *k == kind)
            .map_or(0, |(_, v)| v)
    }

    /// Poison every output with `value` before each pass (NaN in tests).
    pub fn set_poison(&self, value: Option<f32>) {
        self.engine.borrow_mut().set_poison(value);
    }

    /// The largest dimension this device accepts.
    pub fn max_dimension(&self) -> usize {
        self.engine.borrow().max_dimension()
    }

    /// Checks a dimension given as a JS number against the device limit.
    pub fn dim(&self, name: &str, value: f64) -> Result<usize> {
        self.engine.borrow().dimension(name, value)
    }

    /// Checks a dimension against the device limit.
    pub fn dimension(&self, name: &str, value: usize) -> Result<usize> {
        self.dim(name, value as f64)
    }

    /// The kernel to run: the caller's, if this device runs it, else the backend's
    /// rule (`ops::matmul::webgl::choose`, [`crate::ops::matmul::choose_webgpu`]).
    pub fn choose_kernel(&self, options: &Options, out: Shape) -> Result<Kernel> {
        self.engine.borrow().choose_kernel(options.kernel, out)
    }

    /// M^(2^times) for a square block-sparse M, with each squaring's block counts;
    /// `times` from 0 to [`passes::MAX_SQUARINGS`] (64), else `BadCount`.
    pub async fn square_block_sparse_repeatedly_async(
        &self,
        m: &BlockSparse,
        times: usize,
    ) -> Result<sparse::Squarings> {
        sparse::square_repeatedly(&self.handle(), m, times).await
    }

    /// An n×n block-sparse matrix resident on the GPU with exactly `k` distinct
    /// stored blocks of `block_size` at seeded random cells (WebGPU only; see
    /// [`crate::blocks::resident`]).
    pub async fn generate_block_sparse_async(
        &self,
        n: usize,
        block_size: usize,
        k: usize,
        seed: u32,
    ) -> Result<GpuBlocks> {
        resident::generate(&self.handle(), n, block_size, k, seed).await
    }

    /// An empty n×n GPU-resident block-sparse matrix with room for `capacity`
    /// blocks, which [`GpuBlocks::write`] fills in parts (WebGPU only).
    pub fn gpu_block_sparse(
        &self,
        n: usize,
        block_size: usize,
        capacity: usize,
    ) -> Result<GpuBlocks> {
        GpuBlocks::empty(&mut self.engine(), n, block_size, capacity)
    }

    /// Adds a part of blocks to `m` (see [`GpuBlocks::write`]).
    pub fn write_blocks(
        &self,
        m: &mut GpuBlocks,
        rows: &[u32],
        cols: &[u32],
        values: &[f32],
    ) -> Result<()> {
        m.write(&mut self.engine(), rows, cols, values)
    }

    /// A square CPU block-sparse matrix copied to the GPU (WebGPU only).
    pub fn upload_block_sparse(&self, m: &BlockSparse) -> Result<GpuBlocks> {
        resident::upload(&mut self.engine(), m)
    }

    /// A·B for GPU-resident A and B, both phases on the GPU (WebGPU only), the
    /// numeric phase by `path`.
    pub async fn multiply_gpu_block_sparse_async(
        &self,
        a: &GpuBlocks,
        b: &GpuBlocks,
        path: NumericPath,
    ) -> Result<GpuBlocks> {
        resident::multiply(&self.handle(), a, b, path).await
    }

    /// Blocks `start..start + count` of a GPU-resident matrix, with their coordinates.
    pub async fn read_blocks_async(
        &self,
        m: &GpuBlocks,
        start: usize,
        count: usize,
    ) -> Result<resident::Part> {
        m.read(&self.handle(), start, count).await
    }

    /// The first `steps` steps of [`lu_async`](Gpgpu::lu_async) (the elimination
    /// part way, as the page shows it step by step).
    pub async fn lu_steps_async(&self, n: usize, a: &[f32], steps: usize) -> Result<Lu> {
        linear::lu::lu(&self.handle(), n, a, steps).await
    }

    /// The homography taking `src` to `dst` by RANSAC on the GPU (see
    /// [`crate::batched::ransac`]).
    pub async fn ransac_homography_async(
        &self,
        src: &[f32],
        dst: &[f32],
        options: &RansacOptions,
    ) -> Result<Ransac> {
        batched::ransac::ransac(&self.handle(), src, dst, options).await
    }

    /// A·B by Fox's algorithm on a simulated q×q mesh (see [`crate::blocks::mesh`]).
    pub async fn fox_async(&self, n: usize, a: &[f32], b: &[f32], q: usize) -> Result<MeshRun> {
        mesh::fox(&self.handle(), n, a, b, q).await
    }

    /// A·B by Cannon's algorithm on a simulated q×q mesh.
    pub async fn cannon_async(&self, n: usize, a: &[f32], b: &[f32], q: usize) -> Result<MeshRun> {
        mesh::cannon(&self.handle(), n, a, b, q).await
    }

    /// Validates and uploads A and B; the product pass is not run yet. Step it with
    /// [`Run::step`], or complete it with [`finish`](Gpgpu::finish) or
    /// [`finish_async`](Gpgpu::finish_async).
    pub fn start_product(
        &self,
        rows: usize,
        inner: usize,
        cols: usize,
        a: &[f32],
        b: &[f32],
        options: &Options,
    ) -> Result<Run> {
        start_product(&mut self.engine(), [rows, inner, cols], a, b, options)
    }

    /// Validates and uploads M for a plan on an n×n matrix; no pass is run yet.
    pub fn start_plan(
        &self,
        n: usize,
        m: &[f32],
        plan: PassPlan,
        options: &Options,
    ) -> Result<Run> {
        start_plan(&mut self.engine(), n, m, plan, options)
    }

    /// Runs the remaining passes and queues a non-blocking readback of the result:
    /// `.await` its [`PendingRead::wait`]. A run of another `Gpgpu` is `BadArgument`.
    pub fn finish_async(&self, run: Run) -> Result<PendingRead> {
        finish_async(&mut self.engine(), run)
    }

    /// Runs the remaining passes, reads the result (blocking until the GPU is done:
    /// WebGL and the CPU) and returns the run's GPU memory to the pool.
    pub fn finish(&self, run: Run) -> Result<Vec<f32>> {
        finish_work(&mut self.engine(), Work::Whole(run))
    }
}

/// Both forms of each operation from one declaration: the async method with its
/// body, and the blocking method, that future completed at once by
/// [`crate::work::now`] (NeedsAsync on WebGPU, naming `instead`, before anything is
/// queued). `self` is written at the call, so that the body may use it.
macro_rules! both {
    ($(
        $(#[$doc:meta])*
        fn $now:ident(&$me:ident, $($p:ident: $t:ty),* $(,)?) -> $out:ty;
        $(#[$adoc:meta])*
        async fn $later:ident = $call:literal / $instead:literal $body:block
    )*) => {
        impl Gpgpu {$(
            $(#[$doc])*
            pub fn $now(&$me, $($p: $t),*) -> Result<$out> {
                crate::work::now(&$me.handle(), $me.$later($($p),*), $call, $instead)
            }

            $(#[$adoc])*
            pub async fn $later(&$me, $($p: $t),*) -> Result<$out> $body
        )*}
    };
}

both! {
    /// A (rows×inner) · B (inner×cols), a rows×cols result. `BadDimension` or
    /// `SizeOverLimit` for a dimension out of 1..=[`max_dimension`](Gpgpu::max_dimension),
    /// `BadLength` for an array of the wrong length. WebGL and the CPU.
    fn multiply(&self, rows: usize, inner: usize, cols: usize, a: &[f32], b: &[f32], options: &Options) -> Vec<f32>;
    /// A · B without blocking, on either backend.
    async fn multiply_async = "multiply" / "multiplyAsync" {
        self.handle().ready().await?;
        let work = begin_product(&mut self.engine(), [rows, inner, cols], a, b, options)?;
        let pending = finish_work_async(&mut self.engine(), work)?;
        pending.wait().await
    }

    /// R = M · M for an n×n M. WebGL and the CPU.
    fn square(&self, n: usize, m: &[f32], options: &Options) -> Vec<f32>;
    /// M · M without blocking.
    async fn square_async = "square" / "squareAsync" {
        self.run_plan_async(n, m, passes::power(2), options).await
    }

    /// M^(2^times): `times` squarings on the GPU, no readback between them; `times`
    /// from 0 to [`passes::MAX_SQUARINGS`] (64), else `BadCount`. WebGL and the CPU.
    fn square_repeatedly(&self, n: usize, m: &[f32], times: u64, options: &Options) -> Vec<f32>;
    /// M^(2^times) without blocking.
    async fn square_repeatedly_async = "squareRepeatedly" / "squareRepeatedlyAsync" {
        self.run_plan_async(n, m, passes::repeated_square(times)?, options)
            .await
    }

    /// M^p by binary exponentiation on the GPU (⌊log2 p⌋ squarings and
    /// popcount(p) − 1 products, one readback); p = 0 gives the identity. WebGL and the CPU.
    fn power(&self, n: usize, m: &[f32], p: u64, options: &Options) -> Vec<f32>;
    /// M^p without blocking.
    async fn power_async = "power" / "powerAsync" {
        self.run_plan_async(n, m, passes::power(p), options).await
    }

    /// Runs a pass plan (see [`passes`]) on an n×n matrix and reads the result back
    /// once. A plan that cannot run on one n×n input is `BadArgument`
    /// ([`PassPlan::check`]). WebGL and the CPU.
    fn run_plan(&self, n: usize, m: &[f32], plan: PassPlan, options: &Options) -> Vec<f32>;
    /// A pass plan on an n×n matrix without blocking.
    async fn run_plan_async = "run_plan" / "run_plan_async" {
        self.handle().ready().await?;
        let work = begin_plan(&mut self.engine(), n, m, plan, options)?;
        let pending = finish_work_async(&mut self.engine(), work)?;
        pending.wait().await
    }

    /// A·B for block-sparse A and B (see [`crate::blocks::sparse`]): only the
    /// products of stored blocks run on the GPU. WebGL and the CPU (blocking).
    fn multiply_block_sparse(&self, a: &BlockSparse, b: &BlockSparse) -> sparse::Product;
    /// A·B for block-sparse A and B without blocking, on either backend.
    async fn multiply_block_sparse_async = "multiplyBlockSparse" / "multiplyBlockSparseAsync" {
        sparse::multiply(&self.handle(), a, b).await
    }

    /// [`multiply_batched_async`](Gpgpu::multiply_batched_async), blocking: WebGL and the CPU.
    fn multiply_batched(&self, count: usize, dims: [usize; 3], a: &[f32], b: &[f32]) -> Vec<f32>;
    /// `count` small products A_s·B_s in one pass (see [`crate::batched`]); `a` and
    /// `b` hold the matrices one after another, row-major.
    async fn multiply_batched_async = "multiplyBatched" / "multiplyBatchedAsync" {
        batched::products::multiply(&self.handle(), count, dims, a, b).await
    }

    /// [`power_batched_async`](Gpgpu::power_batched_async), blocking: WebGL and the CPU.
    fn power_batched(&self, count: usize, n: usize, m: &[f32], p: u64) -> Vec<f32>;
    /// M_s^p for `count` n×n matrices, the whole batch in each pass.
    async fn power_batched_async = "powerBatched" / "powerBatchedAsync" {
        batched::products::power(&self.handle(), count, n, m, p).await
    }

    /// [`lu_async`](Gpgpu::lu_async), blocking: WebGL and the CPU.
    fn lu(&self, n: usize, a: &[f32]) -> Lu;
    /// The LU factorization with partial pivoting of the n × n `a` (P·A = L·U) by
    /// Gaussian elimination on the GPU (see [`crate::linear::lu`]).
    async fn lu_async = "lu" / "luAsync" {
        linear::lu::lu(&self.handle(), n, a, n).await
    }

    /// [`solve_async`](Gpgpu::solve_async), blocking: WebGL and the CPU.
    fn solve(&self, n: usize, a: &[f32], b: &[f32], nrhs: usize) -> Solution;
    /// x with A·x = b (b and x n × nrhs, row-major) by Gaussian elimination with
    /// partial pivoting on the GPU, with the residual ‖A·x − b‖ / ‖b‖.
    async fn solve_async = "solve" / "solveAsync" {
        linear::lu::solve(&self.handle(), n, a, b, nrhs).await
    }

    /// [`svd_batched_async`](Gpgpu::svd_batched_async), blocking: WebGL and the CPU.
    fn svd_batched(&self, count: usize, rows: usize, cols: usize, a: &[f32]) -> Svd;
    /// SVDs of `count` rows×cols matrices (rows ≥ cols, cols ≤ 16, rows ≤ 32) by
    /// one-sided Jacobi on the GPU (see [`crate::batched::svd`]).
    async fn svd_batched_async = "svdBatched" / "svdBatchedAsync" {
        batched::svd::svd(&self.handle(), count, rows, cols, a).await
    }
}
