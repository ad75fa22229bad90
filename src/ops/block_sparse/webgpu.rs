//! Binds wgsl/block_sparse/block_sparse.wgsl (the numeric phase of a block-sparse product: one
//! invocation per entry of C's stored blocks) and wgsl/block_sparse/block_flags.wgsl (C's
//! occupancy, one invocation per block): their uniform words and workgroup grids.

use crate::engine::program::StaticWgsl;
use crate::engine::webgpu::{GpuEngine, GpuMatrix};
use crate::error::Result;
use crate::ops::shaders::{line_workgroups, ATLAS_WGSL};
use crate::plan::blocks::Numeric;
use crate::webgpu::Timer;

pub const SOURCE: &str = crate::common::shader!("wgsl/block_sparse/block_sparse.wgsl");
pub const FLAGS_SOURCE: &str = crate::common::shader!("wgsl/block_sparse/block_flags.wgsl");

pub const BLOCK_SPARSE: StaticWgsl =
    StaticWgsl::new("block-sparse", || format!("{ATLAS_WGSL}\n{SOURCE}"));

pub const BLOCK_FLAGS: StaticWgsl =
    StaticWgsl::new("block-flags", || format!("{ATLAS_WGSL}\n{FLAGS_SOURCE}"));

/// The product's workgroups (256 invocations each) and its `Params` words.
pub fn product_params(n: &Numeric, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
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
pub fn flags_params(n: &Numeric, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
    let groups = line_workgroups(n.out_blocks, max_per_dimension);
    let words = [n.atlas.tile.rows, n.atlas.per_row, n.out_blocks, groups.0];
    (groups, words.iter().map(|&w| w as u32).collect())
}

/// The numeric phase of a block-sparse product: out (C's atlas) ← the stored
/// blocks of A·B, from A's and B's atlases and the index table.
pub fn block_product(
    e: &mut GpuEngine,
    n: &Numeric,
    [a, b, index, out]: [&GpuMatrix; 4],
    timer: Option<&Timer>,
) -> Result<()> {
    let (groups, words) = product_params(n, e.max_workgroups());
    let m = [a, b, index, out];
    e.run(&BLOCK_SPARSE, &m, &[out], &words, groups, timer)
}

/// flags ← 1 for each stored block of the atlas `c` holding a nonzero, else 0.
pub fn block_flags(e: &mut GpuEngine, n: &Numeric, c: &GpuMatrix, flags: &GpuMatrix) -> Result<()> {
    e.ensure()?;
    e.poison(flags)?;
    let max = e.info().limits.max_compute_workgroups_per_dimension as usize;
    let (groups, words) = flags_params(n, max);
    e.dispatch(
        &BLOCK_FLAGS,
        &[c.buffer(), flags.buffer()],
        &words,
        groups,
        None,
    )
}
