//! A product or a plan on whole matrices ([`Run`]) or, past the device limit or
//! under `max_tile`, on tiles ([`TiledRun`]): the choice, the checks, the uploads
//! and the final readback, shared by the public API, the applications and the
//! several-devices split.

use crate::blocks::grid::{self, TiledRun};
use std::future::Future;

use crate::engine::{Engine, Handle, Input, PendingRead};
use crate::error::{GpgpuError, Result};
use crate::kernels::{Backend, Kernel};
use crate::plan::passes::{self, PassPlan};
use crate::plan::semiring::Semiring;
use crate::plan::shape::{self, Shape};
use crate::run::Run;

/// Per-call choices; `Options::default()` is the auto-chosen kernel in the
/// ordinary semiring.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Options {
    /// The kernel to run, or `None` to let `Gpgpu::choose_kernel` pick the fastest
    /// for the output's size on this device (JavaScript's `"auto"`). A kernel of the
    /// other backend, or one the device cannot run, is `BadArgument`.
    pub kernel: Option<Kernel>,
    /// What "product" means: ordinary (+, ×), boolean (OR, AND) or (min, +) for
    /// shortest paths, where `f32::INFINITY` is "no edge" and `-∞` is `BadArgument`.
    pub semiring: Semiring,
    /// Cut every matrix into tiles of at most this side, even where it would fit
    /// the device whole (`None`: tile only past the device limit). The tiled path
    /// is the one big matrices take; a small cap exercises it at small sizes.
    pub max_tile: Option<usize>,
}

/// An operation ready to run: whole matrices ([`Run`]) or tiled ones
/// ([`TiledRun`], for sizes past the device limit or under `max_tile`).
pub enum Work {
    Whole(Run),
    Tiled(TiledRun),
}

impl Work {
    /// The run, if the matrices fit whole; a tiled operation cannot be stepped.
    pub fn into_run(self, engine: &mut Engine) -> Result<Run> {
        match self {
            Work::Whole(run) => Ok(run),
            Work::Tiled(t) => {
                t.recycle(engine);
                Err(GpgpuError::BadArgument {
                    name: "n".into(),
                    detail: "matrices past the device limit (or options.maxTile) are \
                             multiplied in tiles, which step-by-step runs do not do; use \
                             the plain call or its Async form"
                        .into(),
                })
            }
        }
    }
}

/// `options` for a run of whole matrices: what tiling asked for has been decided.
fn untiled(options: &Options) -> Options {
    Options {
        max_tile: None,
        ..*options
    }
}

/// Step-by-step runs hold whole matrices: `max_tile` is for the plain calls.
fn refuse_tiles(options: &Options) -> Result<()> {
    match options.max_tile {
        None => Ok(()),
        Some(_) => Err(GpgpuError::BadArgument {
            name: "options.maxTile".into(),
            detail: "step-by-step runs hold whole matrices and do not multiply in tiles; \
                     use the plain call or its Async form for a tiled product"
                .into(),
        }),
    }
}

/// Validates and uploads A and B for a product run on `engine`.
pub fn start_product<'a>(
    engine: &mut Engine,
    [rows, inner, cols]: [usize; 3],
    a: impl Into<Input<'a>>,
    b: impl Into<Input<'a>>,
    options: &Options,
) -> Result<Run> {
    let (a, b) = (a.into(), b.into());
    refuse_tiles(options)?;
    let rows = engine.dimension("rows", rows as f64)?;
    let inner = engine.dimension("inner", inner as f64)?;
    let cols = engine.dimension("cols", cols as f64)?;
    let (sa, sb) = (Shape::new(rows, inner), Shape::new(inner, cols));
    let out = Shape::new(rows, cols);
    for s in [sa, sb, out] {
        engine.check_shape(s)?;
    }
    shape::check_len("a", sa, a.len())?;
    shape::check_len("b", sb, b.len())?;
    let kernel = engine.choose_kernel(options.kernel, out)?;
    Run::new(
        engine,
        kernel,
        options.semiring,
        passes::product(),
        &[(sa, a), (sb, b)],
    )
}

/// Validates and uploads M for a plan on an n×n matrix on `engine`.
pub fn start_plan<'a>(
    engine: &mut Engine,
    n: usize,
    m: impl Into<Input<'a>>,
    plan: PassPlan,
    options: &Options,
) -> Result<Run> {
    let m = m.into();
    refuse_tiles(options)?;
    let n = engine.dimension("n", n as f64)?;
    let shape = Shape::square(n);
    engine.check_shape(shape)?;
    shape::check_len("m", shape, m.len())?;
    let kernel = engine.choose_kernel(options.kernel, shape)?;
    Run::new(engine, kernel, options.semiring, plan, &[(shape, m)])
}

/// Runs a run's remaining passes and queues the readback of its result; the run's
/// GPU memory goes back to the pool (the readback has copied what it needs).
pub fn finish_async(engine: &mut Engine, mut run: Run) -> Result<PendingRead> {
    // Dropping a run of another Gpgpu frees its memory in its own context.
    run.check_engine(engine)?;
    let pending = run
        .run_all(engine)
        .and_then(|_| run.read_result_async(engine));
    run.recycle(engine);
    pending
}

/// A dimension of an operation that may be tiled: a whole number from 1 up; the
/// device limit does not apply (tiles take care of it), WebAssembly memory does
/// (see [`grid::check_memory`]).
pub fn tiled_dimension(name: &str, value: f64) -> Result<usize> {
    // A 1×2^30 float32 matrix alone fills wasm32's 4 GiB.
    const MAX: f64 = (1u64 << 30) as f64;
    if value.is_finite() && value > MAX {
        return Err(shape::SideBound {
            limit: MAX as usize,
            named: "what 4 GiB of WebAssembly memory holds (2^30 floats)",
            hint: "Use smaller matrices: WebAssembly in a browser holds at most 4 GiB.",
        }
        .refuse(name, value));
    }
    shape::dimension(name, value, MAX as usize)
}

/// Validates A and B for a product and uploads them whole or, past the device
/// limit or over `options.max_tile`, as tiles.
pub fn begin_product<'a>(
    engine: &mut Engine,
    [rows, inner, cols]: [usize; 3],
    a: impl Into<Input<'a>>,
    b: impl Into<Input<'a>>,
    options: &Options,
) -> Result<Work> {
    let (a, b) = (a.into(), b.into());
    let (sa, sb) = (Shape::new(rows, inner), Shape::new(inner, cols));
    let out = Shape::new(rows, cols);
    let mut tile = tile_for(engine, &[sa, sb, out], options)?;
    if tile.is_none() {
        // A k longer than the kernel sums in one pass here is cut into tiles too.
        let kernel = engine.choose_kernel(options.kernel, out).ok();
        if let Some(l) = kernel
            .and_then(|k| engine.longest_k(k))
            .filter(|&l| inner > l)
        {
            tile = Some(grid::device_tile(engine).min(l));
        }
    }
    match tile {
        None => {
            start_product(engine, [rows, inner, cols], a, b, &untiled(options)).map(Work::Whole)
        }
        Some(tile) => {
            for (name, v) in [("rows", rows), ("inner", inner), ("cols", cols)] {
                tiled_dimension(name, v as f64)?;
            }
            grid::check_memory_on(
                engine.backend(),
                "this product",
                &[sa, sb],
                out,
                grid::SMALLER_MATRICES,
            )?;
            shape::check_len("a", sa, a.len())?;
            shape::check_len("b", sb, b.len())?;
            let kernel = engine.choose_kernel(options.kernel, Shape::square(tile))?;
            let (a, b) = (a.in_wasm()?, b.in_wasm()?);
            let inputs = [(sa, &a[..]), (sb, &b[..])];
            TiledRun::new(
                engine,
                kernel,
                options.semiring,
                passes::product(),
                &inputs,
                tile,
            )
            .map(Work::Tiled)
        }
    }
}

/// Validates M for a plan on an n×n matrix and uploads it whole or as tiles.
pub fn begin_plan<'a>(
    engine: &mut Engine,
    n: usize,
    m: impl Into<Input<'a>>,
    plan: PassPlan,
    options: &Options,
) -> Result<Work> {
    let m = m.into();
    let shape = Shape::square(n);
    match tile_for(engine, &[shape], options)? {
        None => start_plan(engine, n, m, plan, &untiled(options)).map(Work::Whole),
        Some(tile) => {
            tiled_dimension("n", n as f64)?;
            grid::check_memory_on(
                engine.backend(),
                "this power",
                &[shape],
                shape,
                grid::SMALLER_MATRICES,
            )?;
            shape::check_len("m", shape, m.len())?;
            let kernel = engine.choose_kernel(options.kernel, Shape::square(tile))?;
            let m = m.in_wasm()?;
            TiledRun::new(
                engine,
                kernel,
                options.semiring,
                plan,
                &[(shape, &m[..])],
                tile,
            )
            .map(Work::Tiled)
        }
    }
}

/// The tile side for `shapes` under `options` (None: whole); a max_tile of 0 is
/// BadCount.
fn tile_for(engine: &Engine, shapes: &[Shape], options: &Options) -> Result<Option<usize>> {
    if options.max_tile == Some(0) {
        return Err(GpgpuError::BadCount {
            name: "maxTile".into(),
            value: 0.0,
            problem: crate::error::NumberProblem::Zero,
            min: 1,
            max: u32::MAX as f64,
        });
    }
    Ok(grid::tile_for(engine, shapes, options.max_tile))
}

/// Runs an operation's passes and queues the readback of its result; its GPU
/// memory goes back to the pool.
pub fn finish_work_async(engine: &mut Engine, work: Work) -> Result<PendingRead> {
    match work {
        Work::Whole(run) => finish_async(engine, run),
        Work::Tiled(mut t) => {
            let pending = t.run_all(engine).and_then(|_| t.read_async(engine));
            t.recycle(engine);
            pending
        }
    }
}

/// Runs an operation's passes and reads its result, blocking: WebGL and the CPU
/// ([`finish_work_async`] completed at once).
pub fn finish_work(engine: &mut Engine, work: Work) -> Result<Vec<f32>> {
    let read = async { finish_work_async(engine, work)?.wait().await };
    crate::common::now(read, "run.result()", "run.resultAsync()")
}

/// The blocking form of an operation, derived from its async form: WebGPU, which
/// cannot block, is NeedsAsync before anything is queued (the future is not yet
/// polled); WebGL and the CPU complete on the first poll, their reads being
/// synchronous under [`crate::common::now`] (see [`crate::engine::read_for_caller`]).
pub fn now<T>(
    handle: &Handle,
    op: impl Future<Output = Result<T>>,
    call: &'static str,
    instead: &'static str,
) -> Result<T> {
    can_block(handle, call, instead)?;
    crate::common::now(op, call, instead)
}

/// NeedsAsync on WebGPU, which cannot block; elsewhere the engine's own state (a
/// lost WebGL context is the call's error, not a wait for its restoring).
pub fn can_block(handle: &Handle, call: &'static str, instead: &'static str) -> Result<()> {
    handle.with(|e| match e.backend() {
        Backend::WebGpu => Err(GpgpuError::NeedsAsync { call, instead }),
        _ => e.ensure(),
    })
}
