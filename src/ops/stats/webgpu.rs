//! wgsl/stats/reduce.wgsl: statistics of a resident matrix in two passes (each workgroup
//! folds its share into a record, one workgroup folds the records), 8 floats read
//! back.

use crate::engine::program::StaticWgsl;
use crate::engine::webgpu::{GpuEngine, GpuMatrix, GpuRead};
use crate::error::Result;
use crate::webgpu::buffer::MATRIX;
use crate::webgpu::Buffer;

pub const SOURCE: &str = crate::common::shader!("wgsl/stats/reduce.wgsl");

pub const REDUCE: StaticWgsl = StaticWgsl::new("reduce", || SOURCE.into());

/// Workgroups of the first pass (the second has one).
pub const REDUCE_GROUPS: usize = 1024;

/// The two reduction passes over `m`, into a new 8-float record buffer (`no_edge`:
/// a min-plus matrix, whose entries ≥ NO_EDGE / 2 count as +Infinity).
pub fn reduce(e: &mut GpuEngine, m: &GpuMatrix, no_edge: bool) -> Result<Buffer> {
    // A software adapter runs a workgroup's invocations as one CPU thread's
    // loop, and each barrier of the tree costs it a pass over all of them: there
    // each workgroup folds 64 times as many elements first.
    let per_group = if e.info().is_software() {
        256 * 64
    } else {
        256
    };
    let groups = m.shape.len().div_ceil(per_group).clamp(1, REDUCE_GROUPS);
    let records = Buffer::new(e.gpu(), groups as u64 * 32, MATRIX, "statistics")?;
    let last = Buffer::new(e.gpu(), 32, MATRIX, "statistics")?;
    let first = [m.shape.len() as u32, 1, no_edge as u32, 0];
    e.dispatch(&REDUCE, &[m.buffer(), &records], &first, (groups, 1), None)?;
    let second = [groups as u32, 0, 0, 0];
    e.dispatch(&REDUCE, &[&records, &last], &second, (1, 1), None)?;
    e.keep(records);
    Ok(last)
}

/// Statistics of `m` by the two-pass reduction; 8 floats come back.
pub fn stats(e: &mut GpuEngine, m: &GpuMatrix, no_edge: bool) -> Result<GpuRead> {
    e.ensure()?;
    let last = reduce(e, m, no_edge)?;
    e.read_buffer(&last, 32)
}
