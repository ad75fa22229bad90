//! Binds glsl/matmul/1_naive.frag: A and B as R32F textures, the inner loop bound and
//! the output size (from which each fragment recovers its row and column).

use crate::engine::webgl::GlMatrix;
use crate::gl::program::Program;
use crate::plan::shape::Shape;

pub const SOURCE: &str = include_str!("../../../../glsl/matmul/1_naive.frag");

pub(crate) fn bind(program: &Program, a: &GlMatrix, b: &GlMatrix, out: Shape) {
    // The teaching kernel always runs the whole k loop in one pass.
    program.set_texture("u_a", 0, a.texture());
    program.set_texture("u_b", 1, b.texture());
    program.set_int("u_inner", a.shape.cols as i32);
    program.set_ivec2("u_out_size", out.cols as i32, out.rows as i32);
}
