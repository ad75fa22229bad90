//! Readbacks: a copy into kept mappable buffers, in parts, mapped without blocking;
//! the data arrives as floats, as a JavaScript array or as bytes.

use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::gpu_map_mode;

use super::{GpuEngine, GpuMatrix};
use crate::common::guard::describe_js;
use crate::error::Result;
use crate::webgpu::{Buffer, Gpu, StagingPool};

impl GpuEngine {
    /// Copies `bytes` of `source` into kept mappable buffers, in parts (`read_parts`),
    /// and asks to map them.
    pub fn read_buffer(&mut self, source: &Buffer, bytes: u64) -> Result<GpuRead> {
        self.read_range(source, 0, bytes)
    }

    /// `read_buffer` of `bytes` from byte `from` (a multiple of 4) of `source`.
    pub fn read_range(&mut self, source: &Buffer, from: u64, bytes: u64) -> Result<GpuRead> {
        let copied_bytes = bytes.div_ceil(4) * 4;
        let (count, part) = read_parts(copied_bytes);
        let mut parts = Vec::with_capacity(count as usize);
        for i in 0..count {
            let offset = i * part;
            let staging = self.staging.read_buffer(&self.gpu, part)?;
            let copied = self
                .encoder()
                .copy_buffer_to_buffer_with_f64_and_f64_and_f64(
                    source.raw(),
                    (from + offset) as f64,
                    staging.raw(),
                    0.0,
                    part.min(copied_bytes - offset) as f64,
                );
            copied.map_err(|e| self.gpu.threw("copyBufferToBuffer", &e))?;
            parts.push((offset, staging));
        }
        self.flush();
        let parts = parts
            .into_iter()
            .map(|(offset, staging)| ReadPart {
                offset,
                len: part.min(bytes - offset),
                mapped: JsFuture::from(js_sys::Promise::from(JsValue::from(
                    staging.raw().map_async(gpu_map_mode::READ),
                ))),
                staging,
            })
            .collect();
        Ok(GpuRead {
            gpu: self.gpu.clone(),
            pool: self.staging.clone(),
            parts,
            bytes,
        })
    }

    /// Starts reading `m` back; the data arrives with `GpuRead::wait_f32`.
    pub fn read(&mut self, m: &GpuMatrix) -> Result<GpuRead> {
        self.ensure()?;
        self.read_buffer(&m.buffer, m.shape.len() as u64 * 4)
    }
}

/// Readbacks of `bytes` come back in this many parts of this many bytes (the last
/// may be shorter): parts of at least 1 MiB, at most 8. The GPU process copies each
/// mapped part into the page's memory in turn, and the page copies a part out while
/// the next one arrives; on the H200 (bench/NOTES.md, "A single product's waits") 8
/// parts took a raw readback of 64 MiB from 47 to 36 ms. Part sizes are multiples of
/// 16 bytes, so that kept buffers fit again.
pub fn read_parts(bytes: u64) -> (u64, u64) {
    const MIN_PART: u64 = 1 << 20;
    const MOST_PARTS: u64 = 8;
    let count = (bytes / MIN_PART).clamp(1, MOST_PARTS);
    let part = bytes.div_ceil(count).div_ceil(16) * 16;
    (bytes.div_ceil(part.max(1)).max(1), part.max(16))
}

/// A readback in flight: its parts' mappable buffers and the promises of their
/// mappings.
pub struct GpuRead {
    gpu: Gpu,
    /// Where the buffers go back when read.
    pool: StagingPool,
    parts: Vec<ReadPart>,
    bytes: u64,
}

/// `len` bytes of the data from byte `offset`, in `staging` once `mapped` resolves.
struct ReadPart {
    offset: u64,
    len: u64,
    staging: Buffer,
    mapped: JsFuture,
}

impl GpuRead {
    /// Waits for each part's data in turn (and, before the first, for the device's
    /// pending error checks) and hands it to `sink` as (byte offset, mapped range of
    /// the part's length); each mapping then ends and its buffer is kept for reuse.
    async fn each(self, mut sink: impl FnMut(u64, &js_sys::ArrayBuffer)) -> Result<()> {
        let GpuRead {
            gpu, pool, parts, ..
        } = self;
        // The GPU process is nudged until every map (and the checks) have resolved.
        let _waiting = gpu.nudger().wait();
        let mut checked = Some(gpu.settle().await);
        for part in parts {
            let map = part.mapped.await;
            if let Some(checked) = checked.take() {
                if checked.is_err() {
                    // The failure's consequences (the copy and pass of a buffer that
                    // could not be made) are reported once the queue has seen them:
                    // this call's errors, not the next one's.
                    let done = gpu.queue().on_submitted_work_done();
                    let _ = JsFuture::from(js_sys::Promise::from(JsValue::from(done))).await;
                    gpu.checks().forget_uncaptured();
                }
                checked?;
            }
            if let Err(e) = map {
                // A loss aborts the mapping before `device.lost` resolves (Chromium by
                // about a millisecond; Firefox, "Buffer unmapped" or "Invalid buffer",
                // also after the queue's work is done), so a read with no checks pending
                // (a run's) said WEBGPU_ERROR, "a bug": the loss is given its moment.
                gpu.lost_after_failure().await;
                return Err(gpu.failure(format!("mapAsync failed: {}", describe_js(&e))));
            }
            let range = part
                .staging
                .raw()
                .get_mapped_range_with_f64_and_f64(0.0, part.len.div_ceil(4) as f64 * 4.0)
                .map_err(|e| gpu.threw("getMappedRange", &e))?;
            sink(part.offset, &range);
            part.staging.raw().unmap();
            pool.keep_read(part.staging);
        }
        Ok(())
    }

    /// The data as floats, copied from the mapped ranges into wasm memory.
    pub async fn wait_f32(self) -> Result<Vec<f32>> {
        let floats = (self.bytes / 4) as usize;
        let mut out = crate::error::room(floats, || format!("a readback of {floats} numbers"))?;
        let spare = &mut out.spare_capacity_mut()[..floats];
        self.each(|offset, range| {
            let at = (offset / 4) as usize;
            let view = js_sys::Float32Array::new(range);
            let len = (view.length() as usize).min(floats - at);
            view.subarray(0, len as u32)
                .copy_to_uninit(&mut spare[at..at + len]);
        })
        .await?;
        // SAFETY: the parts cover the readback's bytes, so each of the first `floats`
        // elements was written by one copy_to_uninit.
        unsafe { out.set_len(floats) };
        Ok(out)
    }

    /// The data as a JavaScript Float32Array (no copy through wasm memory).
    pub async fn wait_js(self) -> Result<js_sys::Float32Array> {
        let floats = (self.bytes / 4) as u32;
        let out = js_sys::Float32Array::new(&self.touched_output());
        self.each(|offset, range| {
            let view = js_sys::Float32Array::new(range);
            let at = (offset / 4) as u32;
            out.set(&view.subarray(0, view.length().min(floats - at)), at);
        })
        .await?;
        Ok(out)
    }

    /// The data as bytes (pixels).
    pub async fn wait_bytes(self) -> Result<js_sys::Uint8ClampedArray> {
        let bytes = self.bytes as u32;
        let out = js_sys::Uint8ClampedArray::new(&self.touched_output());
        self.each(|offset, range| {
            let view = js_sys::Uint8Array::new(range);
            let at = offset as u32;
            out.set(&view.subarray(0, view.length().min(bytes - at)), at);
        })
        .await?;
        Ok(out)
    }

    /// The caller's copy of the data, its memory mapped in before the copy
    /// (`StagingPool::output`).
    fn touched_output(&self) -> js_sys::ArrayBuffer {
        self.pool.output(self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::read_parts;

    #[test]
    fn readback_parts_cover_the_bytes_once() {
        const MIB: u64 = 1 << 20;
        for bytes in [
            4,
            16,
            36,
            MIB - 4,
            MIB,
            MIB + 4,
            4 * MIB - 12,
            4 * MIB,
            16 * MIB,
            64 * MIB - 4,
            64 * MIB,
            1 << 30,
        ] {
            let (count, part) = read_parts(bytes);
            assert!((1..=8).contains(&count), "{bytes}: {count} parts");
            assert_eq!(part % 16, 0, "{bytes}: part {part}");
            // Every part but the last is whole, and the last holds at least a byte.
            assert!(
                (count - 1) * part < bytes && bytes <= count * part,
                "{bytes}"
            );
            // Parts of 1 MiB at least, unless the data is smaller.
            assert!(part >= MIB.min(bytes), "{bytes}: part {part}");
        }
        assert_eq!(read_parts(MIB), (1, MIB));
        assert_eq!(read_parts(4 * MIB), (4, MIB));
        assert_eq!(read_parts(64 * MIB), (8, 8 * MIB));
    }
}
