//! A thin, safe layer over WebGL2. Each GL object is owned by exactly one Rust
//! value that deletes it on Drop; the shared `Gl` handle counts live objects (so
//! tests can prove nothing leaks) and knows which objects died with a lost context.

pub mod capabilities;
pub mod context;
pub mod objects;
pub mod program;
pub mod quad;
pub mod target;

use std::cell::Cell;
use std::ops::Deref;
use std::rc::Rc;

use web_sys::WebGl2RenderingContext;

use crate::error::GpgpuError;

pub use web_sys::WebGl2RenderingContext as GL;

crate::common::live_counts! {
    #[doc = " Live GL objects created through this layer and not yet dropped."]
    textures "textures", framebuffers "framebuffers", programs "programs", shaders "shaders",
    buffers "buffers", vertex_arrays "vertexArrays", queries "queries", syncs "syncs",
}

struct Inner {
    gl: WebGl2RenderingContext,
    counts: Cell<LiveCounts>,
    /// Bumped on every context loss: objects of an older generation are already gone.
    generation: Cell<u32>,
    /// Set when the library's owner freed the context on purpose (Gpgpu.free()):
    /// work still in flight then fails as Freed, not as a context loss.
    released: Cell<bool>,
}

/// A cheap, clonable handle to one WebGL2 context (the Ruffle pattern: every
/// owned object keeps a clone so it can delete itself).
#[derive(Clone)]
pub struct Gl(Rc<Inner>);

impl Gl {
    pub fn new(gl: WebGl2RenderingContext) -> Self {
        Gl(Rc::new(Inner {
            gl,
            counts: Cell::new(LiveCounts::default()),
            generation: Cell::new(0),
            released: Cell::new(false),
        }))
    }

    pub fn counts(&self) -> LiveCounts {
        self.0.counts.get()
    }

    pub(crate) fn adjust(&self, f: impl FnOnce(&mut LiveCounts)) {
        crate::common::adjust(&self.0.counts, f);
    }

    pub fn generation(&self) -> u32 {
        self.0.generation.get()
    }

    /// Marks every existing object as gone with the lost context.
    pub fn invalidate(&self) {
        self.0
            .generation
            .set(self.0.generation.get().wrapping_add(1));
    }

    /// Whether an object made in `generation` still lives on the GPU.
    pub(crate) fn owns(&self, generation: u32) -> bool {
        generation == self.generation() && !self.0.gl.is_context_lost()
    }

    /// Records that the owner let the context go (before losing it on purpose, or
    /// keeping it for the next engine).
    pub fn release(&self) {
        self.0.released.set(true);
    }

    /// Whether this handle's context is gone to it: lost, or let go by its owner (a
    /// context kept for the next engine lives on, but not for work of this one's).
    /// Shadows the context's own `isContextLost`.
    pub fn is_context_lost(&self) -> bool {
        self.0.released.get() || self.0.gl.is_context_lost()
    }

    /// Why the context's objects are gone: freed by its owner, or lost.
    pub fn gone(&self) -> GpgpuError {
        if self.0.released.get() {
            GpgpuError::Freed
        } else {
            GpgpuError::ContextLost
        }
    }

    /// The error for a failed GL call: context loss explains most of them.
    pub fn failure(&self, detail: impl Into<String>) -> GpgpuError {
        if self.is_context_lost() {
            self.gone()
        } else {
            GpgpuError::Gl {
                detail: detail.into(),
            }
        }
    }

    /// The error for a browser call `call` that threw `e`, quoting its message.
    pub fn threw(&self, call: &str, e: &wasm_bindgen::JsValue) -> GpgpuError {
        self.failure(format!(
            "{call} threw {}",
            crate::common::guard::describe_js(e)
        ))
    }

    /// Fails with ContextLost if the context is gone, else with the GL error if any.
    pub fn check(&self, what: &str) -> Result<(), GpgpuError> {
        if self.is_context_lost() {
            return Err(self.gone());
        }
        match self.0.gl.get_error() {
            GL::NO_ERROR => Ok(()),
            GL::OUT_OF_MEMORY => Err(self.failure(format!("{what}: out of GPU memory"))),
            code => Err(self.failure(format!("{what}: GL error 0x{code:04X}"))),
        }
    }
}

impl Deref for Gl {
    type Target = WebGl2RenderingContext;
    fn deref(&self) -> &WebGl2RenderingContext {
        &self.0.gl
    }
}
