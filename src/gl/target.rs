//! Float textures and the framebuffers that render into them: upload, poison,
//! bind for a pass, read back.

use super::objects::{FramebufferObject, TextureObject};
use super::{Gl, GL};
use crate::error::{GpgpuError, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexFormat {
    /// One float per texel.
    R32F,
    /// Four floats per texel.
    Rgba32F,
}

impl TexFormat {
    pub fn internal(self) -> u32 {
        match self {
            TexFormat::R32F => GL::R32F,
            TexFormat::Rgba32F => GL::RGBA32F,
        }
    }
    pub fn format(self) -> u32 {
        match self {
            TexFormat::R32F => GL::RED,
            TexFormat::Rgba32F => GL::RGBA,
        }
    }
    pub fn channels(self) -> usize {
        match self {
            TexFormat::R32F => 1,
            TexFormat::Rgba32F => 4,
        }
    }
}

/// An immutable-storage float texture with NEAREST sampling and CLAMP_TO_EDGE.
pub struct Texture {
    object: TextureObject,
    pub width: usize,
    pub height: usize,
    pub format: TexFormat,
}

impl Texture {
    pub fn new(gl: &Gl, width: usize, height: usize, format: TexFormat) -> Result<Texture> {
        let object = TextureObject::new(gl)?;
        gl.bind_texture(GL::TEXTURE_2D, Some(object.raw()));
        gl.tex_storage_2d(
            GL::TEXTURE_2D,
            1,
            format.internal(),
            width as i32,
            height as i32,
        );
        // NEAREST: the default minifying filter wants mipmaps, and float32 textures
        // are not filterable without OES_texture_float_linear anyway.
        for (pname, value) in [
            (GL::TEXTURE_MIN_FILTER, GL::NEAREST),
            (GL::TEXTURE_MAG_FILTER, GL::NEAREST),
            (GL::TEXTURE_WRAP_S, GL::CLAMP_TO_EDGE),
            (GL::TEXTURE_WRAP_T, GL::CLAMP_TO_EDGE),
        ] {
            gl.tex_parameteri(GL::TEXTURE_2D, pname, value as i32);
        }
        gl.check("allocating a float texture")?;
        Ok(Texture {
            object,
            width,
            height,
            format,
        })
    }

    pub fn raw(&self) -> &web_sys::WebGlTexture {
        self.object.raw()
    }

    pub fn len(&self) -> usize {
        self.width * self.height * self.format.channels()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Replaces the whole texture with `data` (texel rows bottom-up, y = row index).
    pub fn upload(&self, gl: &Gl, data: &[f32]) -> Result<()> {
        assert_eq!(data.len(), self.len(), "texture upload of the wrong length");
        self.upload_strided(gl, data, self.width, 0)
    }

    /// Uploads texel row y from `data` at texel (y · row_length + skip): a plane
    /// straight out of a larger row-major array, with no copy on the CPU.
    pub fn upload_strided(
        &self,
        gl: &Gl,
        data: &[f32],
        row_length: usize,
        skip: usize,
    ) -> Result<()> {
        let ch = self.format.channels();
        assert!(skip + self.width <= row_length || self.height == 0);
        assert!(data.len() >= ((self.height - 1) * row_length + skip + self.width) * ch);
        gl.bind_texture(GL::TEXTURE_2D, Some(self.raw()));
        gl.pixel_storei(GL::UNPACK_ALIGNMENT, 1);
        gl.pixel_storei(GL::UNPACK_ROW_LENGTH, row_length as i32);
        gl.pixel_storei(GL::UNPACK_SKIP_PIXELS, skip as i32);
        // SAFETY: the view into wasm memory is used at once, with no allocation
        // (which could grow and move the memory) between its creation and its use;
        // f32_view makes it again if making it grew the memory (crate::wasm_view).
        let result = unsafe {
            let view = crate::wasm_view::f32_view(data);
            gl.tex_sub_image_2d_with_i32_and_i32_and_u32_and_type_and_opt_array_buffer_view(
                GL::TEXTURE_2D,
                0,
                0,
                0,
                self.width as i32,
                self.height as i32,
                self.format.format(),
                GL::FLOAT,
                Some(&view),
            )
        };
        gl.pixel_storei(GL::UNPACK_ROW_LENGTH, 0);
        gl.pixel_storei(GL::UNPACK_SKIP_PIXELS, 0);
        result.map_err(|e| gl.threw("texSubImage2D", &e))?;
        gl.check("uploading a float texture")
    }
}

/// One or more same-sized textures attached to one framebuffer (color attachments
/// 0..count), so a single draw writes all of them.
pub struct RenderTarget {
    gl: Gl,
    textures: Vec<Texture>,
    framebuffer: FramebufferObject,
}

impl RenderTarget {
    pub fn new(
        gl: &Gl,
        width: usize,
        height: usize,
        format: TexFormat,
        count: usize,
    ) -> Result<RenderTarget> {
        let mut textures = Vec::with_capacity(count);
        for _ in 0..count {
            textures.push(Texture::new(gl, width, height, format)?);
        }
        let framebuffer = FramebufferObject::new(gl)?;
        gl.bind_framebuffer(GL::FRAMEBUFFER, Some(framebuffer.raw()));
        for (i, t) in textures.iter().enumerate() {
            gl.framebuffer_texture_2d(
                GL::FRAMEBUFFER,
                GL::COLOR_ATTACHMENT0 + i as u32,
                GL::TEXTURE_2D,
                Some(t.raw()),
                0,
            );
        }
        let status = gl.check_framebuffer_status(GL::FRAMEBUFFER);
        gl.bind_framebuffer(GL::FRAMEBUFFER, None);
        match status {
            GL::FRAMEBUFFER_COMPLETE => {}
            _ if gl.is_context_lost() => return Err(GpgpuError::ContextLost),
            GL::FRAMEBUFFER_UNSUPPORTED | GL::FRAMEBUFFER_INCOMPLETE_ATTACHMENT => {
                return Err(GpgpuError::NoFloatRenderTarget {
                    detail: format!(
                        "a {format:?} framebuffer of {width}x{height} is incomplete (status 0x{status:04X})"
                    ),
                })
            }
            _ => {
                return Err(gl.failure(format!(
                    "framebuffer of {count} {format:?} {width}x{height} textures incomplete (0x{status:04X})"
                )))
            }
        }
        Ok(RenderTarget {
            gl: gl.clone(),
            textures,
            framebuffer,
        })
    }

    /// False once the context it was made in has been lost (its textures went with it).
    pub fn is_alive(&self) -> bool {
        self.framebuffer.is_alive()
    }

    pub fn textures(&self) -> &[Texture] {
        &self.textures
    }

    pub fn width(&self) -> usize {
        self.textures[0].width
    }

    pub fn height(&self) -> usize {
        self.textures[0].height
    }

    pub fn format(&self) -> TexFormat {
        self.textures[0].format
    }

    /// Binds for drawing: all attachments as draw buffers, viewport = texture size,
    /// so the full-screen quad makes exactly one fragment per texel.
    pub fn bind_for_drawing(&self) {
        let gl = &self.gl;
        gl.bind_framebuffer(GL::FRAMEBUFFER, Some(self.framebuffer.raw()));
        let buffers = js_sys::Array::new();
        for i in 0..self.textures.len() {
            buffers.push(&(GL::COLOR_ATTACHMENT0 + i as u32).into());
        }
        gl.draw_buffers(&buffers);
        gl.viewport(0, 0, self.width() as i32, self.height() as i32);
    }

    /// Fills every attachment with `value` (NaN in tests), so a texel that a pass
    /// fails to write shows up in the result.
    pub fn poison(&self, value: f32) {
        self.bind_for_drawing();
        for i in 0..self.textures.len() {
            self.gl
                .clear_bufferfv_with_f32_array(GL::COLOR, i as i32, &[value; 4]);
        }
    }

    /// The readPixels format for this target and its floats per texel: RGBA/FLOAT is
    /// always allowed; RED/FLOAT only where the implementation says so.
    pub fn read_format(&self) -> (u32, usize) {
        let gl = &self.gl;
        let format = self.format();
        if format == TexFormat::Rgba32F {
            return (GL::RGBA, 4);
        }
        gl.bind_framebuffer(GL::READ_FRAMEBUFFER, Some(self.framebuffer.raw()));
        let param = |p| gl.get_parameter(p).ok().and_then(|v| v.as_f64());
        let red_ok = param(GL::IMPLEMENTATION_COLOR_READ_FORMAT) == Some(GL::RED as f64)
            && param(GL::IMPLEMENTATION_COLOR_READ_TYPE) == Some(GL::FLOAT as f64);
        gl.bind_framebuffer(GL::READ_FRAMEBUFFER, None);
        if red_ok {
            (GL::RED, 1)
        } else {
            (GL::RGBA, 4)
        }
    }

    /// Selects attachment `plane` as the read source; readPixels may follow.
    pub fn bind_for_reading(&self, plane: usize) {
        self.gl
            .bind_framebuffer(GL::READ_FRAMEBUFFER, Some(self.framebuffer.raw()));
        self.gl.read_buffer(GL::COLOR_ATTACHMENT0 + plane as u32);
        self.gl.pixel_storei(GL::PACK_ALIGNMENT, 1);
    }

    /// Reads attachment `plane` back: width·height·channels floats, texel rows in order.
    pub fn read(&self, plane: usize) -> Result<Vec<f32>> {
        let gl = &self.gl;
        let (w, h) = (self.width(), self.height());
        let (read_format, read_channels) = self.read_format();
        let mut data = crate::error::filled(w * h * read_channels, f32::NAN, || {
            format!("the readback of a {w}x{h} texture")
        })?;
        self.bind_for_reading(plane);
        // SAFETY: as in `Texture::upload`, nothing allocates while the view lives.
        let result = unsafe {
            let view = crate::wasm_view::f32_view_mut(&mut data);
            gl.read_pixels_with_opt_array_buffer_view(
                0,
                0,
                w as i32,
                h as i32,
                read_format,
                GL::FLOAT,
                Some(&view),
            )
        };
        gl.bind_framebuffer(GL::READ_FRAMEBUFFER, None);
        result.map_err(|e| gl.threw("readPixels", &e))?;
        gl.check("reading back a float texture")?;
        keep_channels(data, read_channels, self.format().channels())
    }
}

impl RenderTarget {
    /// Reads RGBA32F attachment `plane` into `out` with texel row y at texel
    /// (y · row_length + skip): straight into a larger row-major array.
    pub fn read_strided(
        &self,
        plane: usize,
        out: &mut [f32],
        row_length: usize,
        skip: usize,
    ) -> Result<()> {
        let (w, h) = (self.width(), self.height());
        assert_eq!(self.format(), TexFormat::Rgba32F);
        assert!(out.len() >= ((h - 1) * row_length + skip + w) * 4);
        self.bind_for_reading(plane);
        self.gl.pixel_storei(GL::PACK_ROW_LENGTH, row_length as i32);
        self.gl.pixel_storei(GL::PACK_SKIP_PIXELS, skip as i32);
        // SAFETY: as in `Texture::upload`, nothing allocates while the view lives.
        let result = unsafe {
            let view = crate::wasm_view::f32_view_mut(out);
            self.gl.read_pixels_with_opt_array_buffer_view(
                0,
                0,
                w as i32,
                h as i32,
                GL::RGBA,
                GL::FLOAT,
                Some(&view),
            )
        };
        self.gl.pixel_storei(GL::PACK_ROW_LENGTH, 0);
        self.gl.pixel_storei(GL::PACK_SKIP_PIXELS, 0);
        self.gl.bind_framebuffer(GL::READ_FRAMEBUFFER, None);
        result.map_err(|e| self.gl.threw("readPixels", &e))?;
        self.gl.check("reading back a float texture")
    }

    /// Reads one texel of attachment `plane` (RGBA): a cheap way to wait for the GPU.
    pub fn read_texel(&self, plane: usize) -> Result<[f32; 4]> {
        let mut texel = [f32::NAN; 4];
        self.bind_for_reading(plane);
        // SAFETY: as in `Texture::upload`, nothing allocates while the view lives.
        let result = unsafe {
            let view = crate::wasm_view::f32_view_mut(&mut texel);
            self.gl.read_pixels_with_opt_array_buffer_view(
                0,
                0,
                1,
                1,
                GL::RGBA,
                GL::FLOAT,
                Some(&view),
            )
        };
        self.gl.bind_framebuffer(GL::READ_FRAMEBUFFER, None);
        result.map_err(|e| self.gl.threw("readPixels", &e))?;
        self.gl.check("reading one texel")?;
        Ok(texel)
    }
}

/// Drops the channels readPixels had to return beyond the texture's own.
pub fn keep_channels(data: Vec<f32>, read: usize, keep: usize) -> Result<Vec<f32>> {
    if read == keep {
        return Ok(data);
    }
    let texels = data.len() / read.max(1);
    let mut out = crate::error::room(texels * keep, || format!("the readback of {texels} texels"))?;
    out.extend(data.chunks_exact(read).flat_map(|t| &t[..keep]));
    Ok(out)
}
