//! A supplied compute program dispatched over C's tiles.

use crate::engine::program::Wgsl;
use crate::engine::webgpu::{GpuEngine, GpuMatrix};
use crate::error::{GpgpuError, Result};

pub fn run(
    e: &mut GpuEngine,
    p: &Wgsl,
    [tile_rows, tile_cols]: [usize; 2],
    [a, b, c]: [&GpuMatrix; 3],
    [rows, inner, cols]: [usize; 3],
) -> Result<()> {
    if tile_rows == 0 || tile_cols == 0 {
        return Err(GpgpuError::BadArgument {
            name: "tile".into(),
            detail: format!(
                "is {tile_rows} × {tile_cols}; the block of C one workgroup computes has at \
                 least one row and one column (TILE_ROWS and TILE_COLS ≥ 1)"
            ),
        });
    }
    e.ensure()?;
    e.fill(c, f32::NAN)?;
    let words = [rows as u32, inner as u32, cols as u32, 0];
    let groups = (cols.div_ceil(tile_cols), rows.div_ceil(tile_rows));
    e.dispatch(
        p,
        &[a.buffer(), b.buffer(), c.buffer()],
        &words,
        groups,
        None,
    )
}
