//! Binds wgsl/spmv.wgsl (sparse matrix × vector, one invocation per row).

use super::line_workgroups;

pub const SOURCE: &str = include_str!("../../../wgsl/spmv.wgsl");

/// The workgroups covering y's `len` entries (padding included) and the `Params`
/// words for a matrix of `rows` rows.
pub fn params(rows: usize, len: usize, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
    let groups = line_workgroups(len, max_per_dimension);
    (groups, vec![rows as u32, len as u32, groups.0 as u32, 0])
}
