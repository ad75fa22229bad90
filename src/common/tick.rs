//! The event loop, seen from Rust: the next turn of it, and running a future that
//! must not wait (the blocking calls of WebGL and the CPU).

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::error::{GpgpuError, Result};

/// Resolves on the next macrotask (setTimeout 0), in a window or a worker.
pub async fn next_tick() {
    let _ = JsFuture::from(timer(0)).await;
}

/// A promise that resolves (to undefined) after `ms` milliseconds (setTimeout), in a
/// window or a worker; at once where there is no setTimeout.
pub fn timer(ms: u32) -> js_sys::Promise {
    js_sys::Promise::new(&mut |resolve, _| {
        let global = js_sys::global();
        let set_timeout = js_sys::Reflect::get(&global, &"setTimeout".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        match set_timeout {
            Some(f) => {
                let _ = f.call2(&global, &resolve, &ms.into());
            }
            None => {
                let _ = resolve.call0(&global);
            }
        }
    })
}

thread_local! {
    static BLOCKING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the code running now is under [`now`] (a blocking call): the CPU
/// backend then computes on the calling thread instead of awaiting its workers.
#[doc(hidden)]
pub fn blocking() -> bool {
    BLOCKING.get()
}

/// Runs a future that must complete without waiting (the blocking calls on WebGL,
/// whose reads are synchronous); one that would wait is `NeedsAsync`. Internal: the
/// plumbing of the JavaScript blocking forms (`call` and `instead` name JavaScript
/// calls), hidden from the documentation; Rust callers await the async forms.
#[doc(hidden)]
pub fn now<T>(
    future: impl Future<Output = Result<T>>,
    call: &'static str,
    instead: &'static str,
) -> Result<T> {
    let mut future = pin!(future);
    // The CPU backend's reads run their queue on this thread while this is set.
    let outer = BLOCKING.replace(true);
    let polled = future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()));
    BLOCKING.set(outer);
    match polled {
        Poll::Ready(result) => result,
        Poll::Pending => Err(GpgpuError::NeedsAsync { call, instead }),
    }
}
