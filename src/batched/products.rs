//! Batched small products: `count` products of rows×inner by inner×cols matrices
//! (at most 32 on a side) in one pass, one invocation or fragment per output entry,
//! and batched powers by binary exponentiation, the atlases staying on the GPU
//! between passes. Inputs and results are the matrices one after another,
//! row-major; on the GPU they lie side by side in an atlas ([`Atlas`]).

use crate::api::Handle;
use crate::engine::{Engine, Matrix};
use crate::error::{GpgpuError, Result};
use crate::kernels::Backend;
use crate::plan::batched::{self, BatchedProduct};
use crate::plan::blocks::Atlas;
use crate::plan::layout::Layout;
use crate::plan::passes::{self, PassPlan};
use crate::plan::semiring::Semiring;
use crate::plan::shape::Shape;

/// A batch's operation, checked: `count` matrices, the plan's passes over slots
/// of tiles, the inputs' tiles.
struct Job {
    count: usize,
    plan: PassPlan,
    inputs: Vec<(Shape, Vec<f32>)>,
}

/// The Rust API's sizes pass the JavaScript API's checks too: a batch of at least
/// one, sides from 1 to 32.
fn check_sizes(count: usize, sides: &[(&str, usize)]) -> Result<()> {
    batched::count(count as f64)?;
    for &(name, side) in sides {
        batched::side(name, side as f64)?;
    }
    Ok(())
}

/// The product job: slot 0 holds the A's, slot 1 the B's.
fn product_job(count: usize, [rows, inner, cols]: [usize; 3], a: &[f32], b: &[f32]) -> Result<Job> {
    check_sizes(count, &[("rows", rows), ("inner", inner), ("cols", cols)])?;
    let (ta, tb) = (Shape::new(rows, inner), Shape::new(inner, cols));
    batched::check_len("a", count, ta, a.len())?;
    batched::check_len("b", count, tb, b.len())?;
    Ok(Job {
        count,
        plan: passes::product(),
        inputs: vec![(ta, a.to_vec()), (tb, b.to_vec())],
    })
}

/// The power job: M_s^p for every s, by binary exponentiation.
fn power_job(count: usize, n: usize, m: &[f32], p: u64) -> Result<Job> {
    check_sizes(count, &[("n", n)])?;
    let tile = Shape::square(n);
    batched::check_len("m", count, tile, m.len())?;
    Ok(Job {
        count,
        plan: passes::power(p),
        inputs: vec![(tile, m.to_vec())],
    })
}

/// The identity, `count` times (M^0).
fn identities(count: usize, n: usize) -> Vec<f32> {
    let mut id = vec![0f32; n * n];
    for i in 0..n {
        id[i * n + i] = 1.0;
    }
    id.repeat(count)
}

/// Uploads the job's inputs and queues every pass; returns the result's atlas
/// (None for M^0) and its layout.
fn queue(e: &mut Engine, job: &Job) -> Result<Option<(Matrix, Atlas)>> {
    e.ensure()?;
    let shapes = job
        .plan
        .check(&job.inputs.iter().map(|(s, _)| *s).collect::<Vec<_>>())?;
    let w = e.atlas_width();
    let atlas = |tile: Shape| Atlas::new(tile, w);
    for (slot, s) in shapes.iter().enumerate() {
        e.check_atlas(
            &format!(
                "a batch of {} {}x{} matrices (slot {slot})",
                job.count, s.rows, s.cols
            ),
            atlas(*s).shape(job.count),
        )?;
    }
    let mut slots: Vec<Option<Matrix>> = (0..shapes.len()).map(|_| None).collect();
    let ran = (|| {
        for (i, (tile, data)) in job.inputs.iter().enumerate() {
            let a = atlas(*tile);
            slots[i] = Some(e.upload(a.shape(job.count), Layout::Scalar, &a.pack(data), 0.0)?);
        }
        for step in &job.plan.steps {
            let (x, y) = step.sources();
            let dst = step.dst();
            let p = BatchedProduct::new(
                job.count,
                [shapes[x].rows, shapes[x].cols, shapes[y].cols],
                w,
            );
            let out = e.alloc(p.c.shape(job.count), Layout::Scalar)?;
            let done = match (&slots[x], &slots[y]) {
                (Some(a), Some(b)) => e.batched_product(&p, [a, b, &out]),
                _ => Err(GpgpuError::BadArgument {
                    name: "plan".into(),
                    detail: format!("a step reads slot {x} or {y}, which holds nothing"),
                }),
            };
            if let Some(old) = slots[dst].replace(out) {
                e.recycle(old);
            }
            done?;
        }
        Ok(())
    })();
    let result = job.plan.result;
    let mut kept = None;
    for (i, m) in slots.into_iter().enumerate() {
        match m {
            Some(m) if Some(i) == result && ran.is_ok() => kept = Some(m),
            Some(m) => e.recycle(m),
            None => {}
        }
    }
    ran?;
    Ok(kept.map(|m| (m, atlas(result.map_or(shapes[0], |r| shapes[r])))))
}

/// Runs `job` and reads the result back without blocking (either backend).
async fn run(handle: &Handle, job: Job) -> Result<Vec<f32>> {
    handle.ready().await?;
    let queued = handle.with(|e| {
        let Some((m, atlas)) = queue(e, &job)? else {
            return Ok(None);
        };
        let read = e.read(&m, Semiring::Ordinary);
        e.recycle(m);
        Ok(Some((read?, atlas)))
    })?;
    match queued {
        None => Ok(identities(job.count, job.inputs[0].0.rows)),
        Some((read, atlas)) => Ok(atlas.unpack(&read.wait().await?, job.count)),
    }
}

/// Runs `job` and reads the result back, blocking: WebGL and the CPU.
fn run_now(
    e: &mut Engine,
    job: Job,
    call: &'static str,
    instead: &'static str,
) -> Result<Vec<f32>> {
    if e.backend() == Backend::WebGpu {
        return Err(GpgpuError::NeedsAsync { call, instead });
    }
    match queue(e, &job)? {
        None => Ok(identities(job.count, job.inputs[0].0.rows)),
        Some((m, atlas)) => {
            let data = e.download(&m, call, instead);
            e.recycle(m);
            Ok(atlas.unpack(&data?, job.count))
        }
    }
}

/// `count` products A_s·B_s (A_s rows×inner, B_s inner×cols, one after another,
/// row-major) in one pass, on either backend.
pub async fn multiply(
    handle: &Handle,
    count: usize,
    dims: [usize; 3],
    a: &[f32],
    b: &[f32],
) -> Result<Vec<f32>> {
    run(handle, product_job(count, dims, a, b)?).await
}

/// [`multiply`], blocking: WebGL and the CPU.
pub fn multiply_now(
    e: &mut Engine,
    count: usize,
    dims: [usize; 3],
    a: &[f32],
    b: &[f32],
) -> Result<Vec<f32>> {
    run_now(
        e,
        product_job(count, dims, a, b)?,
        "multiplyBatched",
        "multiplyBatchedAsync",
    )
}

/// M_s^p for `count` n×n matrices, by ⌊log2 p⌋ squarings and popcount(p) − 1
/// products of the whole batch; p = 0 gives identities.
pub async fn power(handle: &Handle, count: usize, n: usize, m: &[f32], p: u64) -> Result<Vec<f32>> {
    run(handle, power_job(count, n, m, p)?).await
}

/// [`power`], blocking: WebGL and the CPU.
pub fn power_now(e: &mut Engine, count: usize, n: usize, m: &[f32], p: u64) -> Result<Vec<f32>> {
    run_now(
        e,
        power_job(count, n, m, p)?,
        "powerBatched",
        "powerBatchedAsync",
    )
}
