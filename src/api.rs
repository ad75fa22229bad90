//! The Rust API: the operations of the JavaScript API with Rust types. Every call
//! validates its input, then runs upload → passes → one readback.

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

/// Per-call choices. `kernel: None` lets `Gpgpu::choose_kernel` pick.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Options {
    pub kernel: Option<Kernel>,
    pub semiring: Semiring,
}

pub struct Gpgpu {
    engine: Engine,
}

impl Gpgpu {
    /// A context on `canvas`, or on a canvas of the library's own.
    pub fn new(canvas: Option<Canvas>) -> Result<Gpgpu> {
        let (canvas, owned) = match canvas {
            Some(c) => (c, false),
            None => (Canvas::create()?, true),
        };
        Ok(Gpgpu {
            engine: Engine::new(canvas, owned)?,
        })
    }

    pub fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    pub fn gl(&self) -> &Gl {
        self.engine.gl()
    }

    pub fn info(&self) -> &DeviceInfo {
        self.engine.info()
    }

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

    /// A (rows×inner) · B (inner×cols).
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

    /// R = M · M.
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

    /// M^p by binary exponentiation on the GPU; p = 0 gives the identity.
    pub fn power(&mut self, n: usize, m: &[f32], p: u64, options: &Options) -> Result<Vec<f32>> {
        self.run_plan(n, m, passes::power(p), options)
    }

    /// Runs a pass plan on an n×n matrix and reads the result back once.
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

    /// Validates and uploads A and B; the product pass is not run yet.
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

    /// Validates and uploads M for a plan on an n×n matrix; no pass is run yet.
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

    /// Runs the remaining passes and queues a non-blocking readback of the result.
    pub fn finish_async(&mut self, mut run: Run) -> Result<PendingRead> {
        // Dropping a run of another Gpgpu deletes its textures in their own context.
        run.check_engine(&self.engine)?;
        run.run_all(&mut self.engine)?;
        let gl = self.engine.gl().clone();
        let pending = match run.plan().result {
            Some(_) => match run.result() {
                Some(m) => PendingRead::start(&gl, m).map(|p| p.in_semiring(run.semiring())),
                // Run::new checked the plan: the result slot was filled by a pass.
                None => run
                    .read_result(&mut self.engine)
                    .map(|i| PendingRead::ready(&gl, i)),
            },
            None => run
                .read_result(&mut self.engine)
                .map(|i| PendingRead::ready(&gl, i)),
        };
        run.recycle(&mut self.engine);
        pending
    }

    /// Runs the remaining passes, reads the result, recycles the textures.
    pub fn finish(&mut self, mut run: Run) -> Result<Vec<f32>> {
        run.check_engine(&self.engine)?;
        run.run_all(&mut self.engine)?;
        let result = run.read_result(&mut self.engine);
        run.recycle(&mut self.engine);
        result
    }
}
