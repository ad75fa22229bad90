//! Putting a heatmap coloured by wgsl/heatmap.wgsl on a page canvas. Only the
//! picture's pixels leave the GPU, never the matrix: presenting a WebGPU canvas
//! into a 2D one is not available on every adapter (on SwiftShader, headless, it
//! takes the page's WebGPU instance down; measured), while pixels always arrive.

use wasm_bindgen::Clamped;
use web_sys::{CanvasRenderingContext2d, ImageData};

use crate::error::{GpgpuError, Result};

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
        detail: format!("ImageData of {width}x{height} failed: {e:?}"),
    })?;
    context
        .put_image_data(&image, 0, 0)
        .map_err(|e| GpgpuError::BadArgument {
            name: "canvas".into(),
            detail: format!("putImageData failed: {e:?}"),
        })
}
