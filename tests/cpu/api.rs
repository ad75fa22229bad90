//! The CPU backend through the JavaScript API: the shared argument-error checks
//! (Promise forms) and the async run checks, less the two that draw heatmaps
//! (UNSUPPORTED on the CPU, checked here); and the applications of matrix powers
//! (reachability, shortest paths, inverse, eigenpairs, Jacobi, Fibonacci) with the
//! shared checks of tests/common/apps.rs. One file: one browser start.

#[allow(unused_imports)]
use crate::common;
use crate::common::*;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

argument_error_tests!(JsSetup::CpuAsync);
graph_tests!(Backend::Cpu);
algebra_tests!(Backend::Cpu);
iteration_tests!(Backend::Cpu);
checks!(Backend::Cpu; common::runs:
    async_products_match_the_reference,
    async_errors_reject_the_promise,
    two_async_calls_in_flight_at_once_both_resolve,
    a_run_steps_pass_by_pass_with_stats_and_timers,
    stats_count_nan_and_infinity,
    when_done_waits_without_blocking_and_untimed_passes_say_nan,
    timed_passes_time_the_pass_not_the_wait_after_it,
    freeing_the_gpgpu_under_an_async_call_says_freed,
);

#[wasm_bindgen_test]
async fn heatmaps_are_unsupported_on_the_cpu_and_say_which_backend_to_use() {
    let g = js_on(Backend::Cpu).await;
    let two = || num(2.0);
    let c: JsValue = canvas(2, 2).into();
    let r = settle(g.draw_heatmap_async(two(), two(), js(&[1.0; 4]), c, JsValue::UNDEFINED)).await;
    assert_js_error(r, "UNSUPPORTED", "backend 'webgl' or 'webgpu'");
    // The blocking forms work on the CPU, as on WebGL: [[1,1],[1,0]]^3.
    let m = js(&[1.0, 1.0, 1.0, 0.0]);
    let p = g.power(two(), m, num(3.0), JsValue::UNDEFINED).unwrap();
    assert_eq!(floats(&p), [3.0, 2.0, 2.0, 1.0]);
}

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
