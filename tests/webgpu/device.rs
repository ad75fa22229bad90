//! WebGPU's own errors and device handling: the device described, Gpgpu.create's
//! options and its 'auto' rule, NO_WEBGPU (no navigator.gpu, no adapter),
//! SIZE_OVER_LIMIT naming the device limit, DEVICE_LOST after `device.destroy()` (a
//! loss on purpose) and the new device after it, SHADER_COMPILE with
//! getCompilationInfo's messages, OUT_OF_MEMORY from an error scope, poisoning; and
//! the leak check through the async API (tests/common/errors.rs).

#[allow(unused_imports)]
use crate::common;
use crate::common::*;
use gpgpu_matrix::engine::Engine;
use gpgpu_matrix::js::JsGpgpu;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::webgpu::ComputePipeline;
use gpgpu_matrix::{Gpgpu, GpgpuError, Semiring, Shape};
use js_sys::{Object, Reflect};
use wasm_bindgen::convert::TryFromJsValue;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

checks!(Backend::WebGpu; common::errors: a_thousand_async_calls_leave_the_same_live_objects_as_one);

fn u() -> JsValue {
    JsValue::UNDEFINED
}

#[wasm_bindgen_test]
async fn the_device_is_described_and_the_kernels_are_webgpus() {
    let g = js_on(Backend::WebGpu).await;
    assert_eq!(g.backend(), "webgpu");
    assert!(g.canvas().is_null());
    assert!(g.device().dyn_ref::<web_sys::GpuDevice>().is_some());
    let info = g.info();
    assert_eq!(
        prop(&info, "backend").as_string().as_deref(),
        Some("webgpu")
    );
    let kernels: Vec<String> = js_sys::Array::from(&prop(&info, "kernels"))
        .iter()
        .map(|k| k.as_string().unwrap())
        .collect();
    assert_eq!(kernels, ["global", "tiled16", "register"]);
    let groups = get(&info, "maxComputeWorkgroupsPerDimension");
    assert_eq!(get(&info, "maxDimension"), 16.0 * groups);
    assert!(get(&info, "maxStorageBufferBindingSize") >= 128.0 * 1024.0 * 1024.0);
    // SwiftShader is a software adapter: the register kernel's CPU form.
    if prop(&info, "fallbackAdapter").as_bool() == Some(true) {
        let register = prop(&info, "registerKernel").as_string().unwrap();
        assert!(register.starts_with("CPU form"), "{register}");
    }
    let wgsl = g
        .shader_source("register".into(), "min-plus".into(), u())
        .unwrap();
    assert!(wgsl.contains("@compute"), "{wgsl}");
    // The constants the pipeline is made with head the text (it declares defaults).
    assert!(
        wgsl.starts_with(
            "// Pipeline constants for an n x n product, n = 1024: SEMIRING = 2 (min-plus)"
        ),
        "{}",
        &wgsl[..200]
    );
    assert_js_error(
        g.shader_source("naive".into(), u(), u()),
        "BAD_ARGUMENT",
        "runs on webgl",
    );
    // The file behind it, per size: on SwiftShader the register kernel's CPU form,
    // its vec4 file where n is a multiple of 4 and its element-wise one elsewhere.
    let file = |k: &str, n: JsValue| g.shader_file(k.into(), n);
    assert_eq!(file("global", u()).unwrap(), "wgsl/matmul/1_global.wgsl");
    if prop(&info, "fallbackAdapter").as_bool() == Some(true) {
        assert_eq!(
            file("register", num(64.0)).unwrap(),
            "wgsl/matmul/3_register_cpu.wgsl"
        );
        assert_eq!(
            file("register", num(17.0)).unwrap(),
            "wgsl/matmul/3_register_cpu_any.wgsl"
        );
        let any = g.shader_source("register".into(), u(), num(17.0)).unwrap();
        assert!(any.contains("array<f32>"), "{any}");
    }
    assert_js_error(file("register", num(0.0)), "BAD_DIMENSION", "n");
    assert_eq!(g.default_kernel(num(1e9)).unwrap(), "register");
    assert_js_error(g.default_kernel(num(0.5)), "BAD_DIMENSION", "n");
    // Any size a product takes (past the device's limit, the tiles' form), and no more.
    assert!(file("register", num(4.0 * get(&info, "maxDimension"))).is_ok());
    assert_js_error(
        g.shader_source("register".into(), u(), num(1e12)),
        "SIZE_OVER_LIMIT",
        "4 GiB",
    );
    let live = g.live_objects();
    for key in [
        "buffers",
        "pipelines",
        "shaderModules",
        "bindGroups",
        "querySets",
    ] {
        assert!(prop(&live, key).as_f64().is_some(), "liveObjects().{key}");
    }
}

#[wasm_bindgen_test]
async fn create_checks_its_options_and_auto_prefers_webgl_on_a_software_adapter() {
    let create = |o: JsValue| settle(JsGpgpu::create(o));
    let r = create(options(&[("backend", "metal")])).await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown backend 'metal'");
    let r = create(options(&[("powerPreference", "fast")])).await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown preference 'fast'");
    let r = create(options(&[("backnd", "webgpu")])).await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown option 'backnd'");
    let r = create(num(5.0)).await;
    assert_js_error(r, "BAD_ARGUMENT", "must be an object");
    let backend = |g: JsValue| JsGpgpu::try_from_js_value_ref(&g).unwrap().backend();
    let g = create(options(&[("backend", "webgl")])).await.unwrap();
    assert_eq!(backend(g), "webgl");
    let g = create(options(&[
        ("powerPreference", "low-power"),
        ("backend", "webgpu"),
    ]))
    .await
    .unwrap();
    assert_eq!(backend(g), "webgpu");
    // 'auto': WebGPU only on a hardware adapter; SwiftShader is a software one.
    let gpu = js_on(Backend::WebGpu).await;
    let software = prop(&gpu.info(), "fallbackAdapter").as_bool() == Some(true);
    let auto = backend(create(u()).await.unwrap());
    assert_eq!(auto, if software { "webgl" } else { "webgpu" });
}

/// Runs `f` with `navigator.gpu` hidden behind an own property of `value`, then
/// puts the browser's back (deleting the own property uncovers the prototype's
/// getter), whatever `f` gave.
async fn with_navigator_gpu<T>(value: JsValue, f: impl std::future::Future<Output = T>) -> T {
    let navigator = prop(&js_sys::global(), "navigator");
    let descriptor = Object::new();
    Reflect::set(&descriptor, &"value".into(), &value).unwrap();
    Reflect::set(&descriptor, &"configurable".into(), &true.into()).unwrap();
    let target: &Object = navigator.unchecked_ref();
    Object::define_property(target, &"gpu".into(), &descriptor);
    let out = f.await;
    Reflect::delete_property(target, &"gpu".into()).unwrap();
    assert!(
        prop(&navigator, "gpu").is_object(),
        "navigator.gpu restored"
    );
    out
}

#[wasm_bindgen_test]
async fn no_navigator_gpu_is_no_webgpu_and_auto_falls_back_to_webgl() {
    let (js_webgpu, js_auto, rust) = with_navigator_gpu(u(), async {
        (
            settle(JsGpgpu::create(options(&[("backend", "webgpu")]))).await,
            settle(JsGpgpu::create(options(&[("backend", "auto")]))).await,
            Gpgpu::create(gpgpu_matrix::CreateOptions {
                backend: gpgpu_matrix::BackendChoice::WebGpu,
                ..Default::default()
            })
            .await
            .map(|_| ()),
        )
    })
    .await;
    let msg = assert_js_error(js_webgpu, "NO_WEBGPU", "navigator.gpu is missing");
    assert!(msg.contains("'webgl'"), "names the way out: {msg}");
    let auto = JsGpgpu::try_from_js_value(js_auto.unwrap()).unwrap();
    assert_eq!(auto.backend(), "webgl");
    assert_error(rust, "NO_WEBGPU", "navigator.gpu is missing");
    // With navigator.gpu back, WebGPU works again.
    let g = js_on(Backend::WebGpu).await;
    let r = settle(g.square_async(num(1.0), js(&[3.0]), u())).await;
    assert_eq!(floats(&r.unwrap()), [9.0]);
}

#[wasm_bindgen_test]
async fn an_adapter_refused_or_missing_is_no_webgpu() {
    for (body, needle) in [
        ("return Promise.resolve(null);", "gave no adapter"),
        (
            "return Promise.reject(new Error('blocked by policy'));",
            "requestAdapter() failed: blocked by policy",
        ),
    ] {
        // A stand-in for navigator.gpu whose requestAdapter gives no adapter.
        let stub = Object::new();
        let request = js_sys::Function::new_no_args(body);
        Reflect::set(&stub, &"requestAdapter".into(), &request).unwrap();
        let r = with_navigator_gpu(stub.into(), async {
            settle(JsGpgpu::create(options(&[("backend", "webgpu")]))).await
        })
        .await;
        assert_js_error(r, "NO_WEBGPU", needle);
    }
}

#[wasm_bindgen_test]
async fn sizes_over_the_device_limits_name_the_limit() {
    let g = js_on(Backend::WebGpu).await;
    let info = g.info();
    let dims = |r: f64, i: f64, c: f64| (num(r), num(i), num(c));
    // Step-through runs hold whole matrices, so the device's limits stand there (the
    // plain calls cut such sizes into tiles: tests/common/blocks.rs).
    // C = 20000 × 20000 floats: 1.6 GB, over the storage binding limit; A and B
    // are tiny (the size is refused before the arrays are read).
    let (r, i, c) = dims(20000.0, 1.0, 20000.0);
    let p = g.start_multiply(r, i, c, f32s(20000), f32s(20000), u());
    let msg = assert_js_error(
        p.map(JsValue::from),
        "SIZE_OVER_LIMIT",
        "maxStorageBufferBindingSize",
    );
    let limit = get(&info, "maxStorageBufferBindingSize");
    assert!(
        msg.contains("a 20000x20000 matrix needs 1.49 GiB (1,600,000,000 bytes)")
            && msg.contains(&gpgpu_matrix::error::bytes_text(limit)),
        "{msg}"
    );
    // 2,000,000 columns: 125,000 workgroups of 16 along one dimension.
    let (r, i, c) = dims(1.0, 1.0, 2_000_000.0);
    let p = g.start_multiply(r, i, c, f32s(1), f32s(2_000_000), u());
    let msg = assert_js_error(
        p.map(JsValue::from),
        "SIZE_OVER_LIMIT",
        "maxComputeWorkgroupsPerDimension",
    );
    let groups = get(&info, "maxComputeWorkgroupsPerDimension");
    assert!(
        msg.contains("cols = 2000000 needs 125000 workgroups")
            && msg.contains(&format!("of {groups}")),
        "{msg}"
    );
    // The Rust API says the same.
    let r = on(Backend::WebGpu).await;
    let b = vec![0.0; 2_000_000];
    let o = gpgpu_matrix::Options::default();
    let e = r.start_product(1, 1, 2_000_000, &[1.0], &b, &o).map(|_| ());
    assert_error(e, "SIZE_OVER_LIMIT", "maxComputeWorkgroupsPerDimension");
}

#[wasm_bindgen_test]
async fn a_destroyed_device_is_device_lost_and_the_next_call_gets_a_new_one() {
    let g = js_on(Backend::WebGpu).await;
    let n = 16;
    let m = uniform(3, n * n);
    let want = reference::square(Semiring::Ordinary, n, &to_f64(&m));
    let square = || g.square_async(num(n as f64), js(&m), u());
    // A run of the old device, one pass in.
    let mut run = g.start_power(num(n as f64), js(&m), num(3.0), u()).unwrap();
    assert!(run.step(JsValue::UNDEFINED).unwrap());
    assert_close(
        "before the loss",
        &floats(&settle(square()).await.unwrap()),
        &want,
        FROBENIUS_TOL,
    );
    // A call in flight, the loss (device.destroy() stands in for a driver reset),
    // and a call right after it, before the browser has reported the loss.
    let in_flight = square();
    let old: web_sys::GpuDevice = g.device().unchecked_into();
    old.destroy();
    let right_after = square();
    for (what, r) in [
        ("in flight", settle(in_flight).await),
        ("right after", settle(right_after).await),
    ] {
        let msg = assert_js_error(r, "DEVICE_LOST", "the WebGPU device was lost");
        assert!(msg.contains("Call again"), "{what}: {msg}");
    }
    // The next call makes a new device (an Async call waits for it) and works.
    let got = settle(square()).await.expect("works on a new device");
    assert_close("after the loss", &floats(&got), &want, FROBENIUS_TOL);
    let new = g.device();
    assert!(!Object::is(&new, &old), "a new GPUDevice");
    // So do the other calls, and new runs.
    let r = settle(g.power_async(num(n as f64), js(&m), num(3.0), u())).await;
    let cube = reference::power(Semiring::Ordinary, n, &to_f64(&m), 3);
    assert_close("power on the new device", &floats(&r.unwrap()), &cube, 1e-4);
    let mut fresh = g.start_power(num(n as f64), js(&m), num(3.0), u()).unwrap();
    while fresh.step(JsValue::UNDEFINED).unwrap() {}
    let r = settle(fresh.result_async()).await.unwrap();
    assert_close("a new run", &floats(&r), &cube, 1e-4);
    // The run started before the loss keeps failing: its buffers are gone.
    for _ in 0..2 {
        let msg = assert_js_error(
            run.step(JsValue::UNDEFINED),
            "DEVICE_LOST",
            "Start a new run",
        );
        assert!(msg.contains("after this run started"), "{msg}");
        let r = settle(run.read_async("latest".into())).await;
        assert_js_error(r, "DEVICE_LOST", "Start a new run");
        let r = settle(run.stats_async("a".into())).await;
        assert_js_error(r, "DEVICE_LOST", "Start a new run");
    }
    drop(run);
    // Freeing the dead run pools nothing of the old device: the same sizes work.
    let got = settle(square()).await.unwrap();
    assert_close(
        "after freeing the dead run",
        &floats(&got),
        &want,
        FROBENIUS_TOL,
    );
}

/// A run's reads in flight at the loss are DEVICE_LOST, as a plain call's are: a run's
/// read has no error checks pending, so its mapping's abort (about a millisecond before
/// `device.lost` resolves) said WEBGPU_ERROR "mapAsync failed … This is a bug". So is
/// `whenDone()`, in flight or called right after the loss: onSubmittedWorkDone
/// resolves on a destroyed device, and it resolved though the run's passes were lost.
/// Firefox reports the queue's work done before the loss (its `lost` resolved 0.6 ms
/// after onSubmittedWorkDone, both on the GPU process's next poll), so there those two
/// resolve, saying only that nothing is left to wait for; its reads are DEVICE_LOST
/// (no data comes from a lost device), and so is a whenDone once the loss is known.
#[wasm_bindgen_test]
async fn a_runs_reads_in_flight_at_a_loss_are_device_lost() {
    let g = js_on(Backend::WebGpu).await;
    let m = js(&[1.0, 2.0, 3.0, 4.0]);
    let mut run = g.start_square(num(2.0), m.clone(), u()).unwrap();
    assert!(run.step(JsValue::UNDEFINED).unwrap());
    let r = settle(run.result_async()).await.unwrap();
    assert_eq!(floats(&r), [7.0, 10.0, 15.0, 22.0]);
    let mut reads = vec![
        ("readAsync", run.read_async("latest".into())),
        ("resultAsync", run.result_async()),
        ("statsAsync", run.stats_async("a".into())),
        ("whenDone", run.when_done()),
    ];
    let device: web_sys::GpuDevice = g.device().unchecked_into();
    device.destroy();
    reads.push(("whenDone after the loss", run.when_done()));
    let firefox = gpgpu_matrix::webgpu::nudge::is_firefox();
    for (what, p) in reads {
        let got = settle(p).await;
        if firefox && what.starts_with("whenDone") && got.is_ok() {
            continue;
        }
        let msg = assert_js_error(got, "DEVICE_LOST", "the WebGPU device was lost");
        assert!(msg.contains("start a new one"), "{what}: {msg}");
    }
    let known = assert_js_error(settle(run.when_done()).await, "DEVICE_LOST", "was lost");
    assert!(
        known.contains("start a new one"),
        "whenDone once known: {known}"
    );
    let r = settle(g.square_async(num(2.0), m, u())).await.unwrap();
    assert_eq!(floats(&r), [7.0, 10.0, 15.0, 22.0]);
}

/// When no new device can be had after a loss (here requestAdapter gives none), the
/// next call is NO_WEBGPU, and a call once the GPU is back works: the Async call
/// waited, never settling, for as long as no adapter came.
#[wasm_bindgen_test]
async fn a_replacement_that_fails_is_the_next_calls_error() {
    let g = js_on(Backend::WebGpu).await;
    let m = || js(&[1.0, 2.0, 3.0, 4.0]);
    let navigator = Reflect::get(&js_sys::global(), &"navigator".into()).unwrap();
    let gpu = Reflect::get(&navigator, &"gpu".into()).unwrap();
    let none = js_sys::Function::new_no_args("return Promise.resolve(null)");
    // A call's outcome, or "pending" if it has not settled in 5 s.
    let within = |p: js_sys::Promise| async move {
        let timeout = js_sys::Promise::new(&mut |resolve, _| {
            let global: web_sys::Window = js_sys::global().unchecked_into();
            let _ = global.set_timeout_with_callback_and_timeout_and_arguments_1(
                &resolve,
                5000,
                &"pending".into(),
            );
        });
        settle(js_sys::Promise::race(&js_sys::Array::of2(&p, &timeout))).await
    };
    Reflect::set(&gpu, &"requestAdapter".into(), &none).unwrap();
    let old: web_sys::GpuDevice = g.device().unchecked_into();
    old.destroy();
    let lost = within(g.square_async(num(2.0), m(), u())).await;
    let no_adapter = within(g.square_async(num(2.0), m(), u())).await;
    // A step call cannot wait: once the request made again has failed too, it says
    // that a later call works.
    sleep(200).await;
    let step = g.start_square(num(2.0), m(), u()).map(|_| ());
    Reflect::delete_property(gpu.unchecked_ref::<Object>(), &"requestAdapter".into()).unwrap();
    assert_js_error(lost, "DEVICE_LOST", "the WebGPU device was lost");
    assert_js_error(no_adapter, "NO_WEBGPU", "gave no adapter");
    assert_js_error(step, "NO_WEBGPU", "a later call works if the GPU is back");
    // The GPU is back: the first call works. The failure it finds was the answer to
    // a request made while there was no GPU: it asks again and waits for that (it
    // was NO_WEBGPU, and only the next call worked).
    let got = within(g.square_async(num(2.0), m(), u())).await;
    assert_eq!(floats(&got.unwrap()), [7.0, 10.0, 15.0, 22.0]);
}

#[wasm_bindgen_test]
async fn a_wgsl_error_is_shader_compile_with_the_compilers_messages() {
    let g = on(Backend::WebGpu).await;
    let gpu = gpu_of(&g);
    let before = gpu.counts();
    let e = ComputePipeline::compile(&gpu, "bad", "fn x( {", &[])
        .await
        .err()
        .expect("a WGSL syntax error");
    let msg = e.to_string();
    assert_eq!(e.code(), "SHADER_COMPILE", "{msg}");
    let GpgpuError::ShaderCompile {
        program,
        stage,
        log,
    } = &e
    else {
        panic!("{e:?}")
    };
    assert_eq!((program.as_str(), *stage), ("bad", "WGSL compute"));
    // getCompilationInfo's messages, as "line:column message".
    assert!(log.starts_with("1:"), "{log}");
    assert!(log.len() > 10, "{log}");
    assert!(msg.contains("'bad'") && msg.contains(log.as_str()), "{msg}");
    // A valid shader compiles, and nothing of either is left behind.
    let ok = "@compute @workgroup_size(1) fn main() {}";
    let p = ComputePipeline::compile(&gpu, "fine", ok, &[]).await;
    assert!(p.is_ok());
    drop(p);
    assert_eq!(gpu.counts(), before);
    // The engine still works.
    let m = [1.0, 2.0, 3.0, 4.0];
    let r = g.square_async(2, &m, &Default::default()).await;
    assert_eq!(r.unwrap(), [7.0, 10.0, 15.0, 22.0]);
}

#[wasm_bindgen_test]
async fn poison_really_fills_outputs_with_nan() {
    let g = on(Backend::WebGpu).await;
    let read = {
        let mut engine = g.engine();
        let Engine::WebGpu(e) = &mut *engine else {
            unreachable!()
        };
        let m = e.upload(Shape::new(5, 3), &[1.0; 15]).unwrap();
        e.fill(&m, f32::NAN).unwrap();
        let read = e.read(&m).unwrap();
        e.recycle(m);
        read
    };
    let back = read.wait_f32().await.unwrap();
    assert_eq!(back.len(), 15);
    assert!(back.iter().all(|v| v.is_nan()), "{back:?}");
}

#[wasm_bindgen_test]
async fn a_buffer_the_gpu_cannot_hold_is_out_of_memory_and_the_next_call_works() {
    let g = js_on(Backend::WebGpu).await;
    if prop(&g.info(), "fallbackAdapter").as_bool() != Some(true) {
        // A GPU with memory to spare would compute the 1 GiB product (seconds on a
        // GPU, minutes on a CPU): this check is for SwiftShader, whose
        // vkAllocateMemory refuses a 1 GiB buffer within the 1 GiB limits.
        return;
    }
    let device: web_sys::GpuDevice = g.device().unchecked_into();
    if holds(&device, (1u64 << 30) as f64).await {
        // Mesa's lavapipe (Firefox's adapter here) gives it: there is nothing to refuse.
        skipped(
            "a_buffer_the_gpu_cannot_hold_is_out_of_memory_and_the_next_call_works",
            "this adapter holds a 1 GiB buffer, so a product needing one is not out of memory",
        );
        return;
    }
    let live = || js_sys::JSON::stringify(&g.live_objects()).unwrap();
    let m = [1.0f32, 2.0, 3.0, 4.0];
    let r = settle(g.square_async(num(2.0), js(&m), u())).await;
    assert_eq!(floats(&r.unwrap()), [7.0, 10.0, 15.0, 22.0]);
    g.trim();
    let before = live();
    // C = 16384 × 16384 floats is exactly 1 GiB; A and B are tiny.
    let n = 16384;
    let ones = || js(&vec![1.0; n]);
    let p = g.multiply_async(num(n as f64), num(1.0), num(n as f64), ones(), ones(), u());
    let msg = assert_js_error(settle(p).await, "OUT_OF_MEMORY", "ran out of memory");
    assert!(msg.contains("1073741824-byte buffer"), "{msg}");
    assert!(msg.contains("trim()"), "says what to do: {msg}");
    // Nothing of the failed call is left to fail the next ones, or left behind
    // (beyond the pool, which trim() empties).
    for _ in 0..3 {
        let r = settle(g.square_async(num(2.0), js(&m), u())).await;
        assert_eq!(floats(&r.unwrap()), [7.0, 10.0, 15.0, 22.0]);
    }
    g.trim();
    assert_eq!(live(), before);
}

/// Whether `device` gives a storage buffer of `bytes` (one is made, then destroyed).
async fn holds(device: &web_sys::GpuDevice, bytes: f64) -> bool {
    device.push_error_scope(web_sys::GpuErrorFilter::OutOfMemory);
    let usage = web_sys::gpu_buffer_usage::STORAGE;
    let made = device.create_buffer(&web_sys::GpuBufferDescriptor::new_with_f64(bytes, usage));
    let error = wasm_bindgen_futures::JsFuture::from(device.pop_error_scope()).await;
    if let Ok(b) = made {
        b.destroy();
    }
    error.is_ok_and(|e| e.is_null())
}

#[wasm_bindgen_test]
async fn large_transfers_reuse_their_staging_buffers_with_fresh_data() {
    // From 1 MiB on, uploads go through kept mapped buffers and readbacks through kept
    // read buffers (src/webgpu/staging.rs). A = 2048 × 1024 (8 MiB up) times a column,
    // and a column times a row (8 MiB back), with new integers each round: a kept
    // buffer holding the last round's data would give a wrong answer.
    let g = js_on(Backend::WebGpu).await;
    let (rows, inner) = (2048usize, 1024usize);
    let ints = |seed: u32, len: usize| -> Vec<f32> {
        uniform(seed, len)
            .iter()
            .map(|v| (v * 4.0).round())
            .collect()
    };
    let buffers = || prop(&g.live_objects(), "buffers").as_f64().unwrap();
    let mut counts = vec![];
    // A (rows × inner) · B (inner × cols) on the GPU, exactly as in float64.
    let product = |[r, k, c]: [usize; 3], a: Vec<f32>, b: Vec<f32>, what: String| {
        let want = reference::multiply(Semiring::Ordinary, r, k, c, &to_f64(&a), &to_f64(&b));
        let dims = [r, k, c].map(|d| num(d as f64));
        let [r, k, c] = dims;
        let call = g.multiply_async(r, k, c, js(&a), js(&b), u());
        async move {
            let got = settle(call).await.unwrap();
            assert_eq!(to_f64(&floats(&got)), want, "{what}");
        }
    };
    for round in 0..4u32 {
        let (a, x) = (ints(10 + round, rows * inner), ints(20 + round, inner));
        product([rows, inner, 1], a, x, format!("A·x, round {round}")).await;
        let (col, row) = (ints(30 + round, rows), ints(40 + round, inner));
        product(
            [rows, 1, inner],
            col,
            row,
            format!("column · row, round {round}"),
        )
        .await;
        counts.push(buffers());
    }
    // The first round made the kept buffers; the others reused them.
    assert!(
        counts.iter().all(|&c| c == counts[0]),
        "live buffers per round: {counts:?}"
    );
    g.trim();
    assert!(buffers() < counts[0], "trim() drops the kept buffers");
}

#[wasm_bindgen_test]
async fn nudged_readbacks_resolve_and_the_nudging_stops_when_nothing_waits() {
    // `webgpu::nudge` is on for every adapter in Firefox and for hardware adapters in
    // Chromium (these suites run Chromium on SwiftShader, a software adapter, and
    // Firefox on lavapipe); forced on here where it is off. While a read waits the
    // loop runs; once nothing waits it stops on its next turn. 1024 × 1024 comes back
    // in 4 parts (`read_parts`), 33 × 33 and 1 × 1 in one.
    use gpgpu_matrix::webgpu::nudge::{is_chromium, is_firefox};
    let g = on(Backend::WebGpu).await;
    let nudging = || g.engine().webgpu().unwrap().nudging();
    let firefox = is_firefox();
    assert!(
        firefox != is_chromium(),
        "the user agent names Firefox, or the brands Chromium"
    );
    assert_eq!(nudging(), (firefox, false), "on in Firefox only");
    g.engine().webgpu().unwrap().set_nudging(true);
    let options = Default::default();
    for n in [1usize, 33, 1024] {
        let m: Vec<f32> = uniform(n as u32, n * n)
            .iter()
            .map(|v| (v * 2.0).round())
            .collect();
        let read = g.square_async(n, &m, &options);
        let (got, running) = futures_join(read, async {
            sleep(0).await;
            nudging().1
        })
        .await;
        let want = reference::square(Semiring::Ordinary, n, &to_f64(&m));
        assert_eq!(to_f64(&got.unwrap()), want, "n = {n}");
        if n == 1024 {
            assert!(running, "the loop ran while n = 1024 was read");
        }
    }
    sleep(20).await;
    assert_eq!(nudging(), (true, false), "stopped once nothing waits");
}

/// Both futures, polled together (the first is the library's wait).
async fn futures_join<A, B>(
    a: impl std::future::Future<Output = A>,
    b: impl std::future::Future<Output = B>,
) -> (A, B) {
    let mut a = std::pin::pin!(a);
    let mut b = std::pin::pin!(b);
    let (mut ra, mut rb) = (None, None);
    std::future::poll_fn(|cx| {
        if ra.is_none() {
            if let std::task::Poll::Ready(v) = a.as_mut().poll(cx) {
                ra = Some(v);
            }
        }
        if rb.is_none() {
            if let std::task::Poll::Ready(v) = b.as_mut().poll(cx) {
                rb = Some(v);
            }
        }
        match ra.is_some() && rb.is_some() {
            true => std::task::Poll::Ready(()),
            false => std::task::Poll::Pending,
        }
    })
    .await;
    (ra.unwrap(), rb.unwrap())
}

/// Records the page's unhandled rejections from now on (and keeps them off the
/// console); `rejections()` reads what came since.
fn record_rejections() -> impl Fn() -> Vec<String> {
    js_sys::Function::new_no_args(
        "globalThis.__gpgpuRejections = []; \
         globalThis.__gpgpuOnRejection ??= (addEventListener('unhandledrejection', (e) => { \
           globalThis.__gpgpuRejections.push(String(e.reason)); e.preventDefault(); }), true);",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    || {
        let got = Reflect::get(&js_sys::global(), &"__gpgpuRejections".into()).unwrap();
        js_sys::Array::from(&got)
            .iter()
            .map(|r| r.as_string().unwrap_or_default())
            .collect()
    }
}

#[wasm_bindgen_test]
async fn an_engine_dropped_with_a_nudge_unanswered_leaves_no_error() {
    // The loop sends nudges until the read resolves, so the last one's answer is
    // usually still on its way when a caller frees the Gpgpu right after its result:
    // that answer once called a handler dropped with the engine, and "closure invoked
    // after being dropped" came back as an unhandled rejection.
    let rejections = record_rejections();
    let m: Vec<f32> = uniform(3, 64 * 64);
    for _ in 0..8 {
        let g = on(Backend::WebGpu).await;
        g.engine().webgpu().unwrap().set_nudging(true);
        g.square_async(64, &m, &Default::default()).await.unwrap();
        drop(g);
    }
    sleep(200).await;
    assert_eq!(rejections(), Vec::<String>::new());
}

#[wasm_bindgen_test]
async fn the_engines_own_uploads_refuse_data_of_another_length() {
    // GpuEngine::upload and upload_js are public. Data longer than the shape threw a
    // RangeError through the call (the mapped range of 8 MiB and more is sized by
    // the shape), and shorter data left the rest of a kept buffer as it was.
    let g = on(Backend::WebGpu).await;
    let mut engine = g.engine();
    let e = engine.webgpu().unwrap();
    for shape in [Shape::new(2, 2), Shape::new(1024, 2048)] {
        for len in [shape.len() - 1, shape.len() + 1] {
            let data = vec![1.0f32; len];
            match e.upload(shape, &data) {
                Err(GpgpuError::BadLength { .. }) => {}
                other => panic!("upload of {len} numbers: {:?}", other.map(|_| ())),
            }
            match e.upload_js(shape, &js_sys::Float32Array::from(&data[..])) {
                Err(GpgpuError::BadLength { .. }) => {}
                other => panic!("upload_js of {len} numbers: {:?}", other.map(|_| ())),
            }
        }
    }
}
