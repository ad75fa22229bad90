//! Binds the WebGPU passes of Gaussian elimination, in place on one storage
//! buffer holding [A | B]: wgsl/lu/pivot.wgsl (one workgroup: the last step's
//! multipliers, the pivot reduction, the swap), wgsl/lu/update.wgsl (the
//! trailing block) and wgsl/lu/back.wgsl (back substitution, one workgroup per
//! right-hand side). Every dispatch of a factorization shares one uniform block:
//! k travels in the state buffer.

use crate::engine::program::StaticWgsl;
use crate::engine::webgpu::{GpuEngine, GpuMatrix};
use crate::error::Result;
use crate::plan::lu::LuPlan;

pub const PIVOT_SOURCE: &str = crate::common::shader!("wgsl/lu/pivot.wgsl");
pub const UPDATE_SOURCE: &str = crate::common::shader!("wgsl/lu/update.wgsl");
pub const BACK_SOURCE: &str = crate::common::shader!("wgsl/lu/back.wgsl");

// Their uniform words hold the pivot threshold, which follows the data.
pub const PIVOT: StaticWgsl = StaticWgsl::new("lu-pivot", || PIVOT_SOURCE.into()).following_data();

pub const UPDATE: StaticWgsl =
    StaticWgsl::new("lu-update", || UPDATE_SOURCE.into()).following_data();

pub const BACK: StaticWgsl = StaticWgsl::new("lu-back", || BACK_SOURCE.into()).following_data();

/// The `Params` words of every pass; `scale_only`: the pivot dispatch that only
/// stores the last step's multipliers (a factorization stopped part way).
pub fn words(p: &LuPlan, scale_only: bool) -> Vec<u32> {
    vec![
        p.shape.n as u32,
        p.cols() as u32,
        p.tiny.to_bits(),
        scale_only as u32,
    ]
}

/// Workgroups (16 × 16 invocations) of step k's update: the trailing block.
pub fn update_groups(p: &LuPlan, k: usize) -> (usize, usize) {
    let rows = p.shape.n - k - 1;
    let cols = p.cols() - k - 1;
    (cols.div_ceil(16), rows.div_ceil(16))
}

/// Gaussian elimination's step k, in place on [A | B] (`w`): the pivot
/// dispatch, then the trailing update when a block trails.
pub fn lu_step(e: &mut GpuEngine, p: &LuPlan, k: usize, [w, state]: [&GpuMatrix; 2]) -> Result<()> {
    e.ensure()?;
    let words = words(p, false);
    let buffers = [w.buffer(), state.buffer()];
    e.dispatch(&PIVOT, &buffers, &words, (1, 1), None)?;
    if k + 1 < p.shape.n {
        let groups = update_groups(p, k);
        e.dispatch(&UPDATE, &buffers, &words, groups, None)?;
    }
    Ok(())
}

/// Stores the multipliers of the last step run, where a factorization stops
/// before its end (the next pivot dispatch would have).
pub fn lu_stop(e: &mut GpuEngine, p: &LuPlan, [w, state]: [&GpuMatrix; 2]) -> Result<()> {
    e.ensure()?;
    let words = words(p, true);
    e.dispatch(&PIVOT, &[w.buffer(), state.buffer()], &words, (1, 1), None)
}

/// Back substitution over the eliminated [A | B]: x (n × nrhs) ← U⁻¹ · y.
pub fn lu_back(e: &mut GpuEngine, p: &LuPlan, w: &GpuMatrix, x: &GpuMatrix) -> Result<()> {
    e.ensure()?;
    e.poison(x)?;
    let words = words(p, false);
    let groups = (p.shape.nrhs, 1);
    e.dispatch(&BACK, &[w.buffer(), x.buffer()], &words, groups, None)
}
