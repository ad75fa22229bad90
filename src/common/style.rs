//! How a matrix is drawn as a heatmap, on any backend: the style asked for, and
//! how entries map to pixels (for an honest label).

use crate::error::{GpgpuError, Result};

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

/// Entries per pixel and the sampling stride for a matrix side drawn on a canvas side.
pub fn mapping(rows: usize, cols: usize, width: usize, height: usize) -> Drawn {
    let block = (cols.div_ceil(width), rows.div_ceil(height));
    let stride = block.0.max(block.1).div_ceil(MAX_SAMPLES_PER_AXIS);
    Drawn { block, stride }
}
