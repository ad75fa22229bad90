//! The error paths of the JavaScript API on WebGPU: the argument checks of
//! tests/common/errors.rs in their Promise forms, the largest dimension, and
//! NEEDS_ASYNC from every blocking form naming its Async form. The device's own
//! errors and the leak check are in browser_device_webgpu.rs.

use crate::common::*;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

argument_error_tests!(JsSetup::WebGpuAsync);
limit_tests!(Backend::WebGpu);

fn u() -> JsValue {
    JsValue::UNDEFINED
}

/// Asserts NEEDS_ASYNC naming the call and what to use instead.
fn needs_async<T>(r: Result<T, JsValue>, call: &str, instead: &str) {
    let msg = assert_js_error(r, "NEEDS_ASYNC", &format!("use {instead}"));
    assert!(msg.starts_with(call), "'{msg}' should start with '{call}'");
}

#[wasm_bindgen_test]
async fn every_blocking_form_is_needs_async_naming_its_async_form() {
    let g = js_on(Backend::WebGpu).await;
    let m = || js(&[1.0, 1.0, 1.0, 0.0]);
    let two = || num(2.0);
    needs_async(g.square(two(), m(), u()), "square", "squareAsync");
    needs_async(
        g.multiply(two(), two(), two(), m(), m(), u()),
        "multiply",
        "multiplyAsync",
    );
    needs_async(
        g.square_repeatedly(two(), m(), two(), u()),
        "squareRepeatedly",
        "squareRepeatedlyAsync",
    );
    needs_async(g.power(two(), m(), num(3.0), u()), "power", "powerAsync");
    needs_async(
        g.reachability(two(), m(), u()),
        "reachability",
        "reachabilityAsync",
    );
    needs_async(
        g.shortest_paths(two(), m(), u()),
        "shortestPaths",
        "shortestPathsAsync",
    );
    needs_async(g.fibonacci(num(10.0), u()), "fibonacci", "fibonacciAsync");
    needs_async(g.inverse(two(), m(), u()), "inverse", "inverseAsync");
    needs_async(g.eigen(two(), m(), num(1.0), u()), "eigen", "eigenAsync");
    let (a, b) = (js(&[4.0, 1.0, 1.0, 3.0]), js(&[1.0, 2.0]));
    needs_async(g.jacobi(two(), a, b, u()), "jacobi", "jacobiAsync");
    let c = || -> JsValue { canvas(2, 2).into() };
    needs_async(
        g.draw_heatmap(two(), two(), m(), c(), u()),
        "drawHeatmap",
        "drawHeatmapAsync",
    );
    // A run steps on WebGPU; its blocking reads name their Async forms, before the
    // last pass as after it.
    let mut run = g.start_power(two(), m(), num(3.0), u()).unwrap();
    run.step(JsValue::UNDEFINED).unwrap();
    needs_async(run.result(), "run.result()", "run.resultAsync()");
    while run.step(JsValue::UNDEFINED).unwrap() {}
    let latest = || JsValue::from_str("latest");
    needs_async(run.read(latest()), "run.read()", "run.readAsync()");
    needs_async(run.stats(latest()), "run.stats()", "run.statsAsync()");
    needs_async(run.result(), "run.result()", "run.resultAsync()");
    needs_async(run.sync(), "run.sync()", "await run.whenDone()");
    needs_async(
        run.draw_heatmap(latest(), c(), u()),
        "run.drawHeatmap()",
        "run.drawHeatmapAsync()",
    );
    // The Async forms of the same run and Gpgpu work: [[1,1],[1,0]]^3.
    let r = settle(run.result_async()).await.unwrap();
    assert_eq!(floats(&r), [3.0, 2.0, 2.0, 1.0]);
    let r = settle(g.power_async(two(), m(), num(3.0), u()))
        .await
        .unwrap();
    assert_eq!(floats(&r), [3.0, 2.0, 2.0, 1.0]);
}
