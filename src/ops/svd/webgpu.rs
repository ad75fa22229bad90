//! Binds wgsl/svd/jacobi.wgsl: a batch of SVDs by one-sided Jacobi in one
//! dispatch, one invocation per column, 32 / cols matrices per workgroup.

use crate::engine::program::StaticWgsl;
use crate::engine::webgpu::{GpuEngine, GpuMatrix};
use crate::error::Result;
use crate::ops::shaders::ATLAS_WGSL;
use crate::plan::svd::{SvdPlan, MAX_SWEEPS, TOL};

pub const SOURCE: &str = crate::common::shader!("wgsl/svd/jacobi.wgsl");

pub const JACOBI: StaticWgsl = StaticWgsl::new("svd-jacobi", || format!("{ATLAS_WGSL}\n{SOURCE}"));

/// The workgroups (x, y) and the `Params` words.
pub fn jacobi_params(p: &SvdPlan, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
    let groups = p.groups();
    let grid = if groups <= max_per_dimension {
        (groups, 1)
    } else {
        (max_per_dimension, groups.div_ceil(max_per_dimension))
    };
    let s = p.shape;
    let words = [
        s.count as u32,
        s.rows as u32,
        s.cols as u32,
        s.even_cols() as u32,
        p.input.per_row as u32,
        p.out.per_row as u32,
        p.per_group as u32,
        grid.0 as u32,
        MAX_SWEEPS as u32,
        TOL.to_bits(),
        0,
        0,
    ];
    (grid, words.to_vec())
}

/// A batch of SVDs by one-sided Jacobi in one dispatch (wgsl/svd/jacobi.wgsl):
/// out ← the [U; V; σᵀ] tiles, sweeps ← each matrix's sweeps, from A's atlas.
pub fn svd_jacobi(e: &mut GpuEngine, p: &SvdPlan, [a, out, sweeps]: [&GpuMatrix; 3]) -> Result<()> {
    let (groups, words) = jacobi_params(p, e.max_workgroups());
    let m = [a, out, sweeps];
    e.run(&JACOBI, &m, &[out, sweeps], &words, groups, None)
}
