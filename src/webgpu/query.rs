//! GPU time of one compute pass from two timestamp queries ('timestamp-query'):
//! written at the pass's start and end, resolved into a buffer, copied to a
//! mappable one and read when the GPU is done, without ever waiting for it.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{
    gpu_buffer_usage, gpu_map_mode, GpuCommandEncoder, GpuComputePassTimestampWrites, GpuQuerySet,
    GpuQuerySetDescriptor, GpuQueryType,
};

use super::{Buffer, Gpu};
use crate::error::Result;

/// A query set of two timestamps, destroyed on Drop.
pub struct QuerySet {
    gpu: Gpu,
    raw: GpuQuerySet,
}

impl QuerySet {
    pub fn timestamps(gpu: &Gpu, count: u32) -> QuerySet {
        let descriptor = GpuQuerySetDescriptor::new(count, GpuQueryType::Timestamp);
        let raw = gpu
            .checks()
            .scoped(gpu.device(), "creating a query set", || {
                gpu.device().create_query_set(&descriptor)
            });
        gpu.adjust(|c| c.query_sets += 1);
        QuerySet {
            gpu: gpu.clone(),
            raw: raw.expect("createQuerySet does not throw for a timestamp set of 2"),
        }
    }

    pub fn raw(&self) -> &GpuQuerySet {
        &self.raw
    }
}

impl Drop for QuerySet {
    fn drop(&mut self) {
        self.raw.destroy();
        self.gpu.adjust(|c| c.query_sets -= 1);
    }
}

/// The timing of one pass: None until the GPU's answer is read, then ms (NaN if
/// the read failed).
pub struct Timer {
    set: Rc<QuerySet>,
    resolved: Rc<Buffer>,
    staging: Rc<Buffer>,
    ms: Rc<Cell<Option<f64>>>,
}

impl Timer {
    pub fn new(gpu: &Gpu) -> Result<Timer> {
        use gpu_buffer_usage::{COPY_DST, COPY_SRC, MAP_READ, QUERY_RESOLVE};
        let set = QuerySet::timestamps(gpu, 2);
        // Each holds the two 8-byte timestamps.
        let buffer = |usage, label| Buffer::new(gpu, 16, usage, label).map(Rc::new);
        Ok(Timer {
            set: Rc::new(set),
            resolved: buffer(QUERY_RESOLVE | COPY_SRC, "timestamps")?,
            staging: buffer(MAP_READ | COPY_DST, "timestamps (read)")?,
            ms: Rc::new(Cell::new(None)),
        })
    }

    /// What the compute pass descriptor takes to write the two timestamps.
    pub fn writes(&self) -> GpuComputePassTimestampWrites {
        let w = GpuComputePassTimestampWrites::new(self.set.raw());
        w.set_beginning_of_pass_write_index(0);
        w.set_end_of_pass_write_index(1);
        w
    }

    /// The first half of a span over two passes: this pass's beginning only.
    pub fn begin_writes(&self) -> GpuComputePassTimestampWrites {
        let w = GpuComputePassTimestampWrites::new(self.set.raw());
        w.set_beginning_of_pass_write_index(0);
        w
    }

    /// The second half: this pass's end only.
    pub fn end_writes(&self) -> GpuComputePassTimestampWrites {
        let w = GpuComputePassTimestampWrites::new(self.set.raw());
        w.set_end_of_pass_write_index(1);
        w
    }

    /// Records, after the pass, the resolve of the queries and their copy to a
    /// mappable buffer.
    pub fn resolve(&self, encoder: &GpuCommandEncoder) {
        encoder.resolve_query_set_with_u32(self.set.raw(), 0, 2, self.resolved.raw(), 0);
        let _ = encoder.copy_buffer_to_buffer_with_u32_and_u32_and_u32(
            self.resolved.raw(),
            0,
            self.staging.raw(),
            0,
            16,
        );
    }

    /// Once the resolve is submitted: reads the timestamps when the GPU gets there,
    /// without waiting for it.
    pub fn read(&self) -> Result<()> {
        let (ms, set, resolved, staging) = (
            self.ms.clone(),
            self.set.clone(),
            self.resolved.clone(),
            self.staging.clone(),
        );
        let promise = staging.raw().map_async(gpu_map_mode::READ);
        spawn_local(async move {
            let value =
                match JsFuture::from(js_sys::Promise::from(wasm_bindgen::JsValue::from(promise)))
                    .await
                {
                    Ok(_) => match staging.raw().get_mapped_range() {
                        Ok(range) => {
                            let t = js_sys::BigInt64Array::new(&range);
                            let (start, end) = (t.get_index(0), t.get_index(1));
                            staging.raw().unmap();
                            (end - start) as f64 / 1e6
                        }
                        Err(_) => f64::NAN,
                    },
                    Err(_) => f64::NAN,
                };
            ms.set(Some(value));
            // Kept alive until the read, so the resolve and copy had their buffers.
            drop((set, resolved, staging));
        });
        Ok(())
    }

    /// The pass's GPU time in ms, or None while the answer is on its way.
    pub fn ms(&self) -> Option<f64> {
        self.ms.get()
    }
}
