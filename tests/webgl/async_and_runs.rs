//! The JavaScript API's Promise forms and the step-through `Run` on WebGL (checks in
//! tests/common/runs.rs; browser_async_and_runs_webgpu.rs runs them on WebGPU); the
//! heatmaps of both backends side by side; and WebGL's context loss.

use crate::common::*;
use gpgpu_matrix::js::JsGpgpu;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::Semiring::Ordinary;
use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

run_tests!(Backend::WebGl);

#[wasm_bindgen_test]
async fn webgpu_heatmaps_have_the_colours_of_webgl_ones() {
    if skipped_without(
        Backend::WebGpu,
        "webgpu_heatmaps_have_the_colours_of_webgl_ones",
    ) {
        return;
    }
    // The same matrices through both colour maps (the diverging one of a run, the
    // sequential and log ones of drawHeatmapAsync): every pixel within ±2 per channel.
    let (gl, gpu) = (js_on(Backend::WebGl).await, js_on(Backend::WebGpu).await);
    let n = 23;
    let mut m: Vec<f32> = uniform(4, n * n).iter().map(|v| v * 7.0).collect();
    m[5] = f32::NAN;
    m[30] = f32::INFINITY;
    m[31] = f32::NEG_INFINITY;
    m[60] = 0.0;
    let (w, h) = (46, 31); // 2 pixels per column; rows land unevenly on pixels
    let mut pictures = vec![];
    for g in [&gl, &gpu] {
        let mut run = g
            .start_square_repeatedly(num(n as f64), js(&m), num(0.0), JsValue::UNDEFINED)
            .unwrap();
        let (c, _) = runs::draw(&mut run, "a", (w, h)).await;
        let mut all = pixels(&c);
        for style in [
            vec![("sequential", JsValue::TRUE)],
            vec![("range", num(3.0))],
            vec![("sequential", JsValue::TRUE), ("logFloor", num(1e-3))],
        ] {
            let s = Object::new();
            for (k, v) in style {
                Reflect::set(&s, &k.into(), &v).unwrap();
            }
            let abs: Vec<f32> = m.iter().map(|v| v.abs()).collect();
            let c = canvas(w, h);
            settle(g.draw_heatmap_async(
                num(n as f64),
                num(n as f64),
                js(&abs),
                c.clone().into(),
                s.into(),
            ))
            .await
            .unwrap();
            all.extend(pixels(&c));
        }
        pictures.push(all);
    }
    let (a, b) = (&pictures[0], &pictures[1]);
    assert_eq!(a.len(), b.len());
    // Not two blank canvases: opaque, and many colours.
    let colours: std::collections::HashSet<&[u8]> = a.chunks(4).collect();
    assert!(colours.len() > 50, "{} colours", colours.len());
    assert!(a.chunks(4).all(|p| p[3] == 255), "every pixel opaque");
    let worst = a
        .iter()
        .zip(b)
        .enumerate()
        .max_by_key(|(_, (x, y))| x.abs_diff(**y))
        .unwrap();
    let (i, (x, y)) = worst;
    assert!(
        x.abs_diff(*y) <= 2,
        "byte {i} (picture {}, pixel {}, channel {}): WebGL {x}, WebGPU {y}",
        i / (w * h * 4) as usize,
        (i / 4) % (w * h) as usize,
        i % 4
    );
}

// WebGL only: context loss (WebGPU's device loss is in browser_errors.rs).

#[wasm_bindgen_test]
async fn a_run_started_before_a_context_loss_refuses_to_continue() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    let m = uniform(1, 8 * 8);
    let mut run = g
        .start_power(num(8.0), js(&m), num(3.0), JsValue::UNDEFINED)
        .unwrap();
    run.step(JsValue::UNDEFINED).unwrap();
    let (gl, lose) = lose_context_of(&g);
    lose.lose_context();
    sleep(30).await;
    lose.restore_context();
    for _ in 0..100 {
        sleep(20).await;
        if !gl.is_context_lost() {
            break;
        }
    }
    let err = run
        .step(JsValue::UNDEFINED)
        .expect_err("the run's textures died with the context");
    assert_eq!(js_code(&err).as_deref(), Some("CONTEXT_LOST"));
    let msg = String::from(err.unchecked_ref::<js_sys::Error>().message());
    assert!(msg.contains("Start a new run"), "{msg}");
    // A new run works, and freeing the dead one puts none of its dead textures into
    // the pool: the same size again must not draw into them (that gave GL errors).
    let want = reference::square(Ordinary, 8, &to_f64(&m));
    let got = g
        .square(num(8.0), js(&m), JsValue::UNDEFINED)
        .unwrap()
        .to_vec();
    assert_close("after restore", &got, &want, FROBENIUS_TOL);
    let counts = || -> String { js_sys::JSON::stringify(&g.live_objects()).unwrap().into() };
    drop(run);
    let mut settled = None;
    for p in [3.0, 3.0, 5.0] {
        let got = g
            .power(num(8.0), js(&m), num(p), JsValue::UNDEFINED)
            .unwrap()
            .to_vec();
        let want = reference::power(Ordinary, 8, &to_f64(&m), p as u64);
        assert_close(
            "power after freeing the dead run",
            &got,
            &want,
            FROBENIUS_TOL,
        );
        // The first power fills the pool with what powers need; then nothing grows.
        let now = counts();
        assert_eq!(
            settled.get_or_insert_with(|| now.clone()),
            &now,
            "no texture piles up"
        );
    }
}

#[wasm_bindgen_test]
async fn a_canvas_whose_context_is_lost_cannot_make_an_engine() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    let canvas = g.canvas();
    let (gl, lose) = lose_context_of(&g);
    lose.lose_context();
    sleep(30).await;
    let err = JsGpgpu::new(canvas.clone())
        .err()
        .expect("a lost context cannot be used");
    assert_eq!(js_code(&err).as_deref(), Some("CONTEXT_LOST"), "{err:?}");
    lose.restore_context();
    for _ in 0..100 {
        sleep(20).await;
        if !gl.is_context_lost() {
            break;
        }
    }
    let again = JsGpgpu::new(canvas).expect("restored: a new engine works");
    let m = uniform(5, 3 * 3);
    let got = again
        .square(num(3.0), js(&m), JsValue::UNDEFINED)
        .unwrap()
        .to_vec();
    assert_close(
        "new engine on the restored canvas",
        &got,
        &reference::square(Ordinary, 3, &to_f64(&m)),
        FROBENIUS_TOL,
    );
}
