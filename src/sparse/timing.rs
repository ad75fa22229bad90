//! Timing of sparse matrix × vector with the matrix resident on the GPU (for
//! `make bench-sparse`), and of a streaming pass over plain vectors on the same
//! device: the bandwidth ceiling SpMV's GB/s is compared with.

use super::{free, stats, DeviceCsr};
use crate::common::clock::now_ms;
use crate::engine::Handle;
use crate::engine::{Matrix, Timer};
use crate::error::{GpgpuError, Result};
use crate::plan::layout::Layout;
use crate::plan::shape;
use crate::plan::sparse::{self, Csr};

/// The most passes a timing queues (JavaScript's `repeats` is read against it too).
pub const MAX_REPEATS: f64 = 1e5;

/// `repeats` as the timings take it, from Rust and from benchSpmvAsync and
/// benchStreamAsync: a whole number from 0 to [`MAX_REPEATS`] (0 runs one pass, as 1
/// does), else BAD_COUNT. Unchecked, 0 divided the wall time by 0 (infinite ms, no
/// error) and usize::MAX queued passes for ever.
pub fn repeats(value: f64) -> Result<usize> {
    Ok(shape::count("repeats", value, MAX_REPEATS)?.max(1) as usize)
}

/// The bench's matrices and vectors (`name` holding `value` entries) hold at most 2^27
/// entries (WebAssembly's 4 GiB memory), else BAD_ARGUMENT.
pub fn check_bench_len(name: &str, value: f64) -> Result<()> {
    const MAX: f64 = (1u64 << 27) as f64;
    if value > MAX {
        return Err(GpgpuError::BadArgument {
            name: name.into(),
            detail: format!(
                "is {}: bench matrices and vectors hold at most 2^27 entries (WebAssembly's \
                 4 GiB memory)",
                crate::error::js_number(value)
            ),
        });
    }
    Ok(())
}

/// One measurement: wall-clock ms per pass (`repeats` passes queued back to back,
/// ended by one small readback) and, where the device times passes, the median GPU
/// ms of one pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    pub wall_ms: f64,
    pub gpu_ms: Option<f64>,
}

async fn median_gpu_ms(h: &Handle, timers: Vec<Timer>) -> Option<f64> {
    let mut ms = vec![];
    for t in &timers {
        if let Some(v) = h.timer_ms(t).await {
            ms.push(v);
        }
    }
    crate::common::median(ms)
}

/// Times `pass`, which writes `out`: one warm-up; GPU timestamps of up to 8 passes
/// (each timed pass is submitted on its own); then the wall clock over `repeats`
/// passes queued back to back. Each phase ends with a small readback of `out`.
async fn time<T: IntoIterator<Item = Timer>>(
    h: &Handle,
    out: &Matrix,
    repeats: usize,
    pass: impl Fn(bool) -> Result<T>,
) -> Result<Timing> {
    pass(false)?;
    stats(h, out).await?;
    let mut timers = vec![];
    for _ in 0..repeats.min(8) {
        timers.extend(pass(true)?);
    }
    let gpu_ms = median_gpu_ms(h, timers).await;
    let t0 = now_ms();
    for _ in 0..repeats {
        pass(false)?;
    }
    stats(h, out).await?;
    let wall_ms = (now_ms() - t0) / repeats as f64;
    Ok(Timing { wall_ms, gpu_ms })
}

/// `repeats` SpMV passes y = A·x on A resident on the GPU (after one warm-up), then
/// one reduced readback of y; up to 8 other passes GPU-timed where the device can.
/// `long_from`: on WebGPU, rows longer than this by a workgroup each. `repeats` as
/// [`repeats`] takes it.
pub async fn spmv(h: &Handle, a: &Csr, repeats: usize, long_from: Option<usize>) -> Result<Timing> {
    let repeats = self::repeats(repeats as f64)?;
    let x: Vec<f32> = (0..a.cols).map(|j| 1.0 + (j % 7) as f32 / 8.0).collect();
    h.ready().await?;
    let (dev, xm) = h.with(|e| {
        let dev = DeviceCsr::upload_with(e, a, long_from)?;
        dev.and_vectors(e, |dev, e| dev.vector(e, &x))
    })?;
    let y = h.with(|e| e.alloc(sparse::list_shape(a.rows, dev.width()), Layout::Scalar));
    let y = match y {
        Ok(y) => y,
        Err(err) => {
            let _ = h.with(|e| {
                e.recycle(xm);
                dev.free(e);
                Ok(())
            });
            return Err(err);
        }
    };
    // Every pass writes the same y: back-to-back passes with nothing else between
    // (no allocation, no submit forced by a buffer going back to the pool).
    let pass = |timed: bool| h.with(|e| dev.multiply_into(e, &xm, &y, timed));
    let run = time(h, &y, repeats, pass).await;
    free(h, y);
    let _ = h.with(|e| {
        e.recycle(xm);
        dev.free(e);
        Ok(())
    });
    run
}

/// The streaming ceiling: `repeats` passes out = p + q over lists of `len` floats
/// (the element-wise kernel: two lists read, one written: 12·len bytes a pass),
/// timed as [`spmv`] is. `len` from 1 to 2^27 ([`check_bench_len`]), `repeats` as
/// [`repeats`] takes it.
pub async fn stream(h: &Handle, len: usize, repeats: usize) -> Result<Timing> {
    // As benchStreamAsync reads them.
    check_bench_len("len", len as f64)?;
    shape::dimension("len", len as f64, u32::MAX as usize)?;
    let repeats = self::repeats(repeats as f64)?;
    h.ready().await?;
    let width = h.with(|e| Ok(super::width(e)))?;
    let data: Vec<f32> = (0..len).map(|k| (k % 13) as f32).collect();
    let (shape, packed) = sparse::pack(&data, width)?;
    let p = h.with(|e| e.upload(shape, Layout::Scalar, &packed, 0.0))?;
    let q = h.with(|e| e.upload(shape, Layout::Scalar, &packed, 0.0));
    let q = match q {
        Ok(q) => q,
        Err(err) => {
            free(h, p);
            return Err(err);
        }
    };
    let out = match h.with(|e| e.alloc(shape, Layout::Scalar)) {
        Ok(out) => out,
        Err(err) => {
            free(h, p);
            free(h, q);
            return Err(err);
        }
    };
    let pass = |timed: bool| h.with(|e| e.add_timed(&out, [&p, &q], timed));
    let run = time(h, &out, repeats, pass).await;
    free(h, out);
    free(h, p);
    free(h, q);
    run
}
