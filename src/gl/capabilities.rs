//! What the device can do: its limits, its name, and whether it can really render
//! into float32 textures (proved by rendering, not by trusting the extension list).

use wasm_bindgen::JsCast;

use super::target::{RenderTarget, TexFormat};
use super::{Gl, GL};
use crate::error::{GpgpuError, Result};

/// WEBGL_debug_renderer_info's enums.
const UNMASKED_VENDOR_WEBGL: u32 = 0x9245;
const UNMASKED_RENDERER_WEBGL: u32 = 0x9246;

/// The GPU limits that bound what the library can run.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    pub max_texture_size: usize,
    pub max_viewport_dims: (usize, usize),
    pub max_draw_buffers: usize,
    pub max_texture_units: usize,
}

impl Limits {
    /// The largest matrix side every layout can hold: a dimension becomes a texture
    /// side (and a viewport side) of at most its own length.
    pub fn max_dimension(&self) -> usize {
        self.max_texture_size
            .min(self.max_viewport_dims.0)
            .min(self.max_viewport_dims.1)
    }
}

/// What [`Gpgpu::info`](crate::Gpgpu::info) reports about the device.
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceInfo {
    /// The GPU's name (unmasked where the browser allows it).
    pub renderer: String,
    pub vendor: String,
    pub webgl_version: String,
    pub glsl_version: String,
    pub limits: Limits,
    /// Float32 textures can be rendered to (proved by a test render).
    pub float_renderable: bool,
    /// EXT_disjoint_timer_query_webgl2: passes can be timed on the GPU.
    pub timer_query: bool,
    /// EXT_float_blend: long products add up in chunks by blending.
    pub float_blend: bool,
}

fn int_param(gl: &Gl, pname: u32) -> usize {
    gl.get_parameter(pname)
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0) as usize
}

fn string_param(gl: &Gl, pname: u32) -> String {
    gl.get_parameter(pname)
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

pub fn limits(gl: &Gl) -> Limits {
    let dims = gl
        .get_parameter(GL::MAX_VIEWPORT_DIMS)
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Int32Array>().ok())
        .map(|v| v.to_vec())
        .unwrap_or_default();
    Limits {
        max_texture_size: int_param(gl, GL::MAX_TEXTURE_SIZE),
        max_viewport_dims: (
            dims.first().copied().unwrap_or(0) as usize,
            dims.get(1).copied().unwrap_or(0) as usize,
        ),
        max_draw_buffers: int_param(gl, GL::MAX_DRAW_BUFFERS),
        max_texture_units: int_param(gl, GL::MAX_TEXTURE_IMAGE_UNITS),
    }
}

/// Names and limits; `float_renderable` and `timer_query` are filled in by the caller.
pub fn describe(gl: &Gl) -> DeviceInfo {
    let unmasked = gl
        .get_extension("WEBGL_debug_renderer_info")
        .ok()
        .flatten()
        .is_some();
    let (renderer, vendor) = if unmasked {
        (
            string_param(gl, UNMASKED_RENDERER_WEBGL),
            string_param(gl, UNMASKED_VENDOR_WEBGL),
        )
    } else {
        (string_param(gl, GL::RENDERER), string_param(gl, GL::VENDOR))
    };
    DeviceInfo {
        renderer,
        vendor,
        webgl_version: string_param(gl, GL::VERSION),
        glsl_version: string_param(gl, GL::SHADING_LANGUAGE_VERSION),
        limits: limits(gl),
        float_renderable: false,
        timer_query: false,
        float_blend: false,
    }
}

/// Whether an extension is offered and now enabled.
pub fn enable_extension(gl: &Gl, name: &str) -> bool {
    gl.get_extension(name).ok().flatten().is_some()
}

/// Proves float rendering works for `format`: a framebuffer-completeness check, then
/// a clear to values no 8-bit or 16-bit target keeps, read back exactly.
pub fn probe_float_rendering(gl: &Gl, format: TexFormat) -> Result<()> {
    let target = RenderTarget::new(gl, 2, 2, format, 1)?;
    let probe = [-1.5e-7f32, 65_537.25, 3.0e38, -0.1];
    target.bind_for_drawing();
    gl.clear_bufferfv_with_f32_array(GL::COLOR, 0, &probe);
    let back = target.read(0)?;
    gl.bind_framebuffer(GL::FRAMEBUFFER, None);
    let want = &probe[..format.channels()];
    if back.chunks_exact(format.channels()).all(|t| t == want) {
        Ok(())
    } else {
        Err(GpgpuError::NoFloatRenderTarget {
            detail: format!(
                "{format:?} render target stored {} for {}: not float32",
                list(&back[..format.channels()]),
                list(want)
            ),
        })
    }
}

/// `[a, b, …]` as `{:?}` writes a list of f32.
fn list(values: &[f32]) -> String {
    let items: Vec<String> = values
        .iter()
        .map(|&v| crate::plan::decimal::debug(v))
        .collect();
    format!("[{}]", items.join(", "))
}

/// Enables EXT_color_buffer_float and proves R32F and RGBA32F render targets work.
pub fn enable_float_rendering(gl: &Gl) -> Result<()> {
    if !enable_extension(gl, "EXT_color_buffer_float") {
        if gl.is_context_lost() {
            return Err(GpgpuError::ContextLost);
        }
        return Err(GpgpuError::NoFloatRenderTarget {
            detail: "the EXT_color_buffer_float extension is missing".into(),
        });
    }
    probe_float_rendering(gl, TexFormat::R32F)?;
    probe_float_rendering(gl, TexFormat::Rgba32F)
}
