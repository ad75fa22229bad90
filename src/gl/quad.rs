//! The tutorial's geometry: two triangles as a 4-vertex TRIANGLE_STRIP covering the
//! viewport, each vertex interleaving position (x, y, z) and texture coordinate
//! (s, t): 5 floats, a stride of 20 bytes, the texcoord at byte offset 12.

use super::objects::{Buffer, VertexArray};
use super::program::{ATTRIB_POSITION, ATTRIB_TEXCOORD};
use super::{Gl, GL};
use crate::error::Result;

pub const FLOATS_PER_VERTEX: usize = 5;
pub const STRIDE_BYTES: i32 = (FLOATS_PER_VERTEX * 4) as i32;
pub const TEXCOORD_OFFSET_BYTES: i32 = 12;

#[rustfmt::skip]
pub const VERTICES: [f32; 4 * FLOATS_PER_VERTEX] = [
    // x     y    z     s    t
    -1.0, -1.0, 0.0,  0.0, 0.0,
     1.0, -1.0, 0.0,  1.0, 0.0,
    -1.0,  1.0, 0.0,  0.0, 1.0,
     1.0,  1.0, 0.0,  1.0, 1.0,
];

/// The vertex buffer and the vertex array object that describes it.
pub struct Quad {
    gl: Gl,
    _buffer: Buffer,
    vao: VertexArray,
}

impl Quad {
    pub fn new(gl: &Gl) -> Result<Quad> {
        let buffer = Buffer::new(gl)?;
        let vao = VertexArray::new(gl)?;
        gl.bind_vertex_array(Some(vao.raw()));
        gl.bind_buffer(GL::ARRAY_BUFFER, Some(buffer.raw()));
        // SAFETY: the view is consumed by bufferData before anything allocates.
        unsafe {
            let view = crate::wasm_view::f32_view(&VERTICES);
            gl.buffer_data_with_array_buffer_view(GL::ARRAY_BUFFER, &view, GL::STATIC_DRAW);
        }
        gl.enable_vertex_attrib_array(ATTRIB_POSITION);
        gl.vertex_attrib_pointer_with_i32(ATTRIB_POSITION, 3, GL::FLOAT, false, STRIDE_BYTES, 0);
        gl.enable_vertex_attrib_array(ATTRIB_TEXCOORD);
        gl.vertex_attrib_pointer_with_i32(
            ATTRIB_TEXCOORD,
            2,
            GL::FLOAT,
            false,
            STRIDE_BYTES,
            TEXCOORD_OFFSET_BYTES,
        );
        gl.bind_vertex_array(None);
        gl.check("creating the full-screen quad")?;
        Ok(Quad {
            gl: gl.clone(),
            _buffer: buffer,
            vao,
        })
    }

    /// Draws the strip into whatever framebuffer and viewport are bound.
    pub fn draw(&self) {
        self.gl.bind_vertex_array(Some(self.vao.raw()));
        self.gl.draw_arrays(GL::TRIANGLE_STRIP, 0, 4);
        self.gl.bind_vertex_array(None);
    }
}
