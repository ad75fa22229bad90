//! The Rust API: the operations of the JavaScript API with Rust types. Every call
//! validates its input, then runs upload → passes → one readback.

use crate::engine::{DeviceMatrix, Engine};
use crate::error::{GpgpuError, Result};
use crate::gl::capabilities::DeviceInfo;
use crate::gl::context::Canvas;
use crate::gl::{Gl, LiveCounts};
use crate::kernels::Kernel;
use crate::plan::passes::{self, PassPlan};
use crate::plan::reference;
use crate::plan::semiring::Semiring;
use crate::plan::shape::{self, Shape};

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
        console_error_panic_hook::set_once();
        let canvas = match canvas {
            Some(c) => c,
            None => Canvas::create()?,
        };
        Ok(Gpgpu {
            engine: Engine::new(canvas)?,
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

    /// Checks a dimension against the device limit.
    pub fn dimension(&self, name: &str, value: usize) -> Result<usize> {
        shape::dimension(name, value as f64, self.max_dimension())
    }

    /// The kernel to run: the caller's, if this device supports it, else the rule:
    /// see `kernels::choose`.
    pub fn choose_kernel(&self, options: &Options, out: Shape, inner: usize) -> Result<Kernel> {
        let limits = &self.engine.info().limits;
        match options.kernel {
            Some(k) if k.supported(limits) => Ok(k),
            Some(k) => Err(GpgpuError::BadArgument {
                name: "kernel".into(),
                detail: format!(
                    "kernel '{}' needs {} render targets and {} texture units; this GPU has \
                     {} and {}. Use 'packed' or 'naive'.",
                    k.name(),
                    k.layout().planes(),
                    2 * k.layout().planes(),
                    limits.max_draw_buffers,
                    limits.max_texture_units
                ),
            }),
            None => Ok(crate::kernels::choose(out, inner, limits)),
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
        let rows = self.dimension("rows", rows)?;
        let inner = self.dimension("inner", inner)?;
        let cols = self.dimension("cols", cols)?;
        let (sa, sb) = (Shape::new(rows, inner), Shape::new(inner, cols));
        shape::check_len("a", sa, a.len())?;
        shape::check_len("b", sb, b.len())?;
        let out = Shape::new(rows, cols);
        let kernel = self.choose_kernel(options, out, inner)?;
        let sr = options.semiring;
        let e = &mut self.engine;
        e.ensure()?;
        let (layout, pad) = (kernel.layout(), sr.zero() as f32);
        let da = e.upload(sa, layout, &sr.prepare(a), pad)?;
        let db = e.upload(sb, layout, &sr.prepare(b), pad)?;
        let dc = e.alloc(out, layout)?;
        e.product(kernel, sr, &da, &db, &dc)?;
        let result = e.download(&dc)?;
        for m in [da, db, dc] {
            e.recycle(m);
        }
        Ok(result)
    }

    /// R = M · M.
    pub fn square(&mut self, n: usize, m: &[f32], options: &Options) -> Result<Vec<f32>> {
        self.run_plan(n, m, &passes::power(2), options)
    }

    /// M^(2^times): `times` squarings on the GPU, no readback between them.
    pub fn square_repeatedly(
        &mut self,
        n: usize,
        m: &[f32],
        times: u64,
        options: &Options,
    ) -> Result<Vec<f32>> {
        self.run_plan(n, m, &passes::repeated_square(times), options)
    }

    /// M^p by binary exponentiation on the GPU; p = 0 gives the identity.
    pub fn power(&mut self, n: usize, m: &[f32], p: u64, options: &Options) -> Result<Vec<f32>> {
        self.run_plan(n, m, &passes::power(p), options)
    }

    /// Runs a pass plan on an n×n matrix and reads the result back once.
    pub fn run_plan(
        &mut self,
        n: usize,
        m: &[f32],
        plan: &PassPlan,
        options: &Options,
    ) -> Result<Vec<f32>> {
        let n = self.dimension("n", n)?;
        let shape = Shape::square(n);
        shape::check_len("m", shape, m.len())?;
        let kernel = self.choose_kernel(options, shape, n)?;
        let sr = options.semiring;
        let e = &mut self.engine;
        e.ensure()?;
        let Some(result_slot) = plan.result else {
            return Ok(reference::identity(sr, n)
                .into_iter()
                .map(|v| v as f32)
                .collect());
        };
        let layout = kernel.layout();
        let mut slots: Vec<Option<DeviceMatrix>> = (0..plan.slots).map(|_| None).collect();
        slots[0] = Some(e.upload(shape, layout, &sr.prepare(m), sr.zero() as f32)?);
        for step in &plan.steps {
            let dst = step.dst();
            if slots[dst].is_none() {
                slots[dst] = Some(e.alloc(shape, layout)?);
            }
            let (a, b) = step.sources();
            let get = |s: usize| slots[s].as_ref().expect("plan reads a slot it wrote");
            e.product(kernel, sr, get(a), get(b), get(dst))?;
        }
        let result = e.download(slots[result_slot].as_ref().expect("result slot"))?;
        for m in slots.into_iter().flatten() {
            e.recycle(m);
        }
        Ok(result)
    }
}
