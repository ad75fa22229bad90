//! Why a device is lost, read from its `lost` promise: at once after its queue answers
//! (`'auto'`'s check of a new device), or within a wait (a failed check on Firefox,
//! which fails a lost device's work before `lost` resolves).

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{GpuDevice, GpuDeviceLostInfo};

use crate::common::next_tick;

/// The reason and message of a `GPUDeviceLostInfo`.
pub fn describe_loss(info: JsValue) -> String {
    let info: GpuDeviceLostInfo = info.unchecked_into();
    format!("{:?}: {}", info.reason(), info.message())
}

/// Why `device` is lost, if it is once its queue has answered (a round trip to the GPU
/// process) and the event loop has turned. A device can come lost (WebGPU's answer when
/// the adapter cannot give one after all) or be lost as it starts (the GPU process
/// gone); `'auto'` then falls back to WebGL2. Chromium resolves `lost` one round trip
/// after the loss (about 2 ms after `destroy()` here), not at once; a healthy device's
/// queue answers in about 0.15 ms.
pub async fn lost_at_once(device: &GpuDevice) -> Option<String> {
    use js_sys::Promise;
    let done = Promise::from(JsValue::from(device.queue().on_submitted_work_done()));
    if super::nudge::is_firefox() {
        // Firefox answers on its GPU process's 100 ms poll unless work is submitted.
        device
            .queue()
            .submit(&[device.create_command_encoder().finish()]);
    }
    let _ = JsFuture::from(done).await; // a lost device may reject: lost says why
    next_tick().await;
    // Settled, `lost` wins the race (its reaction is queued first); pending, it loses.
    let lost = Promise::from(JsValue::from(device.lost()));
    let now = Promise::resolve(&JsValue::UNDEFINED);
    let first = JsFuture::from(Promise::race(&js_sys::Array::of2(&lost, &now)))
        .await
        .ok()?;
    (!first.is_undefined()).then(|| describe_loss(first))
}

/// Why `device` is lost, if `lost` resolves within `ms` milliseconds. Firefox resolves it
/// some time after `destroy()` (a round trip to its GPU process), and meanwhile fails the
/// device's work as if it were wrong ("Parent device is lost" as a compile error).
pub async fn lost_within(device: &GpuDevice, ms: u32) -> Option<String> {
    use js_sys::Promise;
    let lost = Promise::from(JsValue::from(device.lost()));
    let timer = crate::common::tick::timer(ms);
    let first = JsFuture::from(Promise::race(&js_sys::Array::of2(&lost, &timer)))
        .await
        .ok()?;
    (!first.is_undefined()).then(|| describe_loss(first))
}
