//! The WebGPU engine: one GPUDevice with its pipeline cache and a pool of storage
//! buffers, and the three things data does: upload (`queue.writeBuffer`) → compute
//! passes → readback (a copy into a mappable buffer, `mapAsync`; never blocking).
//!
//! A lost device (`device.lost`: a driver reset, or `device.destroy()`) is
//! replaced: the loss starts a request for a new device at once, and the first call
//! after it arrives swaps it in, forgets every object of the old one and bumps the
//! generation, so that runs of the old device fail clearly.

use crate::common::map::VecMap;
use std::any::TypeId;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{
    GpuAdapter, GpuCommandEncoder, GpuComputePassDescriptor, GpuComputePassEncoder, GpuDevice,
    GpuPowerPreference, GpuUncapturedErrorEvent,
};

mod loss;
mod read;
mod state;

pub use crate::webgpu::lost::{lost_at_once, lost_within};
use loss::{watch, Asked, Replacement};
pub use read::{read_parts, GpuRead};
pub use state::DeviceState;

use super::program::{ComputeProgram, ProgramId, StaticWgsl};
use crate::error::{GpgpuError, Result};
use crate::plan::shape::{self, Shape};
use crate::webgpu::adapter;
use crate::webgpu::buffer::{allocated_size, check_size, keep_recent, MATRIX, UNIFORM};
use crate::webgpu::staging;
use crate::webgpu::{
    BindGroup, Buffer, ComputePipeline, Gpu, GpuInfo, LiveCounts, StagingPool, Timer,
};

/// The engine's own program: every entry of a matrix set to one value (poisoning).
pub(crate) const FILL: StaticWgsl = StaticWgsl::new("fill", || {
    include_str!("../../../wgsl/common/fill.wgsl").into()
});

/// Free matrix buffers kept for reuse (creating buffers costs on real GPUs).
const POOL_MAX_BUFFERS: usize = 6;
const POOL_MAX_BYTES: u64 = 512 << 20;
/// Uniform blocks kept, keyed by content (a chain's passes share theirs).
const UNIFORMS_MAX: usize = 64;
/// The most compute passes recorded into one command buffer before it is submitted
/// (TF.js batches 15). On the H100 a submit per pass measured no slower (bench/NOTES.md),
/// but fewer submits cost the browser less bookkeeping. A readback, an upload,
/// `whenDone()` and a timed step submit at once.
const PASSES_PER_SUBMIT: usize = 16;
/// Invocations along each side of the 2D kernels' workgroups (global, tiled16,
/// affine, heatmap): the largest dimension is this many times the workgroup limit.
const WORKGROUP_SIDE: usize = 16;

/// Commands recorded but not yet submitted: the encoder, how many passes it holds,
/// and temporary buffers they use (destroyed only after the submit: a buffer
/// destroyed before it is an error).
///
/// Untimed passes share one open GPUComputePassEncoder and reuse the bind groups
/// already made for the same pipeline and buffers: WebGPU scopes a compute pass's
/// buffer usage per dispatch, so a pass reading what the one before wrote needs no
/// pass of its own, and a chain's ping-pong binds the same two sets over and over.
/// Each beginComputePass / end and createBindGroup is a call into the browser's GPU
/// process that a chain paid per pass (bench/NOTES.md, 2026-11-29).
struct Batch {
    encoder: GpuCommandEncoder,
    passes: usize,
    keep: Vec<Buffer>,
    /// Uniform blocks whose words follow the data (`uniform_follows_data`).
    uniforms: VecMap<Vec<u32>, Buffer>,
    /// The compute pass open for untimed dispatches, and the pipeline it has set.
    open: Option<(GpuComputePassEncoder, ProgramId)>,
    /// Bind groups made for this batch's dispatches, by pipeline and buffer ids
    /// (ids are never reused, so an entry cannot match a newer buffer).
    groups: VecMap<(ProgramId, Vec<u64>), BindGroup>,
}

impl Batch {
    fn new(gpu: &Gpu) -> Batch {
        Batch {
            encoder: gpu.device().create_command_encoder(),
            passes: 0,
            keep: vec![],
            uniforms: VecMap::new(),
            open: None,
            groups: VecMap::new(),
        }
    }

    /// Ends the open compute pass, if any: before a copy, a resolve, a timed pass or
    /// `finish`, which an open pass would make invalid.
    fn end_pass(&mut self) {
        if let Some((pass, _)) = self.open.take() {
            pass.end();
        }
    }
}

/// What a dispatch binds, at consecutive bindings from `first`: `before`, a uniform
/// block holding `words`, then `after`.
pub struct Bound<'a> {
    pub first: u32,
    pub before: &'a [&'a Buffer],
    pub words: &'a [u32],
    pub after: &'a [&'a Buffer],
}

/// A matrix resident on the GPU: a row-major array of f32 in one storage buffer. Its
/// parts are read-only outside the crate (the getters): a shape set by hand no longer
/// described the buffer, and the passes then read or wrote past it.
pub struct GpuMatrix {
    pub(crate) shape: Shape,
    pub(crate) buffer: Buffer,
}

impl GpuMatrix {
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The storage buffer holding it.
    pub fn buffer(&self) -> &Buffer {
        &self.buffer
    }
}

/// Workgroups of 256 invocations covering `count` elements, as a 2D grid (a
/// dimension holds at most `max_per_dimension`).
pub fn line_workgroups(count: usize, max_per_dimension: usize) -> (usize, usize) {
    let groups = count.div_ceil(256).max(1);
    if groups <= max_per_dimension {
        return (groups, 1);
    }
    (max_per_dimension, groups.div_ceil(max_per_dimension))
}

/// Pipelines compiling off the page's thread, and those that have arrived (with the
/// generation of the device they were made for).
#[derive(Default)]
struct Background {
    compiling: Vec<ProgramId>,
    arrived: Rc<RefCell<Vec<Arrival>>>,
}

/// A pipeline compiled in the background: the generation of the device it was made
/// for, its program's id, and the pipeline (None if the browser could not make it).
type Arrival = (u32, ProgramId, Option<ComputePipeline>);

pub struct GpuEngine {
    /// Unique per engine, so a run can tell whose buffers it holds.
    id: u64,
    gpu: Gpu,
    info: GpuInfo,
    power: Option<GpuPowerPreference>,
    counts: Rc<Cell<LiveCounts>>,
    pipelines: VecMap<ProgramId, ComputePipeline>,
    free: Vec<Buffer>,
    /// Mappable buffers kept for large uploads and readbacks.
    staging: StagingPool,
    uniforms: VecMap<Vec<u32>, Buffer>,
    poison: Option<f32>,
    generation: u32,
    replacement: Rc<RefCell<Replacement>>,
    /// Commands recorded but not yet submitted.
    pending: Option<Batch>,
    /// Passes after which the batch being recorded is submitted: 1 after a sync point
    /// (an upload, a readback, `whenDone()`), doubling to PASSES_PER_SUBMIT, so an idle
    /// GPU starts on the first pass while the page records the next ones instead of
    /// waiting for 16 to be recorded.
    submit_after: usize,
    background: Background,
    /// What operations keep with the device (`state`), by type.
    states: VecMap<TypeId, Box<dyn DeviceState>>,
    /// Keeps the uncaptured-error handler alive as long as its device.
    _on_error: Closure<dyn FnMut(GpuUncapturedErrorEvent)>,
}

impl GpuEngine {
    /// An engine on a new device of a new adapter (`power`: the adapter preference).
    pub async fn create(power: Option<GpuPowerPreference>) -> Result<GpuEngine> {
        let adapter = adapter::request_adapter(power).await?;
        GpuEngine::on_adapter(adapter, power).await
    }

    /// An engine on a new device of `adapter`.
    pub async fn on_adapter(
        adapter: GpuAdapter,
        power: Option<GpuPowerPreference>,
    ) -> Result<GpuEngine> {
        let device = adapter::request_device(&adapter).await?;
        Ok(GpuEngine::on_device(adapter, device, power))
    }

    /// An engine on `device`, already asked of `adapter` (a loss asks `power`'s adapter
    /// for its replacement).
    pub fn on_device(
        adapter: GpuAdapter,
        device: GpuDevice,
        power: Option<GpuPowerPreference>,
    ) -> GpuEngine {
        let counts = Rc::new(Cell::new(LiveCounts::default()));
        let replacement = Rc::new(RefCell::new(Replacement {
            asked: 0,
            state: Asked::Idle,
        }));
        let info = adapter::describe(&adapter, &device);
        let gpu = Gpu::new(device, counts.clone());
        gpu.nudger().set_enabled(crate::webgpu::nudge::helps(&info));
        let on_error = watch(&gpu, &replacement, power);
        GpuEngine {
            id: crate::common::next_engine_id(),
            background: Background::default(),
            states: VecMap::new(),
            gpu,
            info,
            power,
            counts,
            pipelines: VecMap::new(),
            free: Vec::new(),
            staging: StagingPool::default(),
            uniforms: VecMap::new(),
            poison: None,
            generation: 0,
            replacement,
            pending: None,
            submit_after: 1,
            _on_error: on_error,
        }
    }

    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// This engine's identity: no two engines of a page share one.
    pub fn id(&self) -> u64 {
        self.id
    }

    pub fn info(&self) -> &GpuInfo {
        &self.info
    }

    /// Bumped each time a lost device is replaced.
    pub fn generation(&self) -> u32 {
        self.generation
    }

    pub fn live_objects(&self) -> LiveCounts {
        self.counts.get()
    }

    /// The names of the pipelines compiled so far, sorted (which variant of a kernel
    /// a shape ran: the tests check the choice).
    pub fn pipeline_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.pipelines.values().map(|p| p.name().into()).collect();
        names.sort();
        names
    }

    /// Destroys the device on purpose (the owner freed the engine): work in flight
    /// fails as Freed, and no replacement is asked for.
    pub fn release(&mut self) {
        self.pending = None;
        self.gpu.release();
        self.pipelines.clear();
        self.free.clear();
        self.staging.clear();
        self.uniforms.clear();
        self.states.clear();
        self.gpu.device().destroy();
    }

    pub fn set_poison(&mut self, value: Option<f32>) {
        self.poison = value;
    }

    /// The largest dimension a matrix may have: the 2D kernels launch one workgroup
    /// per 16 rows or columns, at most maxComputeWorkgroupsPerDimension of them.
    pub fn max_dimension(&self) -> usize {
        self.info.limits.max_compute_workgroups_per_dimension as usize * WORKGROUP_SIDE
    }

    /// Checks a dimension (a whole number) against the workgroup limit
    /// (SIZE_OVER_LIMIT naming it).
    pub fn check_dimension(&self, name: &str, value: f64) -> Result<()> {
        let limit = self.info.limits.max_compute_workgroups_per_dimension;
        let groups = (value / WORKGROUP_SIDE as f64).ceil();
        if groups > limit as f64 {
            return Err(GpgpuError::DeviceLimit {
                what: format!("{name} = {}", crate::error::js_number(value)),
                needed: groups,
                unit: "workgroups of 16 along one dimension",
                limit_name: "this WebGPU device's maxComputeWorkgroupsPerDimension",
                limit: limit as f64,
                hint: crate::error::WEBGPU_LIMIT_HINT,
            });
        }
        Ok(())
    }

    /// Checks that a matrix of `shape` fits one buffer and one binding.
    pub fn check_shape(&self, shape: Shape) -> Result<()> {
        check_size(
            &format!("a {}x{} matrix", shape.rows, shape.cols),
            // In f64: from 65536 x 65536 the usize product wraps on wasm32 (to 0 there).
            shape.rows as f64 * shape.cols as f64 * 4.0,
            &self.info.limits,
        )
    }

    /// A matrix buffer for `shape`, from the pool when one of its size is there.
    pub fn alloc(&mut self, shape: Shape) -> Result<GpuMatrix> {
        self.ensure()?;
        self.check_shape(shape)?;
        let bytes = allocated_size(shape.len() as u64 * 4);
        let buffer = match self.free.iter().position(|b| b.size() == bytes) {
            Some(i) => self.free.swap_remove(i),
            None => Buffer::new(&self.gpu, bytes, MATRIX, "matrix")?,
        };
        Ok(GpuMatrix { shape, buffer })
    }

    /// Returns a matrix's buffer to the pool (the oldest go past its limits); a
    /// buffer of a lost device is dropped instead.
    pub fn recycle(&mut self, m: GpuMatrix) {
        // Recorded passes may still use it, and the pool may destroy it: submit them.
        self.flush();
        let b = m.buffer;
        if b.size() > POOL_MAX_BYTES || self.gpu.is_lost() || !b.gpu().same(&self.gpu) {
            return;
        }
        keep_recent(&mut self.free, b, POOL_MAX_BUFFERS, POOL_MAX_BYTES);
    }

    /// Drops every pooled buffer now.
    pub fn trim(&mut self) {
        self.flush();
        self.free.clear();
        self.staging.clear();
        self.uniforms.clear();
        for state in self.states.values_mut() {
            state.trim();
        }
    }

    /// Uploads a row-major matrix.
    pub fn upload(&mut self, shape: Shape, data: &[f32]) -> Result<GpuMatrix> {
        // The upload is sized by the shape: longer data threw a RangeError into a mapped
        // range, shorter left the rest of a kept buffer as it was.
        shape::check_len("data", shape, data.len())?;
        self.upload_with(shape, |target| match target {
            Target::Mapped(range) => {
                // SAFETY: the view is used at once, with no allocation in between; made
                // here, after the mapped range's array, whose making may grow wasm
                // memory and so detach a view made before it (crate::wasm_view).
                let view = unsafe { crate::wasm_view::f32_view(data) };
                range.set(&view, 0);
                Ok(())
            }
            Target::Queue(buffer) => buffer.write_f32(0, data),
        })
    }

    /// Uploads the caller's JavaScript array as it is, with no copy into wasm memory
    /// (`engine::input`).
    pub fn upload_js(&mut self, shape: Shape, data: &js_sys::Float32Array) -> Result<GpuMatrix> {
        shape::check_len("data", shape, data.length() as usize)?;
        self.upload_with(shape, |target| match target {
            Target::Mapped(range) => {
                range.set(data, 0);
                Ok(())
            }
            Target::Queue(buffer) => buffer.write_js(0, data),
        })
    }

    /// A new matrix of `shape` that `write` fills: through a kept mapped buffer copied
    /// on the GPU for large data (`staging`'s notes), through writeBuffer otherwise.
    fn upload_with(
        &mut self,
        shape: Shape,
        write: impl FnOnce(Target) -> Result<()>,
    ) -> Result<GpuMatrix> {
        let m = self.alloc(shape)?;
        // writeBuffer runs before any later submit: the recorded passes go first, since
        // a pooled buffer they read may be the one written now.
        self.flush();
        let bytes = shape.len() as u64 * 4;
        let written = if staging::pooled(bytes) {
            self.upload_staged(&m.buffer, bytes, write)
        } else {
            write(Target::Queue(&m.buffer))
        };
        match written {
            Ok(()) => Ok(m),
            Err(e) => {
                self.recycle(m);
                Err(e)
            }
        }
    }

    /// Lets `write` fill a kept mapped buffer and copies it into `target` on the GPU.
    fn upload_staged(
        &mut self,
        target: &Buffer,
        bytes: u64,
        write: impl FnOnce(Target) -> Result<()>,
    ) -> Result<()> {
        let staging = self.staging.write_buffer(&self.gpu, bytes)?;
        let range = staging
            .raw()
            .get_mapped_range_with_f64_and_f64(0.0, bytes as f64)
            .map_err(|e| self.gpu.threw("getMappedRange", &e))?;
        let written = write(Target::Mapped(&js_sys::Float32Array::new(&range)));
        staging.raw().unmap();
        written?;
        let copied = self
            .encoder()
            .copy_buffer_to_buffer_with_f64_and_f64_and_f64(
                staging.raw(),
                0.0,
                target.raw(),
                0.0,
                bytes as f64,
            );
        // Submitted before the buffer is mapped again (a mapped buffer cannot be in a
        // submit).
        self.flush();
        copied.map_err(|e| self.gpu.threw("copyBufferToBuffer", &e))?;
        self.staging.keep_write(staging);
        Ok(())
    }

    /// A uniform block holding `words`, made once per content.
    fn uniform(&mut self, words: &[u32]) -> Result<&Buffer> {
        if !self.uniforms.contains_key(words) {
            // As in upload: recorded passes may use a block about to be dropped.
            self.flush();
            if self.uniforms.len() >= UNIFORMS_MAX {
                self.uniforms.clear();
            }
            let b = Buffer::new(&self.gpu, words.len() as u64 * 4, UNIFORM, "uniforms")?;
            b.write_u32(0, words)?;
            self.uniforms.insert(words.to_vec(), b);
        }
        Ok(&self.uniforms[words])
    }

    /// Compiles `program` now if it is not cached yet (its compiler's verdict comes
    /// with the device's checks: `Gpu::checks().settle()`, or the next readback).
    pub fn prepare(&mut self, program: &dyn ComputeProgram) {
        self.pipeline(program.id(), program);
    }

    /// Drops `program`'s cached pipeline (one that failed to compile), so that the
    /// next use compiles it again.
    pub fn forget(&mut self, program: &dyn ComputeProgram) {
        self.pipelines.remove(&program.id());
    }

    /// Whether `program` has been compiled on this device.
    pub fn compiled(&self, program: &dyn ComputeProgram) -> bool {
        self.pipelines.contains_key(&program.id())
    }

    /// The pipeline of `program` (whose id is `id`), compiled on first use.
    fn pipeline(&mut self, id: ProgramId, program: &dyn ComputeProgram) -> &ComputePipeline {
        let gpu = &self.gpu;
        self.pipelines
            .get_or_insert_with(id, || compile(gpu, program))
    }

    /// The most workgroups a dispatch has along one dimension (grids fold past it).
    pub fn max_workgroups(&self) -> usize {
        self.info.limits.max_compute_workgroups_per_dimension as usize
    }

    /// One pass of `program` over `groups`, binding `matrices` in order then a
    /// uniform block of `words`; each of `written` is poisoned first (when poisoning
    /// is on) so that an entry the pass misses shows.
    pub fn run(
        &mut self,
        program: &dyn ComputeProgram,
        matrices: &[&GpuMatrix],
        written: &[&GpuMatrix],
        words: &[u32],
        groups: (usize, usize),
        timer: Option<&Timer>,
    ) -> Result<()> {
        self.ensure()?;
        for m in written {
            self.poison(m)?;
        }
        let buffers: Vec<&Buffer> = matrices.iter().map(|m| &m.buffer).collect();
        self.dispatch(program, &buffers, words, groups, timer)
    }

    /// Dispatches `key` over (x, y) workgroups binding `buffers` then a uniform
    /// block of `words`; `timer` times the pass.
    pub fn dispatch(
        &mut self,
        key: &dyn ComputeProgram,
        buffers: &[&Buffer],
        words: &[u32],
        groups: (usize, usize),
        timer: Option<&Timer>,
    ) -> Result<()> {
        let bound = Bound {
            first: 0,
            before: buffers,
            words,
            after: &[],
        };
        self.dispatch_bound(key, bound, groups, timer.map(|t| t.writes()))
    }

    /// `dispatch` binding `bound` (buffers, the uniform block of its words, more
    /// buffers, at consecutive bindings from its first), the pass's timestamp writes
    /// given (a span over two passes).
    pub fn dispatch_bound(
        &mut self,
        key: &dyn ComputeProgram,
        bound: Bound,
        groups: (usize, usize),
        writes: Option<web_sys::GpuComputePassTimestampWrites>,
    ) -> Result<()> {
        let Bound {
            first,
            before: buffers,
            words,
            after,
        } = bound;
        let max = self.info.limits.max_compute_workgroups_per_dimension as usize;
        if groups.0 > max || groups.1 > max {
            return Err(GpgpuError::DeviceLimit {
                what: format!("{} over a {}x{} grid", key.name(), groups.0, groups.1),
                needed: groups.0.max(groups.1) as f64,
                unit: "workgroups along one dimension",
                limit_name: "this WebGPU device's maxComputeWorkgroupsPerDimension",
                limit: max as f64,
                hint: crate::error::WEBGPU_LIMIT_HINT,
            });
        }
        // Blocks whose words follow the data (a threshold, a colour range,
        // coefficients) would fill the cache with one-offs and make the live buffer
        // count swing with the inputs: they live in the batch of commands that uses
        // them (shared by its passes) and are destroyed after its submit.
        let follows = key.uniform_follows_data();
        if follows {
            let gpu = &self.gpu;
            let batch = self.pending.get_or_insert_with(|| Batch::new(gpu));
            if !batch.uniforms.contains_key(words) {
                let b = Buffer::new(gpu, words.len() as u64 * 4, UNIFORM, "uniforms")?;
                b.write_u32(0, words)?;
                batch.uniforms.insert(words.to_vec(), b);
            }
        } else {
            self.uniform(words)?;
        }
        // Hashed once a dispatch: the key's id is the cache's key and the batch's.
        let id = key.id();
        self.pipeline(id, key);
        let uniform = match (&self.pending, follows) {
            (Some(batch), true) => &batch.uniforms[words],
            _ => &self.uniforms[words],
        };
        let pipeline = &self.pipelines[&id];
        let mut all: Vec<&Buffer> = buffers.to_vec();
        all.push(uniform);
        all.extend_from_slice(after);
        let ids = (id, all.iter().map(|b| b.id()).collect::<Vec<u64>>());
        let made = match &self.pending {
            Some(batch) if batch.groups.contains_key(&ids) => None,
            _ => Some(pipeline.bind_from(first, &all)),
        };
        let raw = pipeline.raw();
        let gpu = &self.gpu;
        let batch = self.pending.get_or_insert_with(|| Batch::new(gpu));
        if let Some(group) = made {
            batch.groups.insert(ids.clone(), group);
        }
        if writes.is_some() {
            // A timed pass is alone in its compute pass: the timestamps span it only.
            batch.end_pass();
        }
        let group = batch.groups[&ids].raw();
        if let Some(w) = &writes {
            let descriptor = GpuComputePassDescriptor::new();
            descriptor.set_timestamp_writes(w);
            let pass = batch
                .encoder
                .begin_compute_pass_with_descriptor(&descriptor);
            pass.set_pipeline(raw);
            pass.set_bind_group(0, Some(group));
            pass.dispatch_workgroups_with_workgroup_count_y(groups.0 as u32, groups.1 as u32);
            pass.end();
        } else {
            let open = match batch.open.take() {
                Some((pass, set)) => {
                    if set != id {
                        pass.set_pipeline(raw);
                    }
                    pass
                }
                None => {
                    let pass = batch.encoder.begin_compute_pass();
                    pass.set_pipeline(raw);
                    pass
                }
            };
            open.set_bind_group(0, Some(group));
            open.dispatch_workgroups_with_workgroup_count_y(groups.0 as u32, groups.1 as u32);
            batch.open = Some((open, id));
        }
        batch.passes += 1;
        if batch.passes >= self.submit_after {
            self.submit();
            self.submit_after = (self.submit_after * 2).min(PASSES_PER_SUBMIT);
        }
        Ok(())
    }

    /// Submits the recorded commands, if any, at a sync point: the next batch is
    /// submitted after its first pass (see `submit_after`).
    pub fn flush(&mut self) {
        self.submit();
        self.submit_after = 1;
    }

    /// Submits the recorded commands, if any, then lets their temporaries go.
    fn submit(&mut self) {
        if let Some(mut batch) = self.pending.take() {
            batch.end_pass();
            self.gpu.queue().submit(&[batch.encoder.finish()]);
        }
    }

    /// The encoder recording commands (for copies that must follow the passes).
    pub fn encoder(&mut self) -> &GpuCommandEncoder {
        let gpu = &self.gpu;
        let batch = self.pending.get_or_insert_with(|| Batch::new(gpu));
        batch.end_pass();
        &batch.encoder
    }

    /// Keeps a temporary buffer alive until the recorded commands using it are
    /// submitted.
    pub fn keep(&mut self, buffer: Buffer) {
        if let Some(batch) = self.pending.as_mut() {
            batch.keep.push(buffer);
        }
    }

    /// Fills `m` with `value`.
    pub fn fill(&mut self, m: &GpuMatrix, value: f32) -> Result<()> {
        let max = self.info.limits.max_compute_workgroups_per_dimension as usize;
        let groups = line_workgroups(m.shape.len(), max);
        let words = [m.shape.len() as u32, value.to_bits(), 0, 0];
        self.dispatch(&FILL, &[&m.buffer], &words, groups, None)
    }

    /// Poisons `m` if poisoning is on.
    pub fn poison(&mut self, m: &GpuMatrix) -> Result<()> {
        match self.poison {
            Some(v) => self.fill(m, v),
            None => Ok(()),
        }
    }

    /// Turns the nudging of readback waits on or off (`webgpu::nudge`: on by default on
    /// hardware adapters in Chromium-based browsers; tests turn it on under SwiftShader).
    pub fn set_nudging(&mut self, on: bool) {
        self.gpu.nudger().set_enabled(on);
    }

    /// Whether readback waits are nudged, and whether the loop is running now.
    pub fn nudging(&self) -> (bool, bool) {
        let n = self.gpu.nudger();
        (n.enabled(), n.running())
    }

    /// Whether every one of `programs` has been compiled; starts the compiles of those
    /// that have not, off the page's thread (`createComputePipelineAsync`), so that
    /// work can go on another way meanwhile. A program the browser could not make
    /// stays "compiling": it is never asked for again on this device.
    pub fn compiled_in_background(&mut self, programs: &[&dyn ComputeProgram]) -> bool {
        let arrived: Vec<_> = self.background.arrived.borrow_mut().drain(..).collect();
        for (generation, id, made) in arrived {
            if let (true, Some(p)) = (generation == self.generation, made) {
                self.pipelines.insert(id, p);
            }
        }
        for program in programs {
            let id = program.id();
            if self.pipelines.contains_key(&id) || self.background.compiling.contains(&id) {
                continue;
            }
            self.background.compiling.push(id);
            let (gpu, arrived, generation) = (
                self.gpu.clone(),
                self.background.arrived.clone(),
                self.generation,
            );
            let (name, source, constants) = (program.name(), program.source(), program.constants());
            spawn_local(async move {
                let constants: Vec<(&str, f64)> =
                    constants.iter().map(|(k, v)| (k.as_str(), *v)).collect();
                let made =
                    ComputePipeline::new_in_background(&gpu, &name, &source, &constants).await;
                arrived.borrow_mut().push((generation, id, made));
            });
        }
        programs
            .iter()
            .all(|p| self.pipelines.contains_key(&p.id()))
    }

    /// Resolves once the GPU has finished everything submitted so far.
    pub fn idle(&mut self) -> Result<JsFuture> {
        self.ensure()?;
        self.flush();
        Ok(JsFuture::from(js_sys::Promise::from(JsValue::from(
            self.gpu.queue().on_submitted_work_done(),
        ))))
    }

    /// A timer for the next pass, where 'timestamp-query' was granted.
    pub fn timer(&self) -> Result<Option<Timer>> {
        if !self.info.timestamp_query {
            return Ok(None);
        }
        Timer::new(&self.gpu).map(Some)
    }

    /// Resolves a timer's timestamps after its pass and submits: a timed pass is
    /// one the caller wants to see the time of soon.
    pub fn collect(&mut self, timer: &Timer) -> Result<()> {
        timer.resolve(self.encoder());
        self.flush();
        timer.read()
    }
}

impl Drop for GpuEngine {
    fn drop(&mut self) {
        self.release();
    }
}

/// Where an upload writes: a kept buffer's mapped range, or (small data) a matrix
/// buffer through the queue's writeBuffer.
enum Target<'a> {
    Mapped(&'a js_sys::Float32Array),
    Queue(&'a Buffer),
}

/// Compiles `program` (its compiler's messages are checked at the next readback).
fn compile(gpu: &Gpu, program: &dyn ComputeProgram) -> ComputePipeline {
    let constants = program.constants();
    let constants: Vec<(&str, f64)> = constants.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    let layout = program.layout();
    ComputePipeline::new(
        gpu,
        &program.name(),
        &program.source(),
        &constants,
        layout.as_deref(),
    )
}
