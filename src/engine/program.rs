//! Programs, as the engines see them: a source to compile once per device and an
//! identity to cache it by. The engines know no operation; an operation (or a
//! learner's kernel) hands them a program and the matrices to bind.
//!
//! * WebGPU: a [`ComputeProgram`] is a WGSL compute shader with entry point `main`,
//!   dispatched over a grid of workgroups with a list of storage buffers and one
//!   uniform block bound at consecutive bindings of group 0
//!   ([`GpuEngine::dispatch`](super::GpuEngine::dispatch)).
//! * WebGL2: a [`FragmentProgram`] is a GLSL ES 3.00 fragment shader drawn over a
//!   full-screen quad into a render target, its samplers and uniforms set by the
//!   caller ([`GlEngine::draw`](super::GlEngine::draw)).
//! * CPU: a pass is a Rust function over the matrices' slices
//!   ([`CpuEngine::pass`](crate::cpu::CpuEngine::pass)).
//!
//! [`Wgsl`] and [`Glsl`] are programs from source a caller supplies; a compile error
//! is `SHADER_COMPILE` carrying the compiler's messages with their lines.

use std::hash::{Hash, Hasher};

pub use crate::webgpu::Access;

/// A program's identity: equal ids, equal compiled programs (the cache key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProgramId(u64);

impl ProgramId {
    /// The id of everything that shapes a program's source. `kind` keeps apart
    /// values of different key types that happen to hash alike.
    pub fn of(kind: &str, key: &impl Hash) -> ProgramId {
        // DefaultHasher::new() has fixed keys: the same id for the same key on
        // every call, which a cache needs.
        let mut h = std::collections::hash_map::DefaultHasher::new();
        kind.hash(&mut h);
        key.hash(&mut h);
        ProgramId(h.finish())
    }
}

/// A WGSL compute program, compiled on first use and cached by [`id`](Self::id).
pub trait ComputeProgram {
    fn id(&self) -> ProgramId;
    /// Names the program in errors and on the page.
    fn name(&self) -> String;
    /// The complete WGSL source (entry point `main`).
    fn source(&self) -> String;
    /// Values of the source's `override` constants.
    fn constants(&self) -> Vec<(String, f64)> {
        Vec::new()
    }
    /// Whether the uniform words depend on the data rather than on shapes alone
    /// (a threshold, a colour range, coefficients): such blocks live only as long
    /// as the commands that use them, instead of filling the cache with one-offs.
    fn uniform_follows_data(&self) -> bool {
        false
    }
    /// Group 0's bindings in order, where the program states them (None: WebGPU's
    /// automatic layout, which drops a binding the shader does not use).
    fn layout(&self) -> Option<Vec<Access>> {
        None
    }
}

/// A GLSL ES 3.00 program drawn over the full-screen quad, compiled on first use
/// and cached by [`id`](Self::id).
pub trait FragmentProgram {
    fn id(&self) -> ProgramId;
    /// Names the program in errors and on the page.
    fn name(&self) -> String;
    /// The vertex shader: the quad's, with `v_texcoord` in 0..1 over the target.
    fn vertex_source(&self) -> String {
        quad_vertex_source()
    }
    /// The complete fragment shader, `#version 300 es` first.
    fn fragment_source(&self) -> String;
}

/// The body of the vertex shader every fragment program shares by default: two
/// triangles over the target, `a_position` and `a_texcoord` in, `v_texcoord` out.
pub const QUAD_VERT: &str = include_str!("../../glsl/common/quad.vert");

/// The first lines of every shader of the library: GLSL ES 3.00 and full float
/// precision (a mediump float would be 16-bit on some phones).
pub const GLSL_HEADER: &str = "#version 300 es\n\
precision highp float;\n\
precision highp int;\n\
precision highp sampler2D;\n";

/// The complete default vertex shader.
pub fn quad_vertex_source() -> String {
    format!("{GLSL_HEADER}{QUAD_VERT}")
}

/// A compute program from WGSL source a caller supplies.
///
/// ```no_run
/// # async fn run(gpu: &gpgpu_matrix::Gpgpu) -> gpgpu_matrix::Result<()> {
/// use gpgpu_matrix::engine::program::Wgsl;
/// let double = Wgsl::new("double", "
///     @group(0) @binding(0) var<storage, read_write> x: array<f32>;
///     @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
///         if (id.x < arrayLength(&x)) { x[id.x] = 2.0 * x[id.x]; }
///     }");
/// // On a WebGPU Gpgpu: compiled now, a WGSL error is SHADER_COMPILE with its lines.
/// let program = gpgpu_matrix::ops::supplied::Supplied::Wgsl { program: double, tile: [1, 64] };
/// gpgpu_matrix::ops::supplied::compile(&gpu.handle(), &program).await?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Wgsl {
    name: String,
    source: String,
    constants: Vec<(String, f64)>,
    layout: Option<Vec<Access>>,
}

impl Wgsl {
    pub fn new(name: impl Into<String>, source: impl Into<String>) -> Wgsl {
        Wgsl {
            name: name.into(),
            source: source.into(),
            constants: Vec::new(),
            layout: None,
        }
    }

    /// The same program with an explicit layout: `layout[i]` at binding i.
    pub fn with_layout(mut self, layout: &[Access]) -> Wgsl {
        self.layout = Some(layout.to_vec());
        self
    }

    /// The same program with `override` constants set.
    pub fn with_constants(mut self, constants: &[(&str, f64)]) -> Wgsl {
        self.constants = constants.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        self
    }
}

impl ComputeProgram for Wgsl {
    fn id(&self) -> ProgramId {
        let constants: Vec<(&str, u64)> = self
            .constants
            .iter()
            .map(|(k, v)| (k.as_str(), v.to_bits()))
            .collect();
        ProgramId::of("wgsl", &(&self.source, constants, &self.layout))
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn source(&self) -> String {
        self.source.clone()
    }

    fn constants(&self) -> Vec<(String, f64)> {
        self.constants.clone()
    }

    fn layout(&self) -> Option<Vec<Access>> {
        self.layout.clone()
    }

    // A learner's uniform block holds dimensions: cached like the library's own.
}

/// A fragment program from GLSL ES 3.00 source a caller supplies (drawn over the
/// library's quad unless a vertex shader is given).
#[derive(Clone, Debug, PartialEq)]
pub struct Glsl {
    name: String,
    vertex: Option<String>,
    fragment: String,
}

impl Glsl {
    pub fn new(name: impl Into<String>, fragment: impl Into<String>) -> Glsl {
        Glsl {
            name: name.into(),
            vertex: None,
            fragment: fragment.into(),
        }
    }

    /// The same program with a vertex shader of its own (it must write
    /// `gl_Position` from `a_position`, attribute 0, to cover the target).
    pub fn with_vertex(mut self, vertex: impl Into<String>) -> Glsl {
        self.vertex = Some(vertex.into());
        self
    }
}

impl FragmentProgram for Glsl {
    fn id(&self) -> ProgramId {
        ProgramId::of("glsl", &(&self.vertex, &self.fragment))
    }

    fn name(&self) -> String {
        self.name.clone()
    }

    fn vertex_source(&self) -> String {
        self.vertex.clone().unwrap_or_else(quad_vertex_source)
    }

    fn fragment_source(&self) -> String {
        self.fragment.clone()
    }
}

/// A WGSL program of the library's own with no parameters: a name and the text
/// the device compiles, made when it is first compiled.
#[derive(Clone, Copy)]
pub struct StaticWgsl {
    pub name: &'static str,
    pub source: fn() -> String,
    /// See [`ComputeProgram::uniform_follows_data`].
    pub uniform_follows_data: bool,
}

impl StaticWgsl {
    pub const fn new(name: &'static str, source: fn() -> String) -> StaticWgsl {
        StaticWgsl {
            name,
            source,
            uniform_follows_data: false,
        }
    }

    /// The same program, its uniform words following the data.
    pub const fn following_data(self) -> StaticWgsl {
        StaticWgsl {
            uniform_follows_data: true,
            ..self
        }
    }
}

impl ComputeProgram for StaticWgsl {
    fn id(&self) -> ProgramId {
        ProgramId::of("static-wgsl", &self.name)
    }

    fn name(&self) -> String {
        self.name.into()
    }

    fn source(&self) -> String {
        (self.source)()
    }

    fn uniform_follows_data(&self) -> bool {
        self.uniform_follows_data
    }
}

/// A GLSL fragment program of the library's own with no parameters, drawn over the
/// quad: a name and its complete fragment shader, made when it is first compiled.
#[derive(Clone, Copy)]
pub struct StaticGlsl {
    pub name: &'static str,
    pub fragment: fn() -> String,
}

impl StaticGlsl {
    pub const fn new(name: &'static str, fragment: fn() -> String) -> StaticGlsl {
        StaticGlsl { name, fragment }
    }
}

impl FragmentProgram for StaticGlsl {
    fn id(&self) -> ProgramId {
        ProgramId::of("static-glsl", &self.name)
    }

    fn name(&self) -> String {
        self.name.into()
    }

    fn fragment_source(&self) -> String {
        (self.fragment)()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_the_source_and_constants_only() {
        let a = Wgsl::new("a", "fn main() {}");
        assert_eq!(a.id(), Wgsl::new("b", "fn main() {}").id());
        assert_ne!(a.id(), Wgsl::new("a", "fn main() { }").id());
        let c = a.clone().with_constants(&[("N", 1.0)]);
        assert_ne!(a.id(), c.id());
        assert_ne!(c.id(), a.clone().with_constants(&[("N", 2.0)]).id());
        // The same text as GLSL is another program.
        assert_ne!(a.id(), Glsl::new("a", "fn main() {}").id());
        let g = Glsl::new("g", "void main() {}");
        assert_ne!(g.id(), g.clone().with_vertex(QUAD_VERT).id());
    }
}
