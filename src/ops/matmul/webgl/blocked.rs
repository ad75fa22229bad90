//! Binds glsl/matmul/3_blocked.frag: A's planes on texture units 0..P, B's on P..2P,
//! and the range of k steps this pass adds up (each step covers P values of k).

use std::ops::Range;

use crate::engine::webgl::GlMatrix;
use crate::gl::program::Program;
use crate::plan::shape::Shape;

pub const SOURCE: &str = include_str!("../../../../glsl/matmul/3_blocked.frag");

pub(crate) fn bind(program: &Program, a: &GlMatrix, b: &GlMatrix, out: Shape, steps: Range<usize>) {
    let planes = a.layout.planes();
    for (r, t) in a.target.textures().iter().enumerate() {
        program.set_texture(&format!("u_a[{r}]"), r as u32, t);
    }
    for (q, t) in b.target.textures().iter().enumerate() {
        program.set_texture(&format!("u_b[{q}]"), (planes + q) as u32, t);
    }
    let ta = &a.target;
    let tb = &b.target;
    program.set_vec2(
        "u_a_texel",
        1.0 / ta.width() as f32,
        1.0 / ta.height() as f32,
    );
    program.set_vec2(
        "u_b_texel",
        1.0 / tb.width() as f32,
        1.0 / tb.height() as f32,
    );
    program.set_int("u_step_begin", steps.start as i32);
    program.set_int("u_step_end", steps.end as i32);
    program.set_ivec2("u_valid", out.cols as i32, out.rows as i32);
}
