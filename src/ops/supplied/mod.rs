//! A product C = A · B computed by a program the caller supplies — a learner's
//! kernel, a course's autograder — on whichever backend the handle runs, with the
//! library's conventions for binding (the kernel lab's):
//!
//! * **GLSL** (WebGL2): `#version 300 es`; `uniform highp sampler2D A, B` (R32F, texel
//!   x = k, y = i holds A\[i\]\[k\]); `uniform ivec3 dims` (rows, inner, cols);
//!   `out vec4 result` whose `.r` is C\[i\]\[j\] at `gl_FragCoord` x = j, y = i.
//! * **WGSL** (WebGPU): `@group(0) @binding(0) var<storage, read> A: array<f32>`,
//!   `@binding(1)` B, `@binding(2) var<storage, read_write> C: array<f32>`,
//!   `@binding(3) var<uniform> dims: Dims` with
//!   `struct Dims { rows: u32, inner: u32, cols: u32, pad: u32 }`, row-major, entry
//!   point `main`; ⌈cols / tile cols⌉ × ⌈rows / tile rows⌉ workgroups, x over columns.
//! * **CPU**: a Rust function over the slices.
//!
//! Besides the product, a **general WGSL form** ([`Supplied::Compute`], run by
//! [`dispatch`]) for kernels over other data (the lab's batched, block-sparse and
//! sparse exercises): its inputs bound `var<storage, read>` at bindings 0 … n − 1
//! (integer lists as their bits: the kernel declares them `array<u32>`), the output
//! `var<storage, read_write>` at n, one `var<uniform>` block of four u32 at n + 1,
//! dispatched over the grid the caller gives.
//!
//! Supplied WGSL gets an explicit bind group layout of these bindings, so that a
//! kernel that leaves one unused (an unfinished one) still runs.
//!
//! C is filled with NaN before the program runs, so an element it never writes
//! shows. A source that does not compile is `SHADER_COMPILE` carrying the compiler's
//! messages as `line:column message` (WGSL) or the driver's info log (GLSL).

mod cpu;
mod webgl;
mod webgpu;

use crate::engine::program::{Access, Glsl, Wgsl};
use crate::engine::{gl_timed, gpu_timed, Engine, Handle, Matrix, Timer};
use crate::error::{GpgpuError, Result};
use crate::kernels::Backend;
use crate::plan::layout::Layout;
use crate::plan::semiring::Semiring;
use crate::plan::shape;

/// A CPU form: C (rows × cols, zeroed by nobody: NaN) from A and B, row-major.
pub type CpuKernel = fn(a: &[f32], b: &[f32], c: &mut [f32], dims: [usize; 3]);

/// A product kernel from outside, in its backend's language.
#[derive(Clone, Debug)]
pub enum Supplied {
    Glsl(Glsl),
    /// With the block of C one workgroup computes: `tile` = [rows, cols].
    Wgsl {
        program: Wgsl,
        tile: [usize; 2],
    },
    Cpu(CpuKernel),
    /// A compute program of the general form, run by [`dispatch`].
    Compute(Wgsl),
}

/// The bindings of a supplied WGSL product: A, B, C, dims.
pub const PRODUCT_LAYOUT: [Access; 4] = [
    Access::Read,
    Access::Read,
    Access::ReadWrite,
    Access::Uniform,
];

/// The bindings of the general form with `inputs` inputs: those, the output, the
/// uniform block.
pub fn layout(inputs: usize) -> Vec<Access> {
    let mut l = vec![Access::Read; inputs];
    l.extend([Access::ReadWrite, Access::Uniform]);
    l
}

/// One run of a general-form program: its inputs in binding order, the output's
/// length, the uniform block's words and the grid of workgroups (x, y).
pub struct Dispatch<'a> {
    pub inputs: &'a [&'a [f32]],
    pub output: usize,
    pub words: [u32; 4],
    pub groups: (usize, usize),
}

impl Supplied {
    /// The backend it runs on.
    pub fn backend(&self) -> Backend {
        match self {
            Supplied::Glsl(_) => Backend::WebGl,
            Supplied::Wgsl { .. } | Supplied::Compute(_) => Backend::WebGpu,
            Supplied::Cpu(_) => Backend::Cpu,
        }
    }
}

/// Refuses a program of another backend than the engine's.
fn check_backend(e: &Engine, program: &Supplied) -> Result<()> {
    if e.backend() == program.backend() {
        return Ok(());
    }
    Err(GpgpuError::BadArgument {
        name: "program".into(),
        detail: format!(
            "a {} program cannot run on this {} Gpgpu: create one with backend '{}'",
            program.backend().name(),
            e.backend().name(),
            program.backend().name()
        ),
    })
}

/// Compiles `program` now and waits for the compiler's verdict (`SHADER_COMPILE`
/// with its messages), without running it. A CPU kernel is Rust: nothing to do.
pub async fn compile(handle: &Handle, program: &Supplied) -> Result<()> {
    handle.ready().await?;
    let gpu = handle.with(|e| {
        check_backend(e, program)?;
        match (e, program) {
            (Engine::WebGl(e), Supplied::Glsl(p)) => e.program(p).map(|_| None),
            (Engine::WebGpu(e), Supplied::Wgsl { program, .. } | Supplied::Compute(program)) => {
                e.prepare(program);
                Ok(Some(e.gpu().clone()))
            }
            _ => Ok(None),
        }
    })?;
    let Some(gpu) = gpu else { return Ok(()) };
    let verdict = gpu.settle().await;
    if verdict.is_err() {
        // A broken pipeline stays out of the cache: the next try compiles again.
        if let Supplied::Wgsl { program, .. } | Supplied::Compute(program) = program {
            handle.with(|e| {
                if let Engine::WebGpu(e) = e {
                    e.forget(program);
                }
                Ok(())
            })?;
        }
    }
    verdict
}

/// C (rows × cols) = A (rows × inner) · B (inner × cols) by `program`, on the
/// engine of `handle`; the inputs row-major, of those lengths (else BAD_LENGTH).
pub async fn product(
    handle: &Handle,
    program: &Supplied,
    [rows, inner, cols]: [usize; 3],
    a: &[f32],
    b: &[f32],
) -> Result<Vec<f32>> {
    handle.ready().await?;
    let pending = handle.with(|e| {
        let (held, dims) = upload_product(e, program, [rows, inner, cols], a, b)?;
        let queued = run(e, program, [&held[0], &held[1], &held[2]], dims)
            .and_then(|_| e.read(&held[2], Semiring::Ordinary));
        for m in held {
            e.recycle(m);
        }
        queued
    })?;
    pending.wait().await
}

/// A and B uploaded for `program` and C allocated (rows × cols), with the checked
/// dimensions: what [`pass`] runs over, again and again when timing.
pub fn upload_product(
    e: &mut Engine,
    program: &Supplied,
    [rows, inner, cols]: [usize; 3],
    a: &[f32],
    b: &[f32],
) -> Result<([Matrix; 3], [usize; 3])> {
    check_backend(e, program)?;
    let dims = [
        e.dimension("rows", rows as f64)?,
        e.dimension("inner", inner as f64)?,
        e.dimension("cols", cols as f64)?,
    ];
    let [sa, sb, sc] = shape::product_shapes([rows, inner, cols], a.len(), b.len())?;
    let mut held: Vec<Matrix> = Vec::with_capacity(3);
    let made = (|| {
        held.push(e.upload(sa, Layout::Scalar, a, 0.0)?);
        held.push(e.upload(sb, Layout::Scalar, b, 0.0)?);
        held.push(e.alloc(sc, Layout::Scalar)?);
        Ok(())
    })();
    if let Err(err) = made {
        for m in held {
            e.recycle(m);
        }
        return Err(err);
    }
    let [a, b, c]: [Matrix; 3] = held.try_into().map_err(|_| crate::engine::foreign())?;
    Ok(([a, b, c], dims))
}

/// One pass of `program` over resident matrices (those of [`upload_product`]),
/// timed on the GPU when `timed` and the device grants it (a WebGL timer query,
/// WebGPU timestamps): the timer comes back.
pub fn pass(
    e: &mut Engine,
    program: &Supplied,
    m: [&Matrix; 3],
    dims: [usize; 3],
    timed: bool,
) -> Result<Option<Timer>> {
    match (e, program, m) {
        (Engine::WebGl(e), Supplied::Glsl(p), [Matrix::Gl(a), Matrix::Gl(b), Matrix::Gl(c)]) => {
            gl_timed(e, timed, |e| webgl::run(e, p, [a, b, c], dims))
        }
        (
            Engine::WebGpu(e),
            Supplied::Wgsl { program, tile },
            [Matrix::Gpu(a), Matrix::Gpu(b), Matrix::Gpu(c)],
        ) => gpu_timed(e, timed, |e, t| {
            webgpu::run(e, program, *tile, [a, b, c], dims, t)
        }),
        (e, program, m) => run(e, program, m, dims).map(|_| None),
    }
}

/// Runs `program` once over resident A, B and C.
fn run(e: &mut Engine, program: &Supplied, m: [&Matrix; 3], dims: [usize; 3]) -> Result<()> {
    match (e, program, m) {
        (Engine::WebGl(e), Supplied::Glsl(p), [Matrix::Gl(a), Matrix::Gl(b), Matrix::Gl(c)]) => {
            webgl::run(e, p, [a, b, c], dims)
        }
        (
            Engine::WebGpu(e),
            Supplied::Wgsl { program, tile },
            [Matrix::Gpu(a), Matrix::Gpu(b), Matrix::Gpu(c)],
        ) => webgpu::run(e, program, *tile, [a, b, c], dims, None),
        (Engine::Cpu(e), Supplied::Cpu(f), [Matrix::Cpu(a), Matrix::Cpu(b), Matrix::Cpu(c)]) => {
            cpu::run(e, *f, [a, b, c], dims)
        }
        (_, Supplied::Compute(_), _) => Err(GpgpuError::BadArgument {
            name: "program".into(),
            detail: "a program of the general form is not a product: run it by dispatch, \
                     with its inputs and grid"
                .into(),
        }),
        _ => Err(crate::engine::foreign()),
    }
}

/// Runs `program` (the general form) once: the output read back, NaN where the
/// program wrote nothing, with the pass's GPU time in ms when `timed` and the
/// device grants timestamps.
pub async fn dispatch(
    handle: &Handle,
    program: &Wgsl,
    d: &Dispatch<'_>,
    timed: bool,
) -> Result<(Vec<f32>, Option<f64>)> {
    handle.ready().await?;
    let (pending, timer) = handle.with(|e| {
        let Engine::WebGpu(g) = e else {
            return Err(GpgpuError::BadArgument {
                name: "program".into(),
                detail: format!(
                    "a WGSL program cannot run on this {} Gpgpu: create one with backend \
                     'webgpu'",
                    e.backend().name()
                ),
            });
        };
        let (out, timer) = webgpu::dispatch(g, program, d, timed)?;
        let out = Matrix::Gpu(out);
        let read = e.read(&out, Semiring::Ordinary);
        e.recycle(out);
        Ok((read?, timer))
    })?;
    let mut out = pending.wait().await?;
    out.truncate(d.output);
    let ms = match timer {
        Some(t) => handle.timer_ms(&crate::engine::Timer::Gpu(t)).await,
        None => None,
    };
    Ok((out, ms))
}
