//! A supplied fragment program drawn into C's texture.

use crate::engine::program::Glsl;
use crate::engine::webgl::{Destination, GlEngine, GlMatrix};
use crate::error::Result;

pub fn run(e: &mut GlEngine, p: &Glsl, [a, b, c]: [&GlMatrix; 3], dims: [usize; 3]) -> Result<()> {
    c.target().poison(f32::NAN);
    e.draw(p, Destination::Texture(c.target()), |program| {
        program.set_texture("A", 0, &a.target().textures()[0]);
        program.set_texture("B", 1, &b.target().textures()[0]);
        program.set_ivec3("dims", dims.map(|d| d as i32));
    })
}
