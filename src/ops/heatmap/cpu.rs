//! A heatmap's pixels on the CPU: wgsl/heatmap/heatmap.wgsl's colouring, pixel by pixel,
//! over a matrix in wasm memory. The same blocks, the same pick (the entry of
//! largest magnitude in a pixel's block, NaN and ±Inf marked), the same colours,
//! so a CPU heatmap looks like the GPUs' beside it.

use crate::common::Style;
use crate::error::Result;
use crate::plan::semiring::NO_EDGE;
use crate::plan::shape::Shape;

type Rgb = [f32; 3];

fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    [0, 1, 2].map(|k| a[k] + (b[k] - a[k]) * t)
}

/// t in [-1, 1]: blue - white - red.
fn diverging(t: f32) -> Rgb {
    let (blue, red, white) = ([0.13, 0.40, 0.67], [0.70, 0.09, 0.17], [0.97; 3]);
    if t < 0.0 {
        mix(white, blue, -t)
    } else {
        mix(white, red, t)
    }
}

/// t in [0, 1]: pale yellow to dark purple.
fn sequential(t: f32) -> Rgb {
    let (a, b, c) = ([0.99, 0.98, 0.85], [0.93, 0.45, 0.25], [0.23, 0.05, 0.33]);
    if t < 0.5 {
        mix(a, b, 2.0 * t)
    } else {
        mix(b, c, 2.0 * t - 1.0)
    }
}

/// WGSL's `sign`: 0 for 0.
fn sign(v: f32) -> f32 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// RGBA8 pixels (width × height, row 0 at the top) of `m`, `stride` the sampling
/// step inside a pixel's block; `range` None: the largest |finite value| gets the
/// full colour.
pub fn pixels(
    shape: Shape,
    m: &[f32],
    (width, height): (usize, usize),
    stride: usize,
    range: Option<f32>,
    style: Style,
) -> Result<Vec<u8>> {
    let full = range
        .unwrap_or_else(|| crate::ops::stats::cpu::stats_of(m, style.no_edge).max_abs)
        .max(f32::MIN_POSITIVE);
    let floor = style.log_floor.unwrap_or(1.0).max(f32::MIN_POSITIVE);
    let scaled = |v: f32| {
        let a = v.abs();
        let t = match style.log_floor {
            Some(_) => (1.0 + a / floor).ln() / (1.0 + full / floor).ln(),
            None => a / full,
        };
        // A log scale whose range is below floor·2^-24 has log(1 + range / floor) = 0
        // in f32, so t is 0 / 0 (an all-zero matrix, whose range is MIN_POSITIVE).
        // The shaders' clamp, min(max(t, 0), 1), gives 0 for it there (zero's
        // colour); f32::clamp keeps the NaN, which drew black: 0 here too.
        let t = if t.is_nan() { 0.0 } else { t };
        sign(v) * t.clamp(0.0, 1.0)
    };
    let stride = stride.max(1);
    // A page canvas may be 16384² (1 GiB of pixels): asked for without aborting.
    let mut out = crate::error::room(width * height * 4, || {
        format!("the pixels of a {width}x{height} heatmap")
    })?;
    for row in 0..height {
        let i0 = row * shape.rows / height;
        let i1 = (i0 + 1).max((row + 1) * shape.rows / height);
        for x in 0..width {
            let j0 = x * shape.cols / width;
            let j1 = (j0 + 1).max((x + 1) * shape.cols / width);
            let (mut pick, mut nan, mut inf) = (0f32, false, 0);
            for i in (i0..i1).step_by(stride) {
                for j in (j0..j1).step_by(stride) {
                    let v = m[i * shape.cols + j];
                    if v.is_nan() {
                        nan = true;
                    } else if v.is_infinite() {
                        inf = if v > 0.0 { 1 } else { -1 };
                    } else if style.no_edge && v >= 0.5 * NO_EDGE {
                        // "No edge": +Infinity once read, so drawn as +∞.
                        inf = 1;
                    } else if v.abs() >= pick.abs() {
                        pick = v;
                    }
                }
            }
            let colour = if nan {
                [0.60, 0.00, 0.80]
            } else if inf == 1 {
                [230.0 / 255.0, 159.0 / 255.0, 0.0]
            } else if inf == -1 {
                [0.0, 158.0 / 255.0, 115.0 / 255.0]
            } else if style.sequential {
                sequential(scaled(pick).abs())
            } else {
                diverging(scaled(pick))
            };
            // pack4x8unorm's rounding.
            out.extend(colour.map(|c| (0.5 + 255.0 * c.clamp(0.0, 1.0)) as u8));
            out.push(255);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn style(sequential: bool) -> Style {
        Style {
            sequential,
            range: 0.0,
            log_floor: None,
            no_edge: false,
        }
    }

    #[test]
    fn signs_nan_and_infinities_get_their_colours() {
        // [[2, -2, inf], [0, NaN, -inf]], one pixel per entry.
        let m = [2.0, -2.0, f32::INFINITY, 0.0, f32::NAN, f32::NEG_INFINITY];
        let p = pixels(Shape::new(2, 3), &m, (3, 2), 1, None, style(false)).unwrap();
        let px = |k: usize| &p[4 * k..4 * k + 4];
        assert_eq!(px(0), [179, 23, 43, 255], "+max: full red");
        assert_eq!(px(1), [33, 102, 171, 255], "-max: full blue");
        assert_eq!(px(2), [230, 159, 0, 255]);
        assert_eq!(px(3), [247, 247, 247, 255], "0: white");
        assert_eq!(px(4), [153, 0, 204, 255], "NaN: violet");
        assert_eq!(px(5), [0, 158, 115, 255]);
    }

    #[test]
    fn min_plus_no_edge_is_drawn_as_plus_infinity_outside_the_range() {
        // Distances [[0, 3], [NO_EDGE, 1]]: "no edge" reads back as +Infinity.
        let m = [0.0, 3.0, NO_EDGE, 1.0];
        let min_plus = Style {
            no_edge: true,
            ..style(true)
        };
        let p = pixels(Shape::new(2, 2), &m, (2, 2), 1, None, min_plus).unwrap();
        assert_eq!(&p[8..12], [230, 159, 0, 255], "no edge: +Inf's orange");
        assert_eq!(
            &p[4..8],
            [59, 13, 84, 255],
            "3, the largest distance: darkest"
        );
        // An ordinary matrix's 1e30 is a value like any other: it sets the range.
        let p = pixels(Shape::new(2, 2), &m, (2, 2), 1, None, style(true)).unwrap();
        assert_eq!(&p[8..12], [59, 13, 84, 255]);
        assert_eq!(&p[4..8], [252, 250, 217, 255], "3 of 1e30: palest");
    }

    #[test]
    fn a_log_scale_with_a_range_far_below_its_floor_draws_zero_as_the_gpus_do() {
        // All zeros (range MIN_POSITIVE) and entries ~1e-12 (range far below the
        // floor): log(1 + range / floor) is 0 in f32, so t = 0 / 0. WebGPU and WebGL
        // draw zero's colour there (their clamp gives 0 for NaN), not black.
        for m in [[0.0f32; 4], [1e-12, 0.0, -1e-12, 0.0]] {
            for (sequential, zero) in [(false, [247, 247, 247, 255]), (true, [252, 250, 217, 255])]
            {
                let log = Style {
                    log_floor: Some(1e-3),
                    ..style(sequential)
                };
                let p = pixels(Shape::new(2, 2), &m, (2, 2), 1, None, log).unwrap();
                for k in 0..4 {
                    assert_eq!(
                        &p[4 * k..4 * k + 4],
                        zero,
                        "{m:?} pixel {k}, sequential {sequential}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_pixel_shows_the_largest_entry_of_its_block() {
        // A 4x4 matrix on 2x2 pixels: each pixel covers 2x2 entries.
        let mut m = [0.0f32; 16];
        m[5] = -1.0; // row 1, col 1: top-left block
        m[15] = 0.5; // bottom-right block
        let p = pixels(Shape::new(4, 4), &m, (2, 2), 1, Some(1.0), style(true)).unwrap();
        assert_eq!(&p[..4], [59, 13, 84, 255], "|-1| at the range: darkest");
        assert_eq!(&p[12..], [237, 115, 64, 255], "0.5: the middle colour");
        assert_eq!(&p[4..8], [252, 250, 217, 255], "0: palest");
    }
}
