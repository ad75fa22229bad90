//! Binds wgsl/spmv/spmv.wgsl (sparse matrix × vector, one invocation per row) and
//! wgsl/spmv/long.wgsl (one workgroup per long row).

use crate::engine::program::StaticWgsl;
use crate::engine::webgpu::{Bound, GpuEngine, GpuMatrix};
use crate::error::Result;
use crate::ops::shaders::line_workgroups;
use crate::webgpu::Timer;

pub const SOURCE: &str = crate::common::shader!("wgsl/spmv/spmv.wgsl");
pub const LONG_SOURCE: &str = crate::common::shader!("wgsl/spmv/long.wgsl");

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
    let long_from = long.map_or(u32::MAX, |(_, _, t)| t as u32);
    let (groups, words) = params(rows, y.shape.len(), long_from, e.max_workgroups());
    let m = [values, columns, offsets, x, y];
    let Some((list, count, _)) = long.filter(|l| l.1 > 0) else {
        return e.run(&SPMV, &m, &[y], &words, groups, timer);
    };
    // Timed as one span: the short rows' pass starts it, the long rows' ends it.
    e.ensure()?;
    e.poison(y)?;
    let buffers = m.map(|m| m.buffer());
    let short = Bound {
        first: 0,
        before: &buffers,
        words: &words,
        after: &[],
    };
    e.dispatch_bound(&SPMV, short, groups, timer.map(|t| t.begin_writes()))?;
    let (groups, words) = long_params(count, e.max_workgroups());
    let buffers = [values, columns, offsets, x, list, y].map(|m| m.buffer());
    let long = Bound {
        first: 0,
        before: &buffers,
        words: &words,
        after: &[],
    };
    e.dispatch_bound(&SPMV_LONG, long, groups, timer.map(|t| t.end_writes()))
}
