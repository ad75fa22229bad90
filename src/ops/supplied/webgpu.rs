//! A supplied compute program dispatched over C's tiles, or over the grid of the
//! general form.

use super::Dispatch;
use crate::engine::program::Wgsl;
use crate::engine::webgpu::{GpuEngine, GpuMatrix};
use crate::error::{GpgpuError, Result};
use crate::plan::shape::Shape;
use crate::webgpu::{Buffer, Timer};

pub fn run(
    e: &mut GpuEngine,
    p: &Wgsl,
    [tile_rows, tile_cols]: [usize; 2],
    [a, b, c]: [&GpuMatrix; 3],
    [rows, inner, cols]: [usize; 3],
    timer: Option<&Timer>,
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
        timer,
    )
}

/// Uploads the inputs and runs `p` once over `d.groups` into a NaN-filled output,
/// which comes back (the inputs go back to the pool) with the pass's timer.
pub fn dispatch(
    e: &mut GpuEngine,
    p: &Wgsl,
    d: &Dispatch<'_>,
    timed: bool,
) -> Result<(GpuMatrix, Option<Timer>)> {
    e.ensure()?;
    let mut held: Vec<GpuMatrix> = Vec::with_capacity(d.inputs.len() + 1);
    let queued = (|| {
        for data in d.inputs {
            // WebGPU binds no empty buffer: an empty list is one unused float.
            held.push(match data.is_empty() {
                true => e.upload(Shape::new(1, 1), &[0.0])?,
                false => e.upload(Shape::new(1, data.len()), data)?,
            });
        }
        held.push(e.alloc(Shape::new(1, d.output.max(1)))?);
        e.fill(&held[held.len() - 1], f32::NAN)?;
        let timer = if timed { e.timer()? } else { None };
        let buffers: Vec<&Buffer> = held.iter().map(GpuMatrix::buffer).collect();
        e.dispatch(p, &buffers, &d.words, d.groups, timer.as_ref())?;
        if let Some(t) = &timer {
            e.collect(t)?;
        }
        Ok(timer)
    })();
    let out = match queued {
        Ok(_) => held.pop(),
        Err(_) => None,
    };
    for m in held {
        e.recycle(m);
    }
    let timer = queued?;
    Ok((out.expect("pushed above when queued"), timer))
}
