//! Mappable buffers kept for reuse by transfers, as TF.js keeps its staging buffers.
//! Uploads of 1 MiB or more are written into a MAP_WRITE buffer while it is mapped and
//! copied on the GPU: on the H200, with the readback's waits nudged, `queue.writeBuffer`
//! took 0.34–0.40 ms of the page's thread for 1 MiB and the mapped copy 0.15 ms, and a
//! single product at n = 512 went from 1.4–1.6 to 1.0–1.1 ms (bench/NOTES.md, "Results
//! made two ahead, uploads mapped from 1 MiB"). From 8 MB up it was 1.4–3× faster than
//! `writeBuffer` on the H100 before that ("Kept staging buffers"). A readback maps kept
//! MAP_READ buffers at every size (one per part: `GpuRead`): a new buffer per read cost
//! a single product 0.7 ms at n = 512 and 0.6 ms at 1024 in the library's own calls.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{gpu_map_mode, GpuBufferMapState};

use super::buffer::{allocated_size, keep_recent, READBACK, UPLOAD};
use super::{Buffer, Gpu};
use crate::error::Result;

/// Uploads of at least this many bytes go through kept buffers.
pub const POOLED_FROM: u64 = 1 << 20;
/// Buffers kept for uploads and for readbacks (a run reads matrices in up to 8 parts,
/// statistics and heatmap pixels: several sizes), and the total size each way (the
/// oldest go first).
const KEEP_WRITES: usize = 2;
const KEEP_READS: usize = 12;
const KEEP_BYTES: u64 = 512 << 20;

/// Readbacks of at least this many bytes hand the caller arrays made ahead of time
/// (`outputs.js`); under it, making one on the page's thread is cheap.
const OUTPUTS_FROM: u64 = 1 << 20;
/// The most that arrays made ahead may hold together.
const OUTPUTS_MOST: f64 = (256u64 << 20) as f64;

#[wasm_bindgen(module = "/src/webgpu/outputs.js")]
extern "C" {
    type OutputArrays;

    #[wasm_bindgen(constructor)]
    fn new(most_bytes: f64) -> OutputArrays;

    #[wasm_bindgen(method)]
    fn take(this: &OutputArrays, bytes: f64) -> Option<js_sys::ArrayBuffer>;

    #[wasm_bindgen(method)]
    fn close(this: &OutputArrays);
}

/// Ends the worker with the last reference.
struct Outputs(OutputArrays);

impl Drop for Outputs {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Whether an upload of `bytes` goes through the pool.
pub fn pooled(bytes: u64) -> bool {
    bytes >= POOLED_FROM
}

/// The kept buffers of one device. Clones share them: a readback in flight gives its
/// buffer back when it is done.
#[derive(Clone, Default)]
pub struct StagingPool(Rc<RefCell<Kept>>);

#[derive(Default)]
struct Kept {
    read: Vec<Buffer>,
    /// Mapped for writing, or on their way to it (`mapAsync` after each copy).
    write: Vec<Buffer>,
    /// Made at the first readback that can use it.
    outputs: Option<Outputs>,
}

impl StagingPool {
    /// A MAP_READ buffer of `bytes`: a kept one of that size, or a new one.
    pub fn read_buffer(&self, gpu: &Gpu, bytes: u64) -> Result<Buffer> {
        if let Some(b) = take(&mut self.0.borrow_mut().read, gpu, bytes, |_| true) {
            return Ok(b);
        }
        Buffer::new(gpu, bytes, READBACK, "readback")
    }

    /// A MAP_WRITE buffer of `bytes`, mapped now: a kept one whose mapping has
    /// completed, or a new one mapped at creation.
    pub fn write_buffer(&self, gpu: &Gpu, bytes: u64) -> Result<Buffer> {
        let mapped = |b: &Buffer| b.raw().map_state() == GpuBufferMapState::Mapped;
        if let Some(b) = take(&mut self.0.borrow_mut().write, gpu, bytes, mapped) {
            return Ok(b);
        }
        Buffer::new_mapped(gpu, bytes, UPLOAD, "upload")
    }

    /// Keeps a read buffer, unmapped, for the next readback of its size.
    pub fn keep_read(&self, b: Buffer) {
        if !b.gpu().is_lost() {
            keep_recent(&mut self.0.borrow_mut().read, b, KEEP_READS, KEEP_BYTES);
        }
    }

    /// Keeps a write buffer whose copy has been submitted, mapping it again: the map
    /// completes once the GPU has copied out of it.
    pub fn keep_write(&self, b: Buffer) {
        if b.gpu().is_lost() {
            return;
        }
        let mapping = JsFuture::from(js_sys::Promise::from(JsValue::from(
            b.raw().map_async(gpu_map_mode::WRITE),
        )));
        // It rejects when the buffer is dropped first (trimmed, the device lost): the
        // buffer is then gone too, and nothing waits for it.
        spawn_local(async move {
            let _ = mapping.await;
        });
        keep_recent(&mut self.0.borrow_mut().write, b, KEEP_WRITES, KEEP_BYTES);
    }

    /// A new ArrayBuffer of `bytes` for a readback's caller, its memory mapped in (by
    /// writing once to each page): made ahead in a worker where one is ready, else
    /// here, now, so that it overlaps the GPU's copy and the map instead of following
    /// them.
    pub fn output(&self, bytes: u64) -> js_sys::ArrayBuffer {
        if bytes >= OUTPUTS_FROM {
            let mut kept = self.0.borrow_mut();
            let outputs = kept
                .outputs
                .get_or_insert_with(|| Outputs(OutputArrays::new(OUTPUTS_MOST)));
            if let Some(ready) = outputs.0.take(bytes as f64) {
                return ready;
            }
        }
        let out = js_sys::ArrayBuffer::new(bytes as u32);
        js_sys::Uint8Array::new(&out).fill(0, 0, bytes as u32);
        out
    }

    /// Drops every kept buffer, and the arrays made ahead.
    pub fn clear(&self) {
        let mut kept = self.0.borrow_mut();
        kept.read.clear();
        kept.write.clear();
        kept.outputs = None;
    }
}

/// Takes a kept buffer of `gpu` sized for `bytes` that is `ready`.
fn take(
    list: &mut Vec<Buffer>,
    gpu: &Gpu,
    bytes: u64,
    ready: impl Fn(&Buffer) -> bool,
) -> Option<Buffer> {
    let size = allocated_size(bytes);
    let i = list
        .iter()
        .position(|b| b.size() == size && b.gpu().same(gpu) && ready(b))?;
    Some(list.remove(i))
}
