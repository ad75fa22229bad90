//! Binds glsl/spmv/spmv.frag (sparse matrix × vector, one fragment per row). Every
//! operand is a scalar list `width` floats wide (see `plan::sparse`).

use crate::engine::program::StaticGlsl;
use crate::engine::webgl::{GlEngine, GlMatrix};
use crate::error::Result;
use crate::ops::shaders::HEADER;

pub const SOURCE: &str = crate::common::shader!("glsl/spmv/spmv.frag");

pub const SPMV: StaticGlsl = StaticGlsl::new("spmv", || format!("{HEADER}{SOURCE}"));

/// y ← A·x for a CSR A of `rows` rows.
pub fn spmv(
    engine: &mut GlEngine,
    rows: usize,
    [values, columns, offsets, x, y]: [&GlMatrix; 5],
) -> Result<()> {
    engine.draw_into(&SPMV, y, |program| {
        program.set_texture("u_values", 0, values.texture());
        program.set_texture("u_columns", 1, columns.texture());
        program.set_texture("u_offsets", 2, offsets.texture());
        program.set_texture("u_x", 3, x.texture());
        program.set_int("u_rows", rows as i32);
        program.set_int("u_width", y.shape.cols as i32);
    })
}
