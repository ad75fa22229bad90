//! The Rust API: the operations of the JavaScript API with Rust types. Every call
//! validates its input, then runs upload → passes → one readback. Matrices are
//! row-major `&[f32]` (element (i, j) of a rows×cols matrix at `i*cols + j`);
//! results are new `Vec<f32>`s, inputs are never modified.

use crate::engine::Engine;
use crate::error::{GpgpuError, Result};
use crate::gl::capabilities::DeviceInfo;
use crate::gl::context::Canvas;
use crate::gl::{Gl, LiveCounts};
use crate::kernels::Kernel;
use crate::plan::passes::{self, PassPlan};
use crate::plan::semiring::Semiring;
use crate::plan::shape::{self, Shape};
use crate::readback::PendingRead;
use crate::run::Run;

/// Per-call choices; `Options::default()` is the auto-chosen kernel in the
/// ordinary semiring.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Options {
    /// The kernel to run, or `None` to let [`Gpgpu::choose_kernel`] pick the fastest
    /// for the output's size on this device (JavaScript's `"auto"`). A kernel the
    /// device cannot run is `BadArgument`.
    pub kernel: Option<Kernel>,
    /// What "product" means: ordinary (+, ×), boolean (OR, AND) or (min, +) for
    /// shortest paths, where `f32::INFINITY` is "no edge" and `-∞` is `BadArgument`.
    pub semiring: Semiring,
}

/// One WebGL2 context with its compiled programs and a pool of textures: the
/// handle every operation goes through. Dropping it frees the context (at once, on
/// a canvas of the library's own); browsers keep only about 16 per page.
///
/// The blocking calls ([`square`](Gpgpu::square), [`multiply`](Gpgpu::multiply),
/// [`square_repeatedly`](Gpgpu::square_repeatedly), [`power`](Gpgpu::power)) wait for
/// the GPU at the readback. To keep the page responsive, start a [`Run`]
/// ([`start_plan`](Gpgpu::start_plan), [`start_product`](Gpgpu::start_product)), hand
/// it to [`finish_async`](Gpgpu::finish_async) and `.await` the
/// [`PendingRead`]'s [`wait`](PendingRead::wait).
///
/// After a context loss calls fail with `ContextLost` until the browser restores the
/// context; the next call then rebuilds everything.
pub struct Gpgpu {
    engine: Engine,
}

impl Gpgpu {
    /// A WebGL2 context on `canvas` (an element or an `OffscreenCanvas`), or on a
    /// 1×1 canvas of the library's own. `NoWebGl2` or `NoFloatRenderTarget` when the
    /// browser or GPU cannot do it. Leaves the panic hook alone: install
    /// `console_error_panic_hook` yourself if you want panics on the console.
    pub fn new(canvas: Option<Canvas>) -> Result<Gpgpu> {
        let (canvas, owned) = match canvas {
            Some(c) => (c, false),
            None => (Canvas::create()?, true),
        };
        Ok(Gpgpu {
            engine: Engine::new(canvas, owned)?,
        })
    }

    /// The engine underneath, for stepping a [`Run`] and for the low-level
    /// operations (upload, product passes, download).
    pub fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The WebGL2 context.
    pub fn gl(&self) -> &Gl {
        self.engine.gl()
    }

    /// What the device is and offers: renderer, limits, extensions.
    pub fn info(&self) -> &DeviceInfo {
        self.engine.info()
    }

    /// Live GL objects of this context (for leak checks).
    pub fn live_objects(&self) -> LiveCounts {
        self.engine.live_objects()
    }

    /// Poison every output with `value` before each pass (NaN in tests).
    pub fn set_poison(&mut self, value: Option<f32>) {
        self.engine.set_poison(value);
    }

    /// The largest dimension this device accepts.
    pub fn max_dimension(&self) -> usize {
        self.engine.info().limits.max_dimension()
    }

    /// Checks a dimension given as a JS number against the device limit.
    pub fn dim(&self, name: &str, value: f64) -> Result<usize> {
        shape::dimension(name, value, self.max_dimension())
    }

    /// Checks a dimension against the device limit.
    pub fn dimension(&self, name: &str, value: usize) -> Result<usize> {
        shape::dimension(name, value as f64, self.max_dimension())
    }

    /// The kernel to run: the caller's, if this device supports it, else the rule:
    /// see `kernels::choose`.
    pub fn choose_kernel(&self, options: &Options, out: Shape) -> Result<Kernel> {
        let limits = &self.engine.info().limits;
        match options.kernel {
            Some(k) if k.supported(limits) => Ok(k),
            Some(k) => Err(GpgpuError::BadArgument {
                name: "kernel".into(),
                detail: format!(
                    "kernel '{}' needs {} render targets and {} texture units; this GPU has \
                     {} and {}. Use the packed or naive kernel, or let the library choose \
                     (kernel 'auto' in JavaScript, None in Rust).",
                    k.name(),
                    k.layout().planes(),
                    2 * k.layout().planes(),
                    limits.max_draw_buffers,
                    limits.max_texture_units
                ),
            }),
            None => Ok(crate::kernels::choose(out, limits)),
        }
    }

    /// A (rows×inner) · B (inner×cols), a rows×cols result. `BadDimension` or
    /// `SizeOverLimit` for a dimension out of 1..=[`max_dimension`](Gpgpu::max_dimension),
    /// `BadLength` for an array of the wrong length.
    pub fn multiply(
        &mut self,
        rows: usize,
        inner: usize,
        cols: usize,
        a: &[f32],
        b: &[f32],
        options: &Options,
    ) -> Result<Vec<f32>> {
        let run = self.start_product(rows, inner, cols, a, b, options)?;
        self.finish(run)
    }

    /// R = M · M for an n×n M.
    pub fn square(&mut self, n: usize, m: &[f32], options: &Options) -> Result<Vec<f32>> {
        self.run_plan(n, m, passes::power(2), options)
    }

    /// M^(2^times): `times` squarings on the GPU, no readback between them; `times`
    /// from 0 to [`passes::MAX_SQUARINGS`] (64), else `BadCount`.
    pub fn square_repeatedly(
        &mut self,
        n: usize,
        m: &[f32],
        times: u64,
        options: &Options,
    ) -> Result<Vec<f32>> {
        self.run_plan(n, m, passes::repeated_square(times)?, options)
    }

    /// M^p by binary exponentiation on the GPU (⌊log2 p⌋ squarings and
    /// popcount(p) − 1 products, one readback); p = 0 gives the identity.
    pub fn power(&mut self, n: usize, m: &[f32], p: u64, options: &Options) -> Result<Vec<f32>> {
        self.run_plan(n, m, passes::power(p), options)
    }

    /// Runs a pass plan (see [`passes`]) on an n×n matrix and reads the result back
    /// once. A plan that cannot run on one n×n input is `BadArgument`
    /// ([`PassPlan::check`]).
    pub fn run_plan(
        &mut self,
        n: usize,
        m: &[f32],
        plan: PassPlan,
        options: &Options,
    ) -> Result<Vec<f32>> {
        let run = self.start_plan(n, m, plan, options)?;
        self.finish(run)
    }

    /// Validates and uploads A and B; the product pass is not run yet. Step it with
    /// [`Run::step`], or complete it with [`finish`](Gpgpu::finish) or
    /// [`finish_async`](Gpgpu::finish_async).
    pub fn start_product(
        &mut self,
        rows: usize,
        inner: usize,
        cols: usize,
        a: &[f32],
        b: &[f32],
        options: &Options,
    ) -> Result<Run> {
        let rows = self.dimension("rows", rows)?;
        let inner = self.dimension("inner", inner)?;
        let cols = self.dimension("cols", cols)?;
        let (sa, sb) = (Shape::new(rows, inner), Shape::new(inner, cols));
        shape::check_len("a", sa, a.len())?;
        shape::check_len("b", sb, b.len())?;
        let kernel = self.choose_kernel(options, Shape::new(rows, cols))?;
        let inputs = [(sa, a), (sb, b)];
        Run::new(
            &mut self.engine,
            kernel,
            options.semiring,
            passes::product(),
            &inputs,
        )
    }

    /// Validates and uploads M for a plan on an n×n matrix; no pass is run yet. Step
    /// it with [`Run::step`], or complete it with [`finish`](Gpgpu::finish) or
    /// [`finish_async`](Gpgpu::finish_async).
    pub fn start_plan(
        &mut self,
        n: usize,
        m: &[f32],
        plan: PassPlan,
        options: &Options,
    ) -> Result<Run> {
        let n = self.dimension("n", n)?;
        let shape = Shape::square(n);
        shape::check_len("m", shape, m.len())?;
        let kernel = self.choose_kernel(options, shape)?;
        Run::new(
            &mut self.engine,
            kernel,
            options.semiring,
            plan,
            &[(shape, m)],
        )
    }

    /// Runs the remaining passes and queues a non-blocking readback of the result:
    /// `.await` its [`PendingRead::wait`], which polls a fence from the event loop
    /// rather than stall the page. A run of another `Gpgpu` is `BadArgument`.
    pub fn finish_async(&mut self, mut run: Run) -> Result<PendingRead> {
        // Dropping a run of another Gpgpu deletes its textures in their own context.
        run.check_engine(&self.engine)?;
        run.run_all(&mut self.engine)?;
        let gl = self.engine.gl().clone();
        // The identity (no result slot) is made on the CPU, ready at once; so is the
        // error for an empty result slot, which Run::new's plan check rules out.
        let pending = match run.plan().result.and(run.result()) {
            Some(m) => PendingRead::start(&gl, m).map(|p| p.in_semiring(run.semiring())),
            None => run
                .read_result(&mut self.engine)
                .map(|i| PendingRead::ready(&gl, i)),
        };
        run.recycle(&mut self.engine);
        pending
    }

    /// Runs the remaining passes, reads the result (blocking until the GPU is done)
    /// and returns the run's textures to the pool. A run of another `Gpgpu` is
    /// `BadArgument`.
    pub fn finish(&mut self, mut run: Run) -> Result<Vec<f32>> {
        run.check_engine(&self.engine)?;
        run.run_all(&mut self.engine)?;
        let result = run.read_result(&mut self.engine);
        run.recycle(&mut self.engine);
        result
    }
}
