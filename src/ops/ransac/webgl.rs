//! Binds glsl/ransac/fit.frag (one fragment per entry of each hypothesis's H) and
//! glsl/ransac/score.frag (one fragment per hypothesis counting its inliers). The
//! lists are R32F matrices `width` floats wide (scalar layout).

use crate::engine::program::StaticGlsl;
use crate::engine::webgl::{GlEngine, GlMatrix};
use crate::error::Result;
use crate::ops::shaders::HEADER;
use crate::plan::homography::RansacPasses;

pub const FIT_SOURCE: &str = include_str!("../../../glsl/ransac/fit.frag");
pub const SCORE_SOURCE: &str = include_str!("../../../glsl/ransac/score.frag");

pub const FIT: StaticGlsl = StaticGlsl::new("ransac-fit", || format!("{HEADER}{FIT_SOURCE}"));

pub const SCORE: StaticGlsl = StaticGlsl::new("ransac-score", || format!("{HEADER}{SCORE_SOURCE}"));

/// hyps ← the H of each hypothesis, from its 4 sampled correspondences.
pub fn fit(
    engine: &mut GlEngine,
    p: &RansacPasses,
    [pts, samples, hyps]: [&GlMatrix; 3],
) -> Result<()> {
    engine.draw_into(&FIT, hyps, |program| {
        program.set_texture("u_pts", 0, pts.texture());
        program.set_texture("u_samples", 1, samples.texture());
        program.set_int("u_count", p.count as i32);
        program.set_int("u_width", p.width as i32);
    })
}

/// counts ← each hypothesis's inliers.
pub fn score(
    engine: &mut GlEngine,
    p: &RansacPasses,
    [pts, hyps, counts]: [&GlMatrix; 3],
) -> Result<()> {
    engine.draw_into(&SCORE, counts, |program| {
        program.set_texture("u_pts", 0, pts.texture());
        program.set_texture("u_hyps", 1, hyps.texture());
        program.set_int("u_count", p.count as i32);
        program.set_int("u_points", p.points as i32);
        program.set_int("u_width", p.width as i32);
        program.set_float("u_threshold2", p.threshold * p.threshold);
    })
}
