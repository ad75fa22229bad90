//! The CPU backend's JavaScript additions: the `threads` option of
//! `Gpgpu.create({ backend: 'cpu', threads })`, the live-worker count the leak
//! tests read, and each worker's time in the last product.

use wasm_bindgen::prelude::*;

use super::args::{number_option, set};
use super::JsGpgpu;
use crate::error::{GpgpuError, Result};

#[wasm_bindgen(typescript_custom_section)]
const TS_CPU: &str = r#"
/** Where the CPU backend's last Async product spent its time, ms (lastCpuTiming()). */
export interface CpuTiming {
  /** The whole call on the calling thread: sending A's rows and B, the workers, assembling C. */
  wallMs: number;
  /** The slowest worker's kernel time. */
  kernelMaxMs: number;
  /** The workers' kernel times added up. */
  kernelSumMs: number;
  /** wallMs − kernelMaxMs: messages, copies, waiting. */
  overheadMs: number;
  /** Each worker's kernel time. */
  workerMs: Float64Array;
}
"#;

/// `threads`: a whole number from 0 (no workers) to [`crate::cpu::MAX_THREADS`].
pub(crate) fn threads_option(options: &JsValue) -> Result<usize> {
    let max = crate::cpu::MAX_THREADS;
    match number_option(options, "threads")? {
        Some(v) if v >= 0.0 && v <= max as f64 && v.fract() == 0.0 => Ok(v as usize),
        Some(v) => Err(GpgpuError::BadArgument {
            name: "options.threads".into(),
            detail: format!(
                "is {}; it must be a whole number from 0 (products on the calling thread) \
                 to {max}",
                crate::error::js_number(v)
            ),
        }),
        None => Ok(crate::cpu::default_threads()),
    }
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// Web Workers of the CPU backend alive on this page, across every Gpgpu (0
    /// once every CPU Gpgpu and every Run of one is freed: a live Run keeps its
    /// engine and its workers, as it keeps a GPU's context or device).
    #[wasm_bindgen(js_name = liveWorkers)]
    pub fn live_workers() -> u32 {
        crate::cpu::live_workers()
    }

    /// CPU backend: each worker's time in its rows of the last async product, ms
    /// (empty on the other backends, and before the first product).
    #[wasm_bindgen(js_name = lastWorkerMs)]
    pub fn last_worker_ms(&self) -> Vec<f64> {
        self.gpu
            .engine()
            .cpu()
            .map(|e| e.last_worker_ms())
            .unwrap_or_default()
    }

    /// CPU backend: where the last async product's time went, ms, or null (other
    /// backends, before the first product): `{ wallMs, kernelMaxMs, kernelSumMs,
    /// overheadMs, workerMs }`. `wallMs` is the whole call on this thread (sending
    /// A's rows and B, the workers, assembling C); `kernelMaxMs` the slowest
    /// worker's kernel; `overheadMs` their difference (messages, copies, waiting).
    #[wasm_bindgen(js_name = lastCpuTiming, unchecked_return_type = "CpuTiming | null")]
    pub fn last_cpu_timing(&self) -> JsValue {
        let mut engine = self.gpu.engine();
        let Some(e) = engine.cpu() else {
            return JsValue::NULL;
        };
        let ms = e.last_worker_ms();
        if ms.is_empty() {
            return JsValue::NULL;
        }
        let max = ms.iter().copied().fold(f64::NAN, f64::max);
        let o = js_sys::Object::new();
        set(&o, "wallMs", e.last_wall_ms());
        set(&o, "kernelMaxMs", max);
        set(&o, "kernelSumMs", ms.iter().sum::<f64>());
        set(&o, "overheadMs", e.last_wall_ms() - max);
        set(&o, "workerMs", js_sys::Float64Array::from(&ms[..]));
        o.into()
    }
}
