//! Binds glsl/affine.frag: element-wise out = alpha·P + beta·Q + gamma·I on
//! matrices of one shape and layout, every plane in one pass.

use super::heatmap::bind_matrix;
use super::ProgramKey;
use crate::engine::webgl::{Destination, GlEngine, GlMatrix};
use crate::error::Result;

pub const SOURCE: &str = include_str!("../../../glsl/affine.frag");

/// The coefficients of out = alpha·P + beta·Q + gamma·I.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Affine {
    pub alpha: f32,
    pub beta: f32,
    pub gamma: f32,
}

/// out ← alpha·p + beta·q + gamma·I (q may be None when beta is 0); padding gets `pad`.
pub fn apply(
    engine: &mut GlEngine,
    out: &GlMatrix,
    p: &GlMatrix,
    q: Option<&GlMatrix>,
    coefficients: Affine,
    pad: f32,
) -> Result<()> {
    assert_eq!(p.shape, out.shape, "affine operands differ in shape");
    assert!(q.is_none_or(|q| q.shape == out.shape && q.layout == out.layout));
    assert!(q.is_some() || coefficients.beta == 0.0);
    engine.poison(&out.target);
    let planes = out.layout.planes() as u32;
    engine.draw(
        ProgramKey::Affine { layout: out.layout },
        Destination::Texture(&out.target),
        |program| {
            bind_matrix(program, "u_p", p, 0);
            bind_matrix(program, "u_q", q.unwrap_or(p), planes);
            program.set_float("u_alpha", coefficients.alpha);
            program.set_float("u_beta", coefficients.beta);
            program.set_float("u_gamma", coefficients.gamma);
            program.set_float("u_pad", pad);
            program.set_ivec2("u_valid", out.shape.cols as i32, out.shape.rows as i32);
        },
    )
}
