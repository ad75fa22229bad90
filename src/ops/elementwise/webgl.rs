//! Binds glsl/elementwise/affine.frag: element-wise out = alpha·P + beta·Q + gamma·I on
//! matrices of one shape and layout, every plane in one pass.

use crate::engine::webgl::{bind_matrix, Destination, GlEngine, GlMatrix};
use crate::error::Result;
use crate::ops::shaders::InLayout;
use crate::plan::layout::Layout;
use crate::plan::semiring::Semiring;

pub const SOURCE: &str = crate::common::shader!("glsl/elementwise/affine.frag");

/// glsl/elementwise/affine.frag reading and writing matrices in `layout`.
pub fn affine_program(layout: Layout) -> InLayout {
    let body = || SOURCE.into();
    InLayout {
        name: "affine",
        body,
        layout,
    }
}

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
    assert!(q.is_some() || coefficients.beta == 0.0);
    draw(engine, out, [p, q.unwrap_or(p)], coefficients, 0, pad)
}

/// out ← p ⊕ q in `semiring` (ordinary: p + q; boolean: max; min-plus: min), the
/// sum that adds up a tiled product's tile products.
pub fn combine(
    engine: &mut GlEngine,
    out: &GlMatrix,
    pq: [&GlMatrix; 2],
    semiring: Semiring,
    pad: f32,
) -> Result<()> {
    let (sum, mode) = match semiring {
        Semiring::Ordinary => (1.0, 0),
        Semiring::Boolean => (0.0, 1),
        Semiring::MinPlus => (0.0, 2),
    };
    let c = Affine {
        alpha: sum,
        beta: sum,
        gamma: 0.0,
    };
    draw(engine, out, pq, c, mode, pad)
}

/// One pass of glsl/elementwise/affine.frag; `combine` 0 is the affine map, 1 max, 2 min.
fn draw(
    engine: &mut GlEngine,
    out: &GlMatrix,
    [p, q]: [&GlMatrix; 2],
    c: Affine,
    combine: i32,
    pad: f32,
) -> Result<()> {
    assert_eq!(p.shape, out.shape, "affine operands differ in shape");
    assert!(q.shape == out.shape && q.layout == out.layout);
    engine.poison(&out.target);
    let planes = out.layout.planes() as u32;
    engine.draw(
        &affine_program(out.layout),
        Destination::Texture(&out.target),
        |program| {
            bind_matrix(program, "u_p", p, 0);
            bind_matrix(program, "u_q", q, planes);
            program.set_float("u_alpha", c.alpha);
            program.set_float("u_beta", c.beta);
            program.set_float("u_gamma", c.gamma);
            program.set_int("u_combine", combine);
            program.set_float("u_pad", pad);
            program.set_ivec2("u_valid", out.shape.cols as i32, out.shape.rows as i32);
        },
    )
}
