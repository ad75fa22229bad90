//! Binds wgsl/batched/batched_matmul.wgsl: a batch of small products, one invocation per
//! output entry, over atlases of tiles.

use crate::engine::program::StaticWgsl;
use crate::engine::webgpu::{GpuEngine, GpuMatrix};
use crate::error::Result;
use crate::ops::shaders::{line_workgroups, ATLAS_WGSL};
use crate::plan::batched::BatchedProduct;
use crate::webgpu::Timer;

pub const SOURCE: &str = crate::common::shader!("wgsl/batched/batched_matmul.wgsl");

pub const BATCHED: StaticWgsl = StaticWgsl::new("batched", || format!("{ATLAS_WGSL}\n{SOURCE}"));

/// The workgroups (256 invocations each) and the `Params` words.
pub fn product_params(p: &BatchedProduct, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
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

/// A batch of small products: out (C's atlas) ← A_s · B_s for every s, timed by
/// `timer` where given.
pub fn batched_product(
    e: &mut GpuEngine,
    p: &BatchedProduct,
    [a, b, out]: [&GpuMatrix; 3],
    timer: Option<&Timer>,
) -> Result<()> {
    let (groups, words) = product_params(p, e.max_workgroups());
    let m = [a, b, out];
    e.run(&BATCHED, &m, &[out], &words, groups, timer)
}
