//! Non-blocking readback (the TF.js way): readPixels into PIXEL_PACK_BUFFERs,
//! a fence after them, then poll the fence from the event loop and copy out with
//! getBufferSubData only once the GPU is done, so the main thread never stalls.

use crate::common::next_tick;
use crate::engine::webgl::GlMatrix;
use crate::error::Result;
use crate::gl::objects::{Buffer, Fence};
use crate::gl::target::keep_channels;
use crate::gl::{Gl, GL};
use crate::plan::layout::Layout;
use crate::plan::semiring::Semiring;
use crate::plan::shape::Shape;

/// One plane's pixels in flight to a pack buffer.
struct PlaneRead {
    buffer: Buffer,
    floats: usize,
    read_channels: usize,
}

/// A readback issued to the GPU; `wait` resolves when the data is on the CPU.
pub struct GlRead {
    gl: Gl,
    state: State,
    /// Whose encoding the data comes back in (min-plus turns NO_EDGE into +Inf).
    semiring: Semiring,
}

enum State {
    /// Known without the GPU (e.g. M^0 = I).
    Ready(Vec<f32>),
    InFlight {
        planes: Vec<PlaneRead>,
        fence: Fence,
        shape: Shape,
        layout: Layout,
        channels: usize,
    },
}

impl GlRead {
    pub fn ready(gl: &Gl, data: Vec<f32>) -> GlRead {
        GlRead {
            gl: gl.clone(),
            state: State::Ready(data),
            semiring: Semiring::Ordinary,
        }
    }

    /// Decodes the data as `semiring`'s results once it arrives.
    pub fn in_semiring(mut self, semiring: Semiring) -> GlRead {
        self.semiring = semiring;
        self
    }

    /// Queues readPixels of every plane of `m` into pack buffers, then a fence. The
    /// textures may be reused at once: later draws are ordered after these reads.
    pub fn start(gl: &Gl, m: &GlMatrix) -> Result<GlRead> {
        let target = &m.target;
        let (w, h) = (target.width(), target.height());
        if let Some((row_length, skip)) = m.layout.strided_rows(m.shape) {
            // Every plane straight into its rows of one row-major buffer.
            let floats = m.shape.len();
            let buffer = Buffer::new(gl)?;
            gl.bind_buffer(GL::PIXEL_PACK_BUFFER, Some(buffer.raw()));
            gl.buffer_data_with_i32(GL::PIXEL_PACK_BUFFER, (floats * 4) as i32, GL::STREAM_READ);
            gl.pixel_storei(GL::PACK_ROW_LENGTH, row_length as i32);
            let mut read = Ok(());
            for plane in 0..m.layout.planes() {
                target.bind_for_reading(plane);
                gl.pixel_storei(GL::PACK_SKIP_PIXELS, (plane * skip) as i32);
                read = read.and(gl.read_pixels_with_i32(
                    0,
                    0,
                    w as i32,
                    h as i32,
                    GL::RGBA,
                    GL::FLOAT,
                    0,
                ));
            }
            gl.pixel_storei(GL::PACK_ROW_LENGTH, 0);
            gl.pixel_storei(GL::PACK_SKIP_PIXELS, 0);
            gl.bind_framebuffer(GL::READ_FRAMEBUFFER, None);
            gl.bind_buffer(GL::PIXEL_PACK_BUFFER, None);
            read.map_err(|e| gl.threw("readPixels into a pack buffer", &e))?;
            let planes = vec![PlaneRead {
                buffer,
                floats,
                read_channels: 1,
            }];
            return GlRead::fenced(gl, planes, m.shape, Layout::Scalar, 1);
        }
        let (format, read_channels) = target.read_format();
        let mut planes = Vec::new();
        for plane in 0..m.layout.planes() {
            let floats = w * h * read_channels;
            let buffer = Buffer::new(gl)?;
            gl.bind_buffer(GL::PIXEL_PACK_BUFFER, Some(buffer.raw()));
            gl.buffer_data_with_i32(GL::PIXEL_PACK_BUFFER, (floats * 4) as i32, GL::STREAM_READ);
            target.bind_for_reading(plane);
            let read = gl.read_pixels_with_i32(0, 0, w as i32, h as i32, format, GL::FLOAT, 0);
            gl.bind_framebuffer(GL::READ_FRAMEBUFFER, None);
            gl.bind_buffer(GL::PIXEL_PACK_BUFFER, None);
            read.map_err(|e| gl.threw("readPixels into a pack buffer", &e))?;
            planes.push(PlaneRead {
                buffer,
                floats,
                read_channels,
            });
        }
        GlRead::fenced(gl, planes, m.shape, m.layout, target.format().channels())
    }

    /// Puts a fence after the queued reads. `layout` says how to assemble the
    /// planes' data (Scalar with one plane: it already is the row-major matrix).
    fn fenced(
        gl: &Gl,
        planes: Vec<PlaneRead>,
        shape: Shape,
        layout: Layout,
        channels: usize,
    ) -> Result<GlRead> {
        let fence = Fence::new(gl)?;
        gl.flush();
        gl.check("queueing an asynchronous readback")?;
        Ok(GlRead {
            gl: gl.clone(),
            state: State::InFlight {
                planes,
                fence,
                shape,
                layout,
                channels,
            },
            semiring: Semiring::Ordinary,
        })
    }

    /// Polls the fence once per event-loop turn, then copies the data out.
    pub async fn wait(self) -> Result<Vec<f32>> {
        let (gl, semiring) = (self.gl, self.semiring);
        let (planes, fence, shape, layout, channels) = match self.state {
            State::Ready(data) => return Ok(data),
            State::InFlight {
                planes,
                fence,
                shape,
                layout,
                channels,
            } => (planes, fence, shape, layout, channels),
        };
        wait_for(&gl, &fence).await?;
        let mut data = Vec::with_capacity(planes.len());
        for p in &planes {
            let mut floats = crate::error::filled(p.floats, f32::NAN, || {
                format!("the readback of {} numbers", p.floats)
            })?;
            gl.bind_buffer(GL::PIXEL_PACK_BUFFER, Some(p.buffer.raw()));
            // SAFETY: nothing allocates between the view's creation and its use.
            unsafe {
                let view = crate::wasm_view::f32_view_mut(&mut floats);
                gl.get_buffer_sub_data_with_i32_and_array_buffer_view(
                    GL::PIXEL_PACK_BUFFER,
                    0,
                    &view,
                );
            }
            gl.bind_buffer(GL::PIXEL_PACK_BUFFER, None);
            data.push(keep_channels(floats, p.read_channels, channels)?);
        }
        gl.check("copying an asynchronous readback out")?;
        let views: Vec<&[f32]> = data.iter().map(|p| &p[..]).collect();
        Ok(semiring.decode(layout.unpack(shape, &views)?))
    }
}

/// Polls `fence` once per event-loop turn until the GPU has passed it.
async fn wait_for(gl: &Gl, fence: &Fence) -> Result<()> {
    loop {
        // Lost, or lost and already restored between two polls: the fence is gone.
        // Freed: the context may live on for another engine, but this work ends.
        if !fence.is_alive() || gl.is_context_lost() {
            return Err(gl.gone());
        }
        match gl.client_wait_sync_with_u32(fence.raw(), 0, 0) {
            GL::ALREADY_SIGNALED | GL::CONDITION_SATISFIED => return Ok(()),
            GL::WAIT_FAILED => return Err(gl.failure("clientWaitSync failed")),
            _ => next_tick().await,
        }
    }
}

/// Resolves when the GPU has finished every command issued so far.
pub async fn gpu_idle(gl: &Gl) -> Result<()> {
    let fence = Fence::new(gl)?;
    gl.flush();
    wait_for(gl, &fence).await
}
