//! Batched small products: `count` products of rows×inner by inner×cols matrices
//! (at most 32 on a side) in one pass, one invocation or fragment per output entry,
//! and batched powers by binary exponentiation, the atlases staying on the GPU
//! between passes. Inputs and results are the matrices one after another,
//! row-major; on the GPU they lie side by side in an atlas ([`Atlas`]). A product
//! may report its pass's GPU time ([`multiply_timed`]): the kernel lab times the
//! library's pass beside the learner's by the GPU clock, without the transfers.

use std::borrow::Cow;

use crate::blocks::grid;
use crate::engine::Handle;
use crate::engine::{Engine, Matrix, Timer};
use crate::error::{GpgpuError, Result};
use crate::plan::batched::{self, BatchedProduct};
use crate::plan::blocks::Atlas;
use crate::plan::layout::Layout;
use crate::plan::passes::{self, PassPlan};
use crate::plan::semiring::Semiring;
use crate::plan::shape::Shape;

/// A batch's operation, checked: `count` matrices, the plan's passes over slots
/// of tiles, the inputs' tiles: borrowed from a Rust caller, owned when the
/// JavaScript layer hands over its copy, which is then freed once uploaded (at
/// 200,000 32×32 matrices each input is 819 MB of WebAssembly's 4 GiB).
struct Job<'a> {
    count: usize,
    plan: PassPlan,
    inputs: Vec<(Shape, Cow<'a, [f32]>)>,
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

/// Refuses a batch whose inputs (`tiles`, `count` of each) and result cannot be
/// held in WebAssembly memory together: SIZE_OVER_LIMIT, before any array is copied
/// in (200,000 32×32 products hold 2.5 GB; twice that would not fit).
fn check_memory(count: usize, tiles: &[Shape], result: Shape) -> Result<()> {
    let stacked = |t: &Shape| Shape::new(count.saturating_mul(t.rows), t.cols);
    let inputs: Vec<Shape> = tiles.iter().map(stacked).collect();
    grid::check_memory(
        &format!("a batch of {count} matrices"),
        &inputs,
        stacked(&result),
        grid::SMALLER_BATCH,
    )
}

/// [`check_memory`] of a batched product's arguments.
fn check_product_memory(count: usize, [rows, inner, cols]: [usize; 3]) -> Result<()> {
    let tiles = [Shape::new(rows, inner), Shape::new(inner, cols)];
    check_memory(count, &tiles, Shape::new(rows, cols))
}

/// The product job: slot 0 holds the A's, slot 1 the B's.
fn product_job<'a>(
    count: usize,
    [rows, inner, cols]: [usize; 3],
    a: Cow<'a, [f32]>,
    b: Cow<'a, [f32]>,
) -> Result<Job<'a>> {
    check_sizes(count, &[("rows", rows), ("inner", inner), ("cols", cols)])?;
    check_product_memory(count, [rows, inner, cols])?;
    let (ta, tb) = (Shape::new(rows, inner), Shape::new(inner, cols));
    batched::check_len("a", count, ta, a.len())?;
    batched::check_len("b", count, tb, b.len())?;
    Ok(Job {
        count,
        plan: passes::product(),
        inputs: vec![(ta, a), (tb, b)],
    })
}

/// The power job: M_s^p for every s, by binary exponentiation.
fn power_job(count: usize, n: usize, m: Cow<'_, [f32]>, p: u64) -> Result<Job<'_>> {
    check_sizes(count, &[("n", n)])?;
    let tile = Shape::square(n);
    check_memory(count, &[tile], tile)?;
    batched::check_len("m", count, tile, m.len())?;
    Ok(Job {
        count,
        plan: passes::power(p),
        inputs: vec![(tile, m)],
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

/// The tiles of every slot of `plan` over `inputs`, once each slot's atlas of `count`
/// tiles is known to fit the device.
fn atlases_fit(e: &Engine, count: usize, plan: &PassPlan, inputs: &[Shape]) -> Result<Vec<Shape>> {
    let shapes = plan.check(inputs)?;
    let w = e.atlas_width();
    for (slot, s) in shapes.iter().enumerate() {
        e.check_atlas(
            &format!(
                "a batch of {count} {}x{} matrices (slot {slot})",
                s.rows, s.cols
            ),
            Atlas::new(*s, w).shape(count),
            crate::engine::BATCH_ATLAS_HINT,
        )?;
    }
    Ok(shapes)
}

/// Refuses a batched product that does not fit the device, or whose inputs and result
/// do not fit in WebAssembly memory together, before its arrays are read: the
/// JavaScript calls ask first, as arrays too large to copy into wasm memory (two of
/// 1 GiB for a batch past the atlas limit anyway) trapped ("unreachable") on the copies.
pub fn check_product(e: &Engine, count: usize, [rows, inner, cols]: [usize; 3]) -> Result<()> {
    check_sizes(count, &[("rows", rows), ("inner", inner), ("cols", cols)])?;
    let inputs = [Shape::new(rows, inner), Shape::new(inner, cols)];
    atlases_fit(e, count, &passes::product(), &inputs)?;
    check_product_memory(count, [rows, inner, cols])
}

/// [`check_product`] for a batched power.
pub fn check_power(e: &Engine, count: usize, n: usize, p: u64) -> Result<()> {
    check_sizes(count, &[("n", n)])?;
    let tile = Shape::square(n);
    atlases_fit(e, count, &passes::power(p), &[tile])?;
    check_memory(count, &[tile], tile)
}

/// The result's atlas (None for M^0), its layout, and the last pass's timer.
type Queued = (Option<(Matrix, Atlas)>, Option<Timer>);

/// Uploads the job's inputs and queues every pass (each timed when `timed`, where
/// the device can); returns the result's atlas (None for M^0) and its layout.
fn queue(e: &mut Engine, job: &Job, timed: bool) -> Result<Queued> {
    e.ensure()?;
    let inputs: Vec<Shape> = job.inputs.iter().map(|(s, _)| *s).collect();
    let shapes = atlases_fit(e, job.count, &job.plan, &inputs)?;
    let w = e.atlas_width();
    let atlas = |tile: Shape| Atlas::new(tile, w);
    // The inputs and the result, each once in WebAssembly memory at a time (an input
    // is freed once packed and uploaded where the job owns it, the read once
    // unpacked); twice over on the CPU backend. Unchecked, 200,000 32×32 products
    // on WebGPU took the tab down.
    let result_tile = job.plan.result.map_or(shapes[0], |r| shapes[r]);
    let inputs: Vec<Shape> = job
        .inputs
        .iter()
        .map(|(s, _)| atlas(*s).shape(job.count))
        .collect();
    grid::check_memory_on(
        e.backend(),
        &format!("a batch of {} products", job.count),
        &inputs,
        atlas(result_tile).shape(job.count),
        grid::SMALLER_BATCH,
    )?;
    let mut slots: Vec<Option<Matrix>> = (0..shapes.len()).map(|_| None).collect();
    let mut timer = None;
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
                (Some(a), Some(b)) => e
                    .batched_product(&p, [a, b, &out], timed)
                    .map(|t| timer = t),
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
    let kept = kept.map(|m| (m, atlas(result.map_or(shapes[0], |r| shapes[r]))));
    Ok((kept, timer))
}

/// Runs `job` and reads the result back without blocking (either backend), with
/// the last pass's GPU ms when `timed` and the device grants it.
async fn run(handle: &Handle, job: Job<'_>, timed: bool) -> Result<(Vec<f32>, Option<f64>)> {
    handle.ready().await?;
    let (count, n) = (job.count, job.inputs[0].0.rows);
    let (queued, timer) = handle.with(|e| {
        let (Some((m, atlas)), timer) = queue(e, &job, timed)? else {
            return Ok((None, None));
        };
        let read = crate::engine::read_for_caller(e, &m, Semiring::Ordinary);
        e.recycle(m);
        Ok((Some((read?, atlas)), timer))
    })?;
    // Uploaded: an owned copy of the inputs goes before the result comes.
    drop(job);
    let out = match queued {
        None => identities(count, n),
        Some((read, atlas)) => atlas.unpack(&read.wait().await?, count),
    };
    let ms = match timer {
        Some(t) => handle.timer_ms(&t).await,
        None => None,
    };
    Ok((out, ms))
}

/// `count` products A_s·B_s (A_s rows×inner, B_s inner×cols, one after another,
/// row-major) in one pass, on either backend. Given as a `Vec`, an input is freed
/// once on the GPU.
pub async fn multiply<'a>(
    handle: &Handle,
    count: usize,
    dims: [usize; 3],
    a: impl Into<Cow<'a, [f32]>>,
    b: impl Into<Cow<'a, [f32]>>,
) -> Result<Vec<f32>> {
    let job = product_job(count, dims, a.into(), b.into())?;
    Ok(run(handle, job, false).await?.0)
}

/// [`multiply`], with its pass's GPU ms where the device grants timestamps: the
/// whole call (uploads and readback) as the kernel lab's learner's is, the pass
/// alone on the GPU clock.
pub async fn multiply_timed(
    handle: &Handle,
    count: usize,
    dims: [usize; 3],
    a: &[f32],
    b: &[f32],
) -> Result<(Vec<f32>, Option<f64>)> {
    run(handle, product_job(count, dims, a.into(), b.into())?, true).await
}

/// M_s^p for `count` n×n matrices, by ⌊log2 p⌋ squarings and popcount(p) − 1
/// products of the whole batch; p = 0 gives identities.
pub async fn power<'a>(
    handle: &Handle,
    count: usize,
    n: usize,
    m: impl Into<Cow<'a, [f32]>>,
    p: u64,
) -> Result<Vec<f32>> {
    Ok(run(handle, power_job(count, n, m.into(), p)?, false)
        .await?
        .0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(r: Result<Job<'_>>) -> &'static str {
        r.err().map_or("ok", |e| e.code())
    }

    #[test]
    fn batches_past_webassembly_memory_are_refused_before_their_lengths() {
        let none: &[f32] = &[];
        // 400,000 products of 32×32: 4.9 GB of inputs and result.
        let big = product_job(400_000, [32; 3], none.into(), none.into());
        // The message's subject agrees with its verb, and its hint fits a batch, whose
        // matrices are small already: fewer of them helps, not "smaller matrices".
        let message = big
            .as_ref()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            message.starts_with("a batch of 400000 matrices: holding its inputs and result needs")
                && message.contains("Use a smaller batch (fewer matrices per call")
                && !message.contains("smaller matrices"),
            "{message}"
        );
        assert_eq!(code(big), "SIZE_OVER_LIMIT");
        assert_eq!(
            code(power_job(1_500_000, 32, none.into(), 2)),
            "SIZE_OVER_LIMIT"
        );
        // The largest count, whose rows overflow wasm32's usize: refused, not wrapped.
        let most = u32::MAX as usize;
        assert_eq!(code(power_job(most, 32, none.into(), 2)), "SIZE_OVER_LIMIT");
        // 200,000 fits (2.5 GB): its short arrays are what is wrong.
        let fits = product_job(200_000, [32; 3], none.into(), none.into());
        assert_eq!(code(fits), "BAD_LENGTH");
        let ok = product_job(2, [2; 3], vec![1.0; 8].into(), vec![1.0; 8].into());
        assert_eq!(code(ok), "ok");
    }
}
