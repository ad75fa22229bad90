//! Products split across devices (WebGL, WebGPU and the CPU on SwiftShader): the
//! result equals the reference for every ratio, 0 and 1 included, and odd row
//! counts; 'auto' refines its ratios; bad ratios, freed devices and a C no array holds are
//! errors.

use crate::common::*;
use gpgpu_matrix::devices::{Devices, Ratios};
use gpgpu_matrix::js::devices::JsDevices;
use gpgpu_matrix::plan::random;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::{Options, Semiring};
use js_sys::Array;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

async fn three() -> (Vec<gpgpu_matrix::Gpgpu>, Devices) {
    let gs = vec![
        poisoned_on(Backend::WebGl).await,
        poisoned_on(Backend::WebGpu).await,
        poisoned_on(Backend::Cpu).await,
    ];
    let d = Devices::new(gs.iter().map(|g| (g.handle(), g.backend())).collect()).unwrap();
    (gs, d)
}

/// Integer inputs A and B, and A·B in float64: every device's float32 sum is exact.
fn integer_product(rows: usize, inner: usize, cols: usize) -> (Vec<f32>, Vec<f32>, Vec<f64>) {
    let a = random::integers(1, rows * inner, -4, 4);
    let b = random::integers(2, inner * cols, -4, 4);
    let want = reference::multiply(
        Semiring::Ordinary,
        rows,
        inner,
        cols,
        &to_f64(&a),
        &to_f64(&b),
    );
    (a, b, want)
}

#[wasm_bindgen_test]
async fn every_ratio_gives_the_single_device_product() {
    if skipped_without(
        Backend::WebGpu,
        "every_ratio_gives_the_single_device_product",
    ) {
        return;
    }
    let (_gs, d) = three().await;
    // Integers: every device's float32 sum is exact, so the parts must agree
    // exactly with float64; odd rows so that ratios leave remainders.
    let (rows, inner, cols) = (37, 19, 23);
    let (a, b, want) = integer_product(rows, inner, cols);
    let o = Options::default();
    for ratios in [
        vec![1.0, 0.0, 0.0],
        vec![0.0, 1.0, 0.0],
        vec![0.0, 0.0, 1.0],
        vec![1.0, 1.0, 1.0],
        vec![0.1, 0.3, 0.6],
        vec![5.0, 0.0, 2.0],
    ] {
        let s = d
            .multiply_split(
                [rows, inner, cols],
                &a,
                &b,
                &Ratios::Given(ratios.clone()),
                &o,
            )
            .await
            .unwrap();
        assert_exact(&format!("ratios {ratios:?}"), &s.c, &want);
        assert_eq!(s.parts.iter().map(|p| p.rows).sum::<usize>(), rows);
        for (p, r) in s.parts.iter().zip(&ratios) {
            assert_eq!(p.rows == 0, *r == 0.0, "{ratios:?}: {:?}", s.parts);
            assert!(p.ms >= 0.0 && p.ms <= s.total_ms);
        }
    }
    // One row, three devices: one gets it.
    let s = d
        .multiply_split([1, inner, cols], &a[..inner], &b, &Ratios::Auto, &o)
        .await
        .unwrap();
    assert_exact("one row", &s.c, &want[..cols]);
}

#[wasm_bindgen_test]
async fn auto_ratios_follow_measured_throughput_and_random_inputs_match() {
    if skipped_without(
        Backend::WebGpu,
        "auto_ratios_follow_measured_throughput_and_random_inputs_match",
    ) {
        return;
    }
    let (_gs, d) = three().await;
    assert_eq!(d.auto_ratios(), [1.0 / 3.0; 3]);
    let (rows, inner, cols) = (65, 48, 40);
    let (a, b, want) = random_product(3, [rows, inner, cols]);
    for _ in 0..3 {
        let s = d
            .multiply_split(
                [rows, inner, cols],
                &a,
                &b,
                &Ratios::Auto,
                &Options::default(),
            )
            .await
            .unwrap();
        assert_close("auto", &s.c, &want, FROBENIUS_TOL);
    }
    let r = d.auto_ratios();
    assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert_ne!(
        r,
        [1.0 / 3.0; 3],
        "measured throughputs differ between devices"
    );
}

#[wasm_bindgen_test]
async fn the_javascript_devices_class_splits_and_checks_its_arguments() {
    let gl = js_on(Backend::WebGl).await;
    let cpu = js_on(Backend::Cpu).await;
    let engines: JsValue = Array::of2(&JsValue::from(gl), &JsValue::from(cpu)).into();
    let d = JsDevices::new(engines.clone()).unwrap();
    assert_eq!(
        d.backends().to_vec(),
        [JsValue::from("webgl"), JsValue::from("cpu")]
    );
    let m = || js(&[1.0, 1.0, 1.0, 0.0, 2.0, 3.0]);
    let two = || num(2.0);
    let r = settle(d.multiply_split_async(
        num(3.0),
        two(),
        two(),
        m(),
        js(&[1.0, 2.0, 3.0, 4.0]),
        JsValue::UNDEFINED,
    ))
    .await
    .unwrap();
    assert_eq!(floats(&prop(&r, "c")), [4.0, 6.0, 1.0, 2.0, 11.0, 16.0]);
    assert_eq!(Array::from(&prop(&r, "parts")).length(), 2);
    let with = |ratios: JsValue| {
        let o = js_sys::Object::new();
        js_sys::Reflect::set(&o, &"ratios".into(), &ratios).unwrap();
        JsValue::from(o)
    };
    let call =
        |o: JsValue| d.multiply_split_async(two(), two(), two(), js(&[1.0; 4]), js(&[1.0; 4]), o);
    let nums = |v: &[f64]| -> JsValue {
        v.iter()
            .map(|&x| JsValue::from(x))
            .collect::<Array>()
            .into()
    };
    assert_js_error(
        settle(call(with(nums(&[1.0])))).await,
        "BAD_ARGUMENT",
        "1 number for 2 devices",
    );
    assert_js_error(
        settle(call(with(nums(&[0.0, 0.0])))).await,
        "BAD_ARGUMENT",
        "all 0",
    );
    assert_js_error(
        settle(call(with(nums(&[-1.0, 1.0])))).await,
        "BAD_ARGUMENT",
        ">= 0",
    );
    assert_js_error(
        settle(call(with("fast".into()))).await,
        "BAD_ARGUMENT",
        "'auto'",
    );
    let r = settle(call(with(nums(&[0.0, 1.0])))).await.unwrap();
    assert_eq!(floats(&prop(&r, "c")), [2.0; 4]);
    // Sizes read as multiplyAsync reads them: past wasm32's usize the limit named is
    // WebAssembly memory's (it was "this device's limit of 4294967295", no device's).
    let huge = settle(d.multiply_split_async(
        num(4294967296.0),
        two(),
        two(),
        js(&[1.0; 4]),
        js(&[1.0; 4]),
        JsValue::UNDEFINED,
    ))
    .await;
    let message = assert_js_error(huge, "SIZE_OVER_LIMIT", "rows = 4294967296");
    assert!(
        message.contains("WebAssembly memory") && !message.contains("4294967295"),
        "{message}"
    );
    // docs/api.md: any key other than ratios and semiring is BAD_ARGUMENT, kernel: 'auto'
    // too, and the message names only keys a split takes.
    let keyed = |key: &str, v: JsValue| {
        let o = js_sys::Object::new();
        js_sys::Reflect::set(&o, &key.into(), &v).unwrap();
        JsValue::from(o)
    };
    for (key, v) in [
        ("kernel", JsValue::from("auto")),
        ("kernel", JsValue::from("naive")),
        ("maxTile", num(2.0)),
    ] {
        let e = settle(call(keyed(key, v))).await;
        let message = assert_js_error(e, "BAD_ARGUMENT", "give ratios and semiring only");
        assert!(message.contains(&format!("'{key}'")), "{message}");
    }
    let e = settle(call(keyed("ratio", nums(&[1.0, 1.0])))).await;
    let message = assert_js_error(e, "BAD_ARGUMENT", "known: ratios, semiring");
    assert!(
        !message.contains("maxTile") && !message.contains("kernel"),
        "{message}"
    );
    let advice = "must be an object such as { ratios: 'auto' }, got a number";
    assert_js_error(settle(call(num(1.0))).await, "BAD_ARGUMENT", advice);
    // The advice, followed, works whatever the number of devices: { ratios: [1, 2] },
    // said before, was BAD_ARGUMENT again for any number but 2.
    let cpu1 = JsValue::from(js_on(Backend::Cpu).await);
    let one = JsDevices::new(Array::of1(&cpu1).into()).unwrap();
    let alone =
        |o: JsValue| one.multiply_split_async(two(), two(), two(), js(&[1.0; 4]), js(&[1.0; 4]), o);
    assert_js_error(settle(alone(num(1.0))).await, "BAD_ARGUMENT", advice);
    let r = settle(alone(with("auto".into()))).await.unwrap();
    assert_eq!(floats(&prop(&r, "c")), [2.0; 4]);
    let r = settle(call(keyed("semiring", "min-plus".into())))
        .await
        .unwrap();
    assert_eq!(floats(&prop(&r, "c")), [2.0; 4]);
    assert_js_error(
        JsDevices::new(Array::new().into()).map(|_| ()),
        "BAD_ARGUMENT",
        "empty",
    );
    let bad: JsValue = Array::of1(&num(3.0)).into();
    assert_js_error(
        JsDevices::new(bad).map(|_| ()),
        "BAD_ARGUMENT",
        "devices[0]",
    );
    // A Gpgpu freed before the Devices is made: said so (it was "is a Gpgpu; give
    // Gpgpu objects", which a Gpgpu is).
    let freed = JsValue::from(js_on(Backend::Cpu).await);
    let free = js_sys::Reflect::get(&freed, &"free".into()).unwrap();
    js_sys::Function::from(free).call0(&freed).unwrap();
    let e = JsDevices::new(Array::of1(&freed).into()).map(|_| ());
    assert_js_error(e, "FREED", "devices[0]: is a Gpgpu that was freed");
}

#[wasm_bindgen_test]
async fn zero_sizes_are_refused_in_rust_as_in_javascript() {
    // Rust's multiply_split took them (JavaScript's multiplySplitAsync did not).
    let cpu = poisoned_on(Backend::Cpu).await;
    let d = Devices::new(vec![(cpu.handle(), cpu.backend())]).unwrap();
    let engines: JsValue = Array::of1(&js_on(Backend::Cpu).await.into()).into();
    let from_js = JsDevices::new(engines).unwrap();
    for (dims, name) in [
        ([0, 2, 2], "rows"),
        ([2, 0, 2], "inner"),
        ([2, 2, 0], "cols"),
    ] {
        let [rows, inner, cols] = dims;
        let (a, b) = (vec![1.0; rows * inner], vec![1.0; inner * cols]);
        let o = Options::default();
        let e = d.multiply_split(dims, &a, &b, &Ratios::Auto, &o).await;
        let e = e.unwrap_err();
        let js_e = from_js.multiply_split_async(
            num(rows as f64),
            num(inner as f64),
            num(cols as f64),
            js(&a),
            js(&b),
            JsValue::UNDEFINED,
        );
        let message = assert_js_error(settle(js_e).await, "BAD_DIMENSION", &format!("{name} = 0"));
        assert_eq!((e.code(), e.to_string()), ("BAD_DIMENSION", message));
    }
}

#[wasm_bindgen_test]
async fn a_freed_device_fails_its_part_with_freed() {
    if skipped_without(Backend::WebGpu, "a_freed_device_fails_its_part_with_freed") {
        return;
    }
    let (mut gs, d) = three().await;
    gs.remove(2);
    let a = vec![1.0; 9];
    let e = d
        .multiply_split(
            [3, 3, 3],
            &a,
            &a,
            &Ratios::Given(vec![1.0, 1.0, 1.0]),
            &Options::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(e.code(), "FREED");
    // Freed before the call: the message names that device and says so, not that the
    // call was running on a GPU (the freed device here is the CPU).
    let message = e.to_string();
    assert!(
        message.starts_with("devices[2] (backend 'cpu') was freed")
            && message.contains("before this call")
            && !message.contains("on the GPU")
            && !message.contains("still"),
        "{message}"
    );
    // Without the freed device's rows, the others still work.
    let s = d
        .multiply_split(
            [3, 3, 3],
            &a,
            &a,
            &Ratios::Given(vec![1.0, 1.0, 0.0]),
            &Options::default(),
        )
        .await
        .unwrap();
    assert_eq!(s.c, vec![3.0; 9]);
}

/// 'auto' leaves out a device whose GPU is lost while the call runs, and one freed
/// since the Devices was made: the product runs on the others. The lost one failed
/// that call with DEVICE_LOST, and the freed one every later call with FREED.
#[wasm_bindgen_test]
async fn auto_leaves_out_a_device_lost_during_the_call_or_freed() {
    if skipped_without(
        Backend::WebGpu,
        "auto_leaves_out_a_device_lost_during_the_call_or_freed",
    ) {
        return;
    }
    let (mut gs, d) = three().await;
    let (rows, inner, cols) = (9, 5, 7);
    let (a, b, want) = integer_product(rows, inner, cols);
    let o = Options::default();
    let split = || d.multiply_split([rows, inner, cols], &a, &b, &Ratios::Auto, &o);
    // The first 'auto' split gives every device rows: WebGPU's device goes meanwhile.
    if let gpgpu_matrix::engine::Engine::WebGpu(e) = &*gs[1].engine() {
        e.gpu().device().destroy();
    }
    let s = split().await.unwrap();
    assert_exact("WebGPU lost", &s.c, &want);
    assert_eq!(s.parts.iter().map(|p| p.rows).collect::<Vec<_>>()[1], 0);
    assert_eq!(s.parts.iter().map(|p| p.rows).sum::<usize>(), rows);
    // The CPU freed: 'auto' gives it nothing, now and in its ratios.
    gs.remove(2);
    assert_eq!(d.auto_ratios()[2], 0.0);
    for _ in 0..3 {
        let s = split().await.unwrap();
        assert_exact("CPU freed", &s.c, &want);
        assert_eq!(s.parts[2].rows, 0);
    }
    // Every device freed: FREED, naming the first.
    gs.clear();
    let e = split().await.unwrap_err();
    assert_eq!(e.code(), "FREED");
    assert!(
        e.to_string()
            .starts_with("devices[0] (backend 'webgl') was freed"),
        "{e}"
    );
}

/// A split's C is assembled in one array on top of the parts' results: an outer
/// product of two 23200-long vectors (2.15 GB, past what one wasm32 array holds) ran
/// both parts of 1.08 GB and then panicked with "capacity overflow" (RuntimeError:
/// unreachable). It is SIZE_OVER_LIMIT before any part runs, in Rust and JavaScript.
#[wasm_bindgen_test]
async fn a_split_whose_result_no_array_holds_is_refused_before_it_runs() {
    let cpu = gpgpu_matrix::Gpgpu::create(gpgpu_matrix::CreateOptions {
        backend: gpgpu_matrix::BackendChoice::Cpu,
        threads: Some(0),
        ..Default::default()
    })
    .await
    .unwrap();
    let twice = vec![(cpu.handle(), cpu.backend()); 2];
    let d = Devices::new(twice).unwrap();
    let n = 23200;
    let v = vec![1.0f32; n];
    let o = Options::default();
    let ratios = Ratios::Given(vec![1.0, 1.0]);
    let e = d.multiply_split([n, 1, n], &v, &v, &ratios, &o).await;
    let e = assert_error(
        e.map(|s| s.c.len()),
        "SIZE_OVER_LIMIT",
        "one 23200x23200 matrix",
    );
    assert_eq!(cpu.live("buffers"), 0, "no part ran: {e}");
    let engines: JsValue = Array::of1(&js_on(Backend::Cpu).await.into()).into();
    let from_js = JsDevices::new(engines).unwrap();
    let js_e = from_js.multiply_split_async(
        num(n as f64),
        num(1.0),
        num(n as f64),
        js(&v),
        js(&v),
        JsValue::UNDEFINED,
    );
    let message = assert_js_error(settle(js_e).await, "SIZE_OVER_LIMIT", "23200x23200");
    assert_eq!(message, e.to_string());
}
