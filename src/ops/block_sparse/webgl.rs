//! Binds glsl/block_sparse/block_sparse.frag (the numeric phase of a block-sparse product: one
//! fragment per entry of C's block atlas) and glsl/block_sparse/block_flags.frag (C's occupancy,
//! one fragment per block). Atlases, the index table and the flags are R32F
//! matrices in the scalar layout.

use crate::engine::program::StaticGlsl;
use crate::engine::webgl::{GlEngine, GlMatrix};
use crate::error::Result;
use crate::ops::shaders::{ATLAS_GLSL, HEADER};
use crate::plan::blocks::Numeric;

pub const SOURCE: &str = crate::common::shader!("glsl/block_sparse/block_sparse.frag");
pub const FLAGS_SOURCE: &str = crate::common::shader!("glsl/block_sparse/block_flags.frag");

pub const BLOCK_SPARSE: StaticGlsl =
    StaticGlsl::new("block-sparse", || format!("{HEADER}{ATLAS_GLSL}\n{SOURCE}"));

pub const BLOCK_FLAGS: StaticGlsl = StaticGlsl::new("block-flags", || {
    format!("{HEADER}{ATLAS_GLSL}\n{FLAGS_SOURCE}")
});

/// out (C's atlas) ← the stored blocks of A·B.
pub fn product(
    engine: &mut GlEngine,
    n: &Numeric,
    [a, b, index, out]: [&GlMatrix; 4],
) -> Result<()> {
    engine.draw_into(&BLOCK_SPARSE, out, |program| {
        program.set_texture("u_a", 0, a.texture());
        program.set_texture("u_b", 1, b.texture());
        program.set_texture("u_index", 2, index.texture());
        for (name, v) in [
            ("u_bs", n.atlas.tile.rows),
            ("u_per_row", n.atlas.per_row),
            ("u_out_blocks", n.out_blocks),
            ("u_index_width", n.index_width),
            ("u_a_row_starts", n.a_row_starts),
            ("u_a_cols", n.a_cols),
            ("u_a_slots", n.a_slots),
            ("u_listed", n.listed as usize),
            ("u_pair_starts", n.pair_starts),
            ("u_pairs", n.pairs),
            ("u_b_map", n.b_map),
            ("u_out_coords", n.out_coords),
            ("u_b_grid_cols", n.b_grid_cols),
        ] {
            program.set_int(name, v as i32);
        }
    })
}

/// flags ← 1 for each stored block of `c` (an atlas) holding a nonzero, else 0.
pub fn flags(engine: &mut GlEngine, n: &Numeric, c: &GlMatrix, flags: &GlMatrix) -> Result<()> {
    engine.draw_into(&BLOCK_FLAGS, flags, |program| {
        program.set_texture("u_c", 0, c.texture());
        program.set_int("u_bs", n.atlas.tile.rows as i32);
        program.set_int("u_per_row", n.atlas.per_row as i32);
        program.set_int("u_blocks", n.out_blocks as i32);
        program.set_int("u_flags_width", n.index_width as i32);
    })
}
