//! Binds wgsl/ransac/fit.wgsl (one invocation per hypothesis: DLT, exact 8×8 solve,
//! H) and wgsl/ransac/score.wgsl (one workgroup of 64 per hypothesis, inliers
//! counted by a tree reduction in workgroup memory).

use super::Pass;
use crate::engine::program::StaticWgsl;
use crate::engine::webgpu::{GpuEngine, GpuMatrix};
use crate::error::Result;
use crate::ops::shaders::line_workgroups;
use crate::plan::homography::RansacPasses;
use crate::webgpu::Timer;

pub const FIT_SOURCE: &str = crate::common::shader!("wgsl/ransac/fit.wgsl");
pub const SCORE_SOURCE: &str = crate::common::shader!("wgsl/ransac/score.wgsl");

pub const FIT: StaticWgsl = StaticWgsl::new("ransac-fit", || FIT_SOURCE.into());

pub const SCORE: StaticWgsl = StaticWgsl::new("ransac-score", || SCORE_SOURCE.into());

/// The fit's workgroups (64 hypotheses each) and `Params` words.
pub fn fit_params(p: &RansacPasses, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
    // line_workgroups counts in 256s; the fit runs 64 per workgroup.
    let groups = line_workgroups(p.count * 4, max_per_dimension);
    (
        groups,
        vec![p.count as u32, p.points as u32, groups.0 as u32, 0],
    )
}

/// The scoring's workgroups (one per hypothesis) and `Params` words.
pub fn score_params(p: &RansacPasses, max_per_dimension: usize) -> ((usize, usize), Vec<u32>) {
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

/// One of RANSAC's passes: `m` = [points, samples, hypotheses] for the fit
/// (hypotheses ← H of each 4-point sample), [points, hypotheses, counts] for the
/// scoring (counts ← inliers of each hypothesis).
pub fn pass(
    e: &mut GpuEngine,
    pass: Pass,
    p: &RansacPasses,
    m: [&GpuMatrix; 3],
    timer: Option<&Timer>,
) -> Result<()> {
    let max = e.max_workgroups();
    let (program, (groups, words)) = match pass {
        Pass::Fit => (&FIT, fit_params(p, max)),
        Pass::Score => (&SCORE, score_params(p, max)),
    };
    e.run(program, &m, &[m[2]], &words, groups, timer)
}
