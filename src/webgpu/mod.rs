//! A thin, safe layer over WebGPU (web-sys's bindings, so every name is the one MDN
//! documents). Each object that holds GPU memory is owned by one Rust value that
//! destroys it on Drop; the shared [`Gpu`] handle counts live objects (so tests can
//! prove nothing leaks), remembers a lost device, and collects the errors WebGPU
//! reports later, on promises, so that the next readback can return them.

pub mod adapter;
pub mod buffer;
pub mod checks;
pub mod lost;
pub mod nudge;
pub mod pipeline;
pub mod query;
pub mod staging;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use web_sys::{GpuDevice, GpuQueue};

use crate::error::GpgpuError;

pub use adapter::{GpuInfo, GpuLimits};
pub use buffer::Buffer;
pub use checks::Checks;
pub use nudge::Nudger;
pub use pipeline::{Access, BindGroup, ComputePipeline};
pub use query::Timer;
pub use staging::StagingPool;

crate::common::live_counts! {
    #[doc = " Live WebGPU objects created through this layer and not yet dropped."]
    buffers "buffers", pipelines "pipelines", shader_modules "shaderModules",
    bind_groups "bindGroups", query_sets "querySets",
}

struct Inner {
    device: GpuDevice,
    queue: GpuQueue,
    /// Shared by every device an engine has had, so counts survive a replacement.
    counts: Rc<Cell<LiveCounts>>,
    /// Why the device is gone: set by the `device.lost` handler.
    lost: RefCell<Option<String>>,
    /// Set when the owner freed the device on purpose: work in flight then fails as
    /// Freed, not as a lost device.
    released: Cell<bool>,
    checks: Checks,
    nudger: Nudger,
}

/// A cheap, clonable handle to one GPUDevice (as `gl::Gl` is to a context).
#[derive(Clone)]
pub struct Gpu(Rc<Inner>);

impl Gpu {
    pub fn new(device: GpuDevice, counts: Rc<Cell<LiveCounts>>) -> Gpu {
        let queue = device.queue();
        Gpu(Rc::new(Inner {
            nudger: Nudger::new(device.clone()),
            queue,
            device,
            counts,
            lost: RefCell::new(None),
            released: Cell::new(false),
            checks: Checks::default(),
        }))
    }

    /// Whether two handles are the same device.
    pub fn same(&self, other: &Gpu) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }

    pub fn device(&self) -> &GpuDevice {
        &self.0.device
    }

    pub fn queue(&self) -> &GpuQueue {
        &self.0.queue
    }

    pub fn counts(&self) -> LiveCounts {
        self.0.counts.get()
    }

    pub(crate) fn adjust(&self, f: impl FnOnce(&mut LiveCounts)) {
        crate::common::adjust(&self.0.counts, f);
    }

    /// The error checks pending on this device (error scopes, compilation info).
    pub fn checks(&self) -> &Checks {
        &self.0.checks
    }

    /// What keeps the GPU process looking for finished work while a readback waits.
    pub fn nudger(&self) -> &Nudger {
        &self.0.nudger
    }

    /// Records that the device is gone (from `device.lost`).
    pub fn mark_lost(&self, why: String) {
        *self.0.lost.borrow_mut() = Some(why);
    }

    pub fn is_lost(&self) -> bool {
        self.0.lost.borrow().is_some()
    }

    /// Records that the owner let the device go (before destroying it on purpose).
    pub fn release(&self) {
        self.0.released.set(true);
    }

    /// Why the device's objects are gone: freed by its owner, or lost.
    pub fn gone(&self) -> GpgpuError {
        if self.0.released.get() {
            return GpgpuError::Freed;
        }
        GpgpuError::DeviceLost {
            detail: self
                .0
                .lost
                .borrow()
                .clone()
                .unwrap_or_else(|| "the device is gone".into()),
        }
    }

    /// Awaits the pending checks. A failure on a device lost meanwhile is its loss:
    /// Firefox fails a destroyed device's shader modules as compile errors ("Parent
    /// device is lost") before `device.lost` resolves, so a failure gives `lost` a
    /// moment to resolve ([`Self::lost_after_failure`]).
    pub async fn settle(&self) -> crate::error::Result<()> {
        let checked = self.0.checks.settle().await;
        if checked.is_err() {
            self.lost_after_failure().await;
        }
        match checked {
            Err(_) if self.is_lost() || self.0.released.get() => Err(self.gone()),
            other => other,
        }
    }

    /// Whether the device is gone after a failure: lost already, or lost within
    /// LOSS_WAIT_MS (Firefox fails a destroyed device's work before `device.lost`
    /// resolves); a genuine error waits that much longer to be reported.
    pub async fn lost_after_failure(&self) -> bool {
        const LOSS_WAIT_MS: u32 = 200;
        if !self.is_lost() && !self.0.released.get() {
            if let Some(why) = lost::lost_within(self.device(), LOSS_WAIT_MS).await {
                self.mark_lost(why);
            }
        }
        self.is_lost() || self.0.released.get()
    }

    /// The error for a failed call: a lost device explains most of them.
    pub fn failure(&self, detail: impl Into<String>) -> GpgpuError {
        if self.is_lost() || self.0.released.get() {
            self.gone()
        } else {
            GpgpuError::WebGpu {
                detail: detail.into(),
            }
        }
    }

    /// The error for a browser call `call` that threw `e`, quoting its message.
    pub fn threw(&self, call: &str, e: &wasm_bindgen::JsValue) -> GpgpuError {
        self.failure(format!(
            "{call} threw {}",
            crate::common::guard::describe_js(e)
        ))
    }
}
