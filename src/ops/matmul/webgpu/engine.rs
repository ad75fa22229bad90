//! The product on a WebGPU engine: the register kernel's parameters for this device
//! and shape, the pipeline key of a product, and stream-K tails on whole tiles (their
//! state kept with the device through `GpuEngine::state`).

use crate::common::map::VecMap;
use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::JsValue;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::gpu_map_mode;

use super::register::CPU_K_PASS;
use super::{product_workgroups, Fit, PipelineKey, RegisterParams};
use crate::engine::webgpu::{line_workgroups, Bound, DeviceState, GpuEngine, GpuMatrix};
use crate::error::{GpgpuError, Result};
use crate::kernels::{Backend, Kernel};
use crate::plan::semiring::Semiring;
use crate::plan::shape;
use crate::plan::stream_k::StreamK;
use crate::webgpu::buffer::{check_size, MATRIX, READBACK, UNIFORM};
use crate::webgpu::{Buffer, GpuInfo, Timer};

/// How many workgroups of the 128 × 128 register kernel the GPU runs at once, which
/// sizes its products' stream-K tails (plan/src/stream_k.rs). Measured by the kernel
/// itself: the first whole-tile product of that form with more tiles than any
/// measured before counts its workgroups running at once (`StreamK::measure`), and
/// the count arrives with a readback of its own. A count as large as the product's
/// tiles says only that all of them fit at once; a larger product asks again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resident {
    /// Not known yet; products up to `tried` tiles told nothing.
    Unknown {
        tried: usize,
    },
    /// A count is on its way from a product of `tiles` tiles.
    Measuring {
        tiles: usize,
    },
    Known(u32),
    /// No stream-K (a software adapter, or set so).
    Off,
}

/// The stream-K state of an engine: the count, the scratch buffer of the shared
/// tiles' parts and the counter the measurement uses.
///
/// Its two pipelines compile in the background (`createComputePipelineAsync`), so that
/// the first products of the 128 × 128 form pay one compile, not three: until they
/// arrive (`arrived`, with the generation of the device they were made for) products
/// run plainly.
struct StreamKState {
    resident: Rc<Cell<Resident>>,
    scratch: Option<Buffer>,
    counter: Option<Buffer>,
    /// The uniform blocks of the plans run, by their words (a chain's products share
    /// theirs).
    blocks: VecMap<Vec<u32>, Buffer>,
}

impl StreamKState {
    fn new(info: &GpuInfo) -> StreamKState {
        let start = match info.is_software() {
            true => Resident::Off,
            false => Resident::Unknown { tried: 0 },
        };
        StreamKState {
            resident: Rc::new(Cell::new(start)),
            scratch: None,
            counter: None,
            blocks: VecMap::new(),
        }
    }

    /// The scratch buffer (at least `scratch_bytes`), the counter and the uniform
    /// block of `words`, made where missing; the caller gives them back.
    fn buffers(
        &mut self,
        e: &mut GpuEngine,
        scratch_bytes: u64,
        words: &[u32],
    ) -> Result<(Buffer, Buffer, Buffer)> {
        if self
            .scratch
            .as_ref()
            .is_none_or(|b| b.size() < scratch_bytes)
        {
            // The old one may be bound by recorded passes: it goes after the submit.
            if let Some(old) = self.scratch.take() {
                e.keep(old);
            }
            self.scratch = Some(Buffer::new(
                e.gpu(),
                scratch_bytes,
                MATRIX,
                "stream-k parts",
            )?);
        }
        if self.counter.is_none() {
            self.counter = Some(Buffer::new(e.gpu(), 8, MATRIX, "stream-k resident count")?);
        }
        let block = match self.blocks.remove(words) {
            Some(b) => b,
            None => {
                let b = Buffer::new(e.gpu(), words.len() as u64 * 4, UNIFORM, "stream-k plan")?;
                b.write_u32(0, words)?;
                b
            }
        };
        match (self.scratch.take(), self.counter.take()) {
            (Some(s), Some(c)) => Ok((s, c, block)),
            _ => Err(e.gpu().failure("the stream-K buffers were not made")),
        }
    }

    fn give_back(&mut self, scratch: Buffer, counter: Buffer, words: &[u32], block: Buffer) {
        self.scratch = Some(scratch);
        self.counter = Some(counter);
        if self.blocks.len() >= BLOCKS_KEPT {
            self.blocks.clear();
        }
        self.blocks.insert(words.to_vec(), block);
    }
}

/// Plan blocks kept, as the engine keeps its uniform blocks.
const BLOCKS_KEPT: usize = 16;

/// What the product keeps with a WebGPU device: the register kernel's parameters
/// (`fixed`: set by `set_register_params` for every shape; otherwise the GPU form
/// picks its tile size per product, `RegisterParams::for_product`) and stream-K's.
struct MatmulState {
    register: RegisterParams,
    fixed: bool,
    stream_k: StreamKState,
}

impl MatmulState {
    fn new(info: &GpuInfo) -> MatmulState {
        MatmulState {
            register: RegisterParams::for_device(info),
            fixed: false,
            stream_k: StreamKState::new(info),
        }
    }
}

impl DeviceState for MatmulState {
    fn trim(&mut self) {
        self.stream_k.scratch = None;
    }
}

impl GpuEngine {
    /// The register kernel's parameters and whether they are fixed, as this device
    /// has them now.
    fn tuning(&self) -> (RegisterParams, bool) {
        match self.state_if_made::<MatmulState>() {
            Some(s) => (s.register, s.fixed),
            None => (RegisterParams::for_device(self.info()), false),
        }
    }

    fn matmul(&mut self) -> &mut MatmulState {
        self.state(MatmulState::new)
    }

    /// The register kernel's form and tile sizes on this device.
    pub fn register_params(&self) -> RegisterParams {
        self.tuning().0
    }

    /// The register kernel's parameters for C (rows × cols) = A (rows × inner) · B
    /// (inner × cols). Fixed parameters hold for every shape their form runs; a
    /// double-buffered form gives way to the GPU form's choice on the others.
    pub fn register_for(&self, rows: usize, inner: usize, cols: usize) -> RegisterParams {
        let (register, fixed) = self.tuning();
        match register {
            p if fixed && p.runs(rows, inner, cols) => p,
            RegisterParams::Double if fixed => RegisterParams::GPU.for_output(rows, cols),
            p => p.for_product(rows, inner, cols, self.info()),
        }
    }

    /// The register kernel as this device runs it, for `info()` and the page.
    pub fn register_description(&self) -> String {
        let (register, fixed) = self.tuning();
        if fixed || register != RegisterParams::GPU {
            return register.describe();
        }
        let tile = |p: RegisterParams| {
            let (cols, rows) = p.tile();
            format!("{rows}x{cols}")
        };
        let form = |p: RegisterParams| match p {
            RegisterParams::Staged { tm, tn, .. } => format!("{} ({tm}x{tn})", tile(p)),
            RegisterParams::Double => format!("{} (8x4)", tile(p)),
            RegisterParams::Cpu => String::new(),
        };
        let RegisterParams::Staged { bk, .. } = RegisterParams::GPU else {
            return register.describe();
        };
        let double = if RegisterParams::GPU_DOUBLE.fits(self.info()) {
            format!(
                "; where the {} tiles would run, on at least {} whole {} tiles with k a \
                 multiple of {}, {} double-buffered (two slices in workgroup memory, one \
                 barrier a slice)",
                tile(RegisterParams::GPU_NARROW),
                RegisterParams::DOUBLE_FROM_TILES,
                tile(RegisterParams::GPU_DOUBLE),
                2 * bk,
                form(RegisterParams::GPU_DOUBLE),
            )
        } else {
            String::new()
        };
        format!(
            "staged: {} tiles of C per workgroup (outputs per invocation); while C has fewer \
             than {} of those, {}, and while it has at most {} of these, {}; k in slices of \
             {bk} through workgroup memory; vec4 loads where inner and cols are multiples of \
             4, element loads otherwise; on whole {} and {} tiles with k a multiple of {bk} \
             the edge checks are compiled out; the k loop over a slice is written out \
             (straight code); on whole {} tiles past a whole wave, the last wave's tiles \
             are shared out slice by slice among as many workgroups as the GPU runs at \
             once (stream-K, a second pass adding up the parts; that count is measured \
             by the first such product){double}",
            form(RegisterParams::GPU),
            RegisterParams::SMALL_BELOW_TILES,
            form(RegisterParams::GPU_SMALL),
            RegisterParams::NARROW_UP_TO_TILES,
            form(RegisterParams::GPU_NARROW),
            tile(RegisterParams::GPU),
            tile(RegisterParams::GPU_NARROW),
            tile(RegisterParams::GPU),
        )
    }

    /// The key of a product pipeline (the register parameters and the shape's fit
    /// matter only to the register kernel, so the others share one entry per semiring).
    pub fn product_key(
        &self,
        kernel: Kernel,
        semiring: Semiring,
        register: RegisterParams,
        fit: Fit,
    ) -> PipelineKey {
        let (register, fit) = match kernel {
            Kernel::Register => (register, fit),
            _ => (RegisterParams::GPU, Fit::Any),
        };
        PipelineKey::Product {
            kernel,
            semiring,
            register,
            fit,
        }
    }

    /// Sets the register kernel's form and tile sizes for every shape (tuning and
    /// tests: the tests run the GPU forms on SwiftShader too). Errors if the device
    /// cannot run them.
    pub fn set_register_params(&mut self, params: RegisterParams) -> Result<()> {
        if !params.fits(self.info()) {
            return Err(GpgpuError::BadArgument {
                name: "register".into(),
                detail: format!(
                    "{} needs {} invocations and {} bytes of workgroup memory; this device \
                     allows {} and {}",
                    params.describe(),
                    params.invocations(),
                    params.workgroup_bytes(),
                    self.info().limits.max_compute_invocations_per_workgroup,
                    self.info().limits.max_compute_workgroup_storage_size
                ),
            });
        }
        let state = self.matmul();
        state.register = params;
        state.fixed = true;
        Ok(())
    }

    /// Sets the register kernel's form as a device of another class would get it,
    /// its tile size then chosen per output as on such a device (`register_for`; the
    /// small tiles need less of everything than the big ones, so they fit too).
    pub fn set_register_params_by_size(&mut self, params: RegisterParams) -> Result<()> {
        self.set_register_params(params)?;
        self.matmul().fixed = false;
        Ok(())
    }

    /// One compute pass: out ← a · b in `semiring`, by `kernel`.
    pub fn product(
        &mut self,
        kernel: Kernel,
        semiring: Semiring,
        [a, b, out]: [&GpuMatrix; 3],
        timer: Option<&Timer>,
    ) -> Result<()> {
        self.ensure()?;
        if kernel.backend() != Backend::WebGpu {
            return Err(GpgpuError::BadArgument {
                name: "kernel".into(),
                detail: format!(
                    "'{}' is a WebGL kernel; this Gpgpu runs WebGPU: use one of {}",
                    kernel.name(),
                    Kernel::WEBGPU.map(|k| k.name()).join(", ")
                ),
            });
        }
        shape::check_product("product", a.shape, b.shape, out.shape)?;
        if let Some(longest) = self.longest_k(kernel).filter(|&l| a.shape.cols > l) {
            // A plain call tiles such a k (`work`); a run or an operation holds it whole.
            return Err(GpgpuError::DeviceLimit {
                what: format!(
                    "A product by kernel '{}' with k = {}",
                    kernel.name(),
                    a.shape.cols
                ),
                needed: a.shape.cols as f64,
                unit: "steps of k in one pass",
                limit_name: "what this software adapter sums in one shader (it may end a \
                             shader's loops after 65,535 iterations, silently)",
                limit: longest as f64,
                hint: "Use the register kernel, which sums k in passes, or a plain product, \
                       which cuts k into tiles.",
            });
        }
        self.poison(out)?;
        let register = self.register_for(a.shape.rows, a.shape.cols, b.shape.cols);
        let fit = Fit::of(&register, a.shape.rows, a.shape.cols, b.shape.cols);
        let key = self.product_key(kernel, semiring, register, fit);
        let groups = product_workgroups(kernel, register, out.shape);
        let words = [
            a.shape.rows as u32,
            a.shape.cols as u32,
            b.shape.cols as u32,
            0,
        ];
        let whole_tiles = register == RegisterParams::GPU && fit == Fit::Tiles;
        if kernel == Kernel::Register && whole_tiles {
            let how = self.stream_k_plan(groups.0 * groups.1, words);
            if how.is_some() && self.stream_k_ready(semiring) {
                let how = how.flatten();
                return self.stream_k_product(semiring, [a, b, out], words, how, timer);
            }
        }
        if register == RegisterParams::CPU && kernel == Kernel::Register {
            return self.product_in_k_passes(&key, [a, b, out], words, groups, timer);
        }
        self.dispatch(
            &key,
            &[a.buffer(), b.buffer(), out.buffer()],
            &words,
            groups,
            timer,
        )
    }

    /// The longest k one pass of `kernel` sums in full on this device (None: any). A
    /// software adapter may end a shader's loops after 65,535 iterations in all, without
    /// an error (Mesa's lavapipe: Firefox's WebGPU on a machine without a GPU), and
    /// global and tiled16, kept line for line with their CUDA, loop once per k, so a
    /// longer k is cut into tiles whose products are summed (`work`). The register
    /// kernel's form there runs k in passes of its own ([`CPU_K_PASS`]).
    pub fn longest_k(&self, kernel: Kernel) -> Option<usize> {
        let looped = matches!(kernel, Kernel::Global | Kernel::Tiled16);
        (looped && self.info().is_software()).then_some(CPU_K_PASS)
    }

    /// A CPU form's product in passes of at most [`CPU_K_PASS`] k each (one pass where
    /// k is shorter), the fourth word the pass's first k; timed from the first pass's
    /// start to the last one's end.
    fn product_in_k_passes(
        &mut self,
        key: &PipelineKey,
        [a, b, out]: [&GpuMatrix; 3],
        words: [u32; 4],
        groups: (usize, usize),
        timer: Option<&Timer>,
    ) -> Result<()> {
        let starts: Vec<usize> = (0..(words[1] as usize).max(1))
            .step_by(CPU_K_PASS)
            .collect();
        let last = starts.len() - 1;
        for (n, &k0) in starts.iter().enumerate() {
            let writes = timer.and_then(|t| match (n, last) {
                (0, 0) => Some(t.writes()),
                (0, _) => Some(t.begin_writes()),
                (n, last) if n == last => Some(t.end_writes()),
                _ => None,
            });
            let bound = Bound {
                first: 0,
                before: &[a.buffer(), b.buffer(), out.buffer()],
                words: &[words[0], words[1], words[2], k0 as u32],
                after: &[],
            };
            self.dispatch_bound(key, bound, groups, writes)?;
        }
        Ok(())
    }

    /// How many workgroups of the 128 × 128 form this GPU runs at once (stream-K's
    /// count: `Resident`).
    pub fn stream_k_resident(&self) -> Resident {
        match self.state_if_made::<MatmulState>() {
            Some(s) => s.stream_k.resident.get(),
            None => StreamKState::new(self.info()).resident.get(),
        }
    }

    /// Sets that count (tests and tuning: the tests run stream-K on SwiftShader with
    /// small counts, or measure it there); `Known(0)` is `Off`.
    pub fn set_stream_k_resident(&mut self, resident: Resident) {
        let resident = match resident {
            Resident::Known(0) => Resident::Off,
            r => r,
        };
        self.matmul().stream_k.resident = Rc::new(Cell::new(resident));
    }

    /// Whether the stream-K pipelines of `semiring` have been compiled; starts their
    /// compiles in the background if not (see `StreamKState`).
    fn stream_k_ready(&mut self, semiring: Semiring) -> bool {
        self.compiled_in_background(&[
            &PipelineKey::StreamK { semiring },
            &PipelineKey::StreamKFixup { semiring },
        ])
    }

    /// Compiles the stream-K pipelines of `semiring` now, where products would
    /// compile them in the background (tests and tuning).
    pub fn compile_stream_k(&mut self, semiring: Semiring) {
        self.prepare(&PipelineKey::StreamK { semiring });
        self.prepare(&PipelineKey::StreamKFixup { semiring });
    }

    /// Whether a whole-tile product of the 128 × 128 form with `tiles` tiles runs a
    /// stream-K tail (Some(plan)), measures the count (Some(None)), or runs plainly.
    fn stream_k_plan(
        &self,
        tiles: usize,
        [rows, inner, cols, _]: [u32; 4],
    ) -> Option<Option<StreamK>> {
        let max = self.info().limits.max_compute_workgroups_per_dimension as usize;
        let dims = [rows as usize, inner as usize, cols as usize];
        match self.stream_k_resident() {
            Resident::Known(w) => {
                let plan = StreamK::plan(dims, w as usize, max)?;
                let bytes = plan.scratch_floats() as f64 * 4.0;
                let room = check_size("the stream-K scratch buffer", bytes, &self.info().limits);
                room.is_ok().then_some(Some(plan))
            }
            Resident::Unknown { tried } if tiles > tried && tiles <= max => Some(None),
            _ => None,
        }
    }

    /// A whole-tile product of the 128 × 128 form with a stream-K tail (`plan`), or
    /// counting its workgroups running at once (None: every tile a workgroup, as the
    /// plain form runs them). The count arrives by a readback of its own, which sets
    /// `Resident` when it does.
    fn stream_k_product(
        &mut self,
        semiring: Semiring,
        [a, b, out]: [&GpuMatrix; 3],
        dims: [u32; 4],
        plan: Option<StreamK>,
        timer: Option<&Timer>,
    ) -> Result<()> {
        let shape = [dims[0] as usize, dims[1] as usize, dims[2] as usize];
        let (words, groups) = match plan {
            Some(p) => (p.words(), p.groups()),
            None => {
                let words = StreamK::measure(shape);
                (words, words[0] as usize)
            }
        };
        let scratch_bytes = plan.map_or(16, |p| p.scratch_floats() as u64 * 4);
        // Out of the engine while they are bound (a dispatch borrows it whole).
        let mut sk = self.take_state(MatmulState::new);
        let made = sk.stream_k.buffers(self, scratch_bytes, &words);
        let (scratch, counter, block) = match made {
            Ok(made) => made,
            Err(e) => {
                self.put_state(sk);
                return Err(e);
            }
        };
        if plan.is_none() {
            // Zeroed before the pass that counts (writeBuffer goes before the submit).
            self.flush();
            if let Err(e) = counter.write_u32(0, &[0, 0]) {
                sk.stream_k.give_back(scratch, counter, &words, block);
                self.put_state(sk);
                return Err(e);
            }
        }
        let writes = |last: bool| match (timer, plan, last) {
            (Some(t), None, _) => Some(t.writes()),
            (Some(t), Some(_), false) => Some(t.begin_writes()),
            (Some(t), Some(_), true) => Some(t.end_writes()),
            (None, ..) => None,
        };
        let main = Bound {
            first: 0,
            before: &[a.buffer(), b.buffer(), out.buffer()],
            words: &dims,
            after: &[&block, &scratch, &counter],
        };
        let mut done = self.dispatch_bound(
            &PipelineKey::StreamK { semiring },
            main,
            (groups, 1),
            writes(false),
        );
        if let (Ok(()), Some(p)) = (&done, plan) {
            let max = self.info().limits.max_compute_workgroups_per_dimension as usize;
            let fixup = Bound {
                first: 2,
                before: &[out.buffer()],
                words: &dims,
                after: &[&block, &scratch],
            };
            let lines = line_workgroups(p.shared_tiles() * 4096, max);
            done = self.dispatch_bound(
                &PipelineKey::StreamKFixup { semiring },
                fixup,
                lines,
                writes(true),
            );
        }
        let tiles = groups;
        let read = match (&done, plan) {
            (Ok(()), None) => {
                let cell = sk.stream_k.resident.clone();
                Some(self.read_count(&counter, tiles, cell))
            }
            _ => None,
        };
        sk.stream_k.give_back(scratch, counter, &words, block);
        self.put_state(sk);
        done?;
        read.transpose().map(|_| ())
    }

    /// Reads the count of a measuring product back, and sets `Resident` from it when
    /// it arrives: Known where fewer than the product's tiles ran at once.
    fn read_count(
        &mut self,
        counter: &Buffer,
        tiles: usize,
        cell: Rc<Cell<Resident>>,
    ) -> Result<()> {
        let staging = Buffer::new(self.gpu(), 8, READBACK, "stream-k count readback")?;
        let copied = self
            .encoder()
            .copy_buffer_to_buffer_with_f64_and_f64_and_f64(
                counter.raw(),
                0.0,
                staging.raw(),
                0.0,
                8.0,
            );
        self.flush();
        copied.map_err(|e| self.gpu().threw("copyBufferToBuffer", &e))?;
        cell.set(Resident::Measuring { tiles });
        let mapped = JsFuture::from(js_sys::Promise::from(JsValue::from(
            staging.raw().map_async(gpu_map_mode::READ),
        )));
        spawn_local(async move {
            let most = match mapped.await {
                Ok(_) => staging
                    .raw()
                    .get_mapped_range()
                    .ok()
                    .map(|r| js_sys::Uint32Array::new(&r).get_index(1)),
                Err(_) => None,
            };
            // A later setting (or a replaced device's state) is not this count's to change.
            if cell.get() != (Resident::Measuring { tiles }) {
                return;
            }
            cell.set(match most {
                Some(w) if w > 0 && (w as usize) < tiles => Resident::Known(w),
                _ => Resident::Unknown { tried: tiles },
            });
            drop(staging);
        });
        Ok(())
    }

    /// The complete WGSL source of a product kernel as this device compiles it for
    /// an n × n product, headed by a comment with the override constants its pipeline
    /// is made with (the text itself declares their defaults).
    pub fn product_source(&self, kernel: Kernel, semiring: Semiring, n: usize) -> String {
        let (register, fit) = self.square_form(n);
        let key = self.product_key(kernel, semiring, register, fit);
        let whole_tiles = register == RegisterParams::GPU && fit == Fit::Tiles;
        let words = [n as u32, n as u32, n as u32, 0];
        let tiles = n.div_ceil(128).pow(2);
        let compiled = self.compiled(&PipelineKey::StreamK { semiring });
        let planned = match kernel == Kernel::Register && whole_tiles && compiled {
            true => self.stream_k_plan(tiles, words).flatten(),
            false => None,
        };
        let Some(plan) = planned else {
            return format!(
                "// Pipeline constants for an n x n product, n = {n}: {}.\n{}",
                key.constants_comment(),
                key.source()
            );
        };
        let sk = PipelineKey::StreamK { semiring };
        let fixup = PipelineKey::StreamKFixup { semiring };
        format!(
            "// Pipeline constants for an n x n product, n = {n}: {}.\n// Stream-K: tiles \
             0..{} a workgroup each, the last {} tiles' k shared out among {} workgroups (as \
             many as this GPU runs at once), then a second pass adds their parts up (its \
             source follows this one).\n{}\n// The second pass (wgsl/matmul/4_stream_k_fixup.wgsl \
             after the declarations it shares).\n{}",
            sk.constants_comment(),
            plan.data_tiles,
            plan.shared_tiles(),
            plan.workgroups,
            sk.source(),
            fixup.source()
        )
    }

    /// The WGSL file behind that source.
    pub fn product_file(&self, kernel: Kernel, n: usize) -> &'static str {
        let (register, fit) = self.square_form(n);
        match kernel {
            Kernel::Register => register.file(fit),
            other => other.file(),
        }
    }

    /// The register kernel's parameters and fit for an n × n product.
    fn square_form(&self, n: usize) -> (RegisterParams, Fit) {
        let register = self.register_for(n, n, n);
        (register, Fit::of(&register, n, n, n))
    }
}
