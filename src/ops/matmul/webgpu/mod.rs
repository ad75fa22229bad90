//! The WebGPU kernels: WGSL compute shaders in `wgsl/`, each paired with the Rust
//! that binds it. A pipeline's source depends only on its [`PipelineKey`], which is
//! therefore the cache key: one compile per key per device. Which register kernel
//! a device runs, and with which tile sizes, is chosen by [`register::Params::for_device`].
//!
//! Matrices are row-major `array<f32>` storage buffers ([`Layout::Linear`](crate::plan::layout::Layout::Linear)), with
//! no padding: every kernel checks its edges, so any shape works and a buffer is
//! exactly the caller's array.

mod engine;
pub mod register;

pub use engine::Resident;

use crate::engine::program::{ComputeProgram, ProgramId};
use crate::kernels::Kernel;
use crate::plan::decimal;
use crate::plan::semiring::Semiring;
use crate::plan::shape::Shape;

pub use register::Fit;
pub use register::Params as RegisterParams;

pub const SEMIRING_WGSL: &str = include_str!("../../../../wgsl/common/semiring.wgsl");
pub const GLOBAL_WGSL: &str = include_str!("../../../../wgsl/matmul/1_global.wgsl");
pub const TILED_WGSL: &str = include_str!("../../../../wgsl/matmul/2_tiled16.wgsl");
pub const REGISTER_WGSL: &str = include_str!("../../../../wgsl/matmul/3_register.wgsl");
pub const REGISTER_64_WGSL: &str = include_str!("../../../../wgsl/matmul/3_register_64.wgsl");
pub const REGISTER_DOUBLE_WGSL: &str =
    include_str!("../../../../wgsl/matmul/3_register_double.wgsl");
pub const REGISTER_ANY_WGSL: &str = include_str!("../../../../wgsl/matmul/3_register_any.wgsl");
pub const REGISTER_CPU_WGSL: &str = include_str!("../../../../wgsl/matmul/3_register_cpu.wgsl");
pub const REGISTER_CPU_ANY_WGSL: &str =
    include_str!("../../../../wgsl/matmul/3_register_cpu_any.wgsl");
pub const REGISTER_IO_VEC4_WGSL: &str =
    include_str!("../../../../wgsl/matmul/register_io_vec4.wgsl");
pub const REGISTER_TILES_WGSL: &str = include_str!("../../../../wgsl/matmul/register_tiles.wgsl");
pub const REGISTER_STREAM_K_WGSL: &str = include_str!("../../../../wgsl/matmul/4_stream_k.wgsl");
pub const STREAM_K_FIXUP_WGSL: &str = include_str!("../../../../wgsl/matmul/4_stream_k_fixup.wgsl");
pub const REGISTER_IO_SCALAR_WGSL: &str =
    include_str!("../../../../wgsl/matmul/register_io_scalar.wgsl");

/// The WGSL file of a WebGPU kernel, as written (the register kernel's staged form).
pub fn file_source(kernel: Kernel) -> &'static str {
    match kernel {
        Kernel::Global => GLOBAL_WGSL,
        Kernel::Tiled16 => TILED_WGSL,
        Kernel::Register => REGISTER_WGSL,
        _ => "",
    }
}

/// Everything that shapes a pipeline, and so its cache key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PipelineKey {
    /// A product kernel in a semiring; the register kernel with its parameters
    /// and how the shape fits them (the other kernels: `Fit::Any` always).
    Product {
        kernel: Kernel,
        semiring: Semiring,
        register: RegisterParams,
        fit: Fit,
    },
    /// The 128 × 128 register kernel on whole tiles with a stream-K tail
    /// (`register::stream_k_source`), and its second pass adding up the parts.
    StreamK {
        semiring: Semiring,
    },
    StreamKFixup {
        semiring: Semiring,
    },
}

impl PipelineKey {
    /// A readable name, for error messages and the page.
    pub fn name(&self) -> String {
        match *self {
            PipelineKey::Product {
                kernel,
                semiring,
                register,
                fit,
            } => {
                // The GPU form's default tiles go unnamed; others say their size.
                let tiles = match register {
                    RegisterParams::Staged { bm, bn, .. } if register != RegisterParams::GPU => {
                        format!("-{bm}x{bn}")
                    }
                    RegisterParams::Double => "-128x32-double".into(),
                    _ => String::new(),
                };
                match (kernel, fit) {
                    (Kernel::Register, Fit::Vec4) => {
                        format!("register{tiles}/{}/vec4", semiring.name())
                    }
                    (Kernel::Register, Fit::Tiles) => {
                        format!("register{tiles}/{}/vec4/whole-tiles", semiring.name())
                    }
                    (Kernel::Register, Fit::Any) => format!("register{tiles}/{}", semiring.name()),
                    _ => format!("{}/{}", kernel.name(), semiring.name()),
                }
            }
            PipelineKey::StreamK { semiring } => {
                format!("register/{}/vec4/whole-tiles/stream-k", semiring.name())
            }
            PipelineKey::StreamKFixup { semiring } => format!("stream-k-fixup/{}", semiring.name()),
        }
    }

    /// The complete WGSL source the device compiles.
    pub fn source(&self) -> String {
        match *self {
            PipelineKey::Product {
                kernel,
                register,
                fit,
                ..
            } => match kernel {
                Kernel::Register => register.source(fit),
                other => format!("{SEMIRING_WGSL}\n{}", file_source(other)),
            },
            PipelineKey::StreamK { .. } => register::stream_k_source(),
            PipelineKey::StreamKFixup { .. } => register::stream_k_fixup_source(),
        }
    }

    /// The semiring the pipeline computes in.
    pub fn semiring(&self) -> Semiring {
        match *self {
            PipelineKey::Product { semiring, .. }
            | PipelineKey::StreamK { semiring }
            | PipelineKey::StreamKFixup { semiring } => semiring,
        }
    }

    /// Override constants of the pipeline: its semiring (and the register kernel's
    /// own, where its source declares one; stream-K's whole tiles need no edge checks).
    pub fn constants(&self) -> Vec<(&'static str, f64)> {
        let own = match *self {
            PipelineKey::Product {
                kernel: Kernel::Register,
                register,
                fit,
                ..
            } => register.constants(fit),
            PipelineKey::StreamK { .. } => vec![("EDGES", 0.0)],
            _ => vec![],
        };
        [("SEMIRING", semiring_code(self.semiring()))]
            .into_iter()
            .chain(own)
            .collect()
    }

    /// The override constants as `gpu.shaderSource` heads the source with them: the
    /// semiring named, and `EDGES` as the WGSL bool it is (the pipeline is given a
    /// number, 0 or 1, but the source declares `override EDGES: bool`).
    pub fn constants_comment(&self) -> String {
        let semiring = self.semiring().name();
        let said: Vec<String> = self
            .constants()
            .iter()
            .map(|&(name, value)| match name {
                "SEMIRING" => format!("SEMIRING = {} ({semiring})", decimal::display(value)),
                "EDGES" if value == 0.0 => {
                    "EDGES = false (every tile inside: the checks are compiled out)".into()
                }
                "EDGES" => "EDGES = true (tiles at the edges: the checks stay on)".into(),
                _ => format!("{name} = {}", decimal::display(value)),
            })
            .collect();
        said.join(", ")
    }
}

impl ComputeProgram for PipelineKey {
    fn id(&self) -> ProgramId {
        ProgramId::of("webgpu-kernel", self)
    }

    fn name(&self) -> String {
        PipelineKey::name(self)
    }

    fn source(&self) -> String {
        PipelineKey::source(self)
    }

    fn constants(&self) -> Vec<(String, f64)> {
        let constants = PipelineKey::constants(self);
        constants.into_iter().map(|(k, v)| (k.into(), v)).collect()
    }
}

/// The value of the `SEMIRING` override in wgsl/common/semiring.wgsl.
pub fn semiring_code(semiring: Semiring) -> f64 {
    match semiring {
        Semiring::Ordinary => 0.0,
        Semiring::Boolean => 1.0,
        Semiring::MinPlus => 2.0,
    }
}

/// Workgroups (x along columns, y along rows) of a product with output `out`.
pub fn product_workgroups(kernel: Kernel, register: RegisterParams, out: Shape) -> (usize, usize) {
    let (tile_cols, tile_rows) = match kernel {
        Kernel::Register => register.tile(),
        _ => (16, 16),
    };
    (out.cols.div_ceil(tile_cols), out.rows.div_ceil(tile_rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::webgpu::line_workgroups;
    use std::collections::HashSet;

    #[test]
    fn every_product_source_carries_the_semiring() {
        for kernel in Kernel::WEBGPU {
            for register in [RegisterParams::GPU, RegisterParams::CPU] {
                let key = PipelineKey::Product {
                    kernel,
                    semiring: Semiring::MinPlus,
                    register,
                    fit: Fit::Vec4,
                };
                let s = key.source();
                assert!(s.contains("override SEMIRING"), "{}", key.name());
                assert!(s.contains("fn main"), "{}", key.name());
                assert_eq!(key.constants()[0], ("SEMIRING", 2.0));
                // Every other constant the pipeline sets is one its source declares.
                for (name, _) in &key.constants()[1..] {
                    assert!(s.contains(&format!("override {name}")), "{}", key.name());
                }
            }
        }
    }

    #[test]
    fn register_variants_differ_in_source() {
        let key = |register, fit| PipelineKey::Product {
            kernel: Kernel::Register,
            semiring: Semiring::Ordinary,
            register,
            fit,
        };
        let keys = [
            key(RegisterParams::GPU, Fit::Vec4),
            key(RegisterParams::GPU, Fit::Any),
            key(RegisterParams::CPU, Fit::Vec4),
            key(RegisterParams::CPU, Fit::Any),
        ];
        let sources: HashSet<String> = keys.iter().map(|k| k.source()).collect();
        assert_eq!(sources.len(), 4);
        // Whole tiles: the same source, its checks compiled out by a constant.
        let tiles = key(RegisterParams::GPU, Fit::Tiles);
        assert_eq!(tiles.source(), keys[0].source());
        assert_ne!(tiles.constants(), keys[0].constants());
        assert_ne!(tiles.name(), keys[0].name());
    }

    #[test]
    fn the_constants_comment_says_edges_as_a_bool() {
        let key = |register, fit| PipelineKey::Product {
            kernel: Kernel::Register,
            semiring: Semiring::MinPlus,
            register,
            fit,
        };
        // Edge tiles keep their checks (EDGES = 1 was printed: a number, where the
        // source declares a bool); whole tiles compile them out.
        for register in [RegisterParams::GPU, RegisterParams::GPU_NARROW] {
            let edges = key(register, Fit::Vec4).constants_comment();
            assert!(
                edges.contains("EDGES = true (tiles at the edges: the checks stay on)"),
                "{edges}"
            );
            assert!(!edges.contains("EDGES = 1"), "{edges}");
            let whole = key(register, Fit::Tiles).constants_comment();
            assert!(
                whole.contains("EDGES = false (every tile inside"),
                "{whole}"
            );
        }
        let narrow = key(RegisterParams::GPU_NARROW, Fit::Tiles).constants_comment();
        assert!(narrow.starts_with("SEMIRING = 2 (min-plus), TILE_N4 = 8, EDGES = false"));
        // Forms with no EDGES constant say none.
        let cpu = key(RegisterParams::CPU, Fit::Vec4).constants_comment();
        assert_eq!(cpu, "SEMIRING = 2 (min-plus)");
    }

    #[test]
    fn workgroups_cover_odd_shapes() {
        let g = product_workgroups(Kernel::Global, RegisterParams::GPU, Shape::new(17, 33));
        assert_eq!(g, (3, 2));
        let (bx, by) = RegisterParams::GPU.tile();
        let r = product_workgroups(Kernel::Register, RegisterParams::GPU, Shape::new(1, 1));
        assert_eq!(r, (1, 1));
        let r = product_workgroups(
            Kernel::Register,
            RegisterParams::GPU,
            Shape::new(by + 1, bx * 3),
        );
        assert_eq!(r, (3, 2));
    }

    #[test]
    fn long_lines_fold_into_two_dimensions() {
        assert_eq!(line_workgroups(1, 65535), (1, 1));
        assert_eq!(line_workgroups(256 * 65535, 65535), (65535, 1));
        assert_eq!(line_workgroups(256 * 65535 + 1, 65535), (65535, 2));
    }
}
