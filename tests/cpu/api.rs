//! The CPU backend through the JavaScript API: the shared argument-error checks
//! (Promise forms), the largest dimension, the leak check of 1000 Async calls and the
//! run checks (heatmaps included, coloured on the CPU); and
//! the applications of matrix powers (reachability, shortest paths, inverse,
//! eigenpairs, Jacobi, Fibonacci) with the shared checks of tests/common/apps.rs.

#[allow(unused_imports)]
use crate::common;
use crate::common::*;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::Semiring::Ordinary;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

argument_error_tests!(JsSetup::CpuAsync);
graph_tests!(Backend::Cpu);
algebra_tests!(Backend::Cpu);
iteration_tests!(Backend::Cpu);
run_tests!(Backend::Cpu);
limit_tests!(Backend::Cpu);
checks!(Backend::Cpu; common::errors: a_thousand_async_calls_leave_the_same_live_objects_as_one);

/// `lastCpuTiming()`: null before the first Async product; after one, each worker's
/// kernel time, their maximum and sum, and the whole call's time, whose difference
/// with the slowest kernel is the overhead the bench reports.
#[wasm_bindgen_test]
async fn the_last_async_product_says_where_its_time_went() {
    let g = js_on(Backend::Cpu).await;
    assert!(g.last_cpu_timing().is_null());
    let s = js(&[1.0; 64 * 64]);
    let p = g.multiply_async(
        num(64.0),
        num(64.0),
        num(64.0),
        s.clone(),
        s,
        JsValue::UNDEFINED,
    );
    settle(p).await.unwrap();
    let t = g.last_cpu_timing();
    let workers = floats(&js_sys::Float32Array::new(&prop(&t, "workerMs")).into());
    assert!(!workers.is_empty());
    let (wall, max, sum) = (
        get(&t, "wallMs"),
        get(&t, "kernelMaxMs"),
        get(&t, "kernelSumMs"),
    );
    assert!(workers
        .iter()
        .all(|&ms| ms >= 0.0 && ms as f64 <= max + 1e-3));
    assert!(
        max >= 0.0 && max <= sum + 1e-9 && max <= wall,
        "{max} {sum} {wall}"
    );
    assert!((get(&t, "overheadMs") - (wall - max)).abs() < 1e-9);
}

/// `whenDone()` runs what a run has queued, its product on the workers, so a pass
/// timed around step() and whenDone() is the pass (before it, nothing has run).
#[wasm_bindgen_test]
async fn when_done_runs_the_queued_passes_on_the_workers() {
    let g = js_on(Backend::Cpu).await;
    let m = uniform(4, 64 * 64);
    let mut run = g
        .start_square(num(64.0), js(&m), JsValue::UNDEFINED)
        .unwrap();
    assert!(run.step(JsValue::UNDEFINED).unwrap());
    assert!(g.last_cpu_timing().is_null(), "step() only queues the pass");
    settle(run.when_done()).await.expect("resolves");
    assert!(
        !g.last_cpu_timing().is_null(),
        "the product ran on the workers"
    );
    let want = reference::multiply(Ordinary, 64, 64, 64, &to_f64(&m), &to_f64(&m));
    assert_close(
        "after whenDone",
        &common::runs::result(&mut run).await,
        &want,
        FROBENIUS_TOL,
    );
}

/// What the CPU says about its kernel and its limit: programSource('simd') names it
/// as the CPU's Rust kernel; a step-through run past 16384 names the CPU's limit
/// (WebAssembly memory, not a texture's).
#[wasm_bindgen_test]
async fn the_cpu_kernel_and_limit_are_named_as_the_cpus() {
    let r = gpgpu_matrix::js::JsGpgpu::program_source("simd".into(), JsValue::UNDEFINED);
    assert_js_error(r.map(JsValue::from), "BAD_ARGUMENT", "the CPU kernel, Rust");
    let src = gpgpu_matrix::js::JsGpgpu::kernel_source("simd".into()).unwrap();
    assert!(src.contains("f32x4"), "the SIMD128 kernel's source");
    let g = js_on(Backend::Cpu).await;
    let r = g.start_square(num(16385.0), js(&[0.0]), JsValue::UNDEFINED);
    assert_js_error(
        r.map(JsValue::from),
        "SIZE_OVER_LIMIT",
        "over the CPU backend's limit (info().maxDimension) of 16384",
    );
    // No GPU involved: the message says what limits the CPU, and not a GPU's limits.
    let r = g.start_square(num(23000.0), js(&[0.0]), JsValue::UNDEFINED);
    let message = assert_js_error(r.map(JsValue::from), "SIZE_OVER_LIMIT", "n = 23000");
    assert!(
        message.contains("uses no GPU") && message.contains("WebAssembly's 4 GiB"),
        "{message}"
    );
    assert!(!message.contains("texture"), "{message}");
    // The cap is per side, whatever the other side: a 100000 x 1 matrix (400 KB) is
    // over it, and its message names that cap, not memory (it said "its limit is
    // WebAssembly's 4 GiB of memory").
    let r = g.check_run_size(num(100000.0), num(1.0), num(1.0));
    let message = assert_js_error(r, "SIZE_OVER_LIMIT", "rows = 100000");
    assert!(
        message.contains("at most 16384 rows and 16384 columns, whatever the other side"),
        "{message}"
    );
    assert!(!message.contains("its limit is WebAssembly's"), "{message}");
    // Under that limit, what the CPU backend holds in WebAssembly memory: its own
    // copies of the inputs too. A 15000² product passed a check of inputs and result
    // (2.5 GiB) and then ran out of memory; checkRunSize and the runs refuse it.
    for (rows, inner, cols) in [(15000.0, 15000.0, 15000.0), (16384.0, 16384.0, 16384.0)] {
        let r = g.check_run_size(num(rows), num(inner), num(cols));
        assert_js_error(
            r.map(|()| JsValue::UNDEFINED),
            "SIZE_OVER_LIMIT",
            "twice over (the CPU backend's own copies)",
        );
    }
    let r = g.start_square(num(16384.0), js(&[0.0]), JsValue::UNDEFINED);
    assert_js_error(
        r.map(JsValue::from),
        "SIZE_OVER_LIMIT",
        "bytes) of WebAssembly memory",
    );
    g.check_run_size(num(12000.0), num(12000.0), num(12000.0))
        .expect("a 12000² product fits");
    g.check_run_size(num(14000.0), JsValue::UNDEFINED, JsValue::UNDEFINED)
        .expect("a 14000² square fits");
}

/// A Run reads its heatmap's style and canvas before it takes its engine: a style
/// whose getter calls the same Gpgpu (here its `backend` getter, as a page's
/// reactive object might) found the engine borrowed for the draw and panicked
/// ("RefCell already mutably borrowed", RuntimeError: unreachable), after which every
/// call of the library failed.
#[wasm_bindgen_test]
async fn a_style_getter_that_calls_the_gpgpu_back_draws() {
    let g: JsValue = js_on(Backend::Cpu).await.into();
    let canvas: JsValue = canvas(4, 4).into();
    let draw = js_sys::Function::new_with_args(
        "gpu, canvas, method",
        "const run = gpu.startSquare(2, new Float32Array([1, 2, 3, 4]));
         let seen = 'not read';
         const style = { get range() { seen = gpu.backend; return 10; } };
         const drawn = run[method]('a', canvas, style);
         return Promise.resolve(drawn).then(() => { run.free(); return seen; });",
    );
    for method in ["drawHeatmap", "drawHeatmapAsync"] {
        let args = js_sys::Array::of3(&g, &canvas, &method.into());
        let drawn = draw.apply(&JsValue::NULL, &args).expect(method);
        // The getter's call answered (the panic's trap was a JavaScript exception out
        // of the getter, which the style's reading took for an absent range).
        let seen = settle(drawn.into()).await.expect(method);
        assert_eq!(seen.as_string().as_deref(), Some("cpu"), "{method}");
    }
    // The Gpgpu still works, and can be freed (the trap left it borrowed for good).
    let f = js_sys::Function::new_with_args(
        "gpu",
        "const v = gpu.square(1, [3])[0]; gpu.free(); return v;",
    );
    assert_eq!(f.call1(&JsValue::NULL, &g).unwrap().as_f64(), Some(9.0));
}
