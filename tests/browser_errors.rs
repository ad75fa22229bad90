//! Every error path of the library, as a JavaScript caller meets it (an `Error`
//! with name "GpgpuError", a `code` and a message saying what to do), plus context
//! loss and restore, the device's size limit, poisoning and GL object hygiene.

mod common;

use common::*;
use gpgpu_matrix::gl::capabilities::probe_float_rendering;
use gpgpu_matrix::gl::context::Canvas;
use gpgpu_matrix::gl::program::Program;
use gpgpu_matrix::gl::target::{RenderTarget, TexFormat};
use gpgpu_matrix::gl::Gl;
use gpgpu_matrix::js::JsGpgpu;
use gpgpu_matrix::kernels::ProgramKey;
use gpgpu_matrix::plan::random;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::{GpgpuError, Semiring};
use js_sys::{Float32Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn js_gpgpu() -> JsGpgpu {
    JsGpgpu::new(JsValue::UNDEFINED).expect("WebGL2")
}

fn f32s(len: usize) -> JsValue {
    Float32Array::new_with_length(len as u32).into()
}

/// Asserts a JS error of our kind with `code` whose message mentions `needle`.
fn assert_js_error<T>(r: Result<T, JsValue>, code: &str, needle: &str) {
    let Err(e) = r else {
        panic!("expected a {code} error, got success")
    };
    let err: js_sys::Error = e.dyn_into().expect("a JS Error object");
    assert_eq!(err.name(), "GpgpuError");
    let got = Reflect::get(&err, &"code".into()).unwrap().as_string();
    let msg = String::from(err.message());
    assert_eq!(got.as_deref(), Some(code), "message: {msg}");
    assert!(msg.contains(needle), "'{msg}' should mention '{needle}'");
}

fn options(pairs: &[(&str, &str)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &(*k).into(), &(*v).into()).unwrap();
    }
    o.into()
}

#[wasm_bindgen_test]
fn bad_dimensions_are_refused_with_a_clear_message() {
    let g = js_gpgpu();
    let u = JsValue::UNDEFINED;
    assert_js_error(
        g.square(num(0.0), f32s(0), u.clone()),
        "BAD_DIMENSION",
        "n = 0: a dimension must be",
    );
    assert_js_error(
        g.square(num(2.5), f32s(4), u.clone()),
        "BAD_DIMENSION",
        "not an integer",
    );
    assert_js_error(
        g.square(num(-3.0), f32s(9), u.clone()),
        "BAD_DIMENSION",
        "negative",
    );
    assert_js_error(
        g.square(num(f64::NAN), f32s(9), u.clone()),
        "BAD_DIMENSION",
        "not a finite",
    );
    let max = Reflect::get(&g.info(), &"maxDimension".into())
        .unwrap()
        .as_f64()
        .unwrap();
    assert_js_error(
        g.square(num(max + 1.0), f32s(1), u.clone()),
        "SIZE_OVER_LIMIT",
        &format!("n <= {max}"),
    );
    assert_js_error(
        g.multiply(num(2.0), num(0.0), num(2.0), f32s(0), f32s(0), u.clone()),
        "BAD_DIMENSION",
        "inner = 0",
    );
    assert_js_error(
        g.multiply(num(2.0), num(3.0), num(max + 1.0), f32s(6), f32s(3), u),
        "SIZE_OVER_LIMIT",
        "cols",
    );
}

#[wasm_bindgen_test]
fn lengths_counts_and_arguments_are_checked() {
    let g = js_gpgpu();
    let u = JsValue::UNDEFINED;
    assert_js_error(
        g.square(num(3.0), f32s(8), u.clone()),
        "BAD_LENGTH",
        "needs 9",
    );
    assert_js_error(
        g.multiply(num(3.0), num(5.0), num(2.0), f32s(15), f32s(11), u.clone()),
        "BAD_LENGTH",
        "b has 11 elements but a 5x2 matrix needs 10",
    );
    assert_js_error(
        g.power(num(2.0), f32s(4), num(-1.0), u.clone()),
        "BAD_COUNT",
        "p = -1 is negative",
    );
    assert_js_error(
        g.power(num(2.0), f32s(4), num(1.5), u.clone()),
        "BAD_COUNT",
        "not an integer",
    );
    assert_js_error(
        g.square_repeatedly(num(2.0), f32s(4), num(-2.0), u.clone()),
        "BAD_COUNT",
        "times = -2",
    );
    assert_js_error(
        g.square_repeatedly(num(2.0), f32s(4), num(0.25), u.clone()),
        "BAD_COUNT",
        "not an integer",
    );
    assert_js_error(
        g.square(num(2.0), "abcd".into(), u.clone()),
        "BAD_ARGUMENT",
        "Float32Array",
    );
    assert_js_error(
        g.square(num(2.0), f32s(4), options(&[("kernel", "fast")])),
        "BAD_ARGUMENT",
        "unknown kernel 'fast'",
    );
    assert_js_error(
        g.square(num(2.0), f32s(4), options(&[("kernal", "naive")])),
        "BAD_ARGUMENT",
        "unknown option 'kernal'",
    );
    assert_js_error(
        g.square(num(2.0), f32s(4), options(&[("semiring", "max-times")])),
        "BAD_ARGUMENT",
        "unknown semiring",
    );
    // (min, +) has no use for −Infinity: added to "no edge" it would make a path
    // through an edge that does not exist.
    let neg_inf: JsValue =
        Float32Array::from(&[0.0, f32::NEG_INFINITY, f32::INFINITY, 0.0][..]).into();
    assert_js_error(
        g.square(
            num(2.0),
            neg_inf.clone(),
            options(&[("semiring", "min-plus")]),
        ),
        "BAD_ARGUMENT",
        "m: entry 1 is −Infinity",
    );
    assert_js_error(
        g.shortest_paths(num(2.0), neg_inf.clone(), JsValue::UNDEFINED),
        "BAD_ARGUMENT",
        "weights: entry 1 is −Infinity",
    );
    assert_js_error(
        g.multiply(
            num(2.0),
            num(2.0),
            num(2.0),
            f32s(4),
            neg_inf.clone(),
            options(&[("semiring", "min-plus")]),
        ),
        "BAD_ARGUMENT",
        "b: entry 1",
    );
    // Ordinary arithmetic takes it as IEEE float32 does.
    assert!(g.square(num(2.0), neg_inf, JsValue::UNDEFINED).is_ok());
    assert_js_error(
        JsGpgpu::new(JsValue::from_f64(3.0)),
        "BAD_ARGUMENT",
        "HTMLCanvasElement",
    );
    // Plain arrays of numbers and any numeric typed array are accepted (converted to
    // float32); the error names what was passed instead.
    let plain = js_sys::Array::of4(&1.into(), &2.into(), &3.into(), &4.into());
    let r = g
        .square(num(2.0), plain.into(), u.clone())
        .unwrap()
        .to_vec();
    assert_eq!(r, [7.0, 10.0, 15.0, 22.0]);
    let ints = js_sys::Int32Array::from(&[1, 2, 3, 4][..]);
    let r = g.square(num(2.0), ints.into(), u.clone()).unwrap().to_vec();
    assert_eq!(r, [7.0, 10.0, 15.0, 22.0]);
    let bytes = js_sys::Uint8Array::from(&[1u8, 2, 3, 4][..]);
    let r = g
        .square(num(2.0), bytes.into(), u.clone())
        .unwrap()
        .to_vec();
    assert_eq!(r, [7.0, 10.0, 15.0, 22.0]);
    let strings = js_sys::Array::of4(&"1".into(), &2.into(), &3.into(), &4.into());
    assert_js_error(
        g.square(num(2.0), strings.into(), u.clone()),
        "BAD_ARGUMENT",
        "element 0 is a string, not a number",
    );
    assert_js_error(
        g.square(num(2.0), JsValue::NULL, u.clone()),
        "BAD_ARGUMENT",
        "got null",
    );
    let big = js_sys::BigInt64Array::new_with_length(4);
    assert_js_error(
        g.square(num(2.0), big.into(), u.clone()),
        "BAD_ARGUMENT",
        "got a BigInt64Array",
    );
    // Values are repeated as JavaScript prints them, never clipped or in Rust syntax.
    assert_js_error(
        g.square(num(4294967300.0), f32s(4), u.clone()),
        "SIZE_OVER_LIMIT",
        "n = 4294967300 is larger",
    );
    assert_js_error(
        g.power(num(2.0), f32s(4), num(f64::INFINITY), u.clone()),
        "BAD_COUNT",
        "p = Infinity is not a finite number",
    );
    assert_js_error(
        g.power(num(2.0), f32s(4), num(1e300), u.clone()),
        "BAD_COUNT",
        "p = 1e+300 is larger than 9007199254740992",
    );
    assert_js_error(
        g.square_repeatedly(num(2.0), f32s(4), num(65.0), u),
        "BAD_COUNT",
        "times = 65 is larger than 64",
    );
}

#[wasm_bindgen_test]
fn a_canvas_that_cannot_give_webgl2_is_reported() {
    let doc = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement = doc.create_element("canvas").unwrap().unchecked_into();
    canvas.get_context("2d").unwrap().expect("a 2d context");
    assert_js_error(
        JsGpgpu::new(canvas.into()),
        "NO_WEBGL2",
        "WebGL2 is not available",
    );
}

#[wasm_bindgen_test]
fn float_rendering_is_proved_not_assumed() {
    // A fresh context that has not enabled EXT_color_buffer_float: R32F and RGBA32F
    // framebuffers are incomplete there, and the probe must say so.
    let canvas = Canvas::create().unwrap();
    let gl = Gl::new(canvas.webgl2().unwrap());
    for format in [TexFormat::R32F, TexFormat::Rgba32F] {
        match probe_float_rendering(&gl, format) {
            Err(GpgpuError::NoFloatRenderTarget { detail }) => {
                assert!(detail.contains("incomplete"), "{detail}")
            }
            other => panic!("expected NoFloatRenderTarget, got {:?}", other.err()),
        }
    }
    // And once enabled, the same probe passes.
    assert!(gl
        .get_extension("EXT_color_buffer_float")
        .unwrap()
        .is_some());
    probe_float_rendering(&gl, TexFormat::R32F).unwrap();
    probe_float_rendering(&gl, TexFormat::Rgba32F).unwrap();
    let msg = GpgpuError::NoFloatRenderTarget { detail: "x".into() }.to_string();
    assert!(msg.contains("EXT_color_buffer_float"));
}

#[wasm_bindgen_test]
fn shader_failures_carry_the_info_log() {
    let gl = Gl::new(Canvas::create().unwrap().webgl2().unwrap());
    let vs = ProgramKey::vertex_source();
    let broken = "#version 300 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(undeclared_thing); }";
    match Program::new(&gl, "broken", &vs, broken) {
        Err(e @ GpgpuError::ShaderCompile { .. }) => {
            let GpgpuError::ShaderCompile { stage, ref log, .. } = e else {
                unreachable!()
            };
            assert_eq!(stage, "fragment");
            assert!(log.contains("undeclared_thing"), "log: {log}");
            assert!(e.to_string().contains("'broken'"));
            assert_eq!(e.code(), "SHADER_COMPILE");
        }
        other => panic!("expected a compile error, got {:?}", other.err()),
    }
    // Compiles alone, fails to link: it reads a varying the vertex shader never writes.
    let unlinkable = "#version 300 es\nprecision highp float;\nin vec3 v_never_written;\nout vec4 o;\nvoid main() { o = vec4(v_never_written, 1.0); }";
    match Program::new(&gl, "unlinkable", &vs, unlinkable) {
        Err(GpgpuError::ProgramLink { log, .. }) => assert!(!log.is_empty()),
        other => panic!("expected a link error, got {:?}", other.err()),
    }
    // Nothing leaks on either failure path.
    let c = gl.counts();
    assert_eq!((c.shaders, c.programs), (0, 0), "{c:?}");
}

#[wasm_bindgen_test]
fn poison_really_fills_outputs_with_nan() {
    let g = poisoned();
    let target = RenderTarget::new(g.gl(), 5, 3, TexFormat::Rgba32F, 2).unwrap();
    target.poison(f32::NAN);
    for plane in 0..2 {
        let back = target.read(plane).unwrap();
        assert_eq!(back.len(), 5 * 3 * 4);
        assert!(back.iter().all(|v| v.is_nan()), "plane {plane}: {back:?}");
    }
}

#[wasm_bindgen_test]
fn the_largest_dimension_works_and_one_more_is_refused() {
    let mut g = poisoned();
    let max = g.max_dimension();
    for kernel in kernels(&g) {
        // inner = max: a 1×max row times a max×1 column. Small integers keep the
        // exact answer (|sum| <= 9·max < 2^24) representable, so it must be exact.
        let a = random::integers(1, max, -3, 3);
        let b = random::integers(2, max, -3, 3);
        let got = g.multiply(1, max, 1, &a, &b, &opts(kernel)).unwrap();
        let want = reference::multiply(Semiring::Ordinary, 1, max, 1, &to_f64(&a), &to_f64(&b));
        assert_exact(&format!("{kernel:?} 1x{max}·{max}x1"), &got, &want);
        // rows = max: a max×1 column times a 1×1.
        let got = g.multiply(max, 1, 1, &a, &[2.0], &opts(kernel)).unwrap();
        let want: Vec<f64> = a.iter().map(|&v| 2.0 * v as f64).collect();
        assert_exact(&format!("{kernel:?} {max}x1·1x1"), &got, &want);
        let e = g.multiply(
            1,
            max + 1,
            1,
            &uniform(1, max + 1),
            &uniform(2, max + 1),
            &opts(kernel),
        );
        assert_eq!(e.unwrap_err().code(), "SIZE_OVER_LIMIT");
        g.engine().trim();
    }
}

#[wasm_bindgen_test]
fn a_thousand_calls_leave_the_same_live_objects_as_one() {
    let mut g = poisoned();
    let m = uniform(9, 64 * 64);
    for kernel in kernels(&g) {
        g.square(64, &m, &opts(kernel)).unwrap();
    }
    let after_first = g.live_objects();
    assert!(
        after_first.programs >= 1 && after_first.textures >= 2,
        "{after_first:?}"
    );
    for i in 0..1000 {
        let kernel = kernels(&g)[i % kernels(&g).len()];
        g.square(64, &m, &opts(kernel)).unwrap();
    }
    assert_eq!(g.live_objects(), after_first);
    assert_eq!(after_first.shaders, 0, "shaders are deleted once linked");
    // Dropping the engine deletes everything it made.
    let gl = g.gl().clone();
    drop(g);
    let c = gl.counts();
    assert_eq!(c, Default::default(), "after drop: {c:?}");
}

#[wasm_bindgen_test]
async fn context_loss_fails_clearly_and_restore_recovers() {
    let g = js_gpgpu();
    let n = 17.0;
    let m: Vec<f32> = uniform(4, 17 * 17);
    let want = reference::square(Semiring::Ordinary, 17, &to_f64(&m));
    let js_m: JsValue = Float32Array::from(&m[..]).into();
    let before = g
        .square(num(n), js_m.clone(), JsValue::UNDEFINED)
        .unwrap()
        .to_vec();
    assert_close("before loss", &before, &want, FROBENIUS_TOL);
    let counts_before: String = js_sys::JSON::stringify(&g.live_objects()).unwrap().into();

    let (_, lose) = lose_context_of(&g);
    lose.lose_context();
    sleep(50).await;
    assert_js_error(
        g.square(num(n), js_m.clone(), JsValue::UNDEFINED),
        "CONTEXT_LOST",
        "webglcontextrestored",
    );
    assert_js_error(
        g.power(num(n), js_m.clone(), num(3.0), JsValue::UNDEFINED),
        "CONTEXT_LOST",
        "lost",
    );

    lose.restore_context();
    let mut result = None;
    for _ in 0..100 {
        sleep(20).await;
        if let Ok(r) = g.square(num(n), js_m.clone(), JsValue::UNDEFINED) {
            result = Some(r.to_vec());
            break;
        }
    }
    let after = result.expect("the context was restored within 2 s");
    assert_close("after restore", &after, &want, FROBENIUS_TOL);
    let counts_after: String = js_sys::JSON::stringify(&g.live_objects()).unwrap().into();
    assert_eq!(
        counts_after, counts_before,
        "resources rebuilt, old ones forgotten"
    );
}

#[wasm_bindgen_test]
fn application_calls_check_their_arguments_from_javascript() {
    let g = js_gpgpu();
    let u = JsValue::UNDEFINED;
    assert_js_error(
        g.reachability(num(3.0), f32s(8), u.clone()),
        "BAD_LENGTH",
        "adjacency",
    );
    assert_js_error(
        g.shortest_paths(num(0.0), f32s(0), u.clone()),
        "BAD_DIMENSION",
        "n = 0",
    );
    assert_js_error(g.fibonacci(num(-1.0), u.clone()), "BAD_COUNT", "k = -1");
    assert_js_error(
        g.inverse(num(2.0), f32s(4), options(&[("method", "magic")])),
        "BAD_ARGUMENT",
        "unknown method 'magic'",
    );
    assert_js_error(
        g.inverse(num(2.0), f32s(4), options(&[("semiring", "boolean")])),
        "BAD_ARGUMENT",
        "unknown option 'semiring'",
    );
    for k in [4.0, 0.0, -1.0, 1.5] {
        assert_js_error(
            g.eigen(num(3.0), f32s(9), num(k), u.clone()),
            "BAD_ARGUMENT",
            "k must be a whole number from 1 to 3",
        );
    }
    let d0 = options(&[("method", "series")]);
    Reflect::set(&d0, &"d".into(), &0.0.into()).unwrap();
    assert_js_error(
        g.inverse(num(2.0), f32s(4), d0.clone()),
        "BAD_ARGUMENT",
        "options.d: is 0; it must be a finite number > 0",
    );
    Reflect::set(&d0, &"d".into(), &"x".into()).unwrap();
    assert_js_error(
        g.inverse(num(2.0), f32s(4), d0),
        "BAD_ARGUMENT",
        "options.d: is a string; it must be a finite number",
    );
    let with_nan = js_sys::Float32Array::from(&[1.0, f32::NAN, 0.0, 1.0][..]);
    let r = g.inverse(num(2.0), with_nan.into(), u.clone()).unwrap();
    let message = Reflect::get(&r, &"message".into()).unwrap().as_string();
    assert!(
        message
            .as_deref()
            .unwrap_or("")
            .contains("NaN or infinite entry"),
        "{message:?}"
    );
    assert_eq!(
        Reflect::get(&r, &"converged".into()).unwrap(),
        JsValue::FALSE
    );
    assert_js_error(
        g.jacobi(num(2.0), f32s(4), f32s(3), u.clone()),
        "BAD_LENGTH",
        "b has 3 elements",
    );
    assert_js_error(
        g.jacobi(num(2.0), f32s(4), f32s(2), u),
        "BAD_ARGUMENT",
        "a[0][0] is 0",
    );
    // And a working call returns the documented fields.
    let f = g.fibonacci(num(36.0), JsValue::UNDEFINED).unwrap();
    assert_eq!(
        Reflect::get(&f, &"value".into()).unwrap().as_f64(),
        Some(14_930_352.0)
    );
    assert_eq!(
        Reflect::get(&f, &"exact".into()).unwrap().as_bool(),
        Some(true)
    );
    assert_eq!(
        Reflect::get(&f, &"exactValue".into())
            .unwrap()
            .as_string()
            .as_deref(),
        Some("14930352")
    );
}

#[wasm_bindgen_test]
fn freeing_an_engine_gives_its_context_back() {
    // Browsers keep about 16 WebGL contexts and take the oldest away beyond that: 40
    // engines made and freed must not cost the first one its context.
    let first = js_gpgpu();
    let m: JsValue = Float32Array::from(&[1.0f32, 2.0, 3.0, 4.0][..]).into();
    for _ in 0..40 {
        let g = js_gpgpu();
        g.square(num(2.0), m.clone(), JsValue::UNDEFINED).unwrap();
        drop(g);
    }
    let r = first
        .square(num(2.0), m, JsValue::UNDEFINED)
        .unwrap()
        .to_vec();
    assert_eq!(r, [7.0, 10.0, 15.0, 22.0]);
}

#[wasm_bindgen_test]
fn every_argument_of_the_wrong_kind_is_a_gpgpu_error() {
    let g = js_gpgpu();
    let u = JsValue::UNDEFINED;
    let m: JsValue = Float32Array::from(&[1.0f32, 0.0, 0.0, 1.0][..]).into();
    // Numbers where numbers belong, repeated as given: an f64 parameter turned
    // undefined into NaN, null into 0, true into 1 and threw a raw TypeError for 2n.
    for (bad, shown) in [
        (JsValue::UNDEFINED, "got undefined"),
        (JsValue::NULL, "got null"),
        (JsValue::TRUE, "got a boolean"),
        ("4".into(), "got a string"),
        (js_sys::BigInt::from(2u32).into(), "got a bigint"),
    ] {
        assert_js_error(
            g.square(bad.clone(), m.clone(), u.clone()),
            "BAD_ARGUMENT",
            &format!("n: must be a number, {shown}"),
        );
        assert_js_error(
            g.power(num(2.0), m.clone(), bad, u.clone()),
            "BAD_ARGUMENT",
            "p: must be a number",
        );
    }
    // Strings where strings belong: a number there once read wasm memory as a string.
    let mut run = g
        .start_power(num(2.0), m.clone(), num(3.0), u.clone())
        .unwrap();
    assert_js_error(
        run.read(0.into()),
        "BAD_ARGUMENT",
        "which: must be a string, got 0",
    );
    assert_js_error(run.stats(u.clone()), "BAD_ARGUMENT", "got undefined");
    assert_js_error(
        run.read("b".into()),
        "BAD_ARGUMENT",
        "use 'a' (or 'input'), 'latest'",
    );
    assert_js_error(
        JsGpgpu::kernel_source(5.into()),
        "BAD_ARGUMENT",
        "kernel: must be a string",
    );
    assert_js_error(
        JsGpgpu::program_source(JsValue::NULL, u.clone()),
        "BAD_ARGUMENT",
        "got null",
    );
    let canvas: JsValue = web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .create_element("canvas")
        .unwrap()
        .into();
    let style = Object::new();
    Reflect::set(&style, &"rang".into(), &2.into()).unwrap();
    assert_js_error(
        g.draw_heatmap(num(2.0), num(2.0), m.clone(), canvas.clone(), style.into()),
        "BAD_ARGUMENT",
        "unknown key 'rang'",
    );
    let style = Object::new();
    Reflect::set(&style, &"range".into(), &(-1).into()).unwrap();
    assert_js_error(
        g.draw_heatmap(num(2.0), num(2.0), m.clone(), canvas, style.into()),
        "BAD_ARGUMENT",
        "style.range: is -1; it must be > 0",
    );
    // Whole-number options say the same thing for every bad value.
    for bad in [0.0, -1.0, 2.5, 1001.0] {
        let o = Object::new();
        Reflect::set(&o, &"maxDoublings".into(), &bad.into()).unwrap();
        assert_js_error(
            g.inverse(num(2.0), m.clone(), o.into()),
            "BAD_ARGUMENT",
            "it must be a whole number from 1 to 1000",
        );
    }
    // Options that do not apply are refused, not ignored.
    assert_js_error(
        g.reachability(num(2.0), m.clone(), options(&[("semiring", "min-plus")])),
        "BAD_ARGUMENT",
        "unknown option 'semiring'",
    );
    assert_js_error(
        g.fibonacci(num(10.0), options(&[("semiring", "boolean")])),
        "BAD_ARGUMENT",
        "unknown option 'semiring'",
    );
    let o = Object::new();
    Reflect::set(&o, &"d".into(), &0.5.into()).unwrap();
    assert_js_error(
        g.inverse(num(2.0), m.clone(), o.into()),
        "BAD_ARGUMENT",
        "'series' only",
    );
    // Out of doublings while still improving is said so.
    let spd: Vec<f32> = vec![4.0, 1.0, 0.0, 1.0, 3.0, 1.0, 0.0, 1.0, 2.0];
    let o = Object::new();
    Reflect::set(&o, &"maxDoublings".into(), &1.into()).unwrap();
    let r = g
        .inverse(num(3.0), Float32Array::from(&spd[..]).into(), o.into())
        .unwrap();
    let message = Reflect::get(&r, &"message".into())
        .unwrap()
        .as_string()
        .unwrap();
    assert!(message.contains("raise options.maxDoublings"), "{message}");
    // A NaN in Jacobi's A is reported at once as diverging, not iterated 1000 times.
    let a: JsValue = Float32Array::from(&[4.0f32, f32::NAN, 1.0, 3.0][..]).into();
    let b: JsValue = Float32Array::from(&[1.0f32, 1.0][..]).into();
    let r = g.jacobi(num(2.0), a, b, u).unwrap();
    assert_eq!(Reflect::get(&r, &"diverged".into()).unwrap(), JsValue::TRUE);
    assert_eq!(
        Reflect::get(&r, &"iterations".into()).unwrap().as_f64(),
        Some(1.0)
    );
}
