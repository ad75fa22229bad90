//! Binds wgsl/block_sparse.wgsl (the numeric phase of a block-sparse product: one
//! invocation per entry of C's stored blocks) and wgsl/block_flags.wgsl (C's
//! occupancy, one invocation per block): their uniform words and workgroup grids.

use super::line_workgroups;
use crate::plan::blocks::Numeric;

pub const SOURCE: &str = include_str!("../../../wgsl/block_sparse.wgsl");
pub const FLAGS_SOURCE: &str = include_str!("../../../wgsl/block_flags.wgsl");

/// The product's workgroups (256 invocations each) and its `Params` words.
pub fn product(n: &Numeric, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
    let entries = n.out_blocks * n.atlas.tile.rows * n.atlas.tile.rows;
    let groups = line_workgroups(entries, max_per_dimension);
    let words = [
        n.atlas.tile.rows,
        n.atlas.per_row,
        n.out_blocks,
        groups.0,
        n.a_row_starts,
        n.a_cols,
        n.b_map,
        n.out_coords,
        n.b_grid_cols,
        n.a_slots,
        n.pair_starts,
        n.pairs,
        n.listed as usize,
        0,
        0,
        0,
    ];
    (groups, words.iter().map(|&w| w as u32).collect())
}

/// The flags pass's workgroups and `Params` words.
pub fn flags(n: &Numeric, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
    let groups = line_workgroups(n.out_blocks, max_per_dimension);
    let words = [n.atlas.tile.rows, n.atlas.per_row, n.out_blocks, groups.0];
    (groups, words.iter().map(|&w| w as u32).collect())
}
