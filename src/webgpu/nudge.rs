//! Nudges the browser's GPU process while the page waits on it: a readback's map, a
//! run's `whenDone` (onSubmittedWorkDone) and the error checks before them.
//!
//! Chrome resolves `mapAsync` (and error scopes) only when its GPU process next looks
//! for finished work, which it does on a timer of 1–2 ms unless commands arrive. So a
//! small readback waited 1–3 ms after the GPU had finished, in two modes about 2 ms
//! apart. Measured on the H200 (`bench/probes/pipelined.html`, bench/NOTES.md "A
//! single product's waits"): an empty `queue.submit([])` sent from a MessageChannel
//! loop while the page waits took a raw upload-copy-readback at n = 512 from 3.5 to
//! 1.3 ms and at 1024 from 4.6 to 2.3 ms.
//!
//! Firefox looks on a 100 ms timer (`POLL_TIME_MS` in its WebGPUParent.cpp, Mozilla
//! bug 1870699), or when work is submitted: a small wait took about 100 ms, however
//! little the GPU had to do. There each nudge also submits an empty command buffer.
//! Measured in Firefox ESR 153 on Mesa's lavapipe (a software adapter: the delay is a
//! timer, not computing, so Firefox nudges on every adapter): a 16 × 16 product's
//! readback went from 100 to about 1 ms, a run's step and `whenDone` from 100 to
//! 0.5 ms, a 256 × 256 product from 100 to 4–6 ms (its computing), a thousand async
//! calls from 101 s to 1.1 s; the loop's turns took little from lavapipe's computing on
//! the same 2 cores (a 1024 × 1024 product: 277–339 ms nudged, 279–315 not). Nudges at
//! least 0, 0.5, 1 and 2 ms apart gave a small readback 0.7–1.8, 0.7–1.3, 1.1–1.7 and
//! 2.0–2.2 ms; `FIREFOX_EVERY_MS` is 0.5 (Firefox's clock steps by 1 ms in a page that
//! is not cross-origin isolated, so mostly one nudge per step). Firefox answers error
//! scopes, compilation info and createComputePipelineAsync without the poll (0.2–0.7
//! ms); `'auto'`'s check of a new device (`lost::lost_at_once`, before any engine)
//! submits once itself: 100 to 0.3–1.3 ms.
//!
//! Nudges must not come faster than the GPU process takes them: one every loop turn,
//! or every 0.05 ms, left it seconds behind (a product after such waits took 100+ ms
//! instead of 2). So each nudge is an empty error scope, which the GPU process
//! answers on the device's timeline (not after the queue's work), and the next is sent
//! only once the last is answered, and at least `EVERY_MS` later: as fast as this
//! machine's GPU process goes, never faster. In Chromium a software adapter's "GPU
//! process" is busy computing on the same cores, and its own timer costs only 1–2 ms,
//! so engines there leave nudging off; Safari's WebKit, never measured with it, too:
//! [`helps`].

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{GpuDevice, GpuErrorFilter, MessageChannel, MessagePort, Performance};

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// A promise, for `then` with a plain function (js-sys's `then2` takes closures
    /// that the caller keeps).
    type Answer;

    #[wasm_bindgen(method)]
    fn then(this: &Answer, resolve: &JsValue, reject: &JsValue);
}

/// Whether an engine nudges its waits: on a hardware adapter in a Chromium-based browser
/// (Chrome, Edge), and on every adapter in Firefox, where each was measured to help.
pub fn helps(info: &super::GpuInfo) -> bool {
    is_firefox() || (!info.is_software() && is_chromium())
}

/// Firefox (in a window or a worker): its user agent names "Firefox/" and a version.
pub fn is_firefox() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &"navigator".into())
        .and_then(|n| js_sys::Reflect::get(&n, &"userAgent".into()))
        .ok()
        .and_then(|a| a.as_string())
        .is_some_and(|a| a.contains("Firefox/"))
}

/// Chromium, Chrome or Edge: only their `navigator.userAgentData` exists, and its brands
/// list "Chromium" (in a window or a worker; absent outside secure contexts, where the
/// nudges then stay off).
pub fn is_chromium() -> bool {
    let field = |v: &JsValue, k: &str| js_sys::Reflect::get(v, &k.into()).ok();
    let brands = field(&js_sys::global(), "navigator")
        .and_then(|n| field(&n, "userAgentData"))
        .and_then(|d| field(&d, "brands"))
        .filter(js_sys::Array::is_array);
    brands.is_some_and(|b| {
        js_sys::Array::from(&b)
            .iter()
            .any(|b| field(&b, "brand").and_then(|s| s.as_string()).as_deref() == Some("Chromium"))
    })
}

/// The least time between two nudges, in ms (besides the last being answered), in
/// Chromium and in Firefox (whose nudges each submit a command buffer).
const EVERY_MS: f64 = 0.1;
const FIREFOX_EVERY_MS: f64 = 0.5;

/// What the loop's port calls each turn.
type OnMessage = Closure<dyn FnMut()>;

/// The loop of one device: runs while anything waits, then stops until the next wait.
pub struct Nudger(Rc<State>);

struct State {
    device: GpuDevice,
    /// Each nudge submits an empty command buffer too (Firefox), `every` ms apart at least.
    submit: bool,
    every: f64,
    /// A nudge whose answer has not come back: the next waits for it.
    in_flight: Cell<bool>,
    /// Where each nudge's answer handler reaches the state (`turn`).
    weak: Weak<State>,
    enabled: Cell<bool>,
    waiting: Cell<usize>,
    running: Cell<bool>,
    /// When the last nudge was sent (`performance.now()`).
    last: Cell<f64>,
    performance: Option<Performance>,
    /// The loop's two ends: `send` posts to `receive`, whose handler nudges and posts
    /// again. None where MessageChannel is missing (the loop is then off).
    ports: Option<(MessagePort, MessagePort)>,
    on_message: RefCell<Option<OnMessage>>,
}

/// One wait in progress; the loop stops when the last is dropped.
pub struct Waiting(Option<Rc<State>>);

impl Nudger {
    pub fn new(device: GpuDevice) -> Nudger {
        let ports = MessageChannel::new().ok().map(|c| (c.port1(), c.port2()));
        let submit = is_firefox();
        let state = Rc::new_cyclic(|weak| State {
            device,
            submit,
            every: if submit { FIREFOX_EVERY_MS } else { EVERY_MS },
            in_flight: Cell::new(false),
            weak: weak.clone(),
            enabled: Cell::new(false),
            waiting: Cell::new(0),
            running: Cell::new(false),
            last: Cell::new(f64::NEG_INFINITY),
            // `performance` of the window or the worker.
            performance: js_sys::Reflect::get(&js_sys::global(), &"performance".into())
                .ok()
                .and_then(|p| p.dyn_into::<Performance>().ok()),
            ports,
            on_message: RefCell::new(None),
        });
        if let Some((receive, _)) = &state.ports {
            // Weak: the state owns the handler, so a strong reference would keep both.
            let weak: Weak<State> = Rc::downgrade(&state);
            let handler = OnMessage::new(move || {
                if let Some(s) = weak.upgrade() {
                    s.turn();
                }
            });
            receive.set_onmessage(Some(handler.as_ref().unchecked_ref()));
            *state.on_message.borrow_mut() = Some(handler);
        }
        Nudger(state)
    }

    /// Turns nudging on or off (off: waits cost nothing extra).
    pub fn set_enabled(&self, on: bool) {
        self.0.enabled.set(on);
    }

    pub fn enabled(&self) -> bool {
        self.0.enabled.get()
    }

    /// Whether the loop is running now (tests check that it stops).
    pub fn running(&self) -> bool {
        self.0.running.get()
    }

    /// Starts a wait: the loop runs until every `Waiting` is dropped.
    pub fn wait(&self) -> Waiting {
        let s = &self.0;
        if !s.enabled.get() || s.ports.is_none() || s.performance.is_none() {
            return Waiting(None);
        }
        s.waiting.set(s.waiting.get() + 1);
        if !s.running.replace(true) {
            s.post();
        }
        Waiting(Some(s.clone()))
    }
}

impl State {
    /// One turn of the loop: a nudge if the last was answered and at least
    /// `EVERY_MS` ago, then the next turn as a new task, so that the page's own tasks
    /// (the map's resolution among them) run in between.
    fn turn(&self) {
        if self.waiting.get() == 0 {
            self.running.set(false);
            return;
        }
        let now = self.performance.as_ref().map_or(0.0, |p| p.now());
        if !self.in_flight.get() && now - self.last.get() >= self.every {
            self.last.set(now);
            // An empty error scope: a command that the GPU process answers on the
            // device's timeline, not after the queue's work, so that its answer says the
            // GPU process has taken the nudge, and the next one waits for it.
            self.device.push_error_scope(GpuErrorFilter::Validation);
            if self.submit {
                // Firefox's GPU process looks for finished work when work is submitted.
                let empty = self.device.create_command_encoder().finish();
                self.device.queue().submit(&[empty]);
            }
            let answered = js_sys::Promise::from(JsValue::from(self.device.pop_error_scope()));
            // A handler of its own, freed when it runs: the answer may come after the
            // engine (and this state) is gone, and a handler dropped with the state
            // then threw "closure invoked after being dropped", an unhandled rejection.
            let weak = self.weak.clone();
            let answer: JsValue = Closure::<dyn FnMut(JsValue)>::once_into_js(move |_: JsValue| {
                if let Some(s) = weak.upgrade() {
                    s.in_flight.set(false);
                }
            });
            self.in_flight.set(true);
            answered.unchecked_ref::<Answer>().then(&answer, &answer);
        }
        self.post();
    }

    fn post(&self) {
        if let Some((_, send)) = &self.ports {
            if send.post_message(&JsValue::UNDEFINED).is_err() {
                self.running.set(false);
            }
        }
    }
}

impl Drop for State {
    fn drop(&mut self) {
        if let Some((receive, send)) = &self.ports {
            receive.set_onmessage(None);
            receive.close();
            send.close();
        }
    }
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if let Some(s) = &self.0 {
            s.waiting.set(s.waiting.get().saturating_sub(1));
        }
    }
}
