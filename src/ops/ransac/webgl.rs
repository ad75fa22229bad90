//! Binds glsl/ransac/fit.frag (one fragment per entry of each hypothesis's H) and
//! glsl/ransac/score.frag (one fragment per hypothesis counting its inliers). The
//! lists are R32F matrices `width` floats wide (scalar layout).

use super::Pass;
use crate::engine::program::StaticGlsl;
use crate::engine::webgl::{GlEngine, GlMatrix};
use crate::error::Result;
use crate::ops::shaders::HEADER;
use crate::plan::homography::RansacPasses;

pub const FIT_SOURCE: &str = crate::common::shader!("glsl/ransac/fit.frag");
pub const SCORE_SOURCE: &str = crate::common::shader!("glsl/ransac/score.frag");

pub const FIT: StaticGlsl = StaticGlsl::new("ransac-fit", || format!("{HEADER}{FIT_SOURCE}"));

pub const SCORE: StaticGlsl = StaticGlsl::new("ransac-score", || format!("{HEADER}{SCORE_SOURCE}"));

/// One of RANSAC's passes (see `webgpu::pass`): a fragment per entry of each
/// hypothesis's H for the fit, a fragment per hypothesis for the scoring.
pub fn pass(
    engine: &mut GlEngine,
    pass: Pass,
    p: &RansacPasses,
    [pts, input, out]: [&GlMatrix; 3],
) -> Result<()> {
    let (program, input_name) = match pass {
        Pass::Fit => (FIT, "u_samples"),
        Pass::Score => (SCORE, "u_hyps"),
    };
    engine.draw_into(&program, out, |program| {
        program.set_texture("u_pts", 0, pts.texture());
        program.set_texture(input_name, 1, input.texture());
        program.set_int("u_count", p.count as i32);
        program.set_int("u_width", p.width as i32);
        // The fit has neither (a uniform a program lacks is not set).
        program.set_int("u_points", p.points as i32);
        program.set_float("u_threshold2", p.threshold * p.threshold);
    })
}
