//! Shared helpers of the browser tests: engines on both backends (outputs poisoned
//! with NaN before every pass), the (engine, kernel) pairs a check runs over, the
//! JavaScript API in its blocking and Promise forms, seeded inputs, and comparison
//! against the float64 reference with a stated tolerance.
//!
//! A check is written once, as an `async fn` of a module here taking a [`Setup`]
//! (or a [`Backend`], or a [`JsSetup`]); a test file makes one
//! `#[wasm_bindgen_test]` of each check for its setup with `checks!`.
#![allow(dead_code, unused_macros)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use gpgpu_matrix::js::JsGpgpu;
use gpgpu_matrix::ops::matmul::webgpu::{Fit, RegisterParams};
use gpgpu_matrix::plan::metrics::{compare, Metrics};
use gpgpu_matrix::plan::random;
use gpgpu_matrix::{BackendChoice, CreateOptions, Gpgpu, GpgpuError, Info, Kernel, Options};
use gpgpu_matrix::{Handle, Semiring};
use js_sys::{Float32Array, Object, Promise, Reflect};
use wasm_bindgen::convert::TryFromJsValue;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

pub use gpgpu_matrix::Backend;

/// Relative Frobenius tolerance for random float inputs in [-1, 1].
pub const FROBENIUS_TOL: f64 = 1e-5;

/// One `#[wasm_bindgen_test]` per check named, each running
/// `crate::$path::$check($param)`: `checks!(Setup::WebGpu; common::products: square, …)`.
///
/// Why files per setup rather than all setups in one file: wasm-bindgen-test-runner's
/// WASM_BINDGEN_TEST_TIMEOUT (20 s by default) limits a whole test binary in headless
/// mode (every test of one file together), not each test; so the checks are written
/// once, under tests/common, and each file runs them on one setup.
macro_rules! checks {
    ($param:expr; $($path:ident)::+ : $($check:ident),+ $(,)?) => {
        checks!(@each $param; ($($path)::+); $($check),+);
    };
    (@each $param:expr; $path:tt; $($check:ident),+) => {$(
        #[wasm_bindgen_test::wasm_bindgen_test]
        async fn $check() {
            let check = checks!(@fn $path $check);
            let name = concat!(module_path!(), "::", stringify!($check));
            if crate::common::skipped_without(crate::common::Runs::runs_on(&$param), name) {
                return;
            }
            crate::common::timed(name, check($param)).await
        }
    )+};
    (@fn ($($path:ident)::+) $check:ident) => {
        crate::$($path)::+::$check
    };
}

#[macro_use]
pub mod apps;
#[macro_use]
pub mod batched;
#[macro_use]
pub mod blocks;
#[macro_use]
pub mod gpu_blocks;
#[macro_use]
pub mod errors;
#[macro_use]
pub mod lab;
#[macro_use]
pub mod linear;
#[macro_use]
pub mod mesh;
#[macro_use]
pub mod products;
#[macro_use]
pub mod ransac;
#[macro_use]
pub mod runs;
#[macro_use]
pub mod semirings;
#[macro_use]
pub mod sparse;
#[macro_use]
pub mod svd;
#[macro_use]
pub mod programs;

/// Runs a check and logs how long it took (shown with `-- --nocapture`): the
/// tests of one file share the runner's timeout (WASM_BINDGEN_TEST_TIMEOUT, 60 s in
/// the Makefile) and must stay well inside it.
pub async fn timed(name: &str, check: impl std::future::Future<Output = ()>) {
    let start = js_sys::Date::now();
    check.await;
    let ms = js_sys::Date::now() - start;
    web_sys::console::log_1(&format!("{name}: {ms:.0} ms").into());
}

/// The backend a check's parameter runs it on (for `checks!`'s skip).
pub trait Runs {
    fn runs_on(&self) -> Backend;
}

impl Runs for Backend {
    fn runs_on(&self) -> Backend {
        *self
    }
}

impl Runs for Setup {
    fn runs_on(&self) -> Backend {
        self.backend()
    }
}

impl Runs for JsSetup {
    fn runs_on(&self) -> Backend {
        self.backend()
    }
}

/// Whether `test` needs a backend this browser lacks (WebKitGTK on Linux has no
/// WebGPU): it then logs why and the caller returns, passing. The same test binaries
/// run in every engine (the Makefile's test-browser-* targets pass --nocapture, which
/// shows the line), so an engine's gaps are found at run time, not by a copy of a suite.
pub fn skipped_without(backend: Backend, test: &str) -> bool {
    let navigator = Reflect::get(&js_sys::global(), &"navigator".into()).expect("a navigator");
    let why = match backend {
        Backend::WebGpu if !Reflect::has(&navigator, &"gpu".into()).unwrap_or(false) => {
            "this browser has no WebGPU (navigator.gpu is missing)"
        }
        _ => return false,
    };
    skipped(test, why);
    true
}

/// Says in the test output that `test` is skipped, why, and in which browser.
pub fn skipped(test: &str, why: &str) {
    let agent = Reflect::get(&js_sys::global(), &"navigator".into())
        .and_then(|n| Reflect::get(&n, &"userAgent".into()))
        .ok()
        .and_then(|a| a.as_string());
    web_sys::console::log_1(
        &format!("SKIPPED {test}: {why} ({})", agent.unwrap_or_default()).into(),
    );
}

/// Where a parameterised check runs.
// The backends' own names, WebGl and WebGpu, share their first letters.
#[allow(clippy::enum_variant_names)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setup {
    /// WebGL2: every fragment kernel the device runs.
    WebGl,
    /// WebGPU as the device chooses it: global, tiled16 and register (on
    /// SwiftShader, the register kernel's CPU form).
    WebGpu,
    /// WebGPU with the register kernel forced to its GPU (staged) form, the one a
    /// real GPU such as the H100 runs: only that kernel (the others are as above).
    WebGpuStaged,
    /// The same with the GPU form's small tiles (64 × 64, matmul/3_register_64.wgsl),
    /// which a real GPU runs on outputs of fewer than 180 big tiles.
    WebGpuStaged64,
    /// The same file with narrow tiles (64 × 32), which a real GPU runs on outputs of
    /// up to 256 tiles of 64 × 64.
    WebGpuNarrow,
    /// The double-buffered form (matmul/3_register_double.wgsl: 128 × 32 tiles, two
    /// slices of k in workgroup memory), which a real GPU runs on whole-tile outputs of
    /// about 1024 × 1024; shapes it cannot run go to the GPU form's choice.
    WebGpuDouble,
    /// The CPU backend on two Web Workers (the SIMD128 kernel).
    Cpu,
}

impl Setup {
    pub const ALL: [Setup; 3] = [Setup::WebGl, Setup::WebGpu, Setup::WebGpuStaged];

    pub fn backend(self) -> Backend {
        match self {
            Setup::WebGl => Backend::WebGl,
            Setup::WebGpu
            | Setup::WebGpuStaged
            | Setup::WebGpuStaged64
            | Setup::WebGpuNarrow
            | Setup::WebGpuDouble => Backend::WebGpu,
            Setup::Cpu => Backend::Cpu,
        }
    }

    /// The engine of this setup that the tests of one file share (made on first
    /// use): pipelines are compiled once per file, not once per test (the staged
    /// register kernel takes seconds to compile on SwiftShader). Checks that break
    /// or count the engine's objects make their own with [`Setup::make`].
    pub async fn shared(self) -> Rc<Target> {
        if let Some(t) = SHARED.with(|s| s.borrow().get(&self).cloned()) {
            return t;
        }
        let t = Rc::new(self.make().await);
        SHARED.with(|s| s.borrow_mut().entry(self).or_insert(t).clone())
    }

    /// A new poisoned engine of this setup and the kernels to check on it.
    pub async fn make(self) -> Target {
        let g = poisoned_on(self.backend()).await;
        let kernels = match self {
            Setup::WebGl | Setup::WebGpu | Setup::Cpu => kernels(&g),
            Setup::WebGpuStaged => force_staged(&g, RegisterParams::GPU),
            Setup::WebGpuStaged64 => force_staged(&g, RegisterParams::GPU_SMALL),
            Setup::WebGpuNarrow => force_staged(&g, RegisterParams::GPU_NARROW),
            Setup::WebGpuDouble => force_double(&g),
        };
        Target {
            setup: self,
            g,
            kernels,
        }
    }
}

/// Forces the register kernel of `g` (WebGPU) to the staged GPU form with `params` for
/// every shape, checks its pipelines, and gives the kernels to check: that one.
/// The pipelines: the written-out vec4 kernel where inner and cols are multiples of 4
/// (for the 128 × 128 form also compiled without edge checks where the shape is whole
/// tiles), and the array form with element loads elsewhere (the checks use shapes of
/// each kind).
fn force_staged(g: &Gpgpu, params: RegisterParams) -> Vec<Kernel> {
    let mut engine = g.engine();
    let e = engine.webgpu().unwrap();
    e.set_register_params(params)
        .expect("the staged register kernel fits this device");
    assert_eq!(e.register_params(), params);
    let RegisterParams::Staged { bm, bn, .. } = params else {
        panic!("{params:?} is not a staged form");
    };
    let tiles = match params {
        RegisterParams::GPU => String::new(),
        _ => format!("-{bm}x{bn}"),
    };
    let key = |fit| e.product_key(Kernel::Register, Semiring::Ordinary, params, fit);
    assert_eq!(
        key(Fit::Vec4).name(),
        format!("register{tiles}/ordinary/vec4")
    );
    assert_eq!(key(Fit::Any).name(), format!("register{tiles}/ordinary"));
    if params == RegisterParams::GPU || params == RegisterParams::GPU_NARROW {
        assert_eq!(
            key(Fit::Tiles).name(),
            format!("register{tiles}/ordinary/vec4/whole-tiles")
        );
    }
    let vec4 = key(Fit::Vec4).source();
    assert!(vec4.contains("var<storage, read> a: array<vec4f>"));
    // The 128 × 128 form takes its tiles from matmul/register_tiles.wgsl's part_at.
    assert!(vec4.contains(&format!("group.y * {bm}u")));
    assert!(key(Fit::Any)
        .source()
        .starts_with(&format!("const BM: u32 = {bm}u;")));
    vec![Kernel::Register]
}

/// Forces the register kernel of `g` (WebGPU) to the double-buffered form and checks
/// its pipeline: whole tiles only, its two k loops written out.
fn force_double(g: &Gpgpu) -> Vec<Kernel> {
    let params = RegisterParams::GPU_DOUBLE;
    let mut engine = g.engine();
    let e = engine.webgpu().unwrap();
    e.set_register_params(params)
        .expect("the double-buffered form fits 32 KiB of workgroup memory");
    let key = e.product_key(Kernel::Register, Semiring::Ordinary, params, Fit::Tiles);
    assert_eq!(
        key.name(),
        "register-128x32-double/ordinary/vec4/whole-tiles"
    );
    let source = key.source();
    assert!(source.contains("var<workgroup> a_tile: array<array<array<vec4f, 32>, 16>, 2>;"));
    assert_eq!(source.matches("{ let k = 15u;").count(), 2);
    vec![Kernel::Register]
}

thread_local! {
    static SHARED: RefCell<HashMap<Setup, Rc<Target>>> = RefCell::new(HashMap::new());
}

/// An engine and the kernels a check runs on it.
pub struct Target {
    pub setup: Setup,
    pub g: Gpgpu,
    pub kernels: Vec<Kernel>,
}

impl Target {
    /// Each (engine, kernel) pair with a label for messages ("webgpu register
    /// (staged)").
    pub fn pairs(&self) -> impl Iterator<Item = (&Gpgpu, Kernel, String)> + '_ {
        self.kernels
            .iter()
            .map(move |&k| (&self.g, k, self.label(k)))
    }

    pub fn label(&self, k: Kernel) -> String {
        let staged = match self.setup {
            Setup::WebGpuStaged => " (staged)",
            Setup::WebGpuStaged64 => " (staged, 64x64)",
            Setup::WebGpuNarrow => " (staged, 64x32)",
            _ => "",
        };
        format!("{} {}{staged}", self.setup.backend().name(), k.name())
    }

    pub fn backend(&self) -> Backend {
        self.setup.backend()
    }

    pub fn handle(&self) -> Handle {
        self.g.handle()
    }
}

/// The shared poisoned engine of `backend` (see [`Setup::shared`]), with the
/// register kernel in the form the device picks.
pub async fn shared_on(backend: Backend) -> Rc<Target> {
    match backend {
        Backend::WebGl => Setup::WebGl.shared().await,
        Backend::WebGpu => Setup::WebGpu.shared().await,
        Backend::Cpu => Setup::Cpu.shared().await,
    }
}

/// Every (engine, kernel) pair of every setup: the WebGL kernels, the WebGPU
/// kernels, and the WebGPU register kernel in its staged (GPU) form.
pub async fn targets() -> Vec<Target> {
    let mut all = vec![];
    for s in Setup::ALL {
        all.push(s.make().await);
    }
    all
}

/// A WebGL engine whose outputs are filled with NaN before every pass, so an
/// element a kernel forgets to write fails the comparison.
pub fn poisoned() -> Gpgpu {
    let g = Gpgpu::new(None).expect("WebGL2 with float render targets");
    g.set_poison(Some(f32::NAN));
    g
}

/// A Gpgpu on `backend`.
pub async fn on(backend: Backend) -> Gpgpu {
    let choice = match backend {
        Backend::WebGl => BackendChoice::WebGl,
        Backend::WebGpu => BackendChoice::WebGpu,
        Backend::Cpu => BackendChoice::Cpu,
    };
    Gpgpu::create(CreateOptions {
        backend: choice,
        // Two workers: the rows of C split as on any multi-core machine.
        threads: Some(2),
        ..CreateOptions::default()
    })
    .await
    .unwrap_or_else(|e| panic!("{}: {e}", backend.name()))
}

/// A Gpgpu on `backend` whose outputs are poisoned with NaN before every pass.
pub async fn poisoned_on(backend: Backend) -> Gpgpu {
    let g = on(backend).await;
    g.set_poison(Some(f32::NAN));
    g
}

/// One poisoned engine per backend.
pub async fn engines() -> Vec<Gpgpu> {
    let mut all = vec![];
    for backend in [Backend::WebGl, Backend::WebGpu] {
        all.push(poisoned_on(backend).await);
    }
    all
}

/// Every kernel this device supports.
pub fn kernels(g: &Gpgpu) -> Vec<Kernel> {
    g.engine().kernels()
}

/// The WebGL limits of a WebGL engine.
pub fn gl_limits(g: &Gpgpu) -> gpgpu_matrix::gl::capabilities::Limits {
    match g.info() {
        Info::WebGl(i) => i.limits,
        _ => panic!("a WebGL engine was expected"),
    }
}

/// The WebGL handle of a WebGL engine (object counts, raw GL calls).
pub fn gl_of(g: &Gpgpu) -> gpgpu_matrix::gl::Gl {
    g.engine()
        .webgl()
        .expect("a WebGL engine was expected")
        .gl()
        .clone()
}

/// The WebGPU device handle of a WebGPU engine.
pub fn gpu_of(g: &Gpgpu) -> gpgpu_matrix::webgpu::Gpu {
    g.engine()
        .webgpu()
        .expect("a WebGPU engine was expected")
        .gpu()
        .clone()
}

pub fn opts(kernel: Kernel) -> Options {
    Options {
        kernel: Some(kernel),
        semiring: Semiring::Ordinary,
        ..Options::default()
    }
}

pub fn in_semiring(kernel: Kernel, semiring: Semiring) -> Options {
    Options {
        kernel: Some(kernel),
        semiring,
        ..Options::default()
    }
}

pub fn uniform(seed: u32, len: usize) -> Vec<f32> {
    random::uniform(seed, len, -1.0, 1.0)
}

/// Asserts the result is close to the reference and has no NaN (poison) left.
/// Seeded uniform A (rows × inner, seed `seed`) and B (inner × cols, seed `seed + 1`)
/// and the float64 reference of A·B.
pub fn random_product(
    seed: u32,
    [rows, inner, cols]: [usize; 3],
) -> (Vec<f32>, Vec<f32>, Vec<f64>) {
    let a = uniform(seed, rows * inner);
    let b = uniform(seed + 1, inner * cols);
    let want = gpgpu_matrix::plan::reference::multiply(
        Semiring::Ordinary,
        rows,
        inner,
        cols,
        &gpgpu_matrix::plan::reference::to_f64(&a),
        &gpgpu_matrix::plan::reference::to_f64(&b),
    );
    (a, b, want)
}

pub fn assert_close(what: &str, result: &[f32], reference: &[f64], tol: f64) -> Metrics {
    assert_eq!(result.len(), reference.len(), "{what}: length");
    assert!(
        result.iter().all(|v| !v.is_nan()),
        "{what}: NaN in the result (an unwritten element?)"
    );
    let m = compare(result, reference);
    assert!(
        m.rel_frobenius <= tol && m.nonfinite_mismatch == 0,
        "{what}: relative Frobenius error {:e} > {tol:e} ({m:?})",
        m.rel_frobenius
    );
    m
}

/// Asserts every entry equals the reference exactly.
pub fn assert_exact(what: &str, result: &[f32], reference: &[f64]) {
    assert_eq!(result.len(), reference.len(), "{what}: length");
    for (i, (&r, &x)) in result.iter().zip(reference).enumerate() {
        assert!(
            r as f64 == x || (r.is_nan() && x.is_nan()),
            "{what}: entry {i} is {r}, exactly {x} expected"
        );
    }
}

/// Asserts an error with `code` whose message mentions `needle`.
pub fn assert_error<T: std::fmt::Debug>(
    r: Result<T, GpgpuError>,
    code: &str,
    needle: &str,
) -> GpgpuError {
    let e = r.expect_err(&format!("expected a {code} error"));
    let msg = e.to_string();
    assert_eq!(e.code(), code, "message: {msg}");
    assert!(msg.contains(needle), "'{msg}' should mention '{needle}'");
    e
}

/// Asserts a JS error of our kind with `code` whose message mentions `needle`.
pub fn assert_js_error<T>(r: Result<T, JsValue>, code: &str, needle: &str) -> String {
    let Err(e) = r else {
        panic!("expected a {code} error, got success")
    };
    let err: js_sys::Error = e.dyn_into().expect("a JS Error object");
    let msg = String::from(err.message());
    assert_eq!(err.name(), "GpgpuError", "{msg}");
    let got = Reflect::get(&err, &"code".into()).unwrap().as_string();
    assert_eq!(got.as_deref(), Some(code), "message: {msg}");
    assert!(msg.contains(needle), "'{msg}' should mention '{needle}'");
    msg
}

/// The `code` of a JS error (None for anything else).
pub fn js_code(e: &JsValue) -> Option<String> {
    Reflect::get(e, &"code".into()).ok()?.as_string()
}

/// Resolves after `ms` milliseconds (lets the browser deliver events).
pub async fn sleep(ms: i32) {
    let promise = Promise::new(&mut |resolve, _| {
        let global: web_sys::Window = js_sys::global().unchecked_into();
        global
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    JsFuture::from(promise).await.unwrap();
}

/// The WEBGL_lose_context extension of the context `g` draws with, and that context.
pub fn lose_context_of(
    g: &JsGpgpu,
) -> (web_sys::WebGl2RenderingContext, web_sys::WebglLoseContext) {
    let canvas: web_sys::HtmlCanvasElement = g.canvas().unchecked_into();
    let gl: web_sys::WebGl2RenderingContext = canvas
        .get_context("webgl2")
        .unwrap()
        .unwrap()
        .unchecked_into();
    let lose = gl
        .get_extension("WEBGL_lose_context")
        .unwrap()
        .expect("WEBGL_lose_context")
        .unchecked_into();
    (gl, lose)
}

/// A JS number argument (dimensions and counts of the JS API are checked JsValues).
pub fn num(x: f64) -> JsValue {
    JsValue::from_f64(x)
}

/// A Float32Array of `m`.
pub fn js(m: &[f32]) -> JsValue {
    Float32Array::from(m).into()
}

/// A zero-filled Float32Array of `len` elements.
pub fn f32s(len: usize) -> JsValue {
    Float32Array::new_with_length(len as u32).into()
}

/// A plain object of string values, e.g. `{ kernel: "naive" }`.
pub fn options(pairs: &[(&str, &str)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &(*k).into(), &(*v).into()).unwrap();
    }
    o.into()
}

pub fn kernel_opts(name: &str) -> JsValue {
    options(&[("kernel", name)])
}

/// A number property of a JS object.
pub fn get(o: &JsValue, key: &str) -> f64 {
    Reflect::get(o, &key.into())
        .unwrap()
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number"))
}

/// Any property of a JS object.
pub fn prop(o: &JsValue, key: &str) -> JsValue {
    Reflect::get(o, &key.into()).unwrap()
}

/// A Float32Array property (or value) as a Vec.
pub fn floats(v: &JsValue) -> Vec<f32> {
    Float32Array::new(v).to_vec()
}

/// Awaits a promise of the JS API.
pub async fn settle(p: Promise) -> Result<JsValue, JsValue> {
    JsFuture::from(p).await
}

/// The JavaScript `Gpgpu` on `backend`: `new Gpgpu()` (WebGL) or
/// `await Gpgpu.create({ backend: 'webgpu' })`.
pub async fn js_on(backend: Backend) -> JsGpgpu {
    match backend {
        Backend::WebGl => JsGpgpu::new(JsValue::UNDEFINED).expect("WebGL2"),
        Backend::WebGpu => {
            let made = settle(JsGpgpu::create(options(&[("backend", "webgpu")])))
                .await
                .expect("Gpgpu.create({ backend: 'webgpu' })");
            JsGpgpu::try_from_js_value(made).expect("a Gpgpu")
        }
        Backend::Cpu => {
            let made = settle(JsGpgpu::create(options(&[("backend", "cpu")])))
                .await
                .expect("Gpgpu.create({ backend: 'cpu' })");
            JsGpgpu::try_from_js_value(made).expect("a Gpgpu")
        }
    }
}

/// How a JavaScript caller calls: the blocking form (WebGL only) or the Promise
/// form, on a backend.
#[allow(clippy::enum_variant_names)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsSetup {
    WebGlBlocking,
    WebGlAsync,
    WebGpuAsync,
    CpuAsync,
}

impl JsSetup {
    pub fn backend(self) -> Backend {
        match self {
            JsSetup::WebGlBlocking | JsSetup::WebGlAsync => Backend::WebGl,
            JsSetup::WebGpuAsync => Backend::WebGpu,
            JsSetup::CpuAsync => Backend::Cpu,
        }
    }

    pub async fn make(self) -> Api {
        Api {
            g: js_on(self.backend()).await,
            blocking: self == JsSetup::WebGlBlocking,
        }
    }
}

/// The JavaScript API called the way one [`JsSetup`] calls it: each method gives
/// what the blocking call returns or throws, or what the Promise resolves or
/// rejects with.
pub struct Api {
    pub g: JsGpgpu,
    pub blocking: bool,
}

type JsResult = Result<JsValue, JsValue>;

impl Api {
    pub fn backend(&self) -> Backend {
        match self.g.backend().as_str() {
            "webgl" => Backend::WebGl,
            "cpu" => Backend::Cpu,
            _ => Backend::WebGpu,
        }
    }

    async fn either<T: Into<JsValue>>(
        &self,
        blocking: impl FnOnce(&JsGpgpu) -> Result<T, JsValue>,
        promise: impl FnOnce(&JsGpgpu) -> Promise,
    ) -> JsResult {
        if self.blocking {
            blocking(&self.g).map(Into::into)
        } else {
            settle(promise(&self.g)).await
        }
    }

    pub async fn square(&self, n: JsValue, m: JsValue, o: JsValue) -> JsResult {
        let (n2, m2, o2) = (n.clone(), m.clone(), o.clone());
        self.either(|g| g.square(n, m, o), |g| g.square_async(n2, m2, o2))
            .await
    }

    pub async fn multiply(
        &self,
        dims: [JsValue; 3],
        a: JsValue,
        b: JsValue,
        o: JsValue,
    ) -> JsResult {
        let [r, i, c] = dims;
        let (r2, i2, c2, a2, b2, o2) = (
            r.clone(),
            i.clone(),
            c.clone(),
            a.clone(),
            b.clone(),
            o.clone(),
        );
        self.either(
            |g| g.multiply(r, i, c, a, b, o),
            |g| g.multiply_async(r2, i2, c2, a2, b2, o2),
        )
        .await
    }

    pub async fn square_repeatedly(
        &self,
        n: JsValue,
        m: JsValue,
        t: JsValue,
        o: JsValue,
    ) -> JsResult {
        let (n2, m2, t2, o2) = (n.clone(), m.clone(), t.clone(), o.clone());
        self.either(
            |g| g.square_repeatedly(n, m, t, o),
            |g| g.square_repeatedly_async(n2, m2, t2, o2),
        )
        .await
    }

    pub async fn power(&self, n: JsValue, m: JsValue, p: JsValue, o: JsValue) -> JsResult {
        let (n2, m2, p2, o2) = (n.clone(), m.clone(), p.clone(), o.clone());
        self.either(|g| g.power(n, m, p, o), |g| g.power_async(n2, m2, p2, o2))
            .await
    }

    pub async fn reachability(&self, n: JsValue, a: JsValue, o: JsValue) -> JsResult {
        let (n2, a2, o2) = (n.clone(), a.clone(), o.clone());
        self.either(
            |g| g.reachability(n, a, o),
            |g| g.reachability_async(n2, a2, o2),
        )
        .await
    }

    pub async fn shortest_paths(&self, n: JsValue, w: JsValue, o: JsValue) -> JsResult {
        let (n2, w2, o2) = (n.clone(), w.clone(), o.clone());
        self.either(
            |g| g.shortest_paths(n, w, o),
            |g| g.shortest_paths_async(n2, w2, o2),
        )
        .await
    }

    pub async fn fibonacci(&self, k: JsValue, o: JsValue) -> JsResult {
        let (k2, o2) = (k.clone(), o.clone());
        self.either(|g| g.fibonacci(k, o), |g| g.fibonacci_async(k2, o2))
            .await
    }

    pub async fn inverse(&self, n: JsValue, a: JsValue, o: JsValue) -> JsResult {
        let (n2, a2, o2) = (n.clone(), a.clone(), o.clone());
        self.either(|g| g.inverse(n, a, o), |g| g.inverse_async(n2, a2, o2))
            .await
    }

    pub async fn eigen(&self, n: JsValue, a: JsValue, k: JsValue, o: JsValue) -> JsResult {
        let (n2, a2, k2, o2) = (n.clone(), a.clone(), k.clone(), o.clone());
        self.either(|g| g.eigen(n, a, k, o), |g| g.eigen_async(n2, a2, k2, o2))
            .await
    }

    pub async fn jacobi(&self, n: JsValue, a: JsValue, b: JsValue, o: JsValue) -> JsResult {
        let (n2, a2, b2, o2) = (n.clone(), a.clone(), b.clone(), o.clone());
        self.either(|g| g.jacobi(n, a, b, o), |g| g.jacobi_async(n2, a2, b2, o2))
            .await
    }

    pub async fn draw_heatmap(
        &self,
        [rows, cols]: [JsValue; 2],
        data: JsValue,
        canvas: JsValue,
        style: JsValue,
    ) -> JsResult {
        let (r2, c2, d2, cv2, s2) = (
            rows.clone(),
            cols.clone(),
            data.clone(),
            canvas.clone(),
            style.clone(),
        );
        self.either(
            |g| g.draw_heatmap(rows, cols, data, canvas, style),
            |g| g.draw_heatmap_async(r2, c2, d2, cv2, s2),
        )
        .await
    }
}

/// A random graph: edge i → j with probability p (undirected: mirrored).
pub fn random_graph(n: usize, p: f64, seed: u32, directed: bool) -> Vec<f32> {
    let mut rng = random::Mulberry32::new(seed);
    let mut a = vec![0f32; n * n];
    for i in 0..n {
        for j in 0..n {
            if i != j && (directed || j > i) && rng.next_f64() < p {
                a[i * n + j] = 1.0;
                if !directed {
                    a[j * n + i] = 1.0;
                }
            }
        }
    }
    a
}

/// A detached canvas of `w` × `h` pixels.
pub fn canvas(w: u32, h: u32) -> web_sys::HtmlCanvasElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let c: web_sys::HtmlCanvasElement = doc.create_element("canvas").unwrap().unchecked_into();
    c.set_width(w);
    c.set_height(h);
    c
}

/// Every RGBA pixel of a 2D canvas.
pub fn pixels(c: &web_sys::HtmlCanvasElement) -> Vec<u8> {
    let ctx: web_sys::CanvasRenderingContext2d =
        c.get_context("2d").unwrap().unwrap().unchecked_into();
    ctx.get_image_data(0, 0, c.width() as i32, c.height() as i32)
        .unwrap()
        .data()
        .to_vec()
}

/// One RGBA pixel of a 2D canvas.
pub fn pixel(c: &web_sys::HtmlCanvasElement, x: i32, y: i32) -> [u8; 4] {
    let ctx: web_sys::CanvasRenderingContext2d =
        c.get_context("2d").unwrap().unwrap().unchecked_into();
    let d = ctx.get_image_data(x, y, 1, 1).unwrap().data();
    [d[0], d[1], d[2], d[3]]
}

/// WebAssembly memory's current ArrayBuffer (a new one each time the memory grows).
pub fn wasm_memory_buffer() -> JsValue {
    wasm_bindgen::memory()
        .unchecked_into::<js_sys::WebAssembly::Memory>()
        .buffer()
}

/// Allocations that have just made WebAssembly memory grow, so that the next
/// large allocation grows it again (detaching views over the old buffer); drop them
/// after the call under test.
pub fn memory_just_grown() -> Vec<Vec<u8>> {
    let size = || {
        wasm_memory_buffer()
            .unchecked_into::<js_sys::ArrayBuffer>()
            .byte_length()
    };
    let mut held: Vec<Vec<u8>> = Vec::new();
    let start = size();
    while size() == start {
        held.push(Vec::with_capacity(1 << 20));
    }
    held
}
