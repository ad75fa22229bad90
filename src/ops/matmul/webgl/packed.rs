//! Binds glsl/matmul/2_packed.frag: A and B in the one-plane packed layout (four
//! columns per RGBA32F texel, padded to multiples of 4).

use std::ops::Range;

use crate::engine::webgl::GlMatrix;
use crate::gl::program::Program;
use crate::plan::shape::Shape;

pub const SOURCE: &str = include_str!("../../../../glsl/matmul/2_packed.frag");

pub(crate) fn bind(program: &Program, a: &GlMatrix, b: &GlMatrix, out: Shape, steps: Range<usize>) {
    program.set_texture("u_a", 0, a.texture());
    program.set_texture("u_b", 1, b.texture());
    program.set_int("u_kb_begin", steps.start as i32);
    program.set_int("u_kb_end", steps.end as i32);
    program.set_ivec2("u_valid", out.cols as i32, out.rows as i32);
}
