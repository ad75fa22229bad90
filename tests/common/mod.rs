//! Shared helpers of the browser tests: a poisoned engine, seeded inputs, and
//! comparison against the float64 reference with a stated tolerance.
#![allow(dead_code)]

use gpgpu_matrix::plan::metrics::{compare, Metrics};
use gpgpu_matrix::plan::random;
use gpgpu_matrix::{Backend, BackendChoice, CreateOptions, Gpgpu, Info, Kernel, Options, Semiring};
use wasm_bindgen::JsCast;

/// Relative Frobenius tolerance for random float inputs in [-1, 1].
pub const FROBENIUS_TOL: f64 = 1e-5;

/// A WebGL engine whose outputs are filled with NaN before every pass, so a texel
/// a kernel forgets to write fails the comparison.
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
    };
    Gpgpu::create(CreateOptions {
        backend: choice,
        ..CreateOptions::default()
    })
    .await
    .unwrap_or_else(|e| panic!("{}: {e}", backend.name()))
}

/// One poisoned engine per backend: the suite runs every check on each.
pub async fn engines() -> Vec<Gpgpu> {
    let mut all = vec![];
    for backend in [Backend::WebGl, Backend::WebGpu] {
        let g = on(backend).await;
        g.set_poison(Some(f32::NAN));
        all.push(g);
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
        Info::WebGpu(_) => panic!("a WebGL engine was expected"),
    }
}

pub fn opts(kernel: Kernel) -> Options {
    Options {
        kernel: Some(kernel),
        semiring: Semiring::Ordinary,
    }
}

pub fn uniform(seed: u32, len: usize) -> Vec<f32> {
    random::uniform(seed, len, -1.0, 1.0)
}

/// Asserts the result is close to the reference and has no NaN (poison) left.
pub fn assert_close(what: &str, result: &[f32], reference: &[f64], tol: f64) -> Metrics {
    assert!(
        result.iter().all(|v| !v.is_nan()),
        "{what}: NaN in the result (an unwritten texel?)"
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
    for (i, (&r, &x)) in result.iter().zip(reference).enumerate() {
        assert!(
            r as f64 == x,
            "{what}: entry {i} is {r}, exactly {x} expected"
        );
    }
    assert_eq!(result.len(), reference.len(), "{what}: length");
}

/// Resolves after `ms` milliseconds (lets the browser deliver events).
pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let global: web_sys::Window = js_sys::global().unchecked_into();
        global
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// The WEBGL_lose_context extension of the context `g` draws with, and that context.
pub fn lose_context_of(
    g: &gpgpu_matrix::js::JsGpgpu,
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
pub fn num(x: f64) -> wasm_bindgen::JsValue {
    wasm_bindgen::JsValue::from_f64(x)
}
