//! RAII owners of raw WebGL objects: created through `Gl`, counted there, and
//! deleted on Drop unless they already died with a lost context.

use web_sys::{
    WebGlBuffer, WebGlFramebuffer, WebGlProgram, WebGlQuery, WebGlShader, WebGlSync, WebGlTexture,
    WebGlVertexArrayObject,
};

use super::{Gl, LiveCounts};
use crate::error::Result;

/// One owner type per GL object kind; they differ only in the calls they make.
macro_rules! gl_object {
    ($(#[$doc:meta])* $name:ident, $raw:ty, $field:ident, |$gl:ident| $create:expr, $delete:ident) => {
        $(#[$doc])*
        pub struct $name {
            gl: Gl,
            raw: $raw,
            generation: u32,
        }

        impl $name {
            pub fn raw(&self) -> &$raw {
                &self.raw
            }

            /// False once the context this object was made in has been lost.
            pub fn is_alive(&self) -> bool {
                self.gl.owns(self.generation)
            }

            fn adopt(gl: &Gl, raw: Option<$raw>, what: &str) -> Result<Self> {
                let raw = raw.ok_or_else(|| gl.failure(format!("{what} returned null")))?;
                gl.adjust(|c: &mut LiveCounts| c.$field += 1);
                Ok($name {
                    gl: gl.clone(),
                    raw,
                    generation: gl.generation(),
                })
            }
        }

        impl Drop for $name {
            fn drop(&mut self) {
                if self.gl.owns(self.generation) {
                    self.gl.$delete(Some(&self.raw));
                }
                self.gl.adjust(|c: &mut LiveCounts| c.$field -= 1);
            }
        }

        impl $name {
            pub fn new($gl: &Gl) -> Result<Self> {
                Self::adopt($gl, $create, stringify!($create))
            }
        }
    };
}

gl_object!(
    /// A texture name; `target::Texture` gives it storage and a size.
    TextureObject, WebGlTexture, textures, |gl| gl.create_texture(), delete_texture
);
gl_object!(
    FramebufferObject,
    WebGlFramebuffer,
    framebuffers,
    |gl| gl.create_framebuffer(),
    delete_framebuffer
);
gl_object!(
    Buffer,
    WebGlBuffer,
    buffers,
    |gl| gl.create_buffer(),
    delete_buffer
);
gl_object!(
    VertexArray,
    WebGlVertexArrayObject,
    vertex_arrays,
    |gl| gl.create_vertex_array(),
    delete_vertex_array
);
gl_object!(
    ProgramObject,
    WebGlProgram,
    programs,
    |gl| gl.create_program(),
    delete_program
);
gl_object!(
    Query,
    WebGlQuery,
    queries,
    |gl| gl.create_query(),
    delete_query
);
gl_object!(
    /// A fence inserted after the commands issued so far.
    Fence, WebGlSync, syncs, |gl| gl.fence_sync(super::GL::SYNC_GPU_COMMANDS_COMPLETE, 0), delete_sync
);

/// A shader object of one stage (its `new` takes the stage, so it is not macro-made).
pub struct Shader {
    gl: Gl,
    raw: WebGlShader,
    generation: u32,
}

impl Shader {
    pub fn new(gl: &Gl, stage: u32) -> Result<Self> {
        let raw = gl
            .create_shader(stage)
            .ok_or_else(|| gl.failure("createShader returned null"))?;
        gl.adjust(|c| c.shaders += 1);
        Ok(Shader {
            gl: gl.clone(),
            raw,
            generation: gl.generation(),
        })
    }
    pub fn raw(&self) -> &WebGlShader {
        &self.raw
    }
}

impl Drop for Shader {
    fn drop(&mut self) {
        if self.gl.owns(self.generation) {
            self.gl.delete_shader(Some(&self.raw));
        }
        self.gl.adjust(|c| c.shaders -= 1);
    }
}
