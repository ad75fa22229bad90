//! The register-tiled kernel's two forms and their parameters, chosen per device
//! class by measurement (bench/NOTES.md, "WebGPU kernels"):
//! * on a GPU, `wgsl/matmul/3_register.wgsl`: a 128 × 128 tile of C per workgroup,
//!   A's and B's 16-wide slices staged in workgroup memory, 16 × 8 outputs per
//!   invocation in named registers, its k loop written out by `write_out_k_loops`;
//!   while C has fewer than 180 such tiles (up to 1664 × 1664 or so),
//!   `wgsl/matmul/3_register_64.wgsl`, the same with 64 × 64 tiles and 8 × 4 outputs per
//!   invocation, so that there are workgroups enough for every core, and on outputs of up to 256 such tiles (1024 × 1024) the same file with
//!   64 × 32 tiles (for shapes whose inner or cols is not a multiple of 4,
//!   `wgsl/matmul/3_register_any.wgsl`: the same tilings with arrays and loops, their
//!   sizes as constants, element-wise loads). Where the 64 × 32 tiles would run, on
//!   outputs of at least 144 whole 128 × 32 tiles with inner a multiple of 32 (n = 768
//!   to 1024 for a square), `wgsl/matmul/3_register_double.wgsl`: 128 × 32 tiles, two
//!   slices of k in workgroup memory and one barrier a slice, its k loops written out
//!   (14 % faster at n = 1024 on the H200). (A double-buffered 256 × 128 form ran 5 %
//!   faster than the 128 × 128 one until both loaded each k's values a k ahead; then it
//!   ran as fast at n = 4096, 4.5 % slower at 2048, and was removed: bench/NOTES.md);
//! * on a CPU-emulated adapter (SwiftShader), `wgsl/matmul/3_register_cpu.wgsl` (or
//!   `_any.wgsl` for shapes whose inner or cols is not a multiple of 4): an 8 × 8
//!   block per invocation straight from global memory, since barriers and indexed
//!   register arrays cost a CPU far more than they save.

use super::{
    REGISTER_64_WGSL, REGISTER_ANY_WGSL, REGISTER_CPU_ANY_WGSL, REGISTER_CPU_WGSL,
    REGISTER_DOUBLE_WGSL, REGISTER_IO_SCALAR_WGSL, REGISTER_IO_VEC4_WGSL, REGISTER_STREAM_K_WGSL,
    REGISTER_TILES_WGSL, REGISTER_WGSL, SEMIRING_WGSL, STREAM_K_FIXUP_WGSL,
};
use crate::webgpu::GpuInfo;

/// How a product's shape sits on the kernel: what its pipeline may leave out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fit {
    /// inner or cols not a multiple of 4: loads element by element.
    Any,
    /// Every row of A, B and C starts on a 16-byte boundary (inner and cols multiples
    /// of 4): loads and stores move vec4s; tiles at the edges check their bounds.
    Vec4,
    /// Vec4, and every tile of C and slice of k lies wholly inside the matrices, so
    /// the 128 × 128 and 64 × 32 GPU forms are compiled without their checking code
    /// (`EDGES = false`; on the H100 +5% and +10-30%; the 64 × 64 form measured 10%
    /// slower so, and keeps its checks).
    Tiles,
}

impl Fit {
    /// The fit of C (rows × cols) = A (rows × inner) · B (inner × cols) on `params`.
    pub fn of(params: &Params, rows: usize, inner: usize, cols: usize) -> Fit {
        if inner % 4 != 0 || cols % 4 != 0 {
            return Fit::Any;
        }
        match *params {
            Params::Staged { bm, bn, bk, .. }
                if params.drops_edge_checks()
                    && rows % bm as usize == 0
                    && cols % bn as usize == 0
                    && inner % bk as usize == 0 =>
            {
                Fit::Tiles
            }
            Params::Double if params.runs(rows, inner, cols) => Fit::Tiles,
            _ => Fit::Vec4,
        }
    }

    /// Whether loads and stores move vec4s.
    pub fn vec4(self) -> bool {
        self != Fit::Any
    }
}

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
    /// The double-buffered form (`matmul/3_register_double.wgsl`): a 128 × 32 tile of C
    /// per workgroup of 8 × 16 invocations, 8 × 4 outputs each, two slices of 16 k in
    /// workgroup memory; whole tiles only (`runs`).
    Double,
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
    /// The staged kernel's parameters on a GPU for small outputs (see `for_output`).
    pub const GPU_SMALL: Params = Params::Staged {
        bm: 64,
        bn: 64,
        bk: 16,
        tm: 8,
        tn: 4,
    };
    /// The staged kernel's parameters on a GPU for the smallest outputs: the 64 × 64
    /// file with half as wide a tile (`TILE_N4 = 8`), 64 invocations (see `for_output`).
    pub const GPU_NARROW: Params = Params::Staged {
        bm: 64,
        bn: 32,
        bk: 16,
        tm: 8,
        tn: 4,
    };
    /// The double-buffered form, for outputs of about 1024 × 1024 (see `for_product`).
    pub const GPU_DOUBLE: Params = Params::Double;
    /// The CPU form.
    pub const CPU: Params = Params::Cpu;

    /// Whether whole tiles of this form get a pipeline without edge checks (EDGES =
    /// false): the 128 × 128 and 64 × 32 forms (measured faster so; 64 × 64 slower).
    fn drops_edge_checks(&self) -> bool {
        *self == Params::GPU || *self == Params::GPU_NARROW
    }

    /// Whether aligned shapes of this form run `matmul/3_register_64.wgsl`.
    fn in_64_row_file(&self) -> bool {
        *self == Params::GPU_SMALL || *self == Params::GPU_NARROW
    }

    /// `GPU` gives way to `GPU_SMALL` while C has fewer than this many `GPU` tiles.
    /// Measured on the H100 (132 cores; bench/results/2026-11-24-probe-wgsl-h100-11
    /// and -19, GPU time): 64 × 64 tiles ran 2.2× as fast at n = 512 (16 big tiles),
    /// 1.6× at 1024 (64), 1.35× at 1536 (144), 1.07× at 1664 (169), but 0.96× at
    /// 1792 (196), 0.96× at 1920 (225) and 0.86× at 2048 (256), where the big tiles
    /// fill the GPU. A GPU with fewer cores fills sooner, and loses at most those
    /// 4-14% between its own break-even and these sizes.
    pub const SMALL_BELOW_TILES: usize = 180;
    /// `GPU_SMALL` gives way to `GPU_NARROW` while C has at most this many tiles of
    /// 64 × 64. Measured on the H100 (`-17` to `-20`, whole tiles, GPU time): 64 × 32
    /// tiles ran 1.38× as fast at n = 512 (64 tiles of 64 × 64), 1.24× at 768 (144),
    /// 1.11× at 1024 (256) and 0.99× at 1536 (576).
    pub const NARROW_UP_TO_TILES: usize = 256;

    /// Where `GPU_NARROW` would run, `GPU_DOUBLE` takes whole-tile products from this
    /// many tiles of 128 × 32 on. Measured on the H200 (bench/NOTES.md, 2026-11-29, GPU
    /// time, chains of 100 dependent products, against the 64 × 32 form): the same at
    /// n = 512 (64 tiles), 0.96× the time at 768 (144) and 896 (196), 0.86× at 1024
    /// (256). (Past the narrow form's range it was erratic against the forms that run
    /// there: 0.93× at 1280 and 0.91× at 1664, but 1.27× at 1152 and 1.02-1.07× at
    /// 1536, so it stays out of it.)
    pub const DOUBLE_FROM_TILES: usize = 144;

    /// The parameters for C (rows × cols) = A (rows × inner) · B (inner × cols) on a
    /// device given `self` (`info`: that device): `GPU` becomes `GPU_SMALL`,
    /// `GPU_NARROW` or, on whole tiles where the device holds it, `GPU_DOUBLE` on small
    /// outputs; a forced `Double` form gives way to `GPU`'s choice on shapes it cannot
    /// run; the others stay.
    pub fn for_product(self, rows: usize, inner: usize, cols: usize, info: &GpuInfo) -> Params {
        let double = Params::GPU_DOUBLE;
        let (tile_cols, tile_rows) = double.tile();
        if self == Params::GPU
            && self.for_output(rows, cols) == Params::GPU_NARROW
            && double.fits(info)
            && double.runs(rows, inner, cols)
            && rows / tile_rows * (cols / tile_cols) >= Params::DOUBLE_FROM_TILES
        {
            return double;
        }
        match self {
            Params::Double if self.runs(rows, inner, cols) => self,
            Params::Double => Params::GPU.for_output(rows, cols),
            _ => self.for_output(rows, cols),
        }
    }

    /// Whether this form can run the product: `Double` only on whole tiles and whole
    /// pairs of slices (it has no edge checks); every other form on any.
    pub fn runs(&self, rows: usize, inner: usize, cols: usize) -> bool {
        match *self {
            Params::Double => {
                let (tile_cols, tile_rows) = self.tile();
                rows % tile_rows == 0 && cols % tile_cols == 0 && inner % 32 == 0 && inner > 0
            }
            _ => true,
        }
    }

    /// The parameters for a product whose output is `rows` × `cols`, on a device
    /// given `self`: `GPU` becomes `GPU_SMALL` or `GPU_NARROW` on small outputs; the
    /// others stay.
    pub fn for_output(self, rows: usize, cols: usize) -> Params {
        let tiles = |p: Params| {
            let (tile_cols, tile_rows) = p.tile();
            rows.div_ceil(tile_rows) * cols.div_ceil(tile_cols)
        };
        if self != Params::GPU || tiles(Params::GPU) >= Params::SMALL_BELOW_TILES {
            self
        } else if tiles(Params::GPU_SMALL) > Params::NARROW_UP_TO_TILES {
            Params::GPU_SMALL
        } else {
            Params::GPU_NARROW
        }
    }

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
            Params::Double => (32, 128),
            Params::Cpu => (64, 64),
        }
    }

    /// Invocations per workgroup along (x, y).
    pub fn workgroup_size(&self) -> (u32, u32) {
        match *self {
            Params::Staged { bm, bn, tm, tn, .. } => (bn / tn, bm / tm),
            Params::Double => (8, 16),
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
            // The narrow form's file sizes B's tile for 64 columns (WGSL sizes nested
            // arrays by constants only).
            Params::Staged { bm, bk, .. } if *self == Params::GPU_NARROW => (bm + 64) * bk * 4,
            Params::Staged { bm, bn, bk, .. } => (bm + bn) * bk * 4,
            // Two slices of 16 k of A's 128 rows and B's 32 columns: 20 KiB.
            Params::Double => 2 * (128 + 32) * 16 * 4,
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
            Params::Double => "double-buffered: 128x32 tile of C per workgroup, two slices of \
                               16 k in workgroup memory (one barrier a slice), 8x4 outputs \
                               per invocation, each k's values read a k ahead (the k loops \
                               written out); whole tiles only"
                .into(),
            Params::Cpu => format!(
                "CPU form: 8x8 outputs per invocation from global memory, no workgroup \
                 memory, k in passes of at most {CPU_K_PASS}"
            ),
        }
    }

    /// The complete WGSL source for shapes of this `fit`: the tile constants, the
    /// semiring, the memory access (vec4 or element loads) and the kernel.
    pub fn source(&self, fit: Fit) -> String {
        let aligned = fit.vec4();
        match *self {
            // The written-out files have their parameters built in.
            Params::Staged { bk, .. } if aligned && *self == Params::GPU => format!(
                "{SEMIRING_WGSL}\n{REGISTER_IO_VEC4_WGSL}\n{REGISTER_TILES_WGSL}\n{}",
                write_out_k_loops(&one_part(REGISTER_WGSL), bk)
            ),
            Params::Staged { .. } if aligned && self.in_64_row_file() => {
                format!("{SEMIRING_WGSL}\n{REGISTER_IO_VEC4_WGSL}\n{REGISTER_64_WGSL}")
            }
            Params::Double => format!(
                "{SEMIRING_WGSL}\n{REGISTER_IO_VEC4_WGSL}\n{}",
                write_out_k_loops(REGISTER_DOUBLE_WGSL, DOUBLE_BK)
            ),
            Params::Staged { bm, bn, bk, tm, tn } => format!(
                "const BM: u32 = {bm}u;\nconst BN: u32 = {bn}u;\nconst BK: u32 = {bk}u;\n\
                 const TM: u32 = {tm}u;\nconst TN: u32 = {tn}u;\n{SEMIRING_WGSL}\n\
                 {REGISTER_IO_SCALAR_WGSL}\n{REGISTER_ANY_WGSL}"
            ),
            Params::Cpu if aligned => format!("{SEMIRING_WGSL}\n{REGISTER_CPU_WGSL}"),
            Params::Cpu => format!("{SEMIRING_WGSL}\n{REGISTER_CPU_ANY_WGSL}"),
        }
    }

    /// The WGSL file of the kernel `source(fit)` builds on.
    pub fn file(&self, fit: Fit) -> &'static str {
        match (*self, fit.vec4()) {
            (Params::Cpu, true) => "wgsl/matmul/3_register_cpu.wgsl",
            (Params::Cpu, false) => "wgsl/matmul/3_register_cpu_any.wgsl",
            (Params::Double, _) => "wgsl/matmul/3_register_double.wgsl",
            (p, true) if p == Params::GPU => "wgsl/matmul/3_register.wgsl",
            (p, true) if p.in_64_row_file() => "wgsl/matmul/3_register_64.wgsl",
            _ => "wgsl/matmul/3_register_any.wgsl",
        }
    }

    /// Override constants that `source(fit)` declares besides the semiring: the
    /// written-out GPU forms' `EDGES`, false where every tile lies inside (the 64 × 64
    /// form keeps the default, true), and the narrow form's `TILE_N4`.
    pub fn constants(&self, fit: Fit) -> Vec<(&'static str, f64)> {
        let edges = ("EDGES", if fit == Fit::Tiles { 0.0 } else { 1.0 });
        match fit {
            Fit::Any => vec![],
            _ if *self == Params::GPU => vec![edges],
            _ if *self == Params::GPU_NARROW => vec![("TILE_N4", 8.0), edges],
            _ => vec![],
        }
    }
}

/// The 128 × 128 form on whole tiles with its last wave's tiles shared out
/// (stream-K: wgsl/matmul/4_stream_k.wgsl in place of matmul/register_tiles.wgsl).
pub fn stream_k_source() -> String {
    // The plan's slice is the file's BK (a test checks they agree).
    let bk = crate::plan::stream_k::SLICE as u32;
    format!(
        "{SEMIRING_WGSL}\n{REGISTER_IO_VEC4_WGSL}\n{REGISTER_STREAM_K_WGSL}\n{}",
        write_out_k_loops(REGISTER_WGSL, bk)
    )
}

/// The stream-K product's second pass, composed with the declarations it shares
/// with the first (its uniform block, scratch buffer and `first_iteration`).
pub fn stream_k_fixup_source() -> String {
    format!(
        "{SEMIRING_WGSL}\n{REGISTER_IO_VEC4_WGSL}\n{REGISTER_STREAM_K_WGSL}\n{STREAM_K_FIXUP_WGSL}"
    )
}

/// The double form's slice of k (`BK` in its file).
const DOUBLE_BK: u32 = 16;

/// The most k one pass of the CPU forms runs (their WGSL's `K_PASS`): Mesa's lavapipe
/// (Firefox's WebGPU on a machine without a GPU) ends a shader's loops after 65,535
/// iterations in all, without an error, so the terms past them were left out of C. A
/// longer k runs in passes that each add to what the pass before left.
pub const CPU_K_PASS: usize = 32768;
// Whole vec4 steps, and under lavapipe's 65,535 loop iterations with the stores' 64.
const _: () = assert!(CPU_K_PASS % 4 == 0 && CPU_K_PASS + 64 < 65535);

/// The loop over a workgroup's parts in matmul/3_register.wgsl, and what `one_part`
/// writes in its place.
const PART_LOOP: &str = "for (var part = 0u; part < parts; part++) {";
const ONE_PART: &str = "{ let part = 0u;";

/// `src` with its loop over parts written as the one block the plain form runs
/// (matmul/register_tiles.wgsl gives every workgroup one part). With the loop left in, the
/// plain form ran 0.3-0.5 % slower on the H200 (45,477 against 45,706 GFLOP/s at
/// n = 4096, 34,101 against 34,212 at 3072: bench/NOTES.md, "stream-K"), although
/// the loop runs once.
fn one_part(src: &str) -> String {
    src.replacen(PART_LOOP, ONE_PART, 1)
}

/// The loop header that `write_out_k_loops` expands.
const K_LOOP: &str = "for (var k = 0u; k < BK; k++) {";

/// `src` with every `for (var k = 0u; k < BK; k++) { body }` written out as `bk`
/// blocks `{ let k = 0u; body }` … `{ let k = (bk − 1)u; body }`. The 128 × 128 and
/// double forms load each k's values from workgroup memory before the previous k's
/// multiply-adds; on the H100 the driver's compiler kept that order only in straight
/// code. At n = 4096 (bench/NOTES.md, "values a k ahead"), GFLOP/s, whole tiles:
/// 40,630 before, 36,405 with the early loads as a loop, 45,688 written out.
///
/// WGSL has no unroll hint, so the engine writes the copies; the files stay readable.
fn write_out_k_loops(src: &str, bk: u32) -> String {
    let mut out = String::with_capacity(src.len() * bk as usize);
    let mut rest = src;
    while let Some(at) = rest.find(K_LOOP) {
        let open = at + K_LOOP.len();
        let Some(len) = block_length(&rest[open..]) else {
            break; // unbalanced: left as written (the compiler reports it)
        };
        out.push_str(&rest[..at]);
        let line_start = rest[..at].rfind('\n').map_or(0, |i| i + 1);
        let indent = &rest[line_start..at];
        let indent = if indent.trim().is_empty() { indent } else { "" };
        let body = &rest[open..open + len];
        for k in 0..bk {
            if k > 0 {
                out.push('\n');
                out.push_str(indent);
            }
            out.push_str(&format!("{{ let k = {k}u;{body}}}"));
        }
        rest = &rest[open + len + 1..];
    }
    out.push_str(rest);
    out
}

/// The length of a block's text up to (not including) the `}` that closes it.
fn block_length(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Some(i),
            '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webgpu::GpuLimits;

    /// Fails naming the first of `parts` that `source` lacks.
    fn assert_has(source: &str, parts: &[&str]) {
        for part in parts {
            assert!(source.contains(part), "missing {part:?}");
        }
    }

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
    fn the_cpu_forms_run_the_k_of_a_pass_the_engine_splits_by() {
        for fit in [Fit::Vec4, Fit::Any] {
            let source = Params::CPU.source(fit);
            assert!(source.contains(&format!("const K_PASS: u32 = {CPU_K_PASS}u;")));
            assert!(source.contains("k0: u32"));
        }
    }

    #[test]
    fn the_gpu_form_compiles_its_k_loop_written_out() {
        let source = Params::GPU.source(Fit::Tiles);
        assert!(!source.contains(K_LOOP));
        let blocks = source
            .lines()
            .filter(|l| l.trim_start().starts_with("{ let k = "));
        assert_eq!(blocks.count(), 16);
        assert_eq!(source.matches("{ let k = 15u;").count(), 1);
        // The other forms keep their loops as written.
        assert!(Params::GPU_SMALL.source(Fit::Tiles).contains(K_LOOP));
        assert!(!Params::GPU.source(Fit::Any).contains("{ let k = 0u;"));
    }

    #[test]
    fn k_loops_are_written_out_as_blocks() {
        let src = "a;\n    for (var k = 0u; k < BK; k++) {\n        if (x) { y[k] = 1; }\n    }\nb;\n    \
                   for (var k = 0u; k < BK; k++) { z += k; }\nc;";
        assert_eq!(
            write_out_k_loops(src, 3),
            "a;\n    { let k = 0u;\n        if (x) { y[k] = 1; }\n    }\n    { let k = 1u;\n        \
             if (x) { y[k] = 1; }\n    }\n    { let k = 2u;\n        if (x) { y[k] = 1; }\n    }\n\
             b;\n    { let k = 0u; z += k; }\n    { let k = 1u; z += k; }\n    { let k = 2u; z += k; }\nc;"
        );
        // Nothing to write out, or an unclosed loop: the text as it was.
        assert_eq!(write_out_k_loops("a; b;", 16), "a; b;");
        let open = "for (var k = 0u; k < BK; k++) { x;";
        assert_eq!(write_out_k_loops(open, 16), open);
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
        let aligned = p.source(Fit::Vec4);
        assert_has(
            &aligned,
            &[
                "var<storage, read> a: array<vec4f>",
                "@workgroup_size(16, 8)",
                "return Part(group.y * 128u, group.x * 128u, 0u, dims.inner, 0u, true);",
                "const BK: u32 = 16u;",
                "array<array<vec4f, 32>, 16>", // BK x 128 / 4
                "override EDGES: bool",
            ],
        );
        assert_eq!(p.source(Fit::Tiles), aligned);
        let any = p.source(Fit::Any);
        assert!(any.starts_with("const BM: u32 = 128u;"));
        assert!(any.contains("var<storage, read> a: array<f32>"));
    }

    #[test]
    fn small_outputs_take_the_small_tiles() {
        let p = Params::GPU;
        // Up to 256 tiles of 64 x 64: the narrow tiles.
        assert_eq!(p.for_output(1, 1), Params::GPU_NARROW);
        assert_eq!(p.for_output(1024, 1024), Params::GPU_NARROW); // 16 x 16
        assert_eq!(p.for_output(4096, 256), Params::GPU_NARROW); // 64 x 4
        assert_eq!(p.for_output(1025, 1024), Params::GPU_SMALL); // 17 x 16

        // Then 64 x 64 while fewer than 180 tiles of 128 x 128.
        assert_eq!(p.for_output(1536, 1536), Params::GPU_SMALL); // 12 x 12
        assert_eq!(p.for_output(1664, 1664), Params::GPU_SMALL); // 13 x 13
        assert_eq!(p.for_output(1792, 1536), Params::GPU_SMALL); // 14 x 12 = 168
        assert_eq!(p.for_output(1792, 1664), Params::GPU); // 14 x 13 = 182
        assert_eq!(p.for_output(1792, 1792), Params::GPU); // 14 x 14
        assert_eq!(p.for_output(2048, 2048), Params::GPU);
        assert_eq!(p.for_output(23040, 128), Params::GPU); // 180 x 1 tiles
        assert_eq!(p.for_output(22912, 128), Params::GPU_SMALL); // 179 x 1

        // Only the GPU form changes with the size.
        assert_eq!(Params::CPU.for_output(1, 1), Params::CPU);
        assert_eq!(Params::GPU_SMALL.for_output(4096, 4096), Params::GPU_SMALL);
        assert_eq!(
            Params::GPU_NARROW.for_output(4096, 4096),
            Params::GPU_NARROW
        );
    }

    #[test]
    fn outputs_near_1024_of_whole_tiles_get_the_double_buffered_form() {
        let h200 = info(false, 49152, 1024);
        let gpu = Params::GPU;
        let double = Params::GPU_DOUBLE;
        assert_eq!(double.workgroup_bytes(), 20480);
        assert_eq!(double.workgroup_size(), (8, 16));
        assert_eq!(double.tile(), (32, 128));
        assert_eq!(gpu.for_product(1024, 1024, 1024, &h200), double); // 8 x 32
        assert_eq!(gpu.for_product(768, 768, 768, &h200), double); // 6 x 24 = 144
        assert_eq!(gpu.for_product(1024, 32, 1024, &h200), double);
        // Fewer than 144 tiles, or where the narrow form would not run: as before.
        assert_eq!(gpu.for_product(640, 640, 640, &h200), Params::GPU_NARROW); // 5 x 20
        assert_eq!(gpu.for_product(1152, 1152, 1152, &h200), Params::GPU_SMALL);
        assert_eq!(gpu.for_product(2048, 2048, 2048, &h200), gpu);
        // Not whole tiles, or k not whole pairs of slices: the narrow form.
        assert_eq!(gpu.for_product(1000, 1024, 1024, &h200), Params::GPU_NARROW);
        assert_eq!(gpu.for_product(1024, 1024, 1000, &h200), Params::GPU_NARROW);
        assert_eq!(gpu.for_product(1024, 1008, 1024, &h200), Params::GPU_NARROW);
        assert_eq!(gpu.for_product(1024, 1023, 1024, &h200), Params::GPU_NARROW);
        // A device without 20 KiB of workgroup memory (WebGPU's default is 16 KiB).
        let defaults = info(false, 16384, 256);
        assert_eq!(
            gpu.for_product(1024, 1024, 1024, &defaults),
            Params::GPU_NARROW
        );
        // The other forms stay; a forced double form runs whole tiles and gives way
        // to the GPU form's choice elsewhere.
        assert_eq!(
            Params::CPU.for_product(1024, 1024, 1024, &h200),
            Params::CPU
        );
        assert!(double.fits(&info(true, 32768, 256)));
        assert_eq!(double.for_product(128, 32, 32, &h200), double);
        assert_eq!(
            double.for_product(4096, 4096, 4096, &h200),
            double,
            "forced, any size of whole tiles"
        );
        assert_eq!(
            double.for_product(128, 48, 32, &h200),
            gpu.for_output(128, 32)
        );
        assert_eq!(
            double.for_product(100, 32, 32, &h200),
            gpu.for_output(100, 32)
        );
        assert!(!double.runs(128, 0, 32));
        assert_eq!(Fit::of(&double, 256, 96, 128), Fit::Tiles);
        assert_eq!(double.constants(Fit::Tiles), vec![]);
    }

    #[test]
    fn the_double_form_compiles_its_two_k_loops_written_out() {
        let source = Params::GPU_DOUBLE.source(Fit::Tiles);
        assert!(!source.contains(K_LOOP));
        assert_eq!(source.matches("{ let k = 15u;").count(), 2);
        // The file builds in what the engine assumes of it.
        assert_has(
            &source,
            &[
                "@workgroup_size(8, 16)",
                "let row0 = group.y * 128u;",
                "let col0 = group.x * 32u;",
                "const BK: u32 = 16u;",
                "var<workgroup> a_tile: array<array<array<vec4f, 32>, 16>, 2>;",
                "var<workgroup> b_tile: array<array<array<vec4f, 8>, 16>, 2>;",
                "k0 += 2u * BK",
            ],
        );
        assert_eq!(
            Params::GPU_DOUBLE.file(Fit::Tiles),
            "wgsl/matmul/3_register_double.wgsl"
        );
    }

    #[test]
    fn the_small_tiles_are_what_their_workgroups_cover() {
        let p = Params::GPU_SMALL;
        assert_eq!(p.tile(), (64, 64));
        assert_eq!(p.workgroup_size(), (16, 8));
        let s = p.source(Fit::Vec4);
        // The file's defaults are the 64 x 64 form's: it sets no constant.
        assert_has(
            &s,
            &[
                "override TILE_N4: u32 = 16u;",
                "@workgroup_size(TILE_N4, 8)",
                "let row0 = group.y * 64u;",
                "let col0 = group.x * TILE_N4 * 4u;",
                "const BK: u32 = 16u;",
                // BK x 64 / 4 vec4s per tile, for both widths.
                "array<array<vec4f, 16>, 16>",
            ],
        );
        assert_eq!(p.workgroup_bytes(), 2 * 16 * 16 * 16);
        // Whole tiles keep the checked pipeline here (measured faster).
        assert_eq!(Fit::of(&p, 64, 16, 64), Fit::Vec4);
        assert_eq!(p.constants(Fit::Vec4), vec![]);
        assert!(s.contains("override EDGES: bool = true;"));
        // The narrow form: the same file, half as wide, checks compiled out on whole
        // tiles.
        let n = Params::GPU_NARROW;
        assert_eq!(n.tile(), (32, 64));
        assert_eq!(n.workgroup_size(), (8, 8));
        assert_eq!(n.workgroup_bytes(), p.workgroup_bytes());
        assert_eq!(n.source(Fit::Vec4), s);
        assert_eq!(Fit::of(&n, 64, 16, 32), Fit::Tiles);
        assert_eq!(Fit::of(&n, 64, 16, 64), Fit::Tiles);
        assert_eq!(Fit::of(&n, 64, 16, 36), Fit::Vec4);
        assert_eq!(Fit::of(&n, 32, 16, 32), Fit::Vec4);
        assert_eq!(
            n.constants(Fit::Tiles),
            vec![("TILE_N4", 8.0), ("EDGES", 0.0)]
        );
        assert_eq!(
            n.constants(Fit::Vec4),
            vec![("TILE_N4", 8.0), ("EDGES", 1.0)]
        );
        assert_eq!(n.constants(Fit::Any), vec![]);
        // Unaligned shapes: the array form with these sizes.
        assert!(p.source(Fit::Any).starts_with("const BM: u32 = 64u;"));
        assert!(n
            .source(Fit::Any)
            .starts_with("const BM: u32 = 64u;\nconst BN: u32 = 32u;"));
        assert_eq!(p.file(Fit::Tiles), "wgsl/matmul/3_register_64.wgsl");
        assert_eq!(n.file(Fit::Tiles), "wgsl/matmul/3_register_64.wgsl");
        assert_eq!(p.file(Fit::Any), "wgsl/matmul/3_register_any.wgsl");
        assert_eq!(Params::GPU.file(Fit::Vec4), "wgsl/matmul/3_register.wgsl");
        assert_eq!(
            Params::CPU.file(Fit::Any),
            "wgsl/matmul/3_register_cpu_any.wgsl"
        );
    }

    #[test]
    fn the_stream_k_form_is_the_gpu_form_with_its_parts_shared() {
        use crate::plan::stream_k::{SLICE, TILE};
        assert_eq!(
            Params::GPU,
            Params::Staged {
                bm: TILE as u32,
                bn: TILE as u32,
                bk: SLICE as u32,
                tm: 16,
                tn: 8
            }
        );
        let sk = stream_k_source();
        let plain = Params::GPU.source(Fit::Tiles);
        assert_eq!(sk.matches("{ let k = 15u;").count(), 1);
        assert!(sk.contains("var<uniform> sk: StreamK;") && !plain.contains("StreamK"));
        assert!(plain.contains("fn part_count(group: vec3u, li: u32) -> u32 {\n    return 1u;"));
        // The same kernel after the part functions, the plain one with its one part
        // as a block.
        let kernel = |s: &str| s[s.find("// Kernel \"register\"").unwrap()..].to_string();
        assert!(sk.contains(PART_LOOP) && !sk.contains(ONE_PART));
        assert!(plain.contains(ONE_PART) && !plain.contains(PART_LOOP));
        assert_eq!(kernel(&sk).replacen(PART_LOOP, ONE_PART, 1), kernel(&plain));
        let fixup = stream_k_fixup_source();
        assert!(fixup.contains("fn first_iteration(w: u32)") && fixup.ends_with("}\n"));
        assert!(fixup.contains("sr_add("));
    }

    #[test]
    fn fit_follows_the_tiles() {
        let p = Params::GPU;
        assert_eq!(Fit::of(&p, 4096, 4096, 4096), Fit::Tiles);
        assert_eq!(Fit::of(&p, 128, 16, 128), Fit::Tiles);
        // A partial tile in rows, cols or the slice of k keeps the checks.
        assert_eq!(Fit::of(&p, 4095, 4096, 4096), Fit::Vec4);
        assert_eq!(Fit::of(&p, 128, 20, 128), Fit::Vec4);
        assert_eq!(Fit::of(&p, 128, 128, 132), Fit::Vec4);
        assert_eq!(Fit::of(&p, 128, 130, 128), Fit::Any);
        assert_eq!(Fit::of(&p, 1, 1, 1), Fit::Any);
        // The CPU form has no tiles to fit and no EDGES to set.
        assert_eq!(Fit::of(&Params::CPU, 128, 128, 128), Fit::Vec4);
        assert_eq!(Params::CPU.constants(Fit::Vec4), vec![]);
        assert_eq!(p.constants(Fit::Tiles), vec![("EDGES", 0.0)]);
        assert_eq!(p.constants(Fit::Vec4), vec![("EDGES", 1.0)]);
        assert_eq!(p.constants(Fit::Any), vec![]);
    }
}
