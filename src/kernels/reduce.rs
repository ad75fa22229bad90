//! Binds glsl/reduce.frag: statistics of a resident matrix (max |value|, NaN and
//! ±Inf counts, sum of |values|) by passes that each shrink the grid 8×8-fold,
//! then one texel read back.

use super::heatmap::bind_matrix;
use super::ProgramKey;
use crate::engine::{Destination, DeviceMatrix, Engine};
use crate::error::Result;
use crate::gl::target::{RenderTarget, TexFormat};

pub const SOURCE: &str = include_str!("../../glsl/reduce.frag");
pub const FACTOR: usize = 8;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Largest |value| among finite entries.
    pub max_abs: f32,
    pub nan: f32,
    pub inf: f32,
    /// Sum of |value| over finite entries.
    pub sum_abs: f32,
}

/// Grid sizes of the passes for a `cols`×`rows` input, down to 1×1.
pub fn pass_sizes(cols: usize, rows: usize) -> Vec<(usize, usize)> {
    let mut sizes = vec![];
    let (mut w, mut h) = (cols, rows);
    loop {
        (w, h) = (w.div_ceil(FACTOR), h.div_ceil(FACTOR));
        sizes.push((w, h));
        if (w, h) == (1, 1) {
            return sizes;
        }
    }
}

pub fn stats(engine: &mut Engine, m: &DeviceMatrix) -> Result<Stats> {
    let mut input_size = (m.shape.cols, m.shape.rows);
    let mut previous: Option<RenderTarget> = None;
    for (w, h) in pass_sizes(m.shape.cols, m.shape.rows) {
        let out = engine.alloc_target(w, h, TexFormat::Rgba32F, 1)?;
        engine.poison(&out);
        let key = ProgramKey::Reduce {
            from: previous.is_none().then_some(m.layout),
        };
        let drawn = engine.draw(key, Destination::Texture(&out), |program| {
            match &previous {
                None => bind_matrix(program, "u_m", m, 0),
                Some(prev) => program.set_texture("u_stats", 0, &prev.textures()[0]),
            }
            program.set_ivec2("u_in_size", input_size.0 as i32, input_size.1 as i32);
        });
        if let Some(prev) = previous.take() {
            engine.recycle_target(prev);
        }
        drawn?;
        previous = Some(out);
        input_size = (w, h);
    }
    let last = previous.expect("at least one pass");
    let texel = last.read(0);
    engine.recycle_target(last);
    let t = texel?;
    Ok(Stats {
        max_abs: t[0],
        nan: t[1],
        inf: t[2],
        sum_abs: t[3],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_shrink_to_one_texel() {
        assert_eq!(pass_sizes(1, 1), [(1, 1)]);
        assert_eq!(pass_sizes(8, 8), [(1, 1)]);
        assert_eq!(pass_sizes(9, 3), [(2, 1), (1, 1)]);
        assert_eq!(pass_sizes(8192, 8192).len(), 5);
    }
}
