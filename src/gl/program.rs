//! Shader programs: compile, link, report failures with the driver's info log,
//! and look uniforms up once.

use crate::common::map::VecMap;
use std::cell::RefCell;

use wasm_bindgen::JsValue;
use web_sys::WebGlUniformLocation;

use super::objects::{ProgramObject, Shader};
use super::{Gl, GL};
use crate::error::{GpgpuError, Result};

/// Attribute locations every program shares, so one vertex array serves them all.
pub const ATTRIB_POSITION: u32 = 0;
pub const ATTRIB_TEXCOORD: u32 = 1;

pub struct Program {
    gl: Gl,
    object: ProgramObject,
    name: String,
    uniforms: RefCell<VecMap<String, Option<WebGlUniformLocation>>>,
}

fn compile(gl: &Gl, program: &str, stage: u32, source: &str) -> Result<Shader> {
    let shader = Shader::new(gl, stage)?;
    gl.shader_source(shader.raw(), source);
    gl.compile_shader(shader.raw());
    let status = gl.get_shader_parameter(shader.raw(), GL::COMPILE_STATUS);
    succeeded(gl, status, || GpgpuError::ShaderCompile {
        program: program.into(),
        stage: if stage == GL::VERTEX_SHADER {
            "vertex"
        } else {
            "fragment"
        },
        log: gl.get_shader_info_log(shader.raw()).unwrap_or_default(),
    })?;
    Ok(shader)
}

/// Ok for a true compile or link `status`; else ContextLost when the context is
/// gone (which explains the failure), or `failure`.
fn succeeded(gl: &Gl, status: JsValue, failure: impl FnOnce() -> GpgpuError) -> Result<()> {
    if status.as_bool().unwrap_or(false) {
        Ok(())
    } else if gl.is_context_lost() {
        Err(GpgpuError::ContextLost)
    } else {
        Err(failure())
    }
}

impl Program {
    /// Compiles and links; `name` identifies the program in error messages.
    pub fn new(gl: &Gl, name: &str, vertex: &str, fragment: &str) -> Result<Program> {
        let vs = compile(gl, name, GL::VERTEX_SHADER, vertex)?;
        let fs = compile(gl, name, GL::FRAGMENT_SHADER, fragment)?;
        let object = ProgramObject::new(gl)?;
        let raw = object.raw();
        gl.attach_shader(raw, vs.raw());
        gl.attach_shader(raw, fs.raw());
        gl.bind_attrib_location(raw, ATTRIB_POSITION, "a_position");
        gl.bind_attrib_location(raw, ATTRIB_TEXCOORD, "a_texcoord");
        gl.link_program(raw);
        let status = gl.get_program_parameter(raw, GL::LINK_STATUS);
        succeeded(gl, status, || GpgpuError::ProgramLink {
            program: name.into(),
            log: gl.get_program_info_log(raw).unwrap_or_default(),
        })?;
        // The linked program keeps its code; the shader objects can go.
        gl.detach_shader(raw, vs.raw());
        gl.detach_shader(raw, fs.raw());
        Ok(Program {
            gl: gl.clone(),
            object,
            name: name.into(),
            uniforms: RefCell::new(VecMap::new()),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn use_program(&self) {
        self.gl.use_program(Some(self.object.raw()));
    }

    /// The location of a uniform (None when the compiler optimised it away).
    pub fn uniform(&self, name: &str) -> Option<WebGlUniformLocation> {
        if let Some(found) = self.uniforms.borrow().get(name) {
            return found.clone();
        }
        let loc = self.gl.get_uniform_location(self.object.raw(), name);
        self.uniforms.borrow_mut().insert(name.into(), loc.clone());
        loc
    }

    pub fn set_int(&self, name: &str, v: i32) {
        self.gl.uniform1i(self.uniform(name).as_ref(), v);
    }

    pub fn set_ivec2(&self, name: &str, x: i32, y: i32) {
        self.gl.uniform2i(self.uniform(name).as_ref(), x, y);
    }

    pub fn set_ivec3(&self, name: &str, [x, y, z]: [i32; 3]) {
        self.gl.uniform3i(self.uniform(name).as_ref(), x, y, z);
    }

    pub fn set_float(&self, name: &str, v: f32) {
        self.gl.uniform1f(self.uniform(name).as_ref(), v);
    }

    pub fn set_vec2(&self, name: &str, x: f32, y: f32) {
        self.gl.uniform2f(self.uniform(name).as_ref(), x, y);
    }

    /// Binds `texture` to texture unit `unit` and points sampler `name` at it.
    pub fn set_texture(&self, name: &str, unit: u32, texture: &super::target::Texture) {
        self.gl.active_texture(GL::TEXTURE0 + unit);
        self.gl.bind_texture(GL::TEXTURE_2D, Some(texture.raw()));
        self.set_int(name, unit as i32);
    }
}
