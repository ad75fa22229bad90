//! Binds glsl/batched/batched_matmul.frag: a batch of small products in one pass, one
//! fragment per output entry, over R32F atlases of tiles (scalar layout).

use crate::engine::program::StaticGlsl;
use crate::engine::webgl::{GlEngine, GlMatrix};
use crate::error::Result;
use crate::ops::shaders::{ATLAS_GLSL, HEADER};
use crate::plan::batched::BatchedProduct;

pub const SOURCE: &str = crate::common::shader!("glsl/batched/batched_matmul.frag");

pub const BATCHED: StaticGlsl =
    StaticGlsl::new("batched", || format!("{HEADER}{ATLAS_GLSL}\n{SOURCE}"));

/// out (C's atlas) ← A_s · B_s for every s.
pub fn product(
    engine: &mut GlEngine,
    p: &BatchedProduct,
    [a, b, out]: [&GlMatrix; 3],
) -> Result<()> {
    engine.draw_into(&BATCHED, out, |program| {
        program.set_texture("u_a", 0, a.texture());
        program.set_texture("u_b", 1, b.texture());
        for (name, v) in [
            ("u_count", p.count),
            ("u_rows", p.a.tile.rows),
            ("u_inner", p.a.tile.cols),
            ("u_cols", p.c.tile.cols),
            ("u_a_per_row", p.a.per_row),
            ("u_b_per_row", p.b.per_row),
            ("u_c_per_row", p.c.per_row),
        ] {
            program.set_int(name, v as i32);
        }
    })
}
