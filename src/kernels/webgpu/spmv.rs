//! Binds wgsl/spmv.wgsl (sparse matrix × vector, one invocation per row) and
//! wgsl/spmv_long.wgsl (one workgroup per long row).

use super::line_workgroups;

pub const SOURCE: &str = include_str!("../../../wgsl/spmv.wgsl");
pub const LONG_SOURCE: &str = include_str!("../../../wgsl/spmv_long.wgsl");

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
