//! A resident matrix drawn as a heatmap on a page canvas, from device memory: WebGL
//! draws on its own canvas (glsl/heatmap/heatmap.frag) and copies that over, GPU to GPU;
//! WebGPU colours the pixels in a compute pass (wgsl/heatmap/heatmap.wgsl) and only they
//! come back; the CPU colours them from the matrix when its queue reaches it, with
//! the shaders' colour map.

pub mod cpu;
pub mod webgl;
pub mod webgpu;

use crate::common::style::mapping;
use crate::common::{Drawn, Style};
use crate::cpu::CpuRead;
use crate::engine::webgpu::GpuRead;
use crate::engine::{foreign, Engine, Matrix};
use crate::error::{GpgpuError, Result};
use crate::gl::context::Canvas;
use crate::plan::shape::Shape;

impl Engine {
    /// Draws `m` as a heatmap on `canvas` (its size), from GPU memory: WebGL draws on
    /// its own canvas and copies that over; WebGPU colours the pixels in a compute
    /// pass and puts only them on the canvas when they arrive. `range` None: the
    /// matrix's largest |finite value|. `range` and `style.log_floor`, when given, must
    /// be finite numbers > 0 ([`Style::check`]).
    pub fn heatmap(
        &mut self,
        m: &Matrix,
        canvas: &Canvas,
        range: Option<f32>,
        style: Style,
    ) -> Result<PendingDraw> {
        let (w, h) = picture_size(Some(self), canvas, range, style)?;
        match (self, m) {
            (Engine::WebGl(e), Matrix::Gl(m)) => {
                let range = match range {
                    Some(r) => r,
                    None => {
                        crate::ops::stats::webgl::stats_with(
                            e,
                            m,
                            crate::ops::stats::webgl::FACTOR,
                            style.no_edge,
                        )?
                        .max_abs
                    }
                };
                let drawn = webgl::draw(e, m, w, h, Style { range, ..style })?;
                webgl::present(e, canvas)?;
                Ok(PendingDraw(DrawState::Ready(drawn)))
            }
            (Engine::WebGpu(e), Matrix::Gpu(m)) => {
                let drawn = mapping(m.shape.rows, m.shape.cols, w, h);
                let context = crate::kernels::context_2d(canvas)?;
                let read = webgpu::heatmap(e, m, (w, h), drawn.stride, range, style)?;
                Ok(PendingDraw(DrawState::Gpu {
                    read,
                    context,
                    size: (w, h),
                    drawn,
                }))
            }
            (Engine::Cpu(e), Matrix::Cpu(m)) => {
                let drawn = mapping(m.shape.rows, m.shape.cols, w, h);
                let context = crate::kernels::context_2d(canvas)?;
                // Coloured from the matrix itself when the queue reaches it: no copy.
                let (shape, stride) = (m.shape, drawn.stride);
                let pixels = e.read_with(m, move |m| {
                    cpu::pixels(shape, m, (w, h), stride, range, style)
                });
                Ok(PendingDraw(DrawState::Cpu {
                    pixels,
                    context,
                    size: (w, h),
                    drawn,
                }))
            }
            _ => Err(foreign()),
        }
    }
}

enum DrawState {
    Ready(Drawn),
    Gpu {
        read: GpuRead,
        context: web_sys::CanvasRenderingContext2d,
        size: (usize, usize),
        drawn: Drawn,
    },
    /// Coloured on this thread once the queue has run (see [`cpu`]).
    Cpu {
        pixels: CpuRead<Result<Vec<u8>>>,
        context: web_sys::CanvasRenderingContext2d,
        size: (usize, usize),
        drawn: Drawn,
    },
}

/// A heatmap on its way to the canvas.
pub struct PendingDraw(DrawState);

/// The picture's size in pixels, the style and the size checked (see `heatmap_size`
/// and `check_heatmap_pixels`; `engine` draws it, None: this thread colours it).
fn picture_size(
    engine: Option<&Engine>,
    canvas: &Canvas,
    range: Option<f32>,
    style: Style,
) -> Result<(usize, usize)> {
    style.check(range)?;
    let (w, h) = heatmap_size(canvas)?;
    check_heatmap_pixels(engine, w, h)?;
    Ok((w, h))
}

/// The canvas's size in pixels. A canvas sized from a hidden element (0 on a side)
/// is refused alike on every backend.
fn heatmap_size(canvas: &Canvas) -> Result<(usize, usize)> {
    let (w, h) = canvas.size();
    let (w, h) = (w as usize, h as usize);
    if w == 0 || h == 0 {
        return Err(GpgpuError::BadArgument {
            name: "canvas".into(),
            detail: format!(
                "is {w}x{h} pixels: a heatmap needs a canvas at least 1x1 (set its \
                 width and height before drawing)"
            ),
        });
    }
    Ok((w, h))
}

/// `data` (row-major, `shape`) as a heatmap on `canvas`, coloured on this thread with
/// the CPU backend's colouring (the shaders' colour map and blocks), whatever the
/// backend. For an array with a side past what the device takes as a matrix: the
/// picture needs only the canvas's pixels, and a 1 x 100,000 array was refused on
/// WebGL (textures of 8192 or 16384 a side) and on the CPU (16384) though WebGPU
/// drew it.
pub fn heatmap_here(
    shape: Shape,
    data: &[f32],
    canvas: &Canvas,
    range: Option<f32>,
    style: Style,
) -> Result<PendingDraw> {
    let (w, h) = picture_size(None, canvas, range, style)?;
    let drawn = mapping(shape.rows, shape.cols, w, h);
    let context = crate::kernels::context_2d(canvas)?;
    let pixels = cpu::pixels(shape, data, (w, h), drawn.stride, range, style)?;
    webgpu::put_pixels(&context, &pixels, (w, h))?;
    Ok(PendingDraw(DrawState::Ready(drawn)))
}

impl PendingDraw {
    /// How entries map to pixels (known before the picture arrives).
    pub fn drawn(&self) -> Drawn {
        match &self.0 {
            DrawState::Ready(d) => *d,
            DrawState::Gpu { drawn, .. } | DrawState::Cpu { drawn, .. } => *drawn,
        }
    }

    /// Resolves once the picture is on the canvas.
    pub async fn wait(self) -> Result<Drawn> {
        match self.0 {
            DrawState::Ready(d) => Ok(d),
            DrawState::Gpu {
                read,
                context,
                size,
                drawn,
            } => {
                // Straight from JavaScript's array: no copy through wasm memory.
                let pixels = read.wait_bytes().await?;
                webgpu::put_js_pixels(&context, &pixels, size)?;
                Ok(drawn)
            }
            DrawState::Cpu {
                pixels,
                context,
                size,
                drawn,
            } => {
                let pixels = pixels.wait().await??;
                webgpu::put_pixels(&context, &pixels, size)?;
                Ok(drawn)
            }
        }
    }
}

/// The most pixels a heatmap draws: 2^28 (16384 x 16384, 1 GiB of RGBA), about the
/// largest canvas a browser gives, and on WebGPU what one buffer of its pixels may
/// hold. A canvas past it was drawn on with width × height × 4 computed in a wasm32
/// usize: 40000 x 40000 wrapped to a 2105032704-byte picture (WEBGPU_ERROR "a bug or
/// a driver limitation"), and the CPU's Vec of it panicked ("capacity overflow"), after
/// which every call of the library failed.
pub const MAX_HEATMAP_PIXELS: f64 = (1u64 << 28) as f64;

/// `engine`: the device that draws (None: coloured here, on this thread).
fn check_heatmap_pixels(engine: Option<&Engine>, w: usize, h: usize) -> Result<()> {
    let pixels = w as f64 * h as f64;
    let (limit, limit_name) = match engine {
        Some(Engine::WebGpu(e))
            if e.info().limits.max_matrix_bytes() / 4.0 < MAX_HEATMAP_PIXELS =>
        {
            (
                (e.info().limits.max_matrix_bytes() / 4.0).floor(),
                "what one buffer of this WebGPU device holds (info().maxMatrixBytes / 4)",
            )
        }
        _ => (
            MAX_HEATMAP_PIXELS,
            "the pixels a heatmap draws (2^28, 1 GiB of RGBA: about the largest canvas a \
             browser gives)",
        ),
    };
    if pixels > limit {
        return Err(GpgpuError::DeviceLimit {
            what: format!("a heatmap on a {w}x{h} canvas"),
            needed: pixels,
            unit: "pixels",
            limit_name,
            limit,
            hint: "Draw on a smaller canvas: the heatmap averages blocks of entries down to \
                   its pixels anyway.",
        });
    }
    Ok(())
}
