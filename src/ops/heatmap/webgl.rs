//! Binds glsl/heatmap/heatmap.frag: draws a resident matrix as a heatmap onto the
//! context's canvas, then copies that onto a page canvas (GPU to GPU in the
//! browser: no readPixels).

use crate::common::guard::describe_js;
use crate::common::style::{mapping, Drawn, Style};
use crate::engine::webgl::{bind_matrix, Destination, GlEngine, GlMatrix};
use crate::error::{GpgpuError, Result};
use crate::gl::context::Canvas;
use crate::ops::shaders::{InLayout, LAYOUT_GLSL};
use crate::plan::layout::Layout;

pub const SOURCE: &str = crate::common::shader!("glsl/heatmap/heatmap.frag");

/// The colour-map shader reading a matrix in `layout`.
pub fn heatmap_program(layout: Layout) -> InLayout {
    let body = || format!("{LAYOUT_GLSL}\n{SOURCE}");
    InLayout {
        name: "heatmap",
        body,
        layout,
    }
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
        &heatmap_program(m.layout),
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
        detail: format!("drawImage of the heatmap failed: {}", describe_js(&e)),
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
