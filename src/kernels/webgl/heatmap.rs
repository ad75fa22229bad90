//! Binds glsl/heatmap.frag: draws a resident matrix as a heatmap onto the
//! context's canvas, then copies that onto a page canvas (GPU to GPU in the
//! browser: no readPixels).

use super::ProgramKey;
use crate::engine::webgl::{Destination, GlEngine, GlMatrix};
use crate::error::{GpgpuError, Result};
use crate::gl::context::Canvas;
use crate::gl::program::Program;

pub const SOURCE: &str = include_str!("../../../glsl/heatmap.frag");

/// A block larger than this per side is sampled with a stride, bounding a pixel's cost.
pub const MAX_SAMPLES_PER_AXIS: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Sequential (|value|, for errors) instead of diverging (signed values).
    pub sequential: bool,
    /// |value| that gets the full colour.
    pub range: f32,
    /// Symmetric log scale starting at this magnitude, for values spanning decades.
    pub log_floor: Option<f32>,
    /// A min-plus matrix: entries ≥ NO_EDGE / 2 are "no edge", which reads back as
    /// +Infinity, so they are drawn in +∞'s colour and left out of the default range.
    pub no_edge: bool,
}

impl Style {
    /// A heatmap's `range` (the |value| that gets the full colour; None: the matrix's
    /// largest |finite value|) and this style's `log_floor`, when given, must be finite
    /// numbers > 0, as JavaScript's `style.range` and `style.logFloor` must be
    /// (BAD_ARGUMENT): the shaders would clamp a NaN, 0 or negative one to
    /// f32::MIN_POSITIVE and draw a picture with no error. `self.range` is not read.
    pub fn check(&self, range: Option<f32>) -> Result<()> {
        let given = [
            ("range", range, "the matrix's largest |finite value|"),
            ("style.log_floor", self.log_floor, "no log scale"),
        ];
        for (name, value, none) in given {
            if let Some(v) = value.filter(|v| !(v.is_finite() && *v > 0.0)) {
                return Err(GpgpuError::BadArgument {
                    name: name.into(),
                    detail: format!(
                        "is {}; it must be a finite number > 0 (or None: {none})",
                        crate::error::js_number(v as f64)
                    ),
                });
            }
        }
        Ok(())
    }
}

/// How a heatmap maps entries to pixels, for an honest label.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drawn {
    /// Entries per pixel along each axis (1 when every entry has its pixel or more).
    pub block: (usize, usize),
    /// 1 when every entry of a block is looked at, else the sampling step.
    pub stride: usize,
}

/// Points the sampler array `name[0..planes]` at `m`'s planes, from texture unit `first`.
pub fn bind_matrix(program: &Program, name: &str, m: &GlMatrix, first: u32) {
    for (p, t) in m.target.textures().iter().enumerate() {
        program.set_texture(&format!("{name}[{p}]"), first + p as u32, t);
    }
}

/// Entries per pixel and the sampling stride for a matrix side drawn on a canvas side.
pub fn mapping(rows: usize, cols: usize, width: usize, height: usize) -> Drawn {
    let block = (cols.div_ceil(width), rows.div_ceil(height));
    let stride = block.0.max(block.1).div_ceil(MAX_SAMPLES_PER_AXIS);
    Drawn { block, stride }
}

/// Draws `m` onto the context's canvas, resized to width×height.
pub fn draw(
    engine: &mut GlEngine,
    m: &GlMatrix,
    width: usize,
    height: usize,
    style: Style,
) -> Result<Drawn> {
    let drawn = mapping(m.shape.rows, m.shape.cols, width, height);
    engine.draw(
        ProgramKey::Heatmap { layout: m.layout },
        Destination::Canvas { width, height },
        |program| {
            bind_matrix(program, "u_m", m, 0);
            program.set_ivec2("u_size", m.shape.cols as i32, m.shape.rows as i32);
            program.set_ivec2("u_canvas", width as i32, height as i32);
            program.set_int("u_stride", drawn.stride as i32);
            program.set_float("u_range", style.range.max(f32::MIN_POSITIVE));
            program.set_int("u_mode", style.sequential as i32);
            program.set_int("u_log", style.log_floor.is_some() as i32);
            program.set_float(
                "u_floor",
                style.log_floor.unwrap_or(1.0).max(f32::MIN_POSITIVE),
            );
            program.set_int("u_no_edge", style.no_edge as i32);
        },
    )?;
    Ok(drawn)
}

/// Copies the context's canvas onto `target` (a 2D canvas of the same size, on the
/// page or an OffscreenCanvas).
pub fn present(engine: &GlEngine, target: &Canvas) -> Result<()> {
    let ctx = crate::kernels::context_2d(target)?;
    ctx.set_image_smoothing_enabled(false);
    let (w, h) = target.size();
    let (w, h) = (w as f64, h as f64);
    ctx.clear_rect(0.0, 0.0, w, h);
    let drawn = match engine.canvas() {
        Canvas::Element(c) => {
            ctx.draw_image_with_html_canvas_element_and_dw_and_dh(c, 0.0, 0.0, w, h)
        }
        Canvas::Offscreen(c) => {
            ctx.draw_image_with_offscreen_canvas_and_dw_and_dh(c, 0.0, 0.0, w, h)
        }
    };
    drawn.map_err(|e| GpgpuError::Gl {
        detail: format!("drawImage of the heatmap failed: {e:?}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_or_floor_must_be_a_finite_number_above_zero() {
        let style = |log_floor| Style {
            sequential: false,
            range: f32::NAN, // not read
            log_floor,
            no_edge: false,
        };
        for bad in [f32::NAN, 0.0, -0.0, -1.0, f32::INFINITY, f32::NEG_INFINITY] {
            let e = style(None).check(Some(bad)).unwrap_err();
            assert_eq!(e.code(), "BAD_ARGUMENT");
            assert!(e.to_string().starts_with("range: is "), "{e}");
            let e = style(Some(bad)).check(None).unwrap_err();
            assert_eq!(e.code(), "BAD_ARGUMENT");
            assert!(e.to_string().starts_with("style.log_floor: is "), "{e}");
        }
        let e = style(Some(-1.0)).check(None).unwrap_err().to_string();
        assert_eq!(
            e,
            "style.log_floor: is -1; it must be a finite number > 0 (or None: no log scale)"
        );
        for (range, floor) in [(None, None), (Some(f32::MIN_POSITIVE), Some(1e-3))] {
            assert!(style(floor).check(range).is_ok());
        }
        assert!(style(None).check(Some(f32::MAX)).is_ok());
    }
}
