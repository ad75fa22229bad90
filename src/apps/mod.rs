//! Matrix powers at work (the textbook chapter's applications, and shortest paths):
//! each is a sequence of GPU passes built from the product kernels (in a chosen
//! semiring), the element-wise affine kernel and the statistics reduction, on
//! either backend. Results come back once; per-pass numbers (residuals, updates)
//! come back as a single reduced record each.
//!
//! Each application is an `async fn` over a [`Handle`]: on WebGPU its readbacks
//! resolve when the GPU is done; on WebGL they are immediate (blocking reads), so
//! the same future completes at its first poll, which is how the JavaScript blocking
//! forms (`gpu.fibonacci`, …) run it. From Rust, await it on every backend.

#![warn(missing_docs)]

pub mod eigen;
pub mod fibonacci;
pub mod graphs;
pub mod inverse;
pub mod jacobi;

use crate::common::Stats;
use crate::engine::Handle;
use crate::engine::{Engine, Matrix, PendingRead};
use crate::error::Result;
use crate::kernels::{Backend, Kernel};
use crate::plan::passes::PassPlan;
use crate::plan::semiring::Semiring;
use crate::plan::shape::Shape;
use crate::work::{self, Options};

/// `n` as `g`'s engine takes a dimension, once the input `m`, named `name`, is
/// checked to hold n × n values: the first check of every application.
fn square_input(g: &Handle, n: usize, name: &str, m: &[f32]) -> Result<usize> {
    let n = g.with(|e| e.dimension("n", n as f64))?;
    crate::plan::shape::check_len(name, Shape::square(n), m.len())?;
    Ok(n)
}

/// One kernel (and so one layout) for every matrix of an application.
pub struct Workspace {
    /// The engine every matrix of the application lives on.
    pub handle: Handle,
    /// The kernel of every product, and so the layout of every matrix.
    pub kernel: Kernel,
}

impl Workspace {
    /// A workspace on `handle`'s engine with the kernel `options` ask for (or the
    /// rule's for an `out`-shaped product).
    pub fn new(handle: &Handle, options: &Options, out: Shape) -> Result<Workspace> {
        let kernel = handle.with(|e| e.choose_kernel(options.kernel, out))?;
        Ok(Workspace {
            handle: handle.clone(),
            kernel,
        })
    }

    /// Uploads a row-major matrix in the workspace's layout.
    pub fn upload(&mut self, shape: Shape, data: &[f32]) -> Result<Matrix> {
        let layout = self.kernel.layout();
        self.handle.with(|e| e.upload(shape, layout, data, 0.0))
    }

    /// a · b in the ordinary semiring.
    pub fn mul(&mut self, a: &Matrix, b: &Matrix) -> Result<Matrix> {
        let kernel = self.kernel;
        self.handle.with(|e| {
            let out = e.alloc(Shape::new(a.shape().rows, b.shape().cols), kernel.layout())?;
            let done = e.product(kernel, Semiring::Ordinary, [a, b, &out], false);
            keep_if(e, done.map(|_| ()), out)
        })
    }

    /// alpha·p + beta·q + gamma·I.
    pub fn affine(
        &mut self,
        p: &Matrix,
        q: Option<&Matrix>,
        alpha: f32,
        beta: f32,
        gamma: f32,
    ) -> Result<Matrix> {
        let layout = self.kernel.layout();
        self.handle.with(|e| {
            let out = e.alloc(p.shape(), layout)?;
            let done = e.affine(&out, p, q, [alpha, beta, gamma], 0.0);
            keep_if(e, done, out)
        })
    }

    /// `m`'s statistics (max |x|, Σ|x|, Σx², NaN and ±∞ counts) by a GPU reduction.
    pub async fn stats(&mut self, m: &Matrix) -> Result<Stats> {
        self.handle.with(|e| e.stats(m))?.wait().await
    }

    /// Statistics by repeated halving passes on WebGL (2×2 → 1 per pass; fewer
    /// reads of large blocks per fragment for thin vectors); WebGPU's reduction
    /// is the same either way.
    pub async fn stats_halving(&mut self, m: &Matrix) -> Result<Stats> {
        self.handle
            .with(|e| e.stats_with(m, 2, Semiring::Ordinary))?
            .wait()
            .await
    }

    /// Reads a matrix back (WebGL: blocking, as the applications always did;
    /// WebGPU: when mapped).
    pub async fn read(&mut self, m: &Matrix) -> Result<Vec<f32>> {
        self.handle
            .with(|e| fetch(e, m, Semiring::Ordinary))?
            .wait()
            .await
    }

    /// Gives `m`'s GPU memory back to the pool (nothing if the engine is gone).
    pub fn free(&mut self, m: Matrix) {
        let _ = self.handle.with(|e| {
            e.recycle(m);
            Ok(())
        });
    }
}

fn keep_if(e: &mut Engine, done: Result<()>, out: Matrix) -> Result<Matrix> {
    match done {
        Ok(()) => Ok(out),
        Err(err) => {
            e.recycle(out);
            Err(err)
        }
    }
}

/// A readback that completes at once on WebGL (a blocking read) and through
/// `mapAsync` on WebGPU; on the CPU the queue runs when the read is awaited (on
/// the workers, or on this thread under a blocking call).
fn fetch(e: &mut Engine, m: &Matrix, semiring: Semiring) -> Result<PendingRead> {
    match e.backend() {
        Backend::WebGl => Ok(PendingRead::ready(semiring.decode(e.download(
            m,
            "read",
            "an Async form",
        )?))),
        Backend::WebGpu | Backend::Cpu => e.read(m, semiring),
    }
}

/// Runs a pass plan on an n×n matrix and reads the result (as `fetch` does): whole,
/// or in tiles past the device limit or under `options.max_tile`, as the plain
/// calls do (a whole-matrix run refused `max_tile` as a "step-by-step run").
pub async fn run_plan(
    handle: &Handle,
    n: usize,
    m: &[f32],
    plan: PassPlan,
    options: &Options,
) -> Result<Vec<f32>> {
    handle.ready().await?;
    let pending = handle.with(|e| {
        let work = work::begin_plan(e, n, m, plan, options)?;
        match e.backend() {
            Backend::WebGl => work::finish_work(e, work).map(PendingRead::ready),
            Backend::WebGpu | Backend::Cpu => work::finish_work_async(e, work),
        }
    })?;
    pending.wait().await
}
