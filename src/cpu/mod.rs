//! The CPU backend: matrices in wasm memory, products by a blocked, register-tiled
//! SIMD128 kernel ([`kernel`]) run in Web Workers, one per thread, each computing a
//! block of C's rows (the chapter's OpenMP parallel-for).
//!
//! Operations are recorded into a queue as a GPU's command stream is, and run when
//! a result is read: an async read ([`CpuEngine::read`]'s `wait`) sends each
//! product to the workers and awaits them; a blocking read (the blocking calls, and
//! anything run blocking by `common::now`) runs the same queue on the calling thread
//! with the same kernel. So every operation built on the engine's products and
//! element-wise passes (powers, repeated squaring, semirings, runs, applications)
//! works on the CPU.

pub use gpgpu_matrix_plan::cpu::{kernel, passes};

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use wasm_bindgen::prelude::*;

use crate::error::{GpgpuError, Result};
use crate::plan::semiring::Semiring;
use crate::plan::shape::Shape;
use kernel::Dims;

#[wasm_bindgen(module = "/src/cpu/pool.js")]
extern "C" {
    type CpuPool;

    #[wasm_bindgen(constructor)]
    fn new(module: &JsValue, threads: u32) -> CpuPool;

    #[wasm_bindgen(method)]
    #[allow(clippy::too_many_arguments)]
    fn run(
        this: &CpuPool,
        index: u32,
        semiring: u32,
        rows: u32,
        inner: u32,
        cols: u32,
        a: js_sys::Float32Array,
        b: &js_sys::Float32Array,
    ) -> js_sys::Promise;

    #[wasm_bindgen(method)]
    fn free(this: &CpuPool);

    #[wasm_bindgen(method, js_name = liveHere)]
    fn live_here(this: &CpuPool) -> u32;

    #[wasm_bindgen(js_name = liveWorkers)]
    fn js_live_workers() -> u32;

    #[wasm_bindgen(js_name = defaultThreads)]
    fn js_default_threads() -> u32;

    #[wasm_bindgen(js_name = shareInput)]
    fn share_input(data: &[f32]) -> js_sys::Float32Array;

    #[wasm_bindgen(js_name = nowMs)]
    fn now_ms() -> f64;
}

/// Workers alive on this page, across every CPU engine (0 once all are freed).
pub fn live_workers() -> u32 {
    js_live_workers()
}

/// The thread count a CPU engine uses by default: `navigator.hardwareConcurrency`.
pub fn default_threads() -> usize {
    js_default_threads() as usize
}

/// The most threads a CPU engine takes (a typo such as 1e6 would start a million
/// workers).
pub const MAX_THREADS: usize = 256;

/// The largest side of a CPU matrix (16384² floats are 1 GiB each). What a call
/// holds in wasm's 4 GiB is checked besides (`grid::check_memory_on`): with the
/// copies a call makes, a product fits up to n ≈ 12,900, a square up to ≈ 15,800.
pub const MAX_DIMENSION: usize = 16384;

/// Work per worker below which fewer workers are used (a message round trip costs
/// about as much as 2^16 multiply-adds).
const MIN_WORK_PER_WORKER: usize = 1 << 16;

type Buf = Rc<RefCell<Vec<f32>>>;

/// A matrix in wasm memory, row-major. Its shape is read-only outside the crate
/// ([`CpuMatrix::shape`]): one set by hand no longer described the data, and the
/// kernel then panicked ("range end index 9 out of range for slice of length 4").
pub struct CpuMatrix {
    pub(crate) shape: Shape,
    data: Buf,
    _live: Live,
}

/// Counts a matrix among its engine's live ones while it exists (the leak tests'
/// "buffers").
struct Live(Rc<Cell<u32>>);

impl Drop for Live {
    fn drop(&mut self) {
        self.0.set(self.0.get() - 1);
    }
}

impl CpuMatrix {
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// A copy of the data as it is now (after the queued work has run).
    pub fn snapshot(&self) -> Vec<f32> {
        self.data.borrow().clone()
    }
}

/// One recorded operation.
enum Op {
    Product {
        semiring: Semiring,
        dims: Dims,
        a: Buf,
        b: Buf,
        out: Buf,
    },
    /// Any other pass (see [`passes`]): runs on the calling thread.
    Pass(Box<dyn FnOnce()>),
}

/// What the queue shares with reads in flight.
struct Shared {
    /// The recorded operations in order, each numbered. An async flush leaves the
    /// product it sent at the front until the workers' rows come back, so that a
    /// blocking call meanwhile can run it here (see [`flush_now`]).
    queue: RefCell<VecDeque<(u64, Op)>>,
    next_op: Cell<u64>,
    /// An async flush is awaiting workers: others wait their turn.
    busy: Cell<bool>,
    pool: Option<CpuPool>,
    threads: usize,
    poison: Cell<Option<f32>>,
    /// Test hook: the next worker job gets a row count its data does not have, so
    /// the kernel traps in the worker.
    break_next: Cell<bool>,
    /// The engine was freed: reads still in flight fail with FREED.
    freed: Cell<bool>,
    /// Each worker's time of the last product, ms (the split's per-device report).
    last_worker_ms: RefCell<Vec<f64>>,
    /// The last async product's whole time on this thread, ms: sending, the
    /// workers, assembling C.
    last_wall_ms: Cell<f64>,
}

/// A CPU "device": its thread count, its worker pool and the queue of recorded
/// operations.
pub struct CpuEngine {
    id: u64,
    shared: Rc<Shared>,
    live: Rc<Cell<u32>>,
}

impl Drop for CpuEngine {
    fn drop(&mut self) {
        self.shared.freed.set(true);
        self.shared.queue.borrow_mut().clear();
        if let Some(pool) = &self.shared.pool {
            pool.free();
        }
    }
}

impl CpuEngine {
    /// An engine on `threads` workers (None: one per core); `threads` 0 runs every
    /// product on the calling thread.
    pub fn new(threads: Option<usize>) -> Result<CpuEngine> {
        let threads = threads.unwrap_or_else(default_threads);
        if threads > MAX_THREADS {
            return Err(GpgpuError::BadArgument {
                name: "options.threads".into(),
                detail: format!(
                    "{threads} threads; use 1 to {MAX_THREADS} (or leave it out: one per core)"
                ),
            });
        }
        let pool = (threads > 0).then(|| CpuPool::new(&wasm_bindgen::module(), threads as u32));
        Ok(CpuEngine {
            id: crate::common::next_engine_id(),
            shared: Rc::new(Shared {
                queue: RefCell::new(VecDeque::new()),
                next_op: Cell::new(0),
                busy: Cell::new(false),
                pool,
                threads,
                poison: Cell::new(None),
                break_next: Cell::new(false),
                freed: Cell::new(false),
                last_worker_ms: RefCell::new(Vec::new()),
                last_wall_ms: Cell::new(f64::NAN),
            }),
            live: Rc::new(Cell::new(0)),
        })
    }

    pub fn id(&self) -> u64 {
        self.id
    }

    /// Worker threads (0: products run on the calling thread).
    pub fn threads(&self) -> usize {
        self.shared.threads
    }

    /// Workers of this engine running now (they start at the first async product).
    pub fn live_workers(&self) -> u32 {
        self.shared.pool.as_ref().map_or(0, |p| p.live_here())
    }

    /// Each worker's time in its part of the last async product, ms.
    pub fn last_worker_ms(&self) -> Vec<f64> {
        self.shared.last_worker_ms.borrow().clone()
    }

    /// The last async product's whole time, ms (NaN before the first): minus the
    /// slowest worker's kernel time, what messages and copies cost.
    pub fn last_wall_ms(&self) -> f64 {
        self.shared.last_wall_ms.get()
    }

    /// Test hook: the next worker job traps inside the worker's WebAssembly.
    pub fn break_next_job(&self) {
        self.shared.break_next.set(true);
    }

    pub fn live_matrices(&self) -> u32 {
        self.live.get()
    }

    pub fn set_poison(&mut self, value: Option<f32>) {
        self.shared.poison.set(value);
    }

    fn matrix(&self, shape: Shape, data: Vec<f32>) -> CpuMatrix {
        self.live.set(self.live.get() + 1);
        CpuMatrix {
            shape,
            data: Rc::new(RefCell::new(data)),
            _live: Live(self.live.clone()),
        }
    }

    pub fn upload(&mut self, shape: Shape, data: &[f32]) -> Result<CpuMatrix> {
        let mut v = room(shape)?;
        v.extend_from_slice(data);
        Ok(self.matrix(shape, v))
    }

    pub fn alloc(&mut self, shape: Shape) -> Result<CpuMatrix> {
        let fill = self.shared.poison.get().unwrap_or(0.0);
        let mut v = room(shape)?;
        v.resize(shape.len(), fill);
        Ok(self.matrix(shape, v))
    }

    pub fn recycle(&mut self, m: CpuMatrix) {
        drop(m);
    }

    pub fn product(&mut self, semiring: Semiring, [a, b, out]: [&CpuMatrix; 3]) -> Result<()> {
        let dims = Dims {
            rows: a.shape.rows,
            inner: a.shape.cols,
            cols: b.shape.cols,
        };
        if b.shape.rows != dims.inner || out.shape != Shape::new(dims.rows, dims.cols) {
            return Err(GpgpuError::BadArgument {
                name: "matrix".into(),
                detail: "the product's shapes do not chain".into(),
            });
        }
        self.push(Op::Product {
            semiring,
            dims,
            a: a.data.clone(),
            b: b.data.clone(),
            out: out.data.clone(),
        });
        Ok(())
    }

    /// Records a pass reading `inputs` and writing `outputs` (each output filled
    /// with the poison value first, where one is set, as the GPUs' outputs are).
    pub fn pass<const I: usize, const O: usize>(
        &mut self,
        inputs: [&CpuMatrix; I],
        outputs: [&CpuMatrix; O],
        run: impl FnOnce([&[f32]; I], [&mut [f32]; O]) + 'static,
    ) -> Result<()> {
        let poison = self.shared.poison.get();
        self.pass_with(inputs, outputs, poison, run)
    }

    /// Records a pass whose outputs are filled with `poison` first where it is
    /// Some: `pass` gives this engine's; a pass that updates its outputs in place
    /// reads them, so gives None (Gaussian elimination's steps, a supplied kernel).
    /// A matrix both read and written is refused: the GPU passes never alias (and
    /// here it would be borrowed twice).
    pub fn pass_with<const I: usize, const O: usize>(
        &mut self,
        inputs: [&CpuMatrix; I],
        outputs: [&CpuMatrix; O],
        poison: Option<f32>,
        run: impl FnOnce([&[f32]; I], [&mut [f32]; O]) + 'static,
    ) -> Result<()> {
        let aliased = outputs.iter().enumerate().any(|(k, o)| {
            inputs
                .iter()
                .chain(&outputs[..k])
                .any(|m| Rc::ptr_eq(&m.data, &o.data))
        });
        if aliased {
            return Err(GpgpuError::BadArgument {
                name: "matrix".into(),
                detail: "a pass's output is also one of its inputs: use a separate matrix".into(),
            });
        }
        let inputs = inputs.map(|m| m.data.clone());
        let outputs = outputs.map(|m| m.data.clone());
        self.push(Op::Pass(Box::new(move || {
            let read = inputs.each_ref().map(|b| b.borrow());
            let mut written = outputs.each_ref().map(|b| b.borrow_mut());
            if let Some(v) = poison {
                written.iter_mut().for_each(|o| o.fill(v));
            }
            run(
                read.each_ref().map(|r| &r[..]),
                written.each_mut().map(|w| &mut w[..]),
            );
        })));
        Ok(())
    }

    fn push(&mut self, op: Op) {
        let id = self.shared.next_op.get();
        self.shared.next_op.set(id + 1);
        self.shared.queue.borrow_mut().push_back((id, op));
    }

    /// Runs the queue on this thread and returns `m`'s data (the blocking read).
    pub fn download(&mut self, m: &CpuMatrix) -> Result<Vec<f32>> {
        flush_now(&self.shared)?;
        Ok(m.snapshot())
    }

    /// Runs the queue on this thread (the blocking `sync`): nothing is copied.
    pub fn finish_now(&mut self) -> Result<()> {
        flush_now(&self.shared)
    }

    /// A read that runs the queue when awaited: on the workers, or on this thread
    /// in a blocking call. It gives `m` as it is at this point of the queue,
    /// as a GPU's readback copies in command order: passes recorded before it is
    /// awaited (a Run stepped on) do not show in it. The copy goes to a JavaScript
    /// `Float32Array`, decoded for `semiring` on the way, not into wasm memory: a
    /// copy there next to a run's matrices took more than the size check counts (a
    /// 15,800² power run's `readAsync('a')` ran out of memory), and JavaScript is
    /// where a read's data goes.
    pub fn read(&mut self, m: &CpuMatrix, semiring: Semiring) -> CpuRead<js_sys::Float32Array> {
        self.read_with(m, move |data| to_js(data, semiring))
    }

    /// `f` of `m`'s data as it is at this point of the queue (see [`Self::read`]),
    /// computed on the matrix in place when the queue runs.
    pub fn read_with<T: 'static>(
        &mut self,
        m: &CpuMatrix,
        f: impl FnOnce(&[f32]) -> T + 'static,
    ) -> CpuRead<T> {
        let copy = Rc::new(RefCell::new(None));
        let (data, into) = (m.data.clone(), copy.clone());
        self.push(Op::Pass(Box::new(move || {
            *into.borrow_mut() = Some(f(&data.borrow()))
        })));
        CpuRead {
            shared: self.shared.clone(),
            copy,
        }
    }

    /// Resolves once the work recorded so far has run: awaiting it runs the queue
    /// (on the workers, or on this thread in a blocking call).
    pub fn idle(&mut self) -> CpuIdle {
        CpuIdle(self.shared.clone())
    }
}

/// `data` as a JavaScript array, decoded for `semiring` (min-plus "no edge" is
/// +Infinity) through a small buffer, so that nothing matrix-sized is made in wasm
/// memory.
fn to_js(data: &[f32], semiring: Semiring) -> js_sys::Float32Array {
    if semiring != Semiring::MinPlus {
        return js_sys::Float32Array::from(data);
    }
    const CHUNK: usize = 1 << 16;
    let out = js_sys::Float32Array::new_with_length(data.len() as u32);
    let mut buf = Vec::with_capacity(CHUNK.min(data.len()));
    for (k, chunk) in data.chunks(CHUNK).enumerate() {
        buf.clear();
        buf.extend_from_slice(chunk);
        semiring.decode_in_place(&mut buf);
        let start = (k * CHUNK) as u32;
        out.subarray(start, start + chunk.len() as u32)
            .copy_from(&buf);
    }
    out
}

/// The queue's work finishing (see [`CpuEngine::idle`]).
pub struct CpuIdle(Rc<Shared>);

impl CpuIdle {
    pub async fn wait(self) -> Result<()> {
        run_queue(&self.0).await
    }
}

/// Runs the queue: on the workers, or on this thread in a blocking call (or
/// without workers). FREED if the engine was freed before it ran.
async fn run_queue(shared: &Rc<Shared>) -> Result<()> {
    if crate::common::blocking() || shared.pool.is_none() {
        flush_now(shared)?;
    } else {
        flush_async(shared).await?;
    }
    // Its Gpgpu was freed before the answer came: as on the GPUs, it is gone.
    if shared.freed.get() {
        return Err(GpgpuError::Freed);
    }
    Ok(())
}

/// A read in flight: its value is taken when the queue reaches it.
pub struct CpuRead<T> {
    shared: Rc<Shared>,
    copy: Rc<RefCell<Option<T>>>,
}

impl<T> CpuRead<T> {
    pub async fn wait(self) -> Result<T> {
        run_queue(&self.shared).await?;
        // No copy: a worker failed in another call's flush, which dropped the queue
        // with this read in it (the matrix was never computed).
        self.copy
            .borrow_mut()
            .take()
            .ok_or_else(|| GpgpuError::Worker {
                detail: "an earlier call's worker failed, and the work this read waited for \
                     was dropped with it"
                    .into(),
            })
    }
}

/// Runs the queue on this thread. While an async flush awaits its workers, that
/// includes the product it sent (the same kernel gives the same sums): a blocking
/// call cannot wait for the workers, and the async flush then drops their rows.
fn flush_now(shared: &Shared) -> Result<()> {
    loop {
        let op = shared.queue.borrow_mut().pop_front();
        match op {
            Some((_, op)) => run_here(op, shared.poison.get()),
            None => return Ok(()),
        }
    }
}

/// Runs the queue, products on the workers; one flush at a time per engine.
async fn flush_async(shared: &Rc<Shared>) -> Result<()> {
    while shared.busy.get() {
        crate::common::next_tick().await;
    }
    shared.busy.set(true);
    let result = async {
        loop {
            let product = match shared.queue.borrow().front() {
                None => return Ok(()),
                Some((
                    id,
                    Op::Product {
                        semiring,
                        dims,
                        a,
                        b,
                        out,
                    },
                )) => Some((*id, *semiring, *dims, a.clone(), b.clone(), out.clone())),
                Some((_, Op::Pass(_))) => None,
            };
            let Some((id, semiring, dims, a, b, out)) = product else {
                let op = shared.queue.borrow_mut().pop_front();
                if let Some((_, op)) = op {
                    run_here(op, shared.poison.get());
                }
                continue;
            };
            // The inputs are copied into the messages before anything is awaited.
            let t0 = now_ms();
            let sent = send(shared, semiring, dims, &a.borrow(), &b.borrow());
            let parts = gather(shared, dims, sent).await;
            // A blocking call ran this product (and what followed) meanwhile.
            if shared.queue.borrow().front().map(|(f, _)| *f) != Some(id) {
                shared.last_wall_ms.set(now_ms() - t0);
                continue;
            }
            shared.queue.borrow_mut().pop_front();
            // The queue's later work needs this output: on failure drop it too.
            match parts {
                // Into the output itself: a new matrix for C beside the run's took
                // wasm memory the size check does not count.
                Ok(parts) => {
                    let mut c = out.borrow_mut();
                    for (r, rows) in parts {
                        rows.copy_to(&mut c[r.start * dims.cols..r.end * dims.cols]);
                    }
                }
                Err(e) => {
                    shared.queue.borrow_mut().clear();
                    return Err(e);
                }
            }
            shared.last_wall_ms.set(now_ms() - t0);
        }
    }
    .await;
    shared.busy.set(false);
    result
}

/// How many workers a product of `d` gets: all `threads` unless a part would be
/// smaller than [`MIN_WORK_PER_WORKER`]. The work is counted in u64: on wasm32 a usize
/// product of three sizes wraps from n = 2048 on (2^33), which once sent every
/// product of that size to a single worker.
fn workers_for(d: Dims, threads: usize) -> usize {
    let work = d.rows as u64 * d.inner as u64 * d.cols as u64;
    let parts = work / MIN_WORK_PER_WORKER as u64;
    parts.clamp(1, threads.max(1) as u64) as usize
}

/// Splits C's rows among the workers (static schedule) and sends every part: the
/// promise of all parts and each part's rows.
fn send(
    shared: &Shared,
    semiring: Semiring,
    d: Dims,
    a: &[f32],
    b: &[f32],
) -> (js_sys::Promise, Vec<std::ops::Range<usize>>) {
    let pool = shared.pool.as_ref().expect("flush_async runs with a pool");
    let parts = workers_for(d, shared.threads);
    let ranges = kernel::static_schedule(d.rows, parts);
    let b_js = share_input(b);
    let broken = shared.break_next.replace(false);
    let promises = js_sys::Array::new();
    for (w, r) in ranges.iter().enumerate() {
        let rows = r.len() + usize::from(broken && w == 0);
        let a_js = js_sys::Float32Array::from(&a[r.start * d.inner..r.end * d.inner]);
        promises.push(&pool.run(
            w as u32,
            semiring_code(semiring),
            rows as u32,
            d.inner as u32,
            d.cols as u32,
            a_js,
            &b_js,
        ));
    }
    (js_sys::Promise::all(&promises), ranges)
}

/// Awaits the parts [`send`] sent: each part's rows of C, checked against its range.
async fn gather(
    shared: &Shared,
    d: Dims,
    (all, ranges): (js_sys::Promise, Vec<std::ops::Range<usize>>),
) -> Result<Vec<(std::ops::Range<usize>, js_sys::Float32Array)>> {
    let done = wasm_bindgen_futures::JsFuture::from(all)
        .await
        .map_err(|e| {
            let freed = js_sys::Reflect::get(&e, &"freed".into()).is_ok_and(|f| f.is_truthy());
            match freed {
                true => GpgpuError::Freed,
                false => GpgpuError::Worker {
                    detail: js_message(&e),
                },
            }
        })?;
    let done: js_sys::Array = done.unchecked_into();
    let mut parts = Vec::with_capacity(ranges.len());
    let mut times = Vec::with_capacity(ranges.len());
    for (r, part) in ranges.into_iter().zip(done.iter()) {
        let get = |k: &str| js_sys::Reflect::get(&part, &k.into()).unwrap_or(JsValue::UNDEFINED);
        let rows: js_sys::Float32Array = get("c").unchecked_into();
        if rows.length() as usize != r.len() * d.cols {
            return Err(GpgpuError::Worker {
                detail: format!(
                    "a worker sent {} values for {} rows",
                    rows.length(),
                    r.len()
                ),
            });
        }
        times.push(get("ms").as_f64().unwrap_or(f64::NAN));
        parts.push((r, rows));
    }
    *shared.last_worker_ms.borrow_mut() = times;
    Ok(parts)
}

fn js_message(e: &JsValue) -> String {
    js_sys::Reflect::get(e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the worker stopped".into())
}

fn semiring_code(s: Semiring) -> u32 {
    match s {
        Semiring::Ordinary => 0,
        Semiring::Boolean => 1,
        Semiring::MinPlus => 2,
    }
}

fn run_here(op: Op, poison: Option<f32>) {
    match op {
        Op::Product {
            semiring,
            dims,
            a,
            b,
            out,
        } => {
            // Into the output itself (see flush_async), unless it is also an input.
            let fill = poison.unwrap_or(0.0);
            if Rc::ptr_eq(&out, &a) || Rc::ptr_eq(&out, &b) {
                let mut c = vec![fill; dims.rows * dims.cols];
                kernel::product(semiring, dims, &a.borrow(), &b.borrow(), &mut c);
                *out.borrow_mut() = c;
            } else {
                let mut c = out.borrow_mut();
                c.fill(fill);
                kernel::product(semiring, dims, &a.borrow(), &b.borrow(), &mut c);
            }
        }
        Op::Pass(run) => run(),
    }
}

/// The kernel as the workers call it: C (rows×cols at `c`) ← A (at `a`, `a_len`
/// floats) · B (at `b`, `b_len` floats) in semiring `semiring` (0 ordinary, 1
/// Boolean, 2 min-plus). Lengths that do not match the shape trap (a worker
/// reports it as a failure).
///
/// # Safety
/// The pointers must come from [`gpgpu_cpu_alloc`] with at least the given lengths
/// (`c`: rows·cols floats).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn gpgpu_cpu_rows(
    semiring: u32,
    rows: usize,
    inner: usize,
    cols: usize,
    a: *const f32,
    a_len: usize,
    b: *const f32,
    b_len: usize,
    c: *mut f32,
) {
    assert!(
        a_len == rows * inner && b_len == inner * cols,
        "shape and data disagree"
    );
    let semiring = match semiring {
        0 => Semiring::Ordinary,
        1 => Semiring::Boolean,
        _ => Semiring::MinPlus,
    };
    // SAFETY: the caller gives buffers of these lengths (checked above for A and B).
    let (a, b, c) = unsafe {
        (
            std::slice::from_raw_parts(a, a_len),
            std::slice::from_raw_parts(b, b_len),
            std::slice::from_raw_parts_mut(c, rows * cols),
        )
    };
    kernel::product(semiring, Dims { rows, inner, cols }, a, b, c);
}

/// A buffer of `floats` floats in this instance's memory, for a worker's data.
#[no_mangle]
pub extern "C" fn gpgpu_cpu_alloc(floats: usize) -> *mut f32 {
    let mut v = vec![0f32; floats];
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Frees a buffer of [`gpgpu_cpu_alloc`].
///
/// # Safety
/// `p` and `floats` must be what `gpgpu_cpu_alloc` gave and took.
#[no_mangle]
pub unsafe extern "C" fn gpgpu_cpu_free(p: *mut f32, floats: usize) {
    // SAFETY: as documented, p came from a Vec of this length and capacity.
    drop(unsafe { Vec::from_raw_parts(p, floats, floats) });
}

/// Room for a matrix of `shape` in wasm memory, where the CPU backend's matrices live
/// (`crate::error::room`): the whole-call checks (`check_memory_on`) leave room for the
/// rest, but cannot see the objects the page already holds (spmvAsync of a tridiagonal
/// of n = 2^26 aborted here).
fn room(shape: Shape) -> Result<Vec<f32>> {
    crate::error::room(shape.len(), || {
        format!("a {}x{} matrix of the CPU backend", shape.rows, shape.cols)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dims(n: usize) -> Dims {
        Dims {
            rows: n,
            inner: n,
            cols: n,
        }
    }

    #[test]
    fn large_products_use_every_worker_and_small_ones_fewer() {
        // 2048³ = 2^33 and 4096³ = 2^36 multiply-adds: past u32, all 16 workers.
        assert_eq!(workers_for(dims(2048), 16), 16);
        assert_eq!(workers_for(dims(4096), 16), 16);
        assert_eq!(workers_for(dims(16384), 16), 16);
        // 2^18 multiply-adds: four parts of 2^16 at most.
        assert_eq!(workers_for(dims(64), 16), 4);
        assert_eq!(workers_for(dims(1), 16), 1);
        assert_eq!(workers_for(dims(2048), 1), 1);
    }
}
