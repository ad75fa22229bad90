//! The matrix product, the library's first operation: C = A · B in a semiring, by
//! the kernel chosen for the output's size on this device (or asked for).
//!
//! * WebGL (`webgl`): fragment kernels along the tutorial's ladder — `naive` (one
//!   texel per entry), `packed` (four entries per texel), `blocked4` / `blocked8`
//!   (4 or 8 render targets) — in chunks of the k loop blended together.
//! * WebGPU (`webgpu`): compute kernels along the CUDA chapter's ladder — `global`,
//!   `tiled16` (workgroup-memory tiles), `register` (register tiles, its form and
//!   tile sizes chosen per device and shape, with a stream-K tail on whole tiles).
//! * CPU: the SIMD128 kernel on the workers (`CpuEngine::product`).

pub mod webgl;
pub mod webgpu;

use crate::cpu::CpuEngine;
use crate::engine::webgpu::GpuEngine;
use crate::engine::{Engine, Forms, Matrix, Timer};
use crate::error::{GpgpuError, Result};
use crate::kernels::{Backend, Kernel};
use crate::plan::semiring::Semiring;
use crate::plan::shape::Shape;

/// The default WebGPU kernel: `register` for every shape. On a GPU its staged form
/// is 5–27× faster than `tiled16` and `global` from n = 512 up, and on SwiftShader
/// its CPU form is the fastest too (bench/NOTES.md); at n ≤ 64 all three take the
/// same few microseconds, dominated by the dispatch.
pub fn choose_webgpu(_out: Shape) -> Kernel {
    Kernel::Register
}

impl Kernel {
    /// The path of the shader file behind the kernel (for the register kernel, the
    /// staged variant; see `webgpu::register` for the one a device runs).
    pub fn file(self) -> &'static str {
        match self {
            Kernel::Naive => "glsl/matmul/1_naive.frag",
            Kernel::Packed => "glsl/matmul/2_packed.frag",
            Kernel::Blocked4 | Kernel::Blocked8 => "glsl/matmul/3_blocked.frag",
            Kernel::Global => "wgsl/matmul/1_global.wgsl",
            Kernel::Tiled16 => "wgsl/matmul/2_tiled16.wgsl",
            Kernel::Register => "wgsl/matmul/3_register.wgsl",
            Kernel::Simd => "plan/src/cpu/kernel.rs",
        }
    }

    /// The shader file behind the kernel, as written (with its comments).
    pub fn source(self) -> &'static str {
        match self.backend() {
            Backend::WebGl => self.glsl(),
            Backend::WebGpu => webgpu::file_source(self),
            Backend::Cpu => include_str!("../../../plan/src/cpu/kernel.rs"),
        }
    }
}

impl Engine {
    /// The kernels this device runs.
    pub fn kernels(&self) -> Vec<Kernel> {
        match self {
            Engine::WebGl(e) => Kernel::WEBGL
                .into_iter()
                .filter(|k| k.supported(&e.info().limits))
                .collect(),
            Engine::WebGpu(_) => Kernel::WEBGPU.to_vec(),
            Engine::Cpu(_) => Kernel::CPU.to_vec(),
        }
    }

    /// The longest k one pass of `kernel` sums in full here (None: any; see
    /// [`GpuEngine::longest_k`]).
    pub fn longest_k(&self, kernel: Kernel) -> Option<usize> {
        match self {
            Engine::WebGpu(e) => e.longest_k(kernel),
            _ => None,
        }
    }

    /// The kernel to run: `requested` if this device runs it, else the backend's
    /// rule (see [`webgl::choose`] and [`choose_webgpu`]).
    pub fn choose_kernel(&self, requested: Option<Kernel>, out: Shape) -> Result<Kernel> {
        match (self, requested) {
            (Engine::WebGl(e), None) => Ok(webgl::choose(out, &e.info().limits)),
            (Engine::WebGpu(_), None) => Ok(choose_webgpu(out)),
            (Engine::Cpu(_), None) => Ok(Kernel::Simd),
            (_, Some(k)) if self.kernels().contains(&k) => Ok(k),
            (Engine::WebGl(e), Some(k)) if k.backend() == Backend::WebGl => {
                let limits = &e.info().limits;
                Err(GpgpuError::BadArgument {
                    name: "kernel".into(),
                    detail: format!(
                        "kernel '{}' needs {} render targets and {} texture units; this GPU \
                         has {} and {}. Use the packed or naive kernel, or let the library \
                         choose (kernel 'auto' in JavaScript, None in Rust).",
                        k.name(),
                        k.layout().planes(),
                        2 * k.layout().planes(),
                        limits.max_draw_buffers,
                        limits.max_texture_units
                    ),
                })
            }
            (_, Some(k)) => Err(GpgpuError::BadArgument {
                name: "kernel".into(),
                detail: format!(
                    "kernel '{}' runs on {}, and this Gpgpu runs {}: use one of {} (or \
                     'auto'), or create a Gpgpu with backend '{}'",
                    k.name(),
                    k.backend().name(),
                    self.backend().name(),
                    self.kernels()
                        .iter()
                        .map(|k| k.name())
                        .collect::<Vec<_>>()
                        .join(", "),
                    k.backend().name()
                ),
            }),
        }
    }

    /// One pass: out ← a · b in `semiring`, by `kernel`; `timed` measures it on the
    /// GPU where the device can (the timer comes back).
    pub fn product(
        &mut self,
        kernel: Kernel,
        semiring: Semiring,
        m: [&Matrix; 3],
        timed: bool,
    ) -> Result<Option<Timer>> {
        let forms = Forms {
            webgl: |e: &mut _, [a, b, out]: [_; 3]| webgl::product(e, kernel, semiring, a, b, out),
            webgpu: |e: &mut GpuEngine, m, t: Option<&_>| e.product(kernel, semiring, m, t),
            cpu: |e: &mut CpuEngine, m| e.product(semiring, m),
        };
        self.by_backend_timed(m, timed, forms)
    }

    /// The complete shader source a product kernel compiles to on this device for an
    /// n × n product (the register kernel's form depends on n on WebGPU).
    pub fn product_source(&self, kernel: Kernel, semiring: Semiring, n: usize) -> String {
        match self {
            Engine::WebGpu(e) if kernel.backend() == Backend::WebGpu => {
                e.product_source(kernel, semiring, n)
            }
            Engine::Cpu(_) => Kernel::Simd.source().into(),
            _ => {
                let program = webgl::ProductProgram { kernel, semiring };
                crate::engine::program::FragmentProgram::fragment_source(&program)
            }
        }
    }

    /// The file of that source.
    pub fn product_file(&self, kernel: Kernel, n: usize) -> &'static str {
        match self {
            Engine::WebGpu(e) if kernel.backend() == Backend::WebGpu => e.product_file(kernel, n),
            _ => kernel.file(),
        }
    }
}
