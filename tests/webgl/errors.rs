//! The error paths of the JavaScript API on WebGL, blocking and Promise forms
//! (checks in tests/common/errors.rs; browser_errors_webgpu.rs runs them on WebGPU),
//! the largest dimension, and WebGL's own: a canvas without WebGL2, float rendering
//! proved by a probe, GLSL info logs, poisoning, context loss and restore, context
//! hygiene. The leak check is in browser_leaks.rs.

use crate::common::*;
use gpgpu_matrix::engine::program::quad_vertex_source;
use gpgpu_matrix::gl::capabilities::probe_float_rendering;
use gpgpu_matrix::gl::context::Canvas;
use gpgpu_matrix::gl::program::Program;
use gpgpu_matrix::gl::target::{RenderTarget, TexFormat};
use gpgpu_matrix::gl::Gl;
use gpgpu_matrix::js::JsGpgpu;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::{GpgpuError, Semiring};
use js_sys::Float32Array;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

mod blocking {
    use super::*;
    argument_error_tests!(JsSetup::WebGlBlocking);
}

mod promises {
    use super::*;
    argument_error_tests!(JsSetup::WebGlAsync);
}

limit_tests!(Backend::WebGl);

fn js_gpgpu() -> JsGpgpu {
    JsGpgpu::new(JsValue::UNDEFINED).expect("WebGL2")
}

#[wasm_bindgen_test]
fn the_constructor_checks_its_canvas() {
    assert_js_error(
        JsGpgpu::new(JsValue::from_f64(3.0)),
        "BAD_ARGUMENT",
        "HTMLCanvasElement",
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
    let vs = quad_vertex_source();
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
    let target = RenderTarget::new(&gl_of(&g), 5, 3, TexFormat::Rgba32F, 2).unwrap();
    target.poison(f32::NAN);
    for plane in 0..2 {
        let back = target.read(plane).unwrap();
        assert_eq!(back.len(), 5 * 3 * 4);
        assert!(back.iter().all(|v| v.is_nan()), "plane {plane}: {back:?}");
    }
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
