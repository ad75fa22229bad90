//! The handle that async work holds on an engine.

use std::cell::RefCell;
use std::rc::Weak;

use super::Engine;
use crate::error::{GpgpuError, Result};

/// A handle that async work holds: it does not keep the engine alive, so work in
/// flight when its Gpgpu is freed fails as `Freed`.
#[derive(Clone)]
pub struct Handle(Weak<RefCell<Engine>>);

impl Handle {
    /// A handle on `engine` that does not keep it alive.
    pub fn on(engine: &std::rc::Rc<RefCell<Engine>>) -> Handle {
        Handle(std::rc::Rc::downgrade(engine))
    }
}

impl Handle {
    /// Whether the engine is still there (its Gpgpu, or a Run of it, not yet freed).
    pub fn alive(&self) -> bool {
        self.0.strong_count() > 0
    }

    /// Runs `f` on the engine, or `Freed` if the engine is gone.
    pub fn with<T>(&self, f: impl FnOnce(&mut Engine) -> Result<T>) -> Result<T> {
        let engine = self.0.upgrade().ok_or(GpgpuError::Freed)?;
        let mut e = engine
            .try_borrow_mut()
            .map_err(|_| GpgpuError::BadArgument {
                name: "gpgpu".into(),
                detail: "called from inside another call on the same Gpgpu".into(),
            })?;
        f(&mut e)
    }

    /// A pass's GPU time in ms once its answer arrives (it follows the pass's
    /// readback by a few turns of the event loop at most); None if the device did
    /// not time it or the answer is unreliable.
    pub async fn timer_ms(&self, timer: &super::Timer) -> Option<f64> {
        for _ in 0..100 {
            match self.with(|e| Ok(e.timer_ms(timer))) {
                Ok(Some(ms)) => return Some(ms).filter(|ms| ms.is_finite()),
                Ok(None) => crate::common::next_tick().await,
                Err(_) => return None,
            }
        }
        None
    }

    /// Resolves once the engine can take work: at once, unless its WebGPU device
    /// was lost and a new one is on its way (then when it arrives).
    pub async fn ready(&self) -> Result<()> {
        // Requests for a replacement made before this call: their failure is no answer
        // for it, as the GPU may be back since (the first call after it came back
        // was NO_WEBGPU, and only the next worked).
        let before = self.with(|e| Ok(e.replacement_requests()))?;
        loop {
            // Only the loss is waited out: a replacement that failed (no adapter, no
            // device) is this call's error, though `ensure` has already asked again
            // (waiting on that too left the call pending for as long as no GPU came),
            // unless it was asked for before the call: then the request `ensure`
            // makes again is waited for.
            let waiting = self.with(|e| {
                let stale = e.failed_replacement().is_some_and(|k| k <= before);
                match e.ensure() {
                    Ok(()) => Ok(false),
                    Err(_) if stale && e.replacing() => Ok(true),
                    Err(GpgpuError::DeviceLost { .. }) if e.replacing() => Ok(true),
                    Err(err) => Err(err),
                }
            })?;
            if !waiting {
                return Ok(());
            }
            crate::common::next_tick().await;
        }
    }
}
