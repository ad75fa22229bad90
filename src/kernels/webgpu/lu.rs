//! Binds the WebGPU passes of Gaussian elimination, in place on one storage
//! buffer holding [A | B]: wgsl/lu_pivot.wgsl (one workgroup: the last step's
//! multipliers, the pivot reduction, the swap), wgsl/lu_update.wgsl (the
//! trailing block) and wgsl/lu_back.wgsl (back substitution, one workgroup per
//! right-hand side). Every dispatch of a factorization shares one uniform block:
//! k travels in the state buffer.

use crate::plan::lu::LuPlan;

pub const PIVOT: &str = include_str!("../../../wgsl/lu_pivot.wgsl");
pub const UPDATE: &str = include_str!("../../../wgsl/lu_update.wgsl");
pub const BACK: &str = include_str!("../../../wgsl/lu_back.wgsl");

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
