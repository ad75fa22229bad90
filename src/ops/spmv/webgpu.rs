//! Binds wgsl/spmv/spmv.wgsl (sparse matrix × vector, one invocation per row) and
//! wgsl/spmv/long.wgsl (one workgroup per long row).

use crate::engine::program::StaticWgsl;
use crate::engine::webgpu::{GpuEngine, GpuMatrix};
use crate::error::Result;
use crate::ops::shaders::line_workgroups;
use crate::webgpu::Timer;

pub const SOURCE: &str = include_str!("../../../wgsl/spmv/spmv.wgsl");
pub const LONG_SOURCE: &str = include_str!("../../../wgsl/spmv/long.wgsl");

pub const SPMV: StaticWgsl = StaticWgsl::new("spmv", || SOURCE.into());

pub const SPMV_LONG: StaticWgsl = StaticWgsl::new("spmv-long", || LONG_SOURCE.into());

/// The workgroups covering y's `len` entries (padding included) and the `Params`
/// words for a matrix of `rows` rows whose rows longer than `long_from` another
/// pass computes (u32::MAX: none).
pub fn params(
    rows: usize,
    len: usize,
    long_from: u32,
    max_per_dimension: usize,
) -> ((usize, usize), Vec<u32>) {
    let groups = line_workgroups(len, max_per_dimension);
    (
        groups,
        vec![rows as u32, len as u32, groups.0 as u32, long_from],
    )
}

/// One workgroup per long row (`count` of them), folded into 2D past the limit.
pub fn long_params(count: usize, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
    let groups = line_workgroups(count * 256, max_per_dimension);
    (groups, vec![count as u32, groups.0 as u32, 0, 0])
}

/// y ← A·x for a CSR A of `rows` rows, its arrays as lists (wgsl/spmv/spmv.wgsl); with
/// `long` (the list of rows longer than a threshold, their count, the threshold)
/// those rows by a workgroup each (wgsl/spmv/long.wgsl), in the same timed span.
pub fn spmv(
    e: &mut GpuEngine,
    rows: usize,
    [values, columns, offsets, x, y]: [&GpuMatrix; 5],
    long: Option<(&GpuMatrix, usize, usize)>,
    timer: Option<&Timer>,
) -> Result<()> {
    e.ensure()?;
    e.poison(y)?;
    let max = e.info().limits.max_compute_workgroups_per_dimension as usize;
    let long_from = long.map_or(u32::MAX, |(_, _, t)| t as u32);
    let (groups, words) = params(rows, y.shape.len(), long_from, max);
    let buffers = [
        values.buffer(),
        columns.buffer(),
        offsets.buffer(),
        x.buffer(),
        y.buffer(),
    ];
    let Some((list, count, _)) = long.filter(|l| l.1 > 0) else {
        return e.dispatch(&SPMV, &buffers, &words, groups, timer);
    };
    // Timed as one span: the short rows' pass starts it, the long rows' ends it.
    let begin = timer.map(|t| t.begin_writes());
    e.dispatch_with(&SPMV, &buffers, &words, groups, begin)?;
    let (groups, words) = long_params(count, max);
    let buffers = [
        values.buffer(),
        columns.buffer(),
        offsets.buffer(),
        x.buffer(),
        list.buffer(),
        y.buffer(),
    ];
    let end = timer.map(|t| t.end_writes());
    e.dispatch_with(&SPMV_LONG, &buffers, &words, groups, end)
}
