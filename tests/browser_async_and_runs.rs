//! The non-blocking readback path (pixel-pack buffer + fence) against the same
//! references as the blocking one, and the step-through `Run` the page uses:
//! pass labels, GPU statistics, heatmaps drawn from textures, timer queries.

mod common;

use common::*;
use gpgpu_matrix::js::{JsGpgpu, JsRun};
use gpgpu_matrix::plan::random;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::Semiring::Ordinary;
use js_sys::{Float32Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn kernel_opts(name: &str) -> JsValue {
    let o = Object::new();
    Reflect::set(&o, &"kernel".into(), &name.into()).unwrap();
    o.into()
}

fn js(m: &[f32]) -> JsValue {
    Float32Array::from(m).into()
}

async fn resolve(p: js_sys::Promise) -> Vec<f32> {
    let v = JsFuture::from(p).await.expect("promise resolves");
    v.unchecked_into::<Float32Array>().to_vec()
}

fn get(o: &JsValue, key: &str) -> f64 {
    Reflect::get(o, &key.into()).unwrap().as_f64().unwrap()
}

fn kernel_names() -> Vec<String> {
    let g = poisoned();
    kernels(&g).iter().map(|k| k.name().to_string()).collect()
}

#[wasm_bindgen_test]
async fn async_products_match_the_reference() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    g.set_poison(Some(f64::NAN));
    for name in kernel_names() {
        for &n in &[1usize, 3, 17, 100] {
            let m = uniform(n as u32, n * n);
            let got = resolve(g.square_async(num(n as f64), js(&m), kernel_opts(&name))).await;
            let want = reference::square(Ordinary, n, &to_f64(&m));
            assert_close(
                &format!("{name} squareAsync n={n}"),
                &got,
                &want,
                FROBENIUS_TOL,
            );
        }
        let (rows, inner, cols) = (3, 5, 2);
        let a = uniform(1, rows * inner);
        let b = uniform(2, inner * cols);
        let p = g.multiply_async(
            num(rows as f64),
            num(inner as f64),
            num(cols as f64),
            js(&a),
            js(&b),
            kernel_opts(&name),
        );
        let want = reference::multiply(Ordinary, rows, inner, cols, &to_f64(&a), &to_f64(&b));
        assert_close(
            &format!("{name} multiplyAsync 3x5·5x2"),
            &resolve(p).await,
            &want,
            FROBENIUS_TOL,
        );
        let s = random::integers(5, 64 * 64, -3, 3);
        let got = resolve(g.multiply_async(
            num(64.0),
            num(64.0),
            num(64.0),
            js(&s),
            js(&s),
            kernel_opts(&name),
        ))
        .await;
        assert_exact(
            &format!("{name} integer multiplyAsync"),
            &got,
            &reference::square(Ordinary, 64, &to_f64(&s)),
        );
        let m: Vec<f32> = uniform(9, 17 * 17)
            .iter()
            .map(|v| v / 17f32.sqrt())
            .collect();
        for p in [0u64, 1, 5, 13] {
            let got =
                resolve(g.power_async(num(17.0), js(&m), num(p as f64), kernel_opts(&name))).await;
            let want = reference::power(Ordinary, 17, &to_f64(&m), p);
            assert_close(
                &format!("{name} powerAsync p={p}"),
                &got,
                &want,
                4.0 * FROBENIUS_TOL,
            );
        }
        let got =
            resolve(g.square_repeatedly_async(num(17.0), js(&m), num(3.0), kernel_opts(&name)))
                .await;
        let want = reference::repeated_square(Ordinary, 17, &to_f64(&m), 3);
        assert_close(
            &format!("{name} squareRepeatedlyAsync"),
            &got,
            &want,
            8.0 * FROBENIUS_TOL,
        );
    }
}

#[wasm_bindgen_test]
async fn async_errors_reject_the_promise() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    let err = JsFuture::from(g.square_async(num(2.5), js(&[0.0; 4]), JsValue::UNDEFINED))
        .await
        .expect_err("a bad dimension rejects");
    let code = Reflect::get(&err, &"code".into()).unwrap().as_string();
    assert_eq!(code.as_deref(), Some("BAD_DIMENSION"));
}

#[wasm_bindgen_test]
async fn two_async_calls_in_flight_at_once_both_resolve() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    let a = uniform(1, 33 * 33);
    let b = uniform(2, 33 * 33);
    let pa = g.square_async(num(33.0), js(&a), JsValue::UNDEFINED);
    let pb = g.square_async(num(33.0), js(&b), JsValue::UNDEFINED);
    let rb = resolve(pb).await;
    let ra = resolve(pa).await;
    assert_close(
        "first",
        &ra,
        &reference::square(Ordinary, 33, &to_f64(&a)),
        FROBENIUS_TOL,
    );
    assert_close(
        "second",
        &rb,
        &reference::square(Ordinary, 33, &to_f64(&b)),
        FROBENIUS_TOL,
    );
}

#[wasm_bindgen_test]
async fn a_run_steps_pass_by_pass_with_stats_and_timers() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    g.set_poison(Some(f64::NAN));
    let n = 24;
    let m = random::integers(3, n * n, -2, 2);
    for name in kernel_names() {
        let mut run = g
            .start_power(num(n as f64), js(&m), num(5.0), kernel_opts(&name))
            .unwrap();
        assert_eq!(run.pass_count(), 3);
        assert_eq!(run.kernel(), name);
        let labels: Vec<String> = run
            .labels()
            .iter()
            .map(|l| l.as_string().unwrap())
            .collect();
        assert_eq!(
            labels,
            ["M^2 = M^1 · M^1", "M^4 = M^2 · M^2", "M^5 = M^4 · M^1"]
        );
        let mut exps = vec![];
        while run.step(Some(true)).unwrap() {
            run.sync().unwrap();
            let latest = run.read("latest".into()).unwrap().to_vec();
            let e = [0, 2, 4, 5][run.passes_done() as usize];
            exps.push(e);
            let want = reference::power(Ordinary, n, &to_f64(&m), e);
            assert_exact(
                &format!("{name} pass {} = M^{e}", run.passes_done()),
                &latest,
                &want,
            );
            // Statistics by GPU reduction equal those of the CPU copy.
            let stats = run.stats("latest".into()).unwrap();
            let max_abs = want.iter().fold(0f64, |a, v| a.max(v.abs()));
            let sum_abs: f64 = want.iter().map(|v| v.abs()).sum();
            assert_eq!(get(&stats, "maxAbs"), max_abs);
            assert_eq!(get(&stats, "nan") + get(&stats, "inf"), 0.0);
            assert!((get(&stats, "sumAbs") - sum_abs).abs() <= 1e-6 * sum_abs);
        }
        assert!(run.done());
        assert_eq!(exps, [2, 4, 5]);
        let result = run.result().unwrap().to_vec();
        assert_exact(
            &format!("{name} result"),
            &result,
            &reference::power(Ordinary, n, &to_f64(&m), 5),
        );
        assert_eq!(run.read("a".into()).unwrap().to_vec(), m, "the input stays");
        // Timer query results arrive after control returns to the browser. They must
        // time the pass, not the idle wait before anyone asks: wait 400 ms first.
        let info = g.info();
        if Reflect::get(&info, &"timerQuery".into()).unwrap().as_bool() == Some(true) {
            // A 24×24 pass takes well under a millisecond of GPU time (SwiftShader
            // included); 300 ms can only be the wait.
            let times = timer_results_after_a_wait(&mut run).await;
            assert_eq!(times.len(), 3);
            assert!(pass_times_not_waits(&times), "{name}: {times:?}");
        }
    }
}

#[wasm_bindgen_test]
fn stats_count_nan_and_infinity() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    let n = 19;
    let mut m = vec![0.5f32; n * n];
    m[3] = f32::NAN;
    m[40] = f32::INFINITY;
    m[41] = f32::NEG_INFINITY;
    m[77] = -7.0;
    let mut run = g
        .start_square_repeatedly(num(n as f64), js(&m), num(0.0), JsValue::UNDEFINED)
        .unwrap();
    let s = run.stats("a".into()).unwrap();
    assert_eq!(
        (get(&s, "maxAbs"), get(&s, "nan"), get(&s, "inf")),
        (7.0, 1.0, 2.0)
    );
}

fn pixel(canvas: &web_sys::HtmlCanvasElement, x: f64, y: f64) -> [u8; 4] {
    let ctx: web_sys::CanvasRenderingContext2d =
        canvas.get_context("2d").unwrap().unwrap().unchecked_into();
    let d = ctx.get_image_data(x, y, 1.0, 1.0).unwrap().data();
    [d[0], d[1], d[2], d[3]]
}

fn canvas(w: u32, h: u32) -> web_sys::HtmlCanvasElement {
    let doc = web_sys::window().unwrap().document().unwrap();
    let c: web_sys::HtmlCanvasElement = doc.create_element("canvas").unwrap().unchecked_into();
    c.set_width(w);
    c.set_height(h);
    c
}

#[wasm_bindgen_test]
fn heatmaps_are_drawn_from_textures_with_row_zero_on_top() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    // [[ 2, -2],
    //  [ 0, NaN]]  drawn 2x2 pixels per entry on a 4x4 canvas.
    let m = [2.0f32, -2.0, 0.0, f32::NAN];
    for name in kernel_names() {
        let mut run = g
            .start_square_repeatedly(num(2.0), js(&m), num(0.0), kernel_opts(&name))
            .unwrap();
        let c = canvas(4, 4);
        let drawn = run
            .draw_heatmap("a".into(), c.clone().into(), JsValue::UNDEFINED)
            .unwrap();
        assert_eq!(get(&drawn, "blockRows"), 1.0);
        let [r, _, b, _] = pixel(&c, 0.0, 0.0);
        assert!(
            r > 150 && b < 80,
            "{name}: top-left +2 is red, got {:?}",
            pixel(&c, 0.0, 0.0)
        );
        let [r, _, b, _] = pixel(&c, 3.0, 1.0);
        assert!(
            b > 150 && r < 80,
            "{name}: top-right -2 is blue, got {:?}",
            pixel(&c, 3.0, 1.0)
        );
        assert!(
            pixel(&c, 1.0, 3.0)[..3].iter().all(|&v| v > 230),
            "{name}: 0 is white"
        );
        let nan = pixel(&c, 3.0, 3.0);
        assert!(
            nan[0] > 120 && nan[1] < 30 && nan[2] > 170,
            "{name}: NaN is violet, got {nan:?}"
        );
    }
    // Arrays from JS (e.g. |GPU − double|) use the sequential map; a big matrix on a
    // small canvas reports how many entries each pixel covers.
    let c = canvas(16, 8);
    let data: Vec<f32> = (0..64 * 100).map(|v| v as f32).collect();
    let style = Object::new();
    Reflect::set(&style, &"sequential".into(), &true.into()).unwrap();
    let drawn = g
        .draw_heatmap(
            num(64.0),
            num(100.0),
            js(&data),
            c.clone().into(),
            style.into(),
        )
        .unwrap();
    assert_eq!(
        (get(&drawn, "blockRows"), get(&drawn, "blockCols")),
        (8.0, 7.0)
    );
    let first = pixel(&c, 0.0, 0.0);
    let last = pixel(&c, 15.0, 7.0);
    assert!(
        first[0] > 240 && last[0] < 100,
        "pale at 0, dark at the max: {first:?} {last:?}"
    );
}

#[wasm_bindgen_test]
async fn a_run_started_before_a_context_loss_refuses_to_continue() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    let m = uniform(1, 8 * 8);
    let mut run = g
        .start_power(num(8.0), js(&m), num(3.0), JsValue::UNDEFINED)
        .unwrap();
    run.step(None).unwrap();
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
        .step(None)
        .expect_err("the run's textures died with the context");
    let code = Reflect::get(&err, &"code".into()).unwrap().as_string();
    assert_eq!(code.as_deref(), Some("CONTEXT_LOST"));
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
    let code = Reflect::get(&err, &"code".into()).unwrap().as_string();
    assert_eq!(code.as_deref(), Some("CONTEXT_LOST"), "{err:?}");
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

#[wasm_bindgen_test]
async fn when_done_waits_without_blocking_and_untimed_passes_say_nan() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    let m = uniform(2, 40 * 40);
    let mut run = g
        .start_square_repeatedly(num(40.0), js(&m), num(2.0), JsValue::UNDEFINED)
        .unwrap();
    assert!(run.step(None).unwrap());
    JsFuture::from(run.when_done()).await.expect("resolves");
    assert!(run.step(None).unwrap());
    JsFuture::from(run.when_done()).await.expect("resolves");
    let times = run.gpu_times().unwrap();
    assert_eq!(times.length(), 2);
    assert!(
        times.iter().all(|t| t.as_f64().is_some_and(f64::is_nan)),
        "untimed passes are NaN"
    );
    let want = reference::repeated_square(Ordinary, 40, &to_f64(&m), 2);
    assert_close(
        "after whenDone",
        &run.result().unwrap().to_vec(),
        &want,
        4.0 * FROBENIUS_TOL,
    );
}

#[wasm_bindgen_test]
fn the_identity_of_p_0_is_a_gpu_matrix_too() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    let mut run = g
        .start_power(num(5.0), js(&uniform(3, 25)), num(0.0), JsValue::UNDEFINED)
        .unwrap();
    assert_eq!(run.pass_count(), 0);
    assert!(run.done());
    let s = run.stats("result".into()).unwrap();
    assert_eq!((get(&s, "maxAbs"), get(&s, "sumAbs")), (1.0, 5.0));
    let c = canvas(5, 5);
    run.draw_heatmap("result".into(), c.clone().into(), JsValue::UNDEFINED)
        .unwrap();
    let id = reference::identity(Ordinary, 5);
    assert_exact(
        "identity",
        &run.read("result".into()).unwrap().to_vec(),
        &id,
    );
}

#[wasm_bindgen_test]
async fn timed_passes_time_the_pass_not_the_wait_after_it() {
    // Only step() between the passes: nothing else makes the browser send the work on.
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    if Reflect::get(&g.info(), &"timerQuery".into())
        .unwrap()
        .as_bool()
        != Some(true)
    {
        return; // no EXT_disjoint_timer_query_webgl2 here: every time is NaN (tested above)
    }
    let m: Vec<f32> = (1..=9).map(|v| v as f32).collect();
    let mut run = g
        .start_power(num(3.0), js(&m), num(5.0), kernel_opts("naive"))
        .unwrap();
    while run.step(Some(true)).unwrap() {}
    // A 3×3 pass is microseconds of GPU time; 300 ms can only be the wait.
    let times = timer_results_after_a_wait(&mut run).await;
    assert_eq!(times.len(), 3);
    assert!(pass_times_not_waits(&times), "{times:?}");
}

/// Waits 400 ms (the idle time a wrongly ended timer query would take in), then
/// polls until every pass's GPU time has arrived (at most about a second).
async fn timer_results_after_a_wait(run: &mut JsRun) -> Vec<Option<f64>> {
    sleep(400).await;
    let mut times = vec![];
    for _ in 0..50 {
        times = run
            .gpu_times()
            .unwrap()
            .iter()
            .map(|t| t.as_f64())
            .collect();
        if times.iter().all(|t| t.is_some()) {
            break;
        }
        sleep(20).await;
    }
    times
}

fn pass_times_not_waits(times: &[Option<f64>]) -> bool {
    times
        .iter()
        .all(|t| t.is_some_and(|ms| (0.0..300.0).contains(&ms)))
}

#[wasm_bindgen_test]
async fn freeing_the_gpgpu_under_an_async_call_says_freed_not_context_lost() {
    let g = JsGpgpu::new(JsValue::UNDEFINED).unwrap();
    let m = uniform(4, 64 * 64);
    let pending = g.square_async(num(64.0), js(&m), JsValue::UNDEFINED);
    drop(g); // what free() does from JavaScript
    let err = JsFuture::from(pending)
        .await
        .expect_err("its result is gone");
    let code = Reflect::get(&err, &"code".into()).unwrap().as_string();
    assert_eq!(code.as_deref(), Some("FREED"), "{err:?}");
    let message = Reflect::get(&err, &"message".into())
        .unwrap()
        .as_string()
        .unwrap();
    assert!(
        message.contains("freed") && message.contains("settled"),
        "{message}"
    );
}
