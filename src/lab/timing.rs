//! Timing a product exercise: the learner's kernel and the library's, each on inputs
//! uploaded once, pass by pass. Where the device grants GPU timestamps (WebGPU
//! `timestamp-query`, WebGL `EXT_disjoint_timer_query_webgl2`) the passes alone are
//! timed on the GPU; otherwise the wall clock runs from a pass's submission until the
//! GPU is idle. Timing whole calls hid the kernels behind their transfers: on an H100
//! a 2048³ register product read 696 GFLOP/s against the kernel's 46 TFLOP/s.

use super::{cases, Exercise, Speed, Timing};
use crate::common::clock::now_ms;
use crate::engine::{Engine, Handle, Timer};
use crate::error::Result;
use crate::kernels::Kernel;
use crate::ops::supplied::{self, Supplied};
use crate::plan::shape::Shape;
use crate::work::{self, Options};

/// The size doubles from 128 until one pass of the learner's takes this long, or
/// reaches [`MAX_N`] (or the device's limit).
pub const TIMED_MS: f64 = 40.0;

/// The largest timing size: a 4096³ product is 137 GFLOP, milliseconds on the
/// fastest GPUs (enough for timestamps), and its inputs (64 MiB each) fit wasm
/// memory beside the library's copies.
pub const MAX_N: usize = 4096;

/// Passes timed at the timing size, after the warm-up.
pub const REPEATS: usize = 5;

/// One timed pass: wall ms from submission to idle, and GPU ms where granted.
pub type Clocked = (f64, Option<f64>);

/// The clock both sides are read by and their medians: "gpu" only when every pass
/// of both has a GPU time above 0 and the caller did not ask for the wall clock;
/// else "wall" for both, so that the two are always compared alike.
pub fn medians(learner: &[Clocked], library: &[Clocked], wall: bool) -> (&'static str, f64, f64) {
    let gpu = !wall
        && learner
            .iter()
            .chain(library)
            .all(|(_, g)| g.is_some_and(|g| g > 0.0));
    let median = |runs: &[Clocked]| {
        let ms = runs
            .iter()
            .map(|&(w, g)| if gpu { g.unwrap_or(w) } else { w });
        crate::common::median(ms.collect()).unwrap_or(f64::NAN)
    };
    let clock = if gpu { "gpu" } else { "wall" };
    (clock, median(learner), median(library))
}

/// `repeats` passes (after one warm-up), each awaited to the GPU's idle.
async fn passes(
    handle: &Handle,
    repeats: usize,
    timed: bool,
    pass: impl Fn(&mut Engine, bool) -> Result<Option<Timer>>,
) -> Result<Vec<Clocked>> {
    handle
        .with(|e| {
            pass(e, false)?;
            e.idle()
        })?
        .wait()
        .await?;
    let mut runs = Vec::with_capacity(repeats);
    for _ in 0..repeats {
        let start = now_ms();
        let (timer, idle) = handle.with(|e| Ok((pass(e, timed)?, e.idle()?)))?;
        idle.wait().await?;
        runs.push((now_ms() - start, timer));
    }
    let mut out = Vec::with_capacity(repeats);
    for (wall, timer) in runs {
        let gpu = match timer {
            Some(t) => handle.timer_ms(&t).await,
            None => None,
        };
        out.push((wall, gpu));
    }
    Ok(out)
}

/// The learner's passes at n × n × n.
async fn learner(
    handle: &Handle,
    exercise: Exercise,
    program: &Supplied,
    n: usize,
    repeats: usize,
    timed: bool,
) -> Result<Vec<Clocked>> {
    let case = cases::case(exercise, 0, ([n; 3], false));
    let (m, dims) =
        handle.with(|e| supplied::upload_product(e, program, case.dims, &case.a, &case.b))?;
    let ran = passes(handle, repeats, timed, |e, t| {
        supplied::pass(e, program, [&m[0], &m[1], &m[2]], dims, t)
    })
    .await;
    handle.with(|e| {
        m.into_iter().for_each(|m| e.recycle(m));
        Ok(())
    })?;
    ran
}

/// The library's passes at n × n × n, by `options`' kernel.
async fn library(
    handle: &Handle,
    exercise: Exercise,
    options: &Options,
    n: usize,
    timed: bool,
) -> Result<Vec<Clocked>> {
    let case = cases::case(exercise, 0, ([n; 3], false));
    let run = handle.with(|e| work::start_product(e, [n; 3], &case.a, &case.b, options))?;
    let step = run.plan().steps[0];
    let (a, b) = step.sources();
    let ran = passes(handle, REPEATS, timed, |e, t| {
        let slot = |s| run.slot(s).ok_or_else(crate::engine::foreign);
        e.product(
            run.kernel(),
            run.semiring(),
            [slot(a)?, slot(b)?, slot(step.dst())?],
            t,
        )
    })
    .await;
    handle.with(|e| {
        run.recycle(e);
        Ok(())
    })?;
    ran
}

/// Times the learner's product kernel beside the library's for `exercise`: the
/// size grows (by the clock in use) until a pass takes [`TIMED_MS`]; then the
/// median of [`REPEATS`] passes of each. `wall` asks for the wall clock even where
/// the device grants timestamps.
pub async fn time(
    handle: &Handle,
    exercise: Exercise,
    program: &Supplied,
    wall: bool,
) -> Result<Timing> {
    let max = handle.with(|e| Ok(e.max_dimension()))?.min(MAX_N);
    let mut n = 128.min(max);
    loop {
        let runs = learner(handle, exercise, program, n, 1, !wall).await?;
        let (_, ms, _) = medians(&runs, &runs, wall);
        if ms >= TIMED_MS || n * 2 > max {
            break;
        }
        n *= 2;
    }
    let options = Options {
        kernel: exercise.library_kernel(),
        semiring: exercise.semiring(),
        max_tile: None,
    };
    let kernel: Kernel = handle.with(|e| e.choose_kernel(options.kernel, Shape::square(n)))?;
    let mine = learner(handle, exercise, program, n, REPEATS, !wall).await?;
    let theirs = library(handle, exercise, &options, n, !wall).await?;
    let (clock, mine, theirs) = medians(&mine, &theirs, wall);
    let speed = |ms: f64| Speed {
        ms,
        gflops: 2.0 * (n as f64).powi(3) / ms / 1e6,
    };
    Ok(Timing {
        dims: [n; 3],
        learner: speed(mine),
        kernel: kernel.name(),
        reference: speed(theirs),
        clock,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gpu_clock_is_used_only_where_every_pass_of_both_sides_has_it() {
        let gpu = [(9.0, Some(2.0)), (8.0, Some(1.0)), (7.0, Some(3.0))];
        assert_eq!(medians(&gpu, &gpu, false), ("gpu", 2.0, 2.0));
        // Asked for the wall clock: the wall medians, though timestamps came.
        assert_eq!(medians(&gpu, &gpu, true), ("wall", 8.0, 8.0));
        // One pass of the library's untimed (or unreliable, or 0): both by the wall.
        let some = [(5.0, Some(1.0)), (6.0, None), (4.0, Some(1.0))];
        assert_eq!(medians(&gpu, &some, false), ("wall", 8.0, 5.0));
        let zero = [(5.0, Some(0.0))];
        assert_eq!(medians(&zero, &gpu, false).0, "wall");
        assert!(medians(&[], &[], false).1.is_nan());
    }
}
