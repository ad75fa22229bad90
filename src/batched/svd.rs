//! Batched SVD by one-sided (Hestenes) Jacobi: `count` matrices of rows × cols
//! (cols ≤ rows ≤ 32, cols ≤ 16), one after another, row-major, decomposed at
//! once as A = U·diag(σ)·Vᵀ (the algorithm, its tolerance and sweep cap:
//! [`crate::plan::svd`]).
//!
//! * WebGPU: the whole iteration is one dispatch (wgsl/svd/jacobi.wgsl), one
//!   invocation per column, several matrices per workgroup; then one readback.
//!   The CPU backend runs the same form, each matrix by the float32 algorithm
//!   (crate::cpu::passes::svd_jacobi).
//! * WebGL: per round of disjoint rotations, a pass computing each pair's
//!   rotation (glsl/svd/pairs.frag) and one applying it to every entry
//!   (glsl/svd/round.frag), ping-ponging two atlases of [A; V] tiles; after each sweep a small pass
//!   (glsl/svd/measure.frag) says per matrix whether anything is left to rotate,
//!   read back to decide whether to sweep again; then a pass sorts and signs the
//!   results (glsl/svd/finish.frag).
//!
//! Both give the singular values decreasing, U and V with the pairs (u_j, v_j)
//! signed so that v_j's largest entry is positive, a zero column of U where
//! σ_j = 0 (V stays orthonormal), and per matrix the sweeps that rotated a pair.

use crate::blocks::grid;
use crate::engine::Handle;
use crate::engine::{kept_or_released, Engine, Matrix, PendingRead};
use crate::error::Result;
use crate::kernels::Backend;
use crate::plan::layout::Layout;
use crate::plan::semiring::Semiring;
use crate::plan::shape::Shape;
use crate::plan::svd::{Scaling, Svd, SvdPlan, SvdShape, MAX_SWEEPS};

/// Checks the sizes and `a`'s length (the same checks as the JavaScript API's).
fn check(count: usize, rows: usize, cols: usize, a: &[f32]) -> Result<SvdShape> {
    let shape = SvdShape::new(count, rows, cols)?;
    shape.check_len("a", a.len())?;
    // A NaN or an infinity makes every rotation of its matrix NaN, and the backends'
    // orders of rotations then leave different NaNs behind: refused instead.
    crate::plan::shape::check_finite("a", a, "the SVD")?;
    Ok(shape)
}

/// Refuses, before its array is read, a batch whose atlases the device cannot hold,
/// or whose input and results (u as large as a, v and s) WebAssembly memory cannot
/// hold together: SIZE_OVER_LIMIT.
pub fn check_batch(e: &Engine, shape: SvdShape) -> Result<()> {
    plan(e, shape)?;
    let stacked = |rows: usize, cols: usize| Shape::new(shape.count.saturating_mul(rows), cols);
    let (rows, cols) = (shape.rows, shape.cols);
    grid::check_memory_on(
        e.backend(),
        &format!("a batch of {} {rows}x{cols} SVDs", shape.count),
        &[stacked(rows, cols), stacked(cols, cols), stacked(1, cols)],
        stacked(rows, cols),
        grid::SMALLER_BATCH,
    )
}

/// The plan on this device, its atlases checked against the device's limits.
fn plan(e: &Engine, shape: SvdShape) -> Result<SvdPlan> {
    let p = SvdPlan::new(shape, e.atlas_width());
    let what = |part: &str| {
        format!(
            "the {part} of a batch of {} {}x{} SVDs",
            shape.count, shape.rows, shape.cols
        )
    };
    let hint = crate::engine::BATCH_ATLAS_HINT;
    e.check_atlas(&what("results"), p.out.shape(shape.count), hint)?;
    e.check_atlas(
        &what("per-matrix numbers"),
        p.scalars.shape(shape.count),
        hint,
    )?;
    Ok(p)
}

/// WebGPU and the CPU: uploads the batch, queues the one dispatch and starts reading the
/// result tiles and the sweep counts.
fn queue_jacobi(e: &mut Engine, p: &SvdPlan, a: &[f32]) -> Result<(PendingRead, PendingRead)> {
    let count = p.shape.count;
    let input = e.upload(p.input.shape(count), Layout::Scalar, &p.input.pack(a), 0.0)?;
    let mut made = vec![input];
    let queued = (|| {
        made.push(e.alloc(p.out.shape(count), Layout::Scalar)?);
        made.push(e.alloc(p.scalars.shape(count), Layout::Scalar)?);
        e.svd_jacobi(p, [&made[0], &made[1], &made[2]])?;
        Ok((
            crate::engine::read_for_caller(e, &made[1], Semiring::Ordinary)?,
            crate::engine::read_for_caller(e, &made[2], Semiring::Ordinary)?,
        ))
    })();
    // The reads have copied what they need: the pool may have these back.
    for m in made {
        e.recycle(m);
    }
    queued
}

/// The one-dispatch form's results, from its two reads.
async fn jacobi_results(p: &SvdPlan, (tiles, sweeps): (PendingRead, PendingRead)) -> Result<Svd> {
    let (tiles, sweeps) = (tiles.wait().await?, sweeps.wait().await?);
    let count = p.shape.count;
    let sweeps = p.scalars.unpack(&sweeps, count);
    Ok(p.split(
        &p.out.unpack(&tiles, count),
        sweeps.iter().map(|&n| n as u32).collect(),
    ))
}

/// The WebGL iteration's state between passes: the two [A; V] atlases (`work[0]`
/// current), a round's rotations, the measure's output, and per matrix whether it
/// is done and after how many sweeps.
struct GlJacobi {
    plan: SvdPlan,
    work: Vec<Matrix>,
    rotations: Option<Matrix>,
    measure: Option<Matrix>,
    swept: usize,
    done: Vec<bool>,
    sweeps: Vec<u32>,
}

impl GlJacobi {
    /// Uploads the [A; I] tiles and makes the other atlas and the measure's output.
    fn start(e: &mut Engine, plan: SvdPlan, a: &[f32]) -> Result<GlJacobi> {
        let count = plan.shape.count;
        let mut run = GlJacobi {
            plan,
            work: vec![],
            rotations: None,
            measure: None,
            swept: 0,
            done: vec![false; count],
            sweeps: vec![0; count],
        };
        let made = (|| {
            let shape = plan.work.shape(count);
            let tiles = plan.work.pack(&plan.augmented(a)?);
            run.work.push(e.upload(shape, Layout::Scalar, &tiles, 0.0)?);
            run.work.push(e.alloc(shape, Layout::Scalar)?);
            run.rotations = Some(e.alloc(plan.rotations.shape(count), Layout::Scalar)?);
            run.measure = Some(e.alloc(plan.scalars.shape(count), Layout::Scalar)?);
            Ok(())
        })();
        kept_or_released(e, run, made, GlJacobi::release)
    }

    /// Queues the measure pass over the current tiles; its output is `self.measure`.
    fn measure(&mut self, e: &mut Engine) -> Result<&Matrix> {
        let out = self.measure.as_ref().expect("made by start");
        e.svd_measure(&self.plan, &self.work[0], out)?;
        Ok(out)
    }

    /// Takes the measures read back after `swept` sweeps; whether to sweep again.
    fn observe(&mut self, measured: &[f32]) -> bool {
        let count = self.plan.shape.count;
        let measures = self.plan.scalars.unpack(measured, count);
        for (s, &m) in measures.iter().enumerate() {
            if !self.done[s] && m == 0.0 {
                self.done[s] = true;
                self.sweeps[s] = self.swept as u32;
            }
        }
        if self.swept >= MAX_SWEEPS {
            for (s, done) in self.done.iter().enumerate() {
                if !done {
                    self.sweeps[s] = MAX_SWEEPS as u32;
                }
            }
            return false;
        }
        self.done.iter().any(|d| !d)
    }

    /// Queues one sweep: a pass per round, each reading the last one's atlas.
    fn sweep(&mut self, e: &mut Engine) -> Result<()> {
        let rotations = self.rotations.as_ref().expect("made by start");
        for round in 0..self.plan.shape.rounds() {
            e.svd_round(&self.plan, round, [&self.work[0], rotations, &self.work[1]])?;
            self.work.swap(0, 1);
        }
        self.swept += 1;
        Ok(())
    }

    /// Queues the finishing pass into a new atlas of result tiles.
    fn finish(&mut self, e: &mut Engine) -> Result<Matrix> {
        let out = e.alloc(self.plan.out.shape(self.plan.shape.count), Layout::Scalar)?;
        match e.svd_finish(&self.plan, &self.work[0], &out) {
            Ok(()) => Ok(out),
            Err(err) => {
                e.recycle(out);
                Err(err)
            }
        }
    }

    /// Gives the atlases back to the pool.
    fn release(&mut self, e: &mut Engine) {
        let others = [self.rotations.take(), self.measure.take()];
        for m in self.work.drain(..).chain(others.into_iter().flatten()) {
            e.recycle(m);
        }
    }

    /// The results from the result tiles as read.
    fn split(&self, read: &[f32]) -> Svd {
        let tiles = self.plan.out.unpack(read, self.plan.shape.count);
        self.plan.split(&tiles, self.sweeps.clone())
    }
}

/// The SVD of each of `count` rows × cols matrices (`a`: one after another,
/// row-major), on either backend; see the module's description for what comes
/// back.
pub async fn svd(
    handle: &Handle,
    count: usize,
    rows: usize,
    cols: usize,
    a: &[f32],
) -> Result<Svd> {
    let shape = check(count, rows, cols, a)?;
    let scaling = Scaling::of(shape, a)?;
    let r = svd_of(handle, shape, scaling.input(a)).await?;
    Ok(scaling.restore(r, cols))
}

/// [`svd`] of a batch as the kernels take it (see [`Scaling`]).
async fn svd_of(handle: &Handle, shape: SvdShape, a: &[f32]) -> Result<Svd> {
    handle.ready().await?;
    if handle.with(|e| Ok(e.backend()))? != Backend::WebGl {
        let (p, reads) = handle.with(|e| {
            let p = plan(e, shape)?;
            Ok((p, queue_jacobi(e, &p, a)?))
        })?;
        return jacobi_results(&p, reads).await;
    }
    let mut run = handle.with(|e| GlJacobi::start(e, plan(e, shape)?, a))?;
    let iterated = async {
        loop {
            let read = handle.with(|e| {
                let m = run.measure(e)?;
                crate::engine::read_for_caller(e, m, Semiring::Ordinary)
            })?;
            let measured = read.wait().await?;
            if !run.observe(&measured) {
                break;
            }
            handle.with(|e| run.sweep(e))?;
        }
        let read = handle.with(|e| {
            let out = run.finish(e)?;
            let read = crate::engine::read_for_caller(e, &out, Semiring::Ordinary);
            e.recycle(out);
            read
        })?;
        read.wait().await
    }
    .await;
    // Freed engines have nothing to give back to.
    let _ = handle.with(|e| {
        run.release(e);
        Ok(())
    });
    Ok(run.split(&iterated?))
}
