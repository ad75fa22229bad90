//! A lost device (`device.lost`: a driver reset, or `device.destroy()`) is
//! replaced: the loss starts a request for a new device at once, and the first call
//! after it arrives swaps it in, forgets every object of the old one and bumps the
//! generation, so that runs of the old device fail clearly.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{GpuAdapter, GpuDevice, GpuPowerPreference, GpuUncapturedErrorEvent};

use super::{Background, GpuEngine};
use crate::common::guard::describe_js;
use crate::error::{GpgpuError, Result};
use crate::webgpu::adapter;
use crate::webgpu::Gpu;

/// Where a request for a replacement device stands, and how many were made.
pub(super) struct Replacement {
    /// Requests made so far: `state` is about the latest (one at a time).
    pub(super) asked: u64,
    pub(super) state: Asked,
}

pub(super) enum Asked {
    Idle,
    Pending,
    Ready(Result<(GpuAdapter, GpuDevice)>),
}

impl GpuEngine {
    /// Fails while the device is lost and no replacement has arrived yet; swaps a
    /// replacement in once it has.
    pub fn ensure(&mut self) -> Result<()> {
        if !self.gpu.is_lost() {
            return Ok(());
        }
        let state = std::mem::replace(&mut self.replacement.borrow_mut().state, Asked::Idle);
        match state {
            Asked::Ready(Ok((adapter, device))) => {
                // Everything made on the old device died with it.
                self.pending = None;
                self.pipelines.clear();
                self.free.clear();
                self.staging.clear();
                self.uniforms.clear();
                self.info = adapter::describe(&adapter, &device);
                self.background = Background::default();
                self.states.clear();
                self.gpu = Gpu::new(device, self.counts.clone());
                self.gpu
                    .nudger()
                    .set_enabled(crate::webgpu::nudge::helps(&self.info));
                self._on_error = watch(&self.gpu, &self.replacement, self.power);
                self.generation = self.generation.wrapping_add(1);
                Ok(())
            }
            Asked::Ready(Err(e)) => {
                // No device this time: ask again, for the next call (or this one,
                // if it can wait: see `Handle::ready`).
                request_replacement(&self.replacement, self.power);
                Err(match e {
                    GpgpuError::NoWebGpu { detail } => GpgpuError::NoWebGpu {
                        detail: format!(
                            "no new device after the loss of the last one: {detail}; a new \
                             one has been asked for, so a later call works if the GPU is back"
                        ),
                    },
                    e => e,
                })
            }
            Asked::Pending => {
                self.replacement.borrow_mut().state = Asked::Pending;
                Err(self.gpu.gone())
            }
            Asked::Idle => {
                request_replacement(&self.replacement, self.power);
                Err(self.gpu.gone())
            }
        }
    }

    /// Whether a replacement for a lost device is on its way (worth waiting for).
    pub fn replacing(&self) -> bool {
        self.gpu.is_lost() && !matches!(self.replacement.borrow().state, Asked::Idle)
    }

    /// How many replacement devices have been asked for so far.
    pub fn replacement_requests(&self) -> u64 {
        self.replacement.borrow().asked
    }

    /// The number of the request for a replacement that failed, while its failure
    /// is what [`Self::ensure`] reports next.
    pub fn failed_replacement(&self) -> Option<u64> {
        let r = self.replacement.borrow();
        let failed = matches!(r.state, Asked::Ready(Err(_)));
        (self.gpu.is_lost() && failed).then_some(r.asked)
    }
}

/// Installs the device's error and loss handlers: an uncaptured error is kept for
/// the next readback; a loss marks the device lost and asks for a replacement.
pub(super) fn watch(
    gpu: &Gpu,
    replacement: &Rc<RefCell<Replacement>>,
    power: Option<GpuPowerPreference>,
) -> Closure<dyn FnMut(GpuUncapturedErrorEvent)> {
    let errors = gpu.checks().uncaptured();
    let on_error = Closure::new(move |event: GpuUncapturedErrorEvent| {
        errors.borrow_mut().push(event.error().message());
    });
    gpu.device()
        .set_onuncapturederror(Some(on_error.as_ref().unchecked_ref()));
    let lost = JsFuture::from(js_sys::Promise::from(JsValue::from(gpu.device().lost())));
    let (gpu, replacement) = (gpu.clone(), replacement.clone());
    spawn_local(async move {
        let why = match lost.await {
            Ok(info) => crate::webgpu::lost::describe_loss(info),
            Err(e) => describe_js(&e),
        };
        gpu.mark_lost(why);
        if gpu.gone() != GpgpuError::Freed {
            request_replacement(&replacement, power);
        }
    });
    on_error
}

/// Asks for a new adapter and device unless a request is already out.
pub(super) fn request_replacement(
    replacement: &Rc<RefCell<Replacement>>,
    power: Option<GpuPowerPreference>,
) {
    let mut r = replacement.borrow_mut();
    if matches!(r.state, Asked::Pending) {
        return;
    }
    r.state = Asked::Pending;
    r.asked += 1;
    drop(r);
    let replacement = replacement.clone();
    spawn_local(async move {
        let got = async {
            let adapter = adapter::request_adapter(power).await?;
            let device = adapter::request_device(&adapter).await?;
            Ok((adapter, device))
        }
        .await;
        replacement.borrow_mut().state = Asked::Ready(got);
    });
}
