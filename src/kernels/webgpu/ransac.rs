//! Binds wgsl/ransac_fit.wgsl (one invocation per hypothesis: DLT, exact 8×8 solve,
//! H) and wgsl/ransac_score.wgsl (one workgroup of 64 per hypothesis, inliers
//! counted by a tree reduction in workgroup memory).

use super::line_workgroups;
use crate::plan::homography::RansacPasses;

pub const FIT_SOURCE: &str = include_str!("../../../wgsl/ransac_fit.wgsl");
pub const SCORE_SOURCE: &str = include_str!("../../../wgsl/ransac_score.wgsl");

/// The fit's workgroups (64 hypotheses each) and `Params` words.
pub fn fit(p: &RansacPasses, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
    // line_workgroups counts in 256s; the fit runs 64 per workgroup.
    let groups = line_workgroups(p.count * 4, max_per_dimension);
    (
        groups,
        vec![p.count as u32, p.points as u32, groups.0 as u32, 0],
    )
}

/// The scoring's workgroups (one per hypothesis) and `Params` words.
pub fn score(p: &RansacPasses, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
    let groups = line_workgroups(p.count * 256, max_per_dimension);
    let t2 = p.threshold * p.threshold;
    (
        groups,
        vec![
            p.count as u32,
            p.points as u32,
            t2.to_bits(),
            groups.0 as u32,
        ],
    )
}
