//! The register-tiled kernel's two forms and their parameters, chosen per device
//! class by measurement (bench/NOTES.md, "WebGPU kernels"):
//! * on a GPU, `wgsl/matmul_register.wgsl`: a 128 × 128 tile of C per workgroup,
//!   A's and B's 16-wide slices staged in workgroup memory, 16 × 8 outputs per
//!   invocation in named registers (for shapes whose inner or cols is not a multiple
//!   of 4, `wgsl/matmul_register_any.wgsl`: the same tiling with arrays and loops, its
//!   sizes as constants, element-wise loads);
//! * on a CPU-emulated adapter (SwiftShader), `wgsl/matmul_register_cpu.wgsl` (or
//!   `_any.wgsl` for shapes whose inner or cols is not a multiple of 4): an 8 × 8
//!   block per invocation straight from global memory, since barriers and indexed
//!   register arrays cost a CPU far more than they save.

use super::{
    REGISTER_ANY_WGSL, REGISTER_CPU_ANY_WGSL, REGISTER_CPU_WGSL, REGISTER_IO_SCALAR_WGSL,
    REGISTER_WGSL, SEMIRING_WGSL,
};
use crate::webgpu::GpuInfo;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Params {
    /// The staged kernel with these tile sizes.
    Staged {
        bm: u32,
        bn: u32,
        bk: u32,
        tm: u32,
        tn: u32,
    },
    /// The CPU form (8 × 8 per invocation, 8 × 8 invocations a workgroup).
    Cpu,
}

impl Params {
    /// The staged kernel's parameters on a GPU: the fastest of 40 shapes measured on
    /// the H100 at n = 1024–4096 (bench/results/2026-11-23-probe-wgsl-h100-*.jsonl;
    /// 256 × 128 tiles tie it at 4096 and lose at 1024).
    pub const GPU: Params = Params::Staged {
        bm: 128,
        bn: 128,
        bk: 16,
        tm: 16,
        tn: 8,
    };
    /// The CPU form.
    pub const CPU: Params = Params::Cpu;

    /// The form and parameters for a device: the GPU form (it fits WebGPU's default
    /// limits: 128 invocations, 16 KiB of workgroup memory), the CPU form on a
    /// software adapter or a device that cannot hold it.
    pub fn for_device(info: &GpuInfo) -> Params {
        if info.is_software() || !Params::GPU.fits(info) {
            return Params::CPU;
        }
        Params::GPU
    }

    /// Whether the device's workgroup limits admit these parameters.
    pub fn fits(&self, info: &GpuInfo) -> bool {
        let l = &info.limits;
        self.invocations() <= l.max_compute_invocations_per_workgroup
            && self.workgroup_bytes() <= l.max_compute_workgroup_storage_size
            && self.workgroup_size().0 <= l.max_compute_workgroup_size_x
            && self.workgroup_size().1 <= l.max_compute_workgroup_size_y
    }

    /// The (columns, rows) of C one workgroup computes.
    pub fn tile(&self) -> (usize, usize) {
        match *self {
            Params::Staged { bm, bn, .. } => (bn as usize, bm as usize),
            Params::Cpu => (64, 64),
        }
    }

    /// Invocations per workgroup along (x, y).
    pub fn workgroup_size(&self) -> (u32, u32) {
        match *self {
            Params::Staged { bm, bn, tm, tn, .. } => (bn / tn, bm / tm),
            Params::Cpu => (8, 8),
        }
    }

    pub fn invocations(&self) -> u32 {
        let (x, y) = self.workgroup_size();
        x * y
    }

    /// Bytes of workgroup memory: A's and B's tiles.
    pub fn workgroup_bytes(&self) -> u32 {
        match *self {
            Params::Staged { bm, bn, bk, .. } => (bm + bn) * bk * 4,
            Params::Cpu => 0,
        }
    }

    /// A short description for the page and `info().kernels`.
    pub fn describe(&self) -> String {
        match *self {
            Params::Staged { bm, bn, bk, tm, tn } => format!(
                "staged: {bm}x{bn} tile of C per workgroup, k in slices of {bk} through workgroup \
                 memory, {tm}x{tn} outputs per invocation"
            ),
            Params::Cpu => "CPU form: 8x8 outputs per invocation from global memory, no \
                            workgroup memory"
                .into(),
        }
    }

    /// The complete WGSL source: the tile constants, the semiring, the memory
    /// access (`aligned`: vec4 loads, for inner and cols multiples of 4) and the kernel.
    pub fn source(&self, aligned: bool) -> String {
        match *self {
            // The written-out file has the GPU parameters built in.
            Params::Staged { .. } if aligned && *self == Params::GPU => {
                format!("{SEMIRING_WGSL}\n{REGISTER_WGSL}")
            }
            Params::Staged { bm, bn, bk, tm, tn } => format!(
                "const BM: u32 = {bm}u;\nconst BN: u32 = {bn}u;\nconst BK: u32 = {bk}u;\n\
                 const TM: u32 = {tm}u;\nconst TN: u32 = {tn}u;\n{SEMIRING_WGSL}\n\
                 {REGISTER_IO_SCALAR_WGSL}\n{REGISTER_ANY_WGSL}"
            ),
            Params::Cpu if aligned => format!("{SEMIRING_WGSL}\n{REGISTER_CPU_WGSL}"),
            Params::Cpu => format!("{SEMIRING_WGSL}\n{REGISTER_CPU_ANY_WGSL}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webgpu::GpuLimits;

    fn info(software: bool, storage: u32, invocations: u32) -> GpuInfo {
        GpuInfo {
            vendor: if software { "google" } else { "nvidia" }.into(),
            architecture: if software { "swiftshader" } else { "hopper" }.into(),
            device: String::new(),
            description: String::new(),
            fallback: software,
            limits: GpuLimits {
                max_compute_workgroup_storage_size: storage,
                max_compute_invocations_per_workgroup: invocations,
                ..GpuLimits::defaults()
            },
            timestamp_query: true,
            subgroups: false,
            features: vec![],
        }
    }

    #[test]
    fn software_adapters_get_the_cpu_form() {
        assert_eq!(Params::for_device(&info(true, 32768, 256)), Params::CPU);
        assert_eq!(Params::for_device(&info(false, 49152, 1024)), Params::GPU);
    }

    #[test]
    fn the_gpu_form_fits_the_default_limits() {
        let defaults = info(false, 16384, 256);
        assert_eq!(Params::for_device(&defaults), Params::GPU);
        assert_eq!(Params::for_device(&info(false, 8192, 256)), Params::CPU);
    }

    #[test]
    fn the_staged_tile_is_what_the_workgroup_covers() {
        let p = Params::GPU;
        let (x, y) = p.workgroup_size();
        assert_eq!(p.tile(), (128, 128));
        assert_eq!((x, y), (16, 8));
        // The written-out file builds in the GPU parameters: check they agree.
        let aligned = p.source(true);
        assert!(aligned.contains("var<storage, read> a: array<vec4f>"));
        assert!(aligned.contains("@workgroup_size(16, 8)"));
        assert!(aligned.contains("let row0 = group.y * 128u;"));
        assert!(aligned.contains("const BK: u32 = 16u;"));
        assert!(aligned.contains("array<vec4f, 512>")); // BK x 128 / 4
        let any = p.source(false);
        assert!(any.starts_with("const BM: u32 = 128u;"));
        assert!(any.contains("var<storage, read> a: array<f32>"));
    }
}
