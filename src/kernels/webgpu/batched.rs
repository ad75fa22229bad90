//! Binds wgsl/batched_matmul.wgsl: a batch of small products, one invocation per
//! output entry, over atlases of tiles.

use super::line_workgroups;
use crate::plan::batched::BatchedProduct;

pub const SOURCE: &str = include_str!("../../../wgsl/batched_matmul.wgsl");

/// The workgroups (256 invocations each) and the `Params` words.
pub fn product(p: &BatchedProduct, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
    let groups = line_workgroups(p.entries(), max_per_dimension);
    let words = [
        p.count,
        p.a.tile.rows,
        p.a.tile.cols,
        p.c.tile.cols,
        p.a.per_row,
        p.b.per_row,
        p.c.per_row,
        groups.0,
    ];
    (groups, words.iter().map(|&w| w as u32).collect())
}
