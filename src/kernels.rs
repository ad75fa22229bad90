//! The names every layer shares: [`Backend`] (WebGL2, WebGPU, the CPU) and
//! [`Kernel`], the product kernels a caller may ask for by name. A kernel runs only
//! on its own backend; its shaders and its choice by size live with the product, in
//! `ops::matmul`.

use wasm_bindgen::JsCast;
use web_sys::CanvasRenderingContext2d;

use crate::error::{GpgpuError, Result};
use crate::gl::context::Canvas;
use crate::plan::layout::Layout;

/// Which GPU interface a kernel (or an engine) works through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// WebGL2 fragment shaders rendering into float textures.
    WebGl,
    /// WebGPU compute shaders on storage buffers.
    WebGpu,
    /// The CPU's cores: a SIMD128 kernel in Web Workers (see [`crate::cpu`]).
    Cpu,
}

impl Backend {
    /// The name JavaScript uses: "webgl" or "webgpu".
    pub fn name(self) -> &'static str {
        match self {
            Backend::WebGl => "webgl",
            Backend::WebGpu => "webgpu",
            Backend::Cpu => "cpu",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// One fragment per element, R32F: the tutorial's kernel and the teaching baseline.
    Naive,
    /// Four columns per RGBA32F texel, vec4 arithmetic, one texel per fragment.
    Packed,
    /// 4 rows x 4 columns per fragment over four render targets.
    Blocked4,
    /// 8 rows x 4 columns per fragment over eight render targets.
    Blocked8,
    /// WebGPU: one invocation per element, reading global memory (CUDA's first kernel).
    Global,
    /// WebGPU: 16×16 tiles of A and B staged in workgroup memory between barriers
    /// (the chapter's shared-memory CUDA kernel).
    Tiled16,
    /// WebGPU: a block of outputs per invocation held in registers, tuned per
    /// device class.
    Register,
    /// CPU: B packed in panels, a 4×8 block of C in SIMD128 registers, C's rows
    /// split among Web Workers (the chapter's OpenMP loop).
    Simd,
}

impl Kernel {
    /// The WebGL kernels, simplest first.
    pub const WEBGL: [Kernel; 4] = [
        Kernel::Naive,
        Kernel::Packed,
        Kernel::Blocked4,
        Kernel::Blocked8,
    ];

    /// The WebGPU kernels, simplest first.
    pub const WEBGPU: [Kernel; 3] = [Kernel::Global, Kernel::Tiled16, Kernel::Register];

    /// The CPU kernel.
    pub const CPU: [Kernel; 1] = [Kernel::Simd];

    /// Every kernel: WebGL's, then WebGPU's, then the CPU's.
    pub const ALL: [Kernel; 8] = [
        Kernel::Naive,
        Kernel::Packed,
        Kernel::Blocked4,
        Kernel::Blocked8,
        Kernel::Global,
        Kernel::Tiled16,
        Kernel::Register,
        Kernel::Simd,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kernel::Naive => "naive",
            Kernel::Packed => "packed",
            Kernel::Blocked4 => "blocked4",
            Kernel::Blocked8 => "blocked8",
            Kernel::Global => "global",
            Kernel::Tiled16 => "tiled16",
            Kernel::Register => "register",
            Kernel::Simd => "simd",
        }
    }

    pub fn parse(name: &str) -> Option<Kernel> {
        Kernel::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The backend the kernel runs on.
    pub fn backend(self) -> Backend {
        match self {
            Kernel::Naive | Kernel::Packed | Kernel::Blocked4 | Kernel::Blocked8 => Backend::WebGl,
            Kernel::Global | Kernel::Tiled16 | Kernel::Register => Backend::WebGpu,
            Kernel::Simd => Backend::Cpu,
        }
    }

    /// The kernels of one backend.
    pub fn of(backend: Backend) -> &'static [Kernel] {
        match backend {
            Backend::WebGl => &Kernel::WEBGL,
            Backend::WebGpu => &Kernel::WEBGPU,
            Backend::Cpu => &Kernel::CPU,
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Kernel::Naive => "one fragment per element, one float per texel (R32F)",
            Kernel::Packed => "four columns per RGBA32F texel, one texel per fragment",
            Kernel::Blocked4 => "4x4 outputs per fragment through 4 render targets",
            Kernel::Blocked8 => "8x4 outputs per fragment through 8 render targets",
            Kernel::Global => {
                "one invocation per element, A and B read from global memory (CUDA's first kernel)"
            }
            Kernel::Tiled16 => {
                "16x16 tiles of A and B in workgroup memory between barriers (CUDA's shared-memory kernel)"
            }
            Kernel::Register => {
                "a block of outputs per invocation in registers, tuned per device class"
            }
            Kernel::Simd => {
                "B packed in panels, 4x8 outputs in SIMD128 registers, C's rows split among Web Workers"
            }
        }
    }

    /// How the kernel's matrices are stored: textures for WebGL, row-major
    /// storage buffers for WebGPU.
    pub fn layout(self) -> Layout {
        match self {
            Kernel::Naive => Layout::Scalar,
            Kernel::Packed => Layout::Packed { planes: 1 },
            Kernel::Blocked4 => Layout::Packed { planes: 4 },
            Kernel::Blocked8 => Layout::Packed { planes: 8 },
            Kernel::Global | Kernel::Tiled16 | Kernel::Register | Kernel::Simd => Layout::Linear,
        }
    }
}

/// The 2D context of the canvas a heatmap goes onto (both backends), or BAD_ARGUMENT.
/// An OffscreenCanvas (in a worker) gives an OffscreenCanvasRenderingContext2D, which
/// has the methods used here (clearRect, drawImage, putImageData,
/// imageSmoothingEnabled) under the same names: web-sys calls them by name.
pub fn context_2d(canvas: &Canvas) -> Result<CanvasRenderingContext2d> {
    let context = match canvas {
        Canvas::Element(c) => c.get_context("2d"),
        Canvas::Offscreen(c) => c.get_context("2d"),
    };
    context
        .ok()
        .flatten()
        .map(|c| c.unchecked_into::<CanvasRenderingContext2d>())
        .ok_or_else(|| GpgpuError::BadArgument {
            name: "canvas".into(),
            // getContext('2d') gives nothing (or throws) only for a canvas that has
            // another context or was handed to an OffscreenCanvas.
            detail: "a heatmap needs a canvas that can give a '2d' context, and this one \
                     already has another ('webgl2' or 'webgpu': a WebGL Gpgpu's own canvas \
                     is one) or was transferred to an OffscreenCanvas; draw on a canvas \
                     used only for 2D drawing, such as a new one"
                .into(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in Kernel::ALL {
            assert_eq!(Kernel::parse(k.name()), Some(k));
        }
        assert_eq!(Kernel::parse("fast"), None);
    }

    #[test]
    fn each_kernel_names_its_shader_file() {
        for k in Kernel::ALL {
            let on_disk = std::fs::read_to_string(k.file()).expect("the file exists");
            assert_eq!(on_disk, k.source(), "{}", k.file());
        }
    }

    #[test]
    fn the_backend_lists_partition_all() {
        let mut both: Vec<Kernel> = Kernel::WEBGL.to_vec();
        both.extend(Kernel::WEBGPU);
        both.extend(Kernel::CPU);
        assert_eq!(both, Kernel::ALL);
        for b in [Backend::WebGl, Backend::WebGpu, Backend::Cpu] {
            assert!(Kernel::of(b).iter().all(|k| k.backend() == b));
        }
    }
}
