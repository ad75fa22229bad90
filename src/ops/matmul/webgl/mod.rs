//! The WebGL2 kernels. Each pairs one GLSL file in glsl/ with the Rust that binds its
//! inputs; all share the vertex shader, the semiring chunk and the header.
//!
//! The source of a product program depends only on its `ProductProgram` (kernel + semiring),
//! so the key is a complete cache key: one compile per key per context.

pub mod blocked;
pub mod naive;
pub mod packed;

use crate::engine::program::{FragmentProgram, ProgramId};
use crate::engine::webgl::{Destination, GlEngine, GlMatrix};
use crate::error::{GpgpuError, Result};
use crate::gl::capabilities::Limits;
use crate::gl::program::Program;
use crate::gl::GL;
use crate::kernels::{Backend, Kernel};
use crate::ops::shaders::HEADER;
use crate::plan::semiring::{Semiring, NO_EDGE};
use crate::plan::shape::Shape;

pub const SEMIRING_GLSL: &str = include_str!("../../../../glsl/common/semiring.glsl");

impl Kernel {
    /// The GLSL file behind a WebGL kernel (empty for WebGPU kernels).
    pub fn glsl(self) -> &'static str {
        match self {
            Kernel::Naive => naive::SOURCE,
            Kernel::Packed => packed::SOURCE,
            Kernel::Blocked4 | Kernel::Blocked8 => blocked::SOURCE,
            _ => "",
        }
    }

    /// Whether this device can run the kernel: the blocked ones need one render
    /// target per plane and a texture unit per plane of each operand.
    pub fn supported(self, limits: &Limits) -> bool {
        if self.backend() != Backend::WebGl {
            return false;
        }
        let planes = self.layout().planes();
        planes == 1 || (limits.max_draw_buffers >= planes && limits.max_texture_units >= 2 * planes)
    }

    /// Fragments one product of these shapes runs.
    pub fn fragments(self, out: Shape) -> usize {
        let (w, h) = self.layout().texture_size(out);
        w * h
    }

    /// Iterations of the kernel's k loop for a product whose padded inner dimension
    /// is `inner` (each iteration covers 1, 4 or `planes` values of k).
    pub fn k_steps(self, inner: usize) -> usize {
        match self {
            Kernel::Naive => inner,
            Kernel::Packed => inner / 4,
            Kernel::Blocked4 | Kernel::Blocked8 => inner / self.layout().planes(),
            Kernel::Global | Kernel::Tiled16 | Kernel::Register | Kernel::Simd => inner,
        }
    }

    /// How many k steps one pass adds up before the next chunk is blended onto it,
    /// or None for a single pass. Chunks of 256 values of k keep the B texels a
    /// fragment walks through in cache for its neighbours (bench/NOTES.md).
    pub fn chunk_steps(self) -> Option<usize> {
        match self {
            Kernel::Naive => None,
            Kernel::Packed => Some(64),
            Kernel::Blocked4 => Some(64),
            Kernel::Blocked8 => Some(32),
            Kernel::Global | Kernel::Tiled16 | Kernel::Register | Kernel::Simd => None,
        }
    }

    /// Binds the kernel's inputs and uniforms for R (rows × cols) = A · B, adding up
    /// the k loop's iterations `steps`. The program is in use; the target is bound after.
    pub(crate) fn bind(
        self,
        program: &Program,
        a: &GlMatrix,
        b: &GlMatrix,
        out: Shape,
        steps: std::ops::Range<usize>,
    ) {
        match self {
            Kernel::Naive => naive::bind(program, a, b, out),
            Kernel::Packed => packed::bind(program, a, b, out, steps),
            Kernel::Blocked4 | Kernel::Blocked8 => blocked::bind(program, a, b, out, steps),
            // Engine::product refuses them before binding.
            Kernel::Global | Kernel::Tiled16 | Kernel::Register | Kernel::Simd => {}
        }
    }
}

/// The default kernel for a product with output shape `out` (every kernel's cost
/// grows alike with the inner dimension, so it does not enter the rule).
///
/// The rule, from the measurements in bench/NOTES.md (SwiftShader, A·A with upload
/// and readback; the H100 agrees from 2048 up): the blocked kernels carry a fixed cost
/// of 4 or 8 textures per matrix, which dominates small products, and pad rows to 4
/// or 8, which wastes work on thin outputs. So, by the output's smaller side s:
/// * s <= 64: `packed` (n = 64: packed 1.0 ms, blocked4 2.9 ms, blocked8 5.4 ms);
/// * s < 512: `blocked4` (n = 256: 6.3 ms, blocked8 7.0 ms, packed 13.6 ms);
/// * otherwise `blocked8` (n = 1024: 204 ms, blocked4 239 ms, packed 808 ms),
///
/// each falling back to the next simpler kernel where the device lacks the render
/// targets or texture units. `naive` is never the default: it is the teaching kernel.
pub fn choose(out: Shape, limits: &Limits) -> Kernel {
    let s = out.rows.min(out.cols);
    let wanted = if s <= 64 {
        Kernel::Packed
    } else if s < 512 {
        Kernel::Blocked4
    } else {
        Kernel::Blocked8
    };
    [wanted, Kernel::Blocked4, Kernel::Packed]
        .into_iter()
        .find(|k| k.supported(limits))
        .unwrap_or(Kernel::Packed)
}

/// One render-to-texture pass: out ← a · b in `semiring`, by `kernel`, in chunks of
/// the k loop blended together where the device can blend float targets.
pub fn product(
    e: &mut GlEngine,
    kernel: Kernel,
    semiring: Semiring,
    a: &GlMatrix,
    b: &GlMatrix,
    out: &GlMatrix,
) -> Result<()> {
    let layout = kernel.layout();
    // Public, so a caller's mistake is an error here, not a panic.
    let bad = |detail: String| GpgpuError::BadArgument {
        name: "product".into(),
        detail,
    };
    if [a, b, out].iter().any(|m| m.layout != layout) {
        return Err(bad(format!(
            "kernel '{}' needs every operand in its layout ({:?}), got {:?}, {:?} and {:?}",
            kernel.name(),
            layout,
            a.layout,
            b.layout,
            out.layout
        )));
    }
    crate::plan::shape::check_product("product", a.shape, b.shape, out.shape)?;
    e.poison(&out.target);
    let total = kernel.k_steps(layout.padded(a.shape).cols);
    let chunk = match kernel.chunk_steps() {
        Some(c) if e.info().float_blend => c,
        _ => total,
    };
    let key = ProductProgram { kernel, semiring };
    let dest = Destination::Texture(&out.target);
    let mut result = Ok(());
    for begin in (0..total).step_by(chunk) {
        if begin == chunk {
            // Later chunks combine with what is there by the semiring's addition.
            e.gl().enable(GL::BLEND);
            e.gl().blend_func(GL::ONE, GL::ONE);
            e.gl().blend_equation(match semiring {
                Semiring::Ordinary => GL::FUNC_ADD,
                Semiring::MinPlus => GL::MIN,
                // Each chunk's sum is thresholded to 0/1; OR of chunks is their max.
                Semiring::Boolean => GL::MAX,
            });
        }
        let steps = begin..(begin + chunk).min(total);
        result = e.draw(&key, dest, |program| {
            kernel.bind(program, a, b, out.shape, steps)
        });
        if result.is_err() {
            break;
        }
    }
    e.gl().disable(GL::BLEND);
    result
}

/// A product pass's program: the kernel's GLSL in a semiring. Everything that shapes
/// its source is here, so it is the cache key too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProductProgram {
    pub kernel: Kernel,
    pub semiring: Semiring,
}

impl FragmentProgram for ProductProgram {
    fn id(&self) -> ProgramId {
        ProgramId::of("webgl-product", self)
    }

    /// A readable name, used in error messages and the page.
    fn name(&self) -> String {
        format!("{}/{}", self.kernel.name(), self.semiring.name())
    }

    fn fragment_source(&self) -> String {
        let body = format!("{SEMIRING_GLSL}\n{}", self.kernel.glsl());
        format!("{HEADER}{}{body}", self.defines())
    }
}

impl ProductProgram {
    /// The defines derived from the kernel and semiring, in source form.
    pub fn defines(&self) -> String {
        let semiring = match self.semiring {
            Semiring::Ordinary => "SEMIRING_ORDINARY",
            Semiring::Boolean => "SEMIRING_BOOLEAN",
            Semiring::MinPlus => "SEMIRING_MIN_PLUS",
        };
        let no_edge = crate::plan::decimal::exponential(NO_EDGE, Some(1));
        let mut d = format!("#define {semiring} 1\n#define NO_EDGE {no_edge}\n");
        if matches!(self.kernel, Kernel::Blocked4 | Kernel::Blocked8) {
            d += &format!("#define PLANES {}\n", self.kernel.layout().planes());
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_edge_define_is_a_float_literal() {
        let key = ProductProgram {
            kernel: Kernel::Naive,
            semiring: Semiring::MinPlus,
        };
        assert!(
            key.defines().contains("#define NO_EDGE 1.0e30"),
            "{}",
            key.defines()
        );
    }

    #[test]
    fn the_default_follows_the_measured_rule() {
        let full = Limits {
            max_texture_size: 8192,
            max_viewport_dims: (8192, 8192),
            max_draw_buffers: 8,
            max_texture_units: 16,
        };
        let pick = |rows, cols| choose(Shape::new(rows, cols), &full);
        assert_eq!(pick(1, 1), Kernel::Packed);
        assert_eq!(pick(64, 64), Kernel::Packed);
        assert_eq!(pick(65, 65), Kernel::Blocked4);
        assert_eq!(pick(511, 4096), Kernel::Blocked4);
        assert_eq!(pick(512, 512), Kernel::Blocked8);
        assert_eq!(pick(4096, 1), Kernel::Packed);
        let four_targets = Limits {
            max_draw_buffers: 4,
            ..full.clone()
        };
        assert_eq!(choose(Shape::square(2048), &four_targets), Kernel::Blocked4);
        let one_target = Limits {
            max_draw_buffers: 1,
            ..full
        };
        assert_eq!(choose(Shape::square(2048), &one_target), Kernel::Packed);
    }
}
