//! Binds glsl/stats/reduce.frag: statistics of a resident matrix (max |value|, NaN and
//! ±Inf counts, sum of |values|, sum of squares, min, max) by passes that each
//! shrink the grid `factor`-fold per axis, then one texel pair read back.

use crate::common::Stats;
use crate::engine::program::{FragmentProgram, ProgramId};
use crate::engine::webgl::{bind_matrix, Destination, GlEngine, GlMatrix};
use crate::error::Result;
use crate::gl::target::{RenderTarget, TexFormat};
use crate::ops::shaders::{layout_define, layout_name, HEADER, LAYOUT_GLSL};
use crate::plan::layout::Layout;

pub const SOURCE: &str = crate::common::shader!("glsl/stats/reduce.frag");

/// A reduction pass shrinking `factor`-fold: from a matrix in a layout (the first
/// pass) or from the previous pass's statistics (None).
#[derive(Clone, Copy)]
pub struct ReduceProgram {
    pub from: Option<Layout>,
    pub factor: usize,
}

impl FragmentProgram for ReduceProgram {
    fn id(&self) -> ProgramId {
        ProgramId::of("reduce", &(self.from, self.factor))
    }

    fn name(&self) -> String {
        let from = self.from.map_or("stats".into(), layout_name);
        format!("reduce{}/{from}", self.factor)
    }

    fn fragment_source(&self) -> String {
        let factor = format!("#define FACTOR {}\n", self.factor);
        match self.from {
            Some(layout) => format!(
                "{HEADER}{factor}{}#define REDUCE_FIRST 1\n{LAYOUT_GLSL}\n{SOURCE}",
                layout_define(layout)
            ),
            None => format!("{HEADER}{factor}{SOURCE}"),
        }
    }
}

/// Shrink per pass for statistics of whole matrices (few passes).
pub const FACTOR: usize = 8;

/// Grid sizes of the passes for a `cols`×`rows` input, down to 1×1.
pub fn pass_sizes(cols: usize, rows: usize, factor: usize) -> Vec<(usize, usize)> {
    let mut sizes = vec![];
    let (mut w, mut h) = (cols, rows);
    loop {
        (w, h) = (w.div_ceil(factor), h.div_ceil(factor));
        sizes.push((w, h));
        if (w, h) == (1, 1) {
            return sizes;
        }
    }
}

/// Statistics of `m`, reducing `factor`-fold per pass (2 = repeated halving).
/// `no_edge`: a min-plus matrix, whose entries ≥ NO_EDGE / 2 count as +Infinity.
pub fn stats_with(
    engine: &mut GlEngine,
    m: &GlMatrix,
    factor: usize,
    no_edge: bool,
) -> Result<Stats> {
    let mut input_size = (m.shape.cols, m.shape.rows);
    let mut previous: Option<RenderTarget> = None;
    for (w, h) in pass_sizes(m.shape.cols, m.shape.rows, factor) {
        let out = engine.alloc_target(w, h, TexFormat::Rgba32F, 2)?;
        engine.poison(&out);
        let key = ReduceProgram {
            from: previous.is_none().then_some(m.layout),
            factor,
        };
        let drawn = engine.draw(&key, Destination::Texture(&out), |program| {
            match &previous {
                None => {
                    bind_matrix(program, "u_m", m, 0);
                    program.set_int("u_no_edge", no_edge as i32);
                }
                Some(prev) => {
                    program.set_texture("u_stats", 0, &prev.textures()[0]);
                    program.set_texture("u_more", 1, &prev.textures()[1]);
                }
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
    let texels = last
        .read_texel(0)
        .and_then(|s| Ok((s, last.read_texel(1)?)));
    engine.recycle_target(last);
    let (s, more) = texels?;
    Ok(Stats {
        max_abs: s[0],
        nan: s[1],
        inf: s[2],
        sum_abs: s[3],
        sum_sq: more[0],
        min: more[1],
        max: more[2],
    }
    .finished())
}

/// Statistics of `m` in few passes.
pub fn stats(engine: &mut GlEngine, m: &GlMatrix) -> Result<Stats> {
    stats_with(engine, m, FACTOR, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_finite_entry_gives_nan_bounds() {
        let none = Stats::from_record(&[0.0, 0.0, 4.0, 0.0, 0.0, f32::MAX, -f32::MAX, 0.0]);
        assert!(none.min.is_nan() && none.max.is_nan());
        let big = Stats::from_record(&[3.3e38, 0.0, 0.0, 0.0, 0.0, 3.05e38, 3.3e38, 0.0]);
        assert_eq!((big.min, big.max), (3.05e38, 3.3e38));
    }

    #[test]
    fn passes_shrink_to_one_texel() {
        assert_eq!(pass_sizes(1, 1, 8), [(1, 1)]);
        assert_eq!(pass_sizes(8, 8, 8), [(1, 1)]);
        assert_eq!(pass_sizes(9, 3, 8), [(2, 1), (1, 1)]);
        assert_eq!(pass_sizes(8192, 8192, 8).len(), 5);
        // Halving a 1000-long vector: 500, 250, 125, 63, 32, 16, 8, 4, 2, 1.
        assert_eq!(pass_sizes(1, 1000, 2).len(), 10);
    }
}
