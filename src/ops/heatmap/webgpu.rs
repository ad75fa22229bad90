//! Putting a heatmap coloured by wgsl/heatmap/heatmap.wgsl on a page canvas. Only the
//! picture's pixels leave the GPU, never the matrix: presenting a WebGPU canvas
//! into a 2D one is not available on every adapter (on SwiftShader, headless, it
//! takes the page's WebGPU instance down; measured), while pixels always arrive.

use wasm_bindgen::Clamped;
use web_sys::{CanvasRenderingContext2d, ImageData};

use crate::common::guard::describe_js;
use crate::common::Style;
use crate::engine::program::StaticWgsl;
use crate::engine::webgpu::{GpuEngine, GpuMatrix, GpuRead};
use crate::error::{GpgpuError, Result};
use crate::ops::stats::webgpu::reduce;
use crate::plan::shape::Shape;
use crate::webgpu::buffer::MATRIX;
use crate::webgpu::Buffer;

pub const SOURCE: &str = crate::common::shader!("wgsl/heatmap/heatmap.wgsl");

// The colour range is in the uniform words: it follows the data.
pub const HEATMAP: StaticWgsl = StaticWgsl::new("heatmap", || SOURCE.into()).following_data();

/// Puts RGBA8 `pixels` (width × height, row 0 at the top) on the context's canvas.
pub fn put_pixels(
    context: &CanvasRenderingContext2d,
    pixels: &[u8],
    (width, height): (usize, usize),
) -> Result<()> {
    if width == 0 || height == 0 {
        return Ok(());
    }
    let image =
        ImageData::new_with_u8_clamped_array_and_sh(Clamped(pixels), width as u32, height as u32);
    put_image(context, image, (width, height))
}

/// [`put_pixels`] of pixels in a JavaScript array (a WebGPU readback's), without
/// copying them into wasm memory first.
pub fn put_js_pixels(
    context: &CanvasRenderingContext2d,
    pixels: &js_sys::Uint8ClampedArray,
    (width, height): (usize, usize),
) -> Result<()> {
    if width == 0 || height == 0 {
        return Ok(());
    }
    let image = ImageData::new_with_js_u8_clamped_array_and_sh(pixels, width as u32, height as u32);
    put_image(context, image, (width, height))
}

fn put_image(
    context: &CanvasRenderingContext2d,
    image: std::result::Result<ImageData, wasm_bindgen::JsValue>,
    (width, height): (usize, usize),
) -> Result<()> {
    let image = image.map_err(|e| GpgpuError::BadArgument {
        name: "canvas".into(),
        detail: format!("ImageData of {width}x{height} failed: {}", describe_js(&e)),
    })?;
    context
        .put_image_data(&image, 0, 0)
        .map_err(|e| GpgpuError::BadArgument {
            name: "canvas".into(),
            detail: format!("putImageData failed: {}", describe_js(&e)),
        })
}

/// Colours `m` into a width × height RGBA8 picture on the GPU (see
/// wgsl/heatmap/heatmap.wgsl); the pixels come back with `GpuRead::wait_bytes`. With
/// `range` None the colour scale spans the largest |finite value|, found by the
/// reduction in the same submit.
pub fn heatmap(
    e: &mut GpuEngine,
    m: &GpuMatrix,
    size: (usize, usize),
    stride: usize,
    range: Option<f32>,
    style: Style,
) -> Result<GpuRead> {
    e.ensure()?;
    let (width, height) = size;
    let bytes = (width * height * 4) as u64;
    let pixels = Buffer::new(e.gpu(), bytes, MATRIX, "heatmap pixels")?;
    let stats = match range {
        None => reduce(e, m, style.no_edge)?,
        // Bound but unread: the range is in the uniform block.
        Some(_) => Buffer::new(e.gpu(), 32, MATRIX, "heatmap range")?,
    };
    let words = heatmap_words(m.shape, size, stride, range, style);
    let groups = (width.div_ceil(16), height.div_ceil(16));
    e.dispatch(
        &HEATMAP,
        &[m.buffer(), &pixels, &stats],
        &words,
        groups,
        None,
    )?;
    e.keep(stats);
    e.read_buffer(&pixels, bytes)
}

/// The uniform block of wgsl/heatmap/heatmap.wgsl (`Style` there).
pub fn heatmap_words(
    shape: Shape,
    (width, height): (usize, usize),
    stride: usize,
    range: Option<f32>,
    style: Style,
) -> [u32; 12] {
    [
        shape.rows as u32,
        shape.cols as u32,
        width as u32,
        height as u32,
        stride.max(1) as u32,
        style.sequential as u32,
        style.log_floor.is_some() as u32,
        style.no_edge as u32,
        range.map_or(0.0, |r| r.max(f32::MIN_POSITIVE)).to_bits(),
        style
            .log_floor
            .unwrap_or(1.0)
            .max(f32::MIN_POSITIVE)
            .to_bits(),
        0,
        0,
    ]
}
