//! The engine: one WebGL2 context with its shared resources (the quad, the
//! program cache, a pool of render targets) and the three things data does:
//! upload → passes → readback. It survives context loss: objects of the lost
//! context are forgotten and rebuilt on the first call after restoration.

use crate::common::map::VecMap;
use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use super::program::{FragmentProgram, ProgramId};
use crate::common::guard::describe_js;
use crate::error::{GpgpuError, Result};
use crate::gl::capabilities::{self, DeviceInfo};
use crate::gl::context::Canvas;
use crate::gl::program::Program;
use crate::gl::quad::Quad;
use crate::gl::target::{RenderTarget, TexFormat};
use crate::gl::{Gl, LiveCounts, GL};
use crate::plan::layout::Layout;

use crate::plan::shape::Shape;

/// Free render targets kept for reuse (creating textures is slow on real GPUs).
const POOL_MAX_TARGETS: usize = 6;
const POOL_MAX_BYTES: usize = 512 << 20;

/// A matrix resident on the GPU, in one layout. Its parts are read-only outside the
/// crate (the getters): a shape or layout set by hand no longer described the
/// textures, and the passes then read or wrote past them.
pub struct GlMatrix {
    pub(crate) shape: Shape,
    pub(crate) layout: Layout,
    pub(crate) target: RenderTarget,
}

impl GlMatrix {
    pub fn shape(&self) -> Shape {
        self.shape
    }

    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The textures (one per plane) and their framebuffer.
    /// The texture of a one-plane matrix (the first plane of a packed one).
    pub fn texture(&self) -> &crate::gl::target::Texture {
        &self.target.textures()[0]
    }

    pub fn target(&self) -> &RenderTarget {
        &self.target
    }
}

/// Where a draw goes: a render target, or the context's own canvas (to show it).
#[derive(Clone, Copy)]
pub enum Destination<'a> {
    Texture(&'a RenderTarget),
    Canvas { width: usize, height: usize },
}

fn target_bytes(t: &RenderTarget) -> usize {
    t.width() * t.height() * t.format().channels() * 4 * t.textures().len()
}

fn format_of(layout: Layout) -> TexFormat {
    match layout.channels() {
        1 => TexFormat::R32F,
        _ => TexFormat::Rgba32F,
    }
}

/// Objects that live as long as the context does.
struct Resources {
    quad: Quad,
    programs: VecMap<ProgramId, Program>,
    free: Vec<RenderTarget>,
}

impl Resources {
    fn new(gl: &Gl) -> Result<Resources> {
        Ok(Resources {
            quad: Quad::new(gl)?,
            programs: VecMap::new(),
            free: Vec::new(),
        })
    }
}

type Listener = Closure<dyn FnMut(web_sys::Event)>;

pub struct GlEngine {
    /// Unique per engine, so a run can tell whose textures it holds.
    id: u64,
    canvas: Canvas,
    gl: Gl,
    info: DeviceInfo,
    resources: Option<Resources>,
    /// Set by the 'webglcontextlost' listener; cleared once resources are rebuilt.
    lost: Rc<Cell<bool>>,
    poison: Option<f32>,
    listeners: Vec<(&'static str, Listener)>,
    /// The canvas is the library's own: dropping the engine releases its context.
    owns_canvas: bool,
}

impl GlEngine {
    /// An engine on `canvas`; `owns_canvas` when the library made it (then dropping
    /// the engine gives the context back to the browser at once).
    pub fn new(canvas: Canvas, owns_canvas: bool) -> Result<GlEngine> {
        let gl = Gl::new(canvas.webgl2()?);
        // A canvas whose context is already lost answers every query with null.
        if gl.is_context_lost() {
            return Err(GpgpuError::ContextLost);
        }
        let lost = Rc::new(Cell::new(false));
        let on_lost: Listener = {
            let (gl, lost) = (gl.clone(), lost.clone());
            Closure::new(move |event: web_sys::Event| {
                // Without preventDefault the browser never restores the context.
                event.prevent_default();
                gl.invalidate();
                lost.set(true);
            })
        };
        canvas
            .event_target()
            .add_event_listener_with_callback("webglcontextlost", on_lost.as_ref().unchecked_ref())
            .map_err(|e| GpgpuError::Gl {
                detail: format!("addEventListener failed: {}", describe_js(&e)),
            })?;
        let mut engine = GlEngine {
            id: crate::common::next_engine_id(),
            info: capabilities::describe(&gl),
            canvas,
            gl,
            resources: None,
            lost,
            poison: None,
            listeners: vec![("webglcontextlost", on_lost)],
            owns_canvas,
        };
        engine.ensure()?;
        Ok(engine)
    }

    /// Fails with ContextLost while the context is lost; rebuilds after a restore.
    pub fn ensure(&mut self) -> Result<()> {
        if self.gl.is_context_lost() {
            return Err(GpgpuError::ContextLost);
        }
        if self.lost.replace(false) {
            // Everything made before the loss died with it (Drop skips the deletes).
            self.resources = None;
        }
        if self.resources.is_none() {
            capabilities::enable_float_rendering(&self.gl)?;
            self.info.float_renderable = true;
            self.info.timer_query =
                capabilities::enable_extension(&self.gl, "EXT_disjoint_timer_query_webgl2");
            // Blending into float32 targets lets a product add up k in chunks.
            self.info.float_blend = capabilities::enable_extension(&self.gl, "EXT_float_blend");
            self.resources = Some(Resources::new(&self.gl)?);
        }
        Ok(())
    }

    fn resources(&mut self) -> Result<&mut Resources> {
        self.ensure()?;
        self.resources.as_mut().ok_or(GpgpuError::ContextLost)
    }

    /// This engine's identity: no two engines of a page share one.
    pub fn id(&self) -> u64 {
        self.id
    }

    pub fn gl(&self) -> &Gl {
        &self.gl
    }

    pub fn canvas(&self) -> &Canvas {
        &self.canvas
    }

    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    pub fn live_objects(&self) -> LiveCounts {
        self.gl.counts()
    }

    /// Fill every output with `value` before each pass (tests use NaN).
    pub fn set_poison(&mut self, value: Option<f32>) {
        self.poison = value;
    }

    /// Poisons `target` if poisoning is on (see `set_poison`).
    pub fn poison(&self, target: &RenderTarget) {
        if let Some(value) = self.poison {
            target.poison(value);
        }
    }

    /// The program, compiled on first use and cached for the context's life. A
    /// compile error is `SHADER_COMPILE` with the driver's log (its lines are the
    /// source's own: nothing is prepended), a link error `PROGRAM_LINK`.
    pub fn program(&mut self, program: &dyn FragmentProgram) -> Result<&Program> {
        let gl = self.gl.clone();
        let res = self.resources()?;
        let made = res.programs.get_or_try_insert(program.id(), || {
            Program::new(
                &gl,
                &program.name(),
                &program.vertex_source(),
                &program.fragment_source(),
            )
        })?;
        Ok(made)
    }

    /// One draw of the full-screen quad with `program` into `dest`; `bind` sets the
    /// program's uniforms and textures (it is in use by then).
    pub fn draw(
        &mut self,
        program: &dyn FragmentProgram,
        dest: Destination,
        bind: impl FnOnce(&Program),
    ) -> Result<()> {
        self.program(program)?;
        match dest {
            Destination::Texture(t) => t.bind_for_drawing(),
            Destination::Canvas { width, height } => {
                self.canvas.set_size(width as u32, height as u32);
                self.gl.bind_framebuffer(GL::FRAMEBUFFER, None);
                self.gl.viewport(0, 0, width as i32, height as i32);
            }
        }
        let res = self.resources.as_ref().ok_or(GpgpuError::ContextLost)?;
        let compiled = &res.programs[&program.id()];
        compiled.use_program();
        bind(compiled);
        res.quad.draw();
        self.gl.check(&format!("drawing with {}", program.name()))
    }

    /// One draw of `program` into `out`'s textures, `out` poisoned first (when
    /// poisoning is on) so that a texel the pass misses shows.
    pub fn draw_into(
        &mut self,
        program: &dyn FragmentProgram,
        out: &GlMatrix,
        bind: impl FnOnce(&Program),
    ) -> Result<()> {
        self.poison(&out.target);
        self.draw(program, Destination::Texture(&out.target), bind)
    }

    /// A render target of `count` textures, from the pool when one fits.
    pub fn alloc_target(
        &mut self,
        width: usize,
        height: usize,
        format: TexFormat,
        count: usize,
    ) -> Result<RenderTarget> {
        let gl = self.gl.clone();
        let res = self.resources()?;
        let found = res.free.iter().position(|t| {
            t.width() == width
                && t.height() == height
                && t.format() == format
                && t.textures().len() == count
        });
        match found {
            Some(i) => Ok(res.free.swap_remove(i)),
            None => RenderTarget::new(&gl, width, height, format, count),
        }
    }

    /// Returns a render target to the pool (the oldest are deleted past its limits).
    /// One made before a context loss is dropped instead: its textures are gone.
    pub fn recycle_target(&mut self, target: RenderTarget) {
        if target_bytes(&target) > POOL_MAX_BYTES || self.lost.get() || !target.is_alive() {
            return;
        }
        if let Some(res) = self.resources.as_mut() {
            res.free.push(target);
            while res.free.len() > POOL_MAX_TARGETS
                || res.free.iter().map(target_bytes).sum::<usize>() > POOL_MAX_BYTES
            {
                res.free.remove(0);
            }
        }
    }

    /// A matrix-sized target, from the pool when one fits. A packed layout has 1, 2, 4
    /// or 8 planes, else BAD_ARGUMENT: `Layout` is public, and 0 planes divided by zero
    /// here, while 3, 5, 6 or 7 (planes that do not divide the padding) packed rows past
    /// a plane's texture, and more than 8 are more than the shaders write.
    pub fn alloc(&mut self, shape: Shape, layout: Layout) -> Result<GlMatrix> {
        if let Layout::Packed { planes } = layout {
            if ![1, 2, 4, 8].contains(&planes) {
                return Err(GpgpuError::BadArgument {
                    name: "layout".into(),
                    detail: format!(
                        "Packed with {planes} planes; WebGL's packed layouts have 1, 2, 4 or 8 \
                         planes (the kernels' are Packed {{ planes: 1, 4 or 8 }}: \
                         Kernel::layout)"
                    ),
                });
            }
        }
        let (w, h) = layout.texture_size(shape);
        let target = self.alloc_target(w, h, format_of(layout), layout.planes())?;
        Ok(GlMatrix {
            shape,
            layout,
            target,
        })
    }

    /// Returns a matrix's textures to the pool.
    pub fn recycle(&mut self, m: GlMatrix) {
        self.recycle_target(m.target);
    }

    /// Drops every pooled target (frees GPU memory now rather than at the next reuse).
    pub fn trim(&mut self) {
        if let Some(res) = self.resources.as_mut() {
            res.free.clear();
        }
    }

    /// Uploads a row-major matrix into `layout`, padding with `pad`.
    pub fn upload(
        &mut self,
        shape: Shape,
        layout: Layout,
        data: &[f32],
        pad: f32,
    ) -> Result<GlMatrix> {
        let m = self.alloc(shape, layout)?;
        let textures = m.target.textures();
        if let Some((row_length, skip)) = layout.strided_rows(shape) {
            for (r, texture) in textures.iter().enumerate() {
                texture.upload_strided(&self.gl, data, row_length, r * skip)?;
            }
        } else {
            for (texture, plane) in textures.iter().zip(layout.pack(shape, data, pad)) {
                texture.upload(&self.gl, &plane)?;
            }
        }
        Ok(m)
    }

    /// Reads a matrix back into row-major order.
    pub fn download(&mut self, m: &GlMatrix) -> Result<Vec<f32>> {
        self.ensure()?;
        let result = if let Some((row_length, skip)) = m.layout.strided_rows(m.shape) {
            let mut out = crate::error::filled(m.shape.len(), f32::NAN, || {
                format!("the readback of a {}x{} matrix", m.shape.rows, m.shape.cols)
            })?;
            for r in 0..m.layout.planes() {
                m.target.read_strided(r, &mut out, row_length, r * skip)?;
            }
            out
        } else {
            let mut planes = Vec::with_capacity(m.layout.planes());
            for p in 0..m.layout.planes() {
                planes.push(m.target.read(p)?);
            }
            let views: Vec<&[f32]> = planes.iter().map(|p| &p[..]).collect();
            m.layout.unpack(m.shape, &views)?
        };
        // A context lost during the passes leaves the buffers unwritten: say so.
        if self.gl.is_context_lost() {
            return Err(GpgpuError::ContextLost);
        }
        Ok(result)
    }
}

/// Points the sampler array `name[0..planes]` at `m`'s planes, from texture unit `first`.
pub fn bind_matrix(program: &Program, name: &str, m: &GlMatrix, first: u32) {
    for (p, t) in m.target.textures().iter().enumerate() {
        program.set_texture(&format!("{name}[{p}]"), first + p as u32, t);
    }
}

impl Drop for GlEngine {
    fn drop(&mut self) {
        self.gl.release();
        for (name, listener) in &self.listeners {
            let _ = self
                .canvas
                .event_target()
                .remove_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
        }
        // Browsers keep about 16 live WebGL contexts and take the oldest away when a
        // page makes more; a context nobody can reach any more must not count. The
        // library's own is kept for its next engine (Canvas::keep_for_next says why),
        // with the state a new context has where a pass sets it and undoes it; this
        // engine's objects are deleted as its fields drop. Else it is lost, and its
        // objects die with it (their Drops see the loss and skip the deletes).
        if self.owns_canvas {
            let raw: &GL = &self.gl;
            if !raw.is_context_lost() {
                raw.disable(GL::BLEND);
                raw.bind_framebuffer(GL::FRAMEBUFFER, None);
                raw.bind_buffer(GL::PIXEL_PACK_BUFFER, None);
                for (name, value) in [
                    (GL::PACK_ALIGNMENT, 4),
                    (GL::UNPACK_ALIGNMENT, 4),
                    (GL::PACK_ROW_LENGTH, 0),
                    (GL::PACK_SKIP_PIXELS, 0),
                    (GL::UNPACK_ROW_LENGTH, 0),
                    (GL::UNPACK_SKIP_PIXELS, 0),
                ] {
                    raw.pixel_storei(name, value);
                }
            }
            if raw.is_context_lost() || !self.canvas.keep_for_next() {
                if let Ok(Some(ext)) = self.gl.get_extension("WEBGL_lose_context") {
                    ext.unchecked_into::<web_sys::WebglLoseContext>()
                        .lose_context();
                }
            }
        }
    }
}
