//! GPUBuffer, destroyed on Drop (the GPU memory goes at once rather than whenever
//! the garbage collector gets to the JavaScript object).

use web_sys::{gpu_buffer_usage, GpuBuffer, GpuBufferDescriptor};

use super::Gpu;
use crate::error::{GpgpuError, Result};

/// What a matrix buffer is used for: bound to kernels, copied to and from.
pub const MATRIX: u32 =
    gpu_buffer_usage::STORAGE | gpu_buffer_usage::COPY_SRC | gpu_buffer_usage::COPY_DST;
/// A uniform block written from the CPU.
pub const UNIFORM: u32 = gpu_buffer_usage::UNIFORM | gpu_buffer_usage::COPY_DST;
/// A staging buffer the CPU maps to read.
pub const READBACK: u32 = gpu_buffer_usage::MAP_READ | gpu_buffer_usage::COPY_DST;
/// A staging buffer the CPU maps to write, copied into a matrix on the GPU.
pub const UPLOAD: u32 = gpu_buffer_usage::MAP_WRITE | gpu_buffer_usage::COPY_SRC;

pub struct Buffer {
    gpu: Gpu,
    raw: GpuBuffer,
    size: u64,
    usage: u32,
    id: u64,
}

thread_local! {
    static NEXT_ID: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl Buffer {
    /// A buffer of at least `size` bytes (rounded up to 16; WebGPU wants multiples
    /// of 4 and a zero-sized binding is invalid). Out-of-memory and validation
    /// errors are caught by error scopes and reported at the next readback.
    pub fn new(gpu: &Gpu, size: u64, usage: u32, label: &str) -> Result<Buffer> {
        Buffer::make(gpu, size, usage, label, false)
    }

    /// The same, mapped at creation (its range writable at once).
    pub fn new_mapped(gpu: &Gpu, size: u64, usage: u32, label: &str) -> Result<Buffer> {
        Buffer::make(gpu, size, usage, label, true)
    }

    fn make(gpu: &Gpu, size: u64, usage: u32, label: &str, mapped: bool) -> Result<Buffer> {
        let size = allocated_size(size);
        let descriptor = GpuBufferDescriptor::new_with_f64(size as f64, usage);
        descriptor.set_label(label);
        descriptor.set_mapped_at_creation(mapped);
        let raw = gpu
            .checks()
            .scoped(
                gpu.device(),
                &format!("creating a {size}-byte buffer"),
                || gpu.device().create_buffer(&descriptor),
            )
            .map_err(|e| gpu.threw("createBuffer", &e))?;
        gpu.adjust(|c| c.buffers += 1);
        let id = NEXT_ID.with(|n| {
            n.set(n.get() + 1);
            n.get()
        });
        Ok(Buffer {
            gpu: gpu.clone(),
            raw,
            size,
            usage,
            id,
        })
    }

    pub fn raw(&self) -> &GpuBuffer {
        &self.raw
    }

    /// Size in bytes (as allocated, rounded up to 16).
    pub fn size(&self) -> u64 {
        self.size
    }

    pub fn usage(&self) -> u32 {
        self.usage
    }

    /// Unique in the page and never reused, so it names this buffer in caches that
    /// may outlive it (a bind group made for a destroyed buffer never matches a new
    /// one).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The device the buffer lives on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// Writes floats at byte `offset` through the queue (ordered before later submits).
    pub fn write_f32(&self, offset: u64, data: &[f32]) -> Result<()> {
        // SAFETY: the view is used at once, with no allocation in between.
        let view = unsafe { crate::wasm_view::f32_view(data) };
        self.write_source(offset, &view)
    }

    /// Writes a JavaScript array's floats at byte `offset` through the queue.
    pub fn write_js(&self, offset: u64, data: &js_sys::Float32Array) -> Result<()> {
        // writeBuffer refuses a view of a resizable ArrayBuffer or a growable
        // SharedArrayBuffer (a TypeError, "must not be resizable"); such a view goes
        // through a fixed copy (small: larger uploads take the mapped range).
        let copy;
        let data = match resizable(&data.buffer()) {
            true => {
                copy = js_sys::Float32Array::new(data);
                &copy
            }
            false => data,
        };
        self.write_source(offset, data)
    }

    /// Writes u32s at byte `offset` through the queue.
    pub fn write_u32(&self, offset: u64, data: &[u32]) -> Result<()> {
        // SAFETY: as in write_f32.
        let view = unsafe { crate::wasm_view::u32_view(data) };
        self.write_source(offset, &view)
    }

    /// Writes a typed array at byte `offset` through the queue.
    fn write_source(&self, offset: u64, source: &js_sys::Object) -> Result<()> {
        self.gpu
            .queue()
            .write_buffer_with_f64_and_buffer_source(&self.raw, offset as f64, source)
            .map_err(|e| self.gpu.threw("writeBuffer", &e))
    }
}

/// Keeps `b` in `list` of reusable buffers, taking out the oldest while there are more
/// than `most` or they hold more than `most_bytes`: those are returned (dropped at once
/// by a caller whose buffers no recorded command still uses).
pub fn keep_recent(list: &mut Vec<Buffer>, b: Buffer, most: usize, most_bytes: u64) -> Vec<Buffer> {
    list.push(b);
    let mut gone = vec![];
    while list.len() > most || list.iter().map(|b| b.size()).sum::<u64>() > most_bytes {
        gone.push(list.remove(0));
    }
    gone
}

/// The size `Buffer::new` allocates for `size` bytes: at least 16, a multiple of 16
/// (WebGPU wants multiples of 4, and a zero-sized binding is invalid).
pub fn allocated_size(size: u64) -> u64 {
    size.max(16).div_ceil(16) * 16
}

impl Drop for Buffer {
    fn drop(&mut self) {
        self.raw.destroy();
        self.gpu.adjust(|c| c.buffers -= 1);
    }
}

/// Whether an ArrayBuffer is `resizable` or a SharedArrayBuffer `growable`.
fn resizable(buffer: &wasm_bindgen::JsValue) -> bool {
    ["resizable", "growable"].iter().any(|key| {
        js_sys::Reflect::get(buffer, &(*key).into())
            .ok()
            .and_then(|v| v.as_bool())
            == Some(true)
    })
}

/// Whether `bytes` fit one buffer the kernels bind on a device with `limits`:
/// SIZE_OVER_LIMIT naming the limit otherwise.
pub fn check_size(what: &str, bytes: f64, limits: &super::GpuLimits) -> Result<()> {
    for (name, limit) in [
        (
            "this WebGPU device's maxStorageBufferBindingSize",
            limits.max_storage_buffer_binding_size,
        ),
        ("this WebGPU device's maxBufferSize", limits.max_buffer_size),
    ] {
        if bytes > limit {
            return Err(GpgpuError::DeviceLimit {
                what: what.into(),
                needed: bytes,
                unit: "bytes",
                limit_name: name,
                limit,
                hint: crate::error::WEBGPU_LIMIT_HINT,
            });
        }
    }
    Ok(())
}
