//! The operations, one folder each: the kernel choice and the WebGL, WebGPU and CPU
//! forms side by side, each a program run through its engine's generic verbs
//! (`GlEngine::draw`, `GpuEngine::dispatch`, `CpuEngine::pass`).
//!
//! `supplied` runs a product by a program the caller writes (a learner's kernel):
//! the same verbs, with its source from outside.

pub mod batched;
pub mod block_sparse;
pub mod elementwise;
pub mod heatmap;
pub mod lu;
pub mod matmul;
pub mod ransac;
pub mod shaders;
pub mod spmv;
pub mod stats;
pub mod supplied;
pub mod svd;

// naga is a native dev-dependency only (the wasm test builds need not compile it).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod portable;

#[cfg(test)]
mod tests {
    //! The engines cache programs by id: that is sound only if no two programs of
    //! the library share an id, and (names shown on the page, sources compiled) each
    //! has a name and a source of its own.

    use std::collections::HashSet;

    use super::*;
    use crate::engine::program::{ComputeProgram, FragmentProgram};
    use crate::kernels::Kernel;
    use crate::ops::matmul::webgl::ProductProgram;
    use crate::ops::matmul::webgpu::{Fit, PipelineKey, RegisterParams};
    use crate::plan::layout::Layout;
    use crate::plan::semiring::Semiring;

    const SEMIRINGS: [Semiring; 3] = [Semiring::Ordinary, Semiring::Boolean, Semiring::MinPlus];

    /// The register kernel's forms a GPU runs (`RegisterParams::for_product` picks one per
    /// product), and the one form a CPU-emulated adapter runs.
    pub(super) const GPU_FORMS: [RegisterParams; 4] = [
        RegisterParams::GPU,
        RegisterParams::GPU_SMALL,
        RegisterParams::GPU_NARROW,
        RegisterParams::GPU_DOUBLE,
    ];
    pub(super) const CPU_FORMS: [RegisterParams; 1] = [RegisterParams::CPU];

    fn fragment_programs() -> Vec<Box<dyn FragmentProgram>> {
        let mut all: Vec<Box<dyn FragmentProgram>> = vec![];
        for kernel in Kernel::WEBGL {
            for semiring in SEMIRINGS {
                all.push(Box::new(ProductProgram { kernel, semiring }));
            }
        }
        let layouts: HashSet<Layout> = Kernel::WEBGL.iter().map(|k| k.layout()).collect();
        for layout in layouts {
            all.push(Box::new(heatmap::webgl::heatmap_program(layout)));
            all.push(Box::new(elementwise::webgl::affine_program(layout)));
            for factor in [2, 8] {
                let from = Some(layout);
                all.push(Box::new(stats::webgl::ReduceProgram { from, factor }));
            }
        }
        for factor in [2, 8] {
            all.push(Box::new(stats::webgl::ReduceProgram { from: None, factor }));
        }
        for p in [
            spmv::webgl::SPMV,
            ransac::webgl::FIT,
            ransac::webgl::SCORE,
            lu::webgl::PIVOT,
            lu::webgl::ELIMINATE,
            lu::webgl::BACK,
            batched::webgl::BATCHED,
            block_sparse::webgl::BLOCK_SPARSE,
            block_sparse::webgl::BLOCK_FLAGS,
            svd::webgl::PAIRS,
            svd::webgl::ROUND,
            svd::webgl::MEASURE,
            svd::webgl::FINISH,
        ] {
            all.push(Box::new(p));
        }
        all
    }

    /// The fits a product can have on a register form (`Fit::of` after
    /// `RegisterParams::for_product`): the CPU form has no whole-tile variant, the 64 × 64
    /// form keeps its checks on whole tiles, the double-buffered one runs whole tiles only.
    fn fits(register: RegisterParams) -> &'static [Fit] {
        match register {
            RegisterParams::Cpu => &[Fit::Any, Fit::Vec4],
            RegisterParams::Double => &[Fit::Tiles],
            r if r == RegisterParams::GPU_SMALL => &[Fit::Any, Fit::Vec4],
            _ => &[Fit::Any, Fit::Vec4, Fit::Tiles],
        }
    }

    /// The library's compute programs, the products in the register forms `forms`.
    pub(super) fn compute_programs(forms: &[RegisterParams]) -> Vec<Box<dyn ComputeProgram>> {
        let mut all: Vec<Box<dyn ComputeProgram>> = vec![];
        for kernel in Kernel::WEBGPU {
            for semiring in SEMIRINGS {
                for &register in forms {
                    for &fit in fits(register) {
                        let key = PipelineKey::Product {
                            kernel,
                            semiring,
                            register,
                            fit,
                        };
                        // The other kernels share one entry per semiring (product_key).
                        if kernel == Kernel::Register
                            || (register == RegisterParams::GPU && fit == Fit::Any)
                        {
                            all.push(Box::new(key));
                        }
                    }
                }
            }
            all.push(Box::new(PipelineKey::StreamK {
                semiring: kernel_semiring(kernel),
            }));
        }
        for semiring in SEMIRINGS {
            all.push(Box::new(PipelineKey::StreamKFixup { semiring }));
        }
        for p in [
            spmv::webgpu::SPMV,
            spmv::webgpu::SPMV_LONG,
            ransac::webgpu::FIT,
            ransac::webgpu::SCORE,
            lu::webgpu::PIVOT,
            lu::webgpu::UPDATE,
            lu::webgpu::BACK,
            batched::webgpu::BATCHED,
            block_sparse::webgpu::BLOCK_SPARSE,
            block_sparse::webgpu::BLOCK_FLAGS,
            block_sparse::resident::GEN_MAP,
            block_sparse::resident::GEN_VALUES,
            block_sparse::resident::LINES,
            block_sparse::resident::SCAN,
            block_sparse::resident::SCAN_ADD,
            block_sparse::resident::SYMBOLIC,
            block_sparse::resident::C_MAP,
            block_sparse::resident::EXPAND,
            block_sparse::resident::ROW_WORK,
            block_sparse::resident::LISTED,
            block_sparse::resident::LISTED4,
            block_sparse::resident::BLOCK_DENSE,
            block_sparse::resident::SCATTER,
            svd::webgpu::JACOBI,
            elementwise::webgpu::AFFINE,
            stats::webgpu::REDUCE,
            heatmap::webgpu::HEATMAP,
            crate::engine::webgpu::FILL,
        ] {
            all.push(Box::new(p));
        }
        all
    }

    /// A semiring per kernel, so that the stream-K keys differ (one each).
    fn kernel_semiring(kernel: Kernel) -> Semiring {
        match kernel {
            Kernel::Global => Semiring::Ordinary,
            Kernel::Tiled16 => Semiring::Boolean,
            _ => Semiring::MinPlus,
        }
    }

    fn distinct<T: std::hash::Hash + Eq>(what: &str, items: impl Iterator<Item = T>) {
        let items: Vec<T> = items.collect();
        let set: HashSet<&T> = items.iter().collect();
        assert_eq!(set.len(), items.len(), "two programs share a {what}");
    }

    #[test]
    fn every_fragment_program_has_its_own_id_name_and_source() {
        let all = fragment_programs();
        assert!(all.len() > 30, "{}", all.len());
        distinct("id", all.iter().map(|p| p.id()));
        distinct("name", all.iter().map(|p| p.name()));
        distinct("source", all.iter().map(|p| p.fragment_source()));
        for p in &all {
            let source = p.fragment_source();
            assert!(source.starts_with("#version 300 es\n"), "{}", p.name());
            assert!(source.contains("void main"), "{}", p.name());
            assert!(p.vertex_source().starts_with("#version 300 es\n"));
        }
    }

    #[test]
    fn every_compute_program_has_its_own_id_name_and_source() {
        // Every form has its own id, whichever device runs it.
        let all = compute_programs(&[&GPU_FORMS[..], &CPU_FORMS].concat());
        distinct("id", all.iter().map(|p| p.id()));
        // A device runs the GPU forms of the register kernel or the CPU one: among its
        // programs the names are distinct, and so are the sources with their constants
        // (products of one kernel differ by their constants only: the semiring is an
        // override).
        for forms in [&GPU_FORMS[..], &CPU_FORMS] {
            let device = compute_programs(forms);
            assert!(device.len() > 25, "{}", device.len());
            distinct("name", device.iter().map(|p| p.name()));
            distinct(
                "source and constants",
                device
                    .iter()
                    .map(|p| format!("{}{:?}", p.source(), p.constants())),
            );
        }
        for p in &all {
            assert!(p.source().contains("fn main"), "{}", p.name());
        }
    }
}
