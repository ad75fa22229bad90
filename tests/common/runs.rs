//! The JavaScript API's Promise forms on a backend against the float64 reference,
//! and the step-through `Run` the page uses: pass labels, GPU statistics, heatmaps
//! drawn from GPU memory, timers, whenDone, freeing under a call in flight. On
//! WebGL the blocking reads (run.read, stats, result, sync, drawHeatmap) must agree
//! with the Async ones.

use super::*;
use gpgpu_matrix::js::{JsGpgpu, JsRun};
use gpgpu_matrix::plan::random;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::Semiring::Ordinary;
use js_sys::{Object, Reflect};
use wasm_bindgen::JsValue;

/// Every check of this module, one test each, on `$backend`.
macro_rules! run_tests {
    ($backend:expr) => {
        checks!($backend; common::runs:
            async_products_match_the_reference,
            async_errors_reject_the_promise,
            two_async_calls_in_flight_at_once_both_resolve,
            a_call_reads_its_arrays_before_it_returns,
            arrays_over_resizable_and_shared_buffers_are_read,
            an_array_over_wasm_memory_is_read_when_its_copy_grows_memory,
            a_second_array_over_wasm_memory_is_read_as_it_is_after_the_first_grows_memory,
            a_read_gives_the_matrix_as_it_was_when_asked_for,
            a_run_steps_pass_by_pass_with_stats_and_timers,
            stats_count_nan_and_infinity,
            min_plus_runs_see_no_edge_as_infinity_in_stats_and_heatmaps,
            heatmaps_are_drawn_from_gpu_memory_with_row_zero_on_top,
            the_rust_heatmap_checks_its_range_and_floor_as_javascript_does,
            arrays_past_the_device_side_are_drawn_not_refused,
            when_done_waits_without_blocking_and_untimed_passes_say_nan,
            the_identity_of_p_0_is_a_gpu_matrix_too,
            timed_passes_time_the_pass_not_the_wait_after_it,
            freeing_the_gpgpu_under_an_async_call_says_freed,
        );
    };
}

/// The kernels this JavaScript Gpgpu offers (`info().kernels`).
fn kernel_names(g: &JsGpgpu) -> Vec<String> {
    js_sys::Array::from(&prop(&g.info(), "kernels"))
        .iter()
        .map(|k| k.as_string().unwrap())
        .collect()
}

async fn resolve(p: js_sys::Promise) -> Vec<f32> {
    floats(&settle(p).await.expect("the promise resolves"))
}

/// `run.readAsync(which)`; on WebGL also the blocking `run.read(which)`, which
/// must give the same.
async fn read(run: &mut JsRun, which: &str) -> Vec<f32> {
    let got = resolve(run.read_async(which.into())).await;
    if run.backend() == "webgl" {
        let blocking = run.read(which.into()).unwrap().to_vec();
        assert_eq!(blocking, got, "run.read and run.readAsync of '{which}'");
    }
    got
}

/// `run.statsAsync(which)`; on WebGL also the blocking `run.stats(which)`.
async fn stats(run: &mut JsRun, which: &str) -> JsValue {
    let got = settle(run.stats_async(which.into())).await.unwrap();
    if run.backend() == "webgl" {
        let blocking = run.stats(which.into()).unwrap();
        for key in ["maxAbs", "nan", "inf", "sumAbs"] {
            assert_eq!(get(&blocking, key), get(&got, key), "run.stats {key}");
        }
    }
    got
}

/// `run.resultAsync()`; on WebGL also the blocking `run.result()`.
pub async fn result(run: &mut JsRun) -> Vec<f32> {
    let got = resolve(run.result_async()).await;
    if run.backend() == "webgl" {
        assert_eq!(run.result().unwrap().to_vec(), got, "run.result");
    }
    got
}

pub async fn async_products_match_the_reference(backend: Backend) {
    let g = js_on(backend).await;
    g.set_poison(JsValue::from_f64(f64::NAN)).unwrap();
    for name in kernel_names(&g) {
        let o = || kernel_opts(&name);
        for &n in &[1usize, 3, 17, 100] {
            let m = uniform(n as u32, n * n);
            let got = resolve(g.square_async(num(n as f64), js(&m), o())).await;
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
            o(),
        );
        let want = reference::multiply(Ordinary, rows, inner, cols, &to_f64(&a), &to_f64(&b));
        assert_close(
            &format!("{name} multiplyAsync 3x5·5x2"),
            &resolve(p).await,
            &want,
            FROBENIUS_TOL,
        );
        let s = random::integers(5, 64 * 64, -3, 3);
        let got =
            resolve(g.multiply_async(num(64.0), num(64.0), num(64.0), js(&s), js(&s), o())).await;
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
            let got = resolve(g.power_async(num(17.0), js(&m), num(p as f64), o())).await;
            let want = reference::power(Ordinary, 17, &to_f64(&m), p);
            assert_close(
                &format!("{name} powerAsync p={p}"),
                &got,
                &want,
                4.0 * FROBENIUS_TOL,
            );
        }
        let got = resolve(g.square_repeatedly_async(num(17.0), js(&m), num(3.0), o())).await;
        let want = reference::repeated_square(Ordinary, 17, &to_f64(&m), 3);
        assert_close(
            &format!("{name} squareRepeatedlyAsync"),
            &got,
            &want,
            8.0 * FROBENIUS_TOL,
        );
    }
}

pub async fn async_errors_reject_the_promise(backend: Backend) {
    let g = js_on(backend).await;
    let r = settle(g.square_async(num(2.5), js(&[0.0; 4]), JsValue::UNDEFINED)).await;
    assert_js_error(r, "BAD_DIMENSION", "not an integer");
    // A kernel of the other backend is refused, naming this backend's kernels.
    let other = match backend {
        Backend::WebGl => "register",
        Backend::WebGpu | Backend::Cpu => "naive",
    };
    let r = settle(g.square_async(num(2.0), js(&[0.0; 4]), kernel_opts(other))).await;
    let msg = assert_js_error(r, "BAD_ARGUMENT", other);
    for name in kernel_names(&g) {
        assert!(msg.contains(&name), "{msg} should offer '{name}'");
    }
}

pub async fn two_async_calls_in_flight_at_once_both_resolve(backend: Backend) {
    let g = js_on(backend).await;
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

/// A Promise call has read its arrays when it returns (WebGPU uploads a Float32Array
/// straight from the caller's array during the call: `engine::input`), so the caller
/// may reuse them at once: arrays zeroed before the promises are awaited change
/// nothing. Float32Arrays (one a view at an offset into a larger buffer), a
/// Float64Array and a plain array; min-plus, whose numbers are rewritten before
/// upload; and a readback of several parts (`read_parts`: 1024 × 1024 is 4 MiB).
pub async fn a_call_reads_its_arrays_before_it_returns(backend: Backend) {
    let g = js_on(backend).await;
    let n = 33usize;
    let (a, b) = (uniform(5, n * n), uniform(6, n * n));
    let offset = js_sys::Float32Array::new_with_length((n * n + 4) as u32);
    let a_at_4 = offset.subarray(4, (n * n + 4) as u32);
    a_at_4.copy_from(&a);
    let b64 = js_sys::Float64Array::new_with_length((n * n) as u32);
    b64.copy_from(&to_f64(&b));
    let plain: js_sys::Array = b.iter().map(|&v| JsValue::from(v)).collect();
    let square = g.square_async(num(n as f64), a_at_4.clone().into(), JsValue::UNDEFINED);
    let d = num(n as f64);
    let product = g.multiply_async(
        d.clone(),
        d.clone(),
        d.clone(),
        a_at_4.clone().into(),
        b64.clone().into(),
        JsValue::UNDEFINED,
    );
    let with_plain = g.multiply_async(
        d.clone(),
        d.clone(),
        d,
        js(&a),
        plain.clone().into(),
        JsValue::UNDEFINED,
    );
    let lengths: Vec<f32> = a.iter().map(|v| (v * 8.0).round().abs()).collect();
    let lengths_js = js_sys::Float32Array::from(&lengths[..]);
    let min_plus = g.square_async(
        num(n as f64),
        lengths_js.clone().into(),
        options(&[("semiring", "min-plus")]),
    );
    let big = 1024usize;
    let m = uniform(7, big * big)
        .iter()
        .map(|v| (v * 2.0).round())
        .collect::<Vec<f32>>();
    let m_js = js_sys::Float32Array::from(&m[..]);
    let (ones, col) = (
        vec![1.0f32; big],
        js_sys::Float32Array::from(&vec![1.0f32; big][..]),
    );
    let outer = g.multiply_async(
        num(big as f64),
        num(1.0),
        num(big as f64),
        m_js.subarray(0, big as u32).into(),
        col.clone().into(),
        JsValue::UNDEFINED,
    );
    for array in [&a_at_4, &lengths_js, &m_js, &col] {
        array.fill(0.0, 0, array.length());
    }
    b64.fill(0.0, 0, b64.length());
    plain.fill(&JsValue::from(0.0), 0, plain.length());
    let ab = reference::multiply(Ordinary, n, n, n, &to_f64(&a), &to_f64(&b));
    assert_close(
        "square",
        &resolve(square).await,
        &reference::square(Ordinary, n, &to_f64(&a)),
        FROBENIUS_TOL,
    );
    assert_close(
        "A·B (B a Float64Array)",
        &resolve(product).await,
        &ab,
        FROBENIUS_TOL,
    );
    assert_close(
        "A·B (B a plain array)",
        &resolve(with_plain).await,
        &ab,
        FROBENIUS_TOL,
    );
    let want = reference::square(gpgpu_matrix::Semiring::MinPlus, n, &to_f64(&lengths));
    assert_eq!(to_f64(&resolve(min_plus).await), want, "min-plus square");
    let want = reference::multiply(Ordinary, big, 1, big, &to_f64(&m[..big]), &to_f64(&ones));
    assert_eq!(to_f64(&resolve(outer).await), want, "a 4 MiB outer product");
}

/// Float32Arrays over a resizable ArrayBuffer (a view of fixed length, and one that
/// tracks the buffer's length) and over a SharedArrayBuffer (a shared WebAssembly
/// memory's, there without cross-origin isolation) are read as any other array.
/// WebGPU's writeBuffer refuses views of resizable buffers ("must not be resizable"),
/// which the caller's array once met as it was: WEBGPU_ERROR.
pub async fn arrays_over_resizable_and_shared_buffers_are_read(backend: Backend) {
    let g = js_on(backend).await;
    let n = 5usize;
    let (a, b) = (uniform(8, n * n), uniform(9, n * n));
    let make = |body: &str| -> js_sys::Float32Array {
        js_sys::Function::new_with_args("a", body)
            .call1(&JsValue::NULL, &js_sys::Float32Array::from(&a[..]))
            .unwrap()
            .into()
    };
    let arrays = [
        (
            "a fixed-length view of a resizable ArrayBuffer",
            make(
                "const b = new ArrayBuffer(a.byteLength, { maxByteLength: 4 * a.byteLength }); \
                 const v = new Float32Array(b, 0, a.length); v.set(a); return v;",
            ),
        ),
        (
            "a length-tracking view of a resizable ArrayBuffer",
            make(
                "const b = new ArrayBuffer(a.byteLength, { maxByteLength: 4 * a.byteLength }); \
                 const v = new Float32Array(b); v.set(a); return v;",
            ),
        ),
        (
            "a view of a SharedArrayBuffer",
            make(
                "const m = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }); \
                 const v = new Float32Array(m.buffer, 64, a.length); v.set(a); return v;",
            ),
        ),
    ];
    let d = || num(n as f64);
    let want_square = reference::square(Ordinary, n, &to_f64(&a));
    let want_ab = reference::multiply(Ordinary, n, n, n, &to_f64(&a), &to_f64(&b));
    for (what, array) in arrays {
        let square = g.square_async(d(), array.clone().into(), JsValue::UNDEFINED);
        let product = g.multiply_async(
            d(),
            d(),
            d(),
            array.clone().into(),
            js(&b),
            JsValue::UNDEFINED,
        );
        let mut run = g
            .start_square(d(), array.clone().into(), JsValue::UNDEFINED)
            .unwrap_or_else(|e| panic!("startSquare of {what}: {e:?}"));
        run.step(JsValue::UNDEFINED).unwrap();
        let stepped = read(&mut run, "latest").await;
        array.fill(0.0, 0, array.length());
        let square = settle(square).await;
        let square = floats(&square.unwrap_or_else(|e| panic!("square of {what}: {e:?}")));
        assert_close(
            &format!("square of {what}"),
            &square,
            &want_square,
            FROBENIUS_TOL,
        );
        let product = settle(product).await;
        let product = floats(&product.unwrap_or_else(|e| panic!("A·B of {what}: {e:?}")));
        assert_close(&format!("A·B of {what}"), &product, &want_ab, FROBENIUS_TOL);
        assert_close(
            &format!("a run of {what}"),
            &stepped,
            &want_square,
            FROBENIUS_TOL,
        );
    }
}

/// A Float32Array over WebAssembly memory itself (a page may make one from the
/// `memory` that the module's init returns) whose copy grows that memory: growing
/// detaches the array's buffer, so the copy made after room for it was asked for
/// found an empty array and panicked (copy_to_uninit's length assertion). Every free
/// chunk of a MiB or more is taken first, so that the call's copy must grow memory.
pub async fn an_array_over_wasm_memory_is_read_when_its_copy_grows_memory(backend: Backend) {
    let g = js_on(backend).await;
    let (rows, inner) = (16usize, 1usize << 16);
    let ones = vec![1.0f32; inner];
    let held = memory_just_grown();
    let a: Vec<f32> = (0..rows * inner)
        .map(|i| (i % 4 + i / inner) as f32)
        .collect();
    // SAFETY: the views are handed to the call at once, which reads them. B is over
    // wasm memory too: A's copy detached it before it was read (BAD_ARGUMENT,
    // "detached").
    let (view, ones) = unsafe {
        (
            js_sys::Float32Array::view(&a),
            js_sys::Float32Array::view(&ones),
        )
    };
    let before = wasm_memory_buffer();
    let product = g.multiply_async(
        num(rows as f64),
        num(inner as f64),
        num(1.0),
        view.into(),
        ones.into(),
        JsValue::UNDEFINED,
    );
    let grew = !Object::is(&before, &wasm_memory_buffer());
    let got = resolve(product).await;
    drop(held);
    // WebGPU uploads the arrays' copies made in JavaScript as they are: nothing is
    // copied into wasm memory there, so nothing grows it.
    assert!(
        grew || backend == Backend::WebGpu,
        "the call's copy grew wasm memory (the case checked here)"
    );
    let want: Vec<f32> = (0..rows)
        .map(|r| (inner / 4 * 6 + r * inner) as f32)
        .collect();
    assert_eq!(got, want);
}

/// jacobiAsync read A in full before B's length, so A's copy, growing wasm memory,
/// detached a B over that memory (BAD_ARGUMENT "detached"). And a call that failed
/// after reading B must not leave the next call (same task, B changed since) reading
/// B as it was: B is read where it lies in memory, as it is then.
pub async fn a_second_array_over_wasm_memory_is_read_as_it_is_after_the_first_grows_memory(
    backend: Backend,
) {
    let g = js_on(backend).await;
    let n = 1024usize;
    let mut identity = vec![0.0f32; n * n];
    for i in 0..n {
        identity[i * n + i] = 1.0;
    }
    let mut b = vec![1.0f32; n];
    let held = memory_just_grown();
    // SAFETY: the views are handed to the calls at once, which read them; `b` is
    // written only between the calls.
    let (a_view, b_view) = unsafe {
        (
            js_sys::Float32Array::view(&identity),
            js_sys::Float32Array::view(&b),
        )
    };
    // Reads B's length, then refuses A·B (B has n numbers, not n·2).
    let refused = g.multiply_async(
        num(n as f64),
        num(n as f64),
        num(2.0),
        a_view.clone().into(),
        b_view.clone().into(),
        JsValue::UNDEFINED,
    );
    for v in b.iter_mut() {
        *v = 7.0;
    }
    let before = wasm_memory_buffer();
    let solved = g.jacobi_async(
        num(n as f64),
        a_view.into(),
        b_view.into(),
        JsValue::UNDEFINED,
    );
    let grew = !Object::is(&before, &wasm_memory_buffer());
    drop(held);
    assert!(settle(refused).await.is_err());
    let x = floats(&prop(
        &settle(solved).await.expect("jacobiAsync takes both views"),
        "x",
    ));
    assert!(
        grew || backend == Backend::WebGpu,
        "A's copy grew wasm memory (the case checked here)"
    );
    assert_eq!(x, vec![7.0; n]);
}

/// readAsync and statsAsync of 'latest', then more passes before either is awaited:
/// the promises hold the matrix the run had when they were made, as a GPU's readback
/// is ordered among its passes (the CPU once gave the last pass's matrix).
pub async fn a_read_gives_the_matrix_as_it_was_when_asked_for(backend: Backend) {
    let g = js_on(backend).await;
    let mut run = g
        .start_square_repeatedly(
            num(2.0),
            js(&[2.0, 0.0, 0.0, 2.0]),
            num(3.0),
            JsValue::UNDEFINED,
        )
        .unwrap();
    run.step(JsValue::UNDEFINED).unwrap();
    let read = run.read_async("latest".into());
    let stats = run.stats_async("latest".into());
    while run.step(JsValue::UNDEFINED).unwrap() {}
    assert_eq!(
        resolve(read).await,
        [4.0, 0.0, 0.0, 4.0],
        "M^2 read after 1 pass"
    );
    let s = settle(stats).await.unwrap();
    assert_eq!(get(&s, "maxAbs"), 4.0, "M^2's statistics after 1 pass");
    assert_eq!(result(&mut run).await, [256.0, 0.0, 0.0, 256.0]);
}

pub async fn a_run_steps_pass_by_pass_with_stats_and_timers(backend: Backend) {
    let g = js_on(backend).await;
    g.set_poison(JsValue::from_f64(f64::NAN)).unwrap();
    let n = 24;
    let m = random::integers(3, n * n, -2, 2);
    for name in kernel_names(&g) {
        let mut run = g
            .start_power(num(n as f64), js(&m), num(5.0), kernel_opts(&name))
            .unwrap();
        assert_eq!(run.pass_count(), 3);
        assert_eq!(run.kernel(), name);
        assert_eq!(run.backend(), backend.name());
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
        while run.step(JsValue::TRUE).unwrap() {
            if backend == Backend::WebGl {
                run.sync().unwrap();
            }
            let latest = read(&mut run, "latest").await;
            let e = [0, 2, 4, 5][run.passes_done() as usize];
            exps.push(e);
            let want = reference::power(Ordinary, n, &to_f64(&m), e);
            assert_exact(
                &format!("{name} pass {} = M^{e}", run.passes_done()),
                &latest,
                &want,
            );
            // Statistics by GPU reduction equal those of the CPU copy.
            let s = stats(&mut run, "latest").await;
            let max_abs = want.iter().fold(0f64, |a, v| a.max(v.abs()));
            let sum_abs: f64 = want.iter().map(|v| v.abs()).sum();
            assert_eq!(get(&s, "maxAbs"), max_abs, "{name}");
            assert_eq!(get(&s, "nan") + get(&s, "inf"), 0.0, "{name}");
            assert!(
                (get(&s, "sumAbs") - sum_abs).abs() <= 1e-6 * sum_abs,
                "{name}"
            );
        }
        assert!(run.done());
        assert_eq!(exps, [2, 4, 5]);
        assert_exact(
            &format!("{name} result"),
            &result(&mut run).await,
            &reference::power(Ordinary, n, &to_f64(&m), 5),
        );
        assert_eq!(read(&mut run, "a").await, m, "the input stays");
        // Timer results arrive after control returns to the browser. They must time
        // the pass, not the idle wait before anyone asks: wait 1.5 s first.
        if prop(&g.info(), "timerQuery").as_bool() == Some(true) {
            // A 24×24 pass takes well under a millisecond of GPU time (SwiftShader
            // included; a first pass that compiles its program under load took
            // 316 ms once); a second can only be the wait.
            let times = timer_results_after_a_wait(&mut run).await;
            assert_eq!(times.len(), 3);
            assert!(pass_times_not_waits(&times), "{name}: {times:?}");
        }
    }
}

pub async fn stats_count_nan_and_infinity(backend: Backend) {
    let g = js_on(backend).await;
    let n = 19;
    let mut m = vec![0.5f32; n * n];
    m[3] = f32::NAN;
    m[40] = f32::INFINITY;
    m[41] = f32::NEG_INFINITY;
    m[77] = -7.0;
    let mut run = g
        .start_square_repeatedly(num(n as f64), js(&m), num(0.0), JsValue::UNDEFINED)
        .unwrap();
    let s = stats(&mut run, "a").await;
    assert_eq!(
        (get(&s, "maxAbs"), get(&s, "nan"), get(&s, "inf")),
        (7.0, 1.0, 2.0)
    );
    assert_eq!((get(&s, "min"), get(&s, "max")), (-7.0, 0.5));
    // Bounds near float32's largest finite value are the entries themselves, and a
    // matrix with no finite entry has none (NaN), not a sentinel.
    let big = [3.3e38f32, 3.2e38, 3.1e38, 3.05e38];
    let mut run = g
        .start_square_repeatedly(num(2.0), js(&big), num(0.0), JsValue::UNDEFINED)
        .unwrap();
    let s = stats(&mut run, "a").await;
    assert_eq!(
        (get(&s, "min"), get(&s, "max")),
        (3.05e38f32 as f64, 3.3e38f32 as f64)
    );
    let negative: Vec<f32> = big.iter().map(|v| -v).collect();
    let mut run = g
        .start_square_repeatedly(num(2.0), js(&negative), num(0.0), JsValue::UNDEFINED)
        .unwrap();
    let s = stats(&mut run, "a").await;
    assert_eq!(get(&s, "max"), -3.05e38f32 as f64);
    let mut run = g
        .start_square_repeatedly(
            num(2.0),
            js(&[f32::INFINITY; 4]),
            num(0.0),
            JsValue::UNDEFINED,
        )
        .unwrap();
    let s = stats(&mut run, "a").await;
    assert!(get(&s, "min").is_nan() && get(&s, "max").is_nan(), "{s:?}");
}

/// On the GPU "no edge" is the finite NO_EDGE = 1e30; a min-plus run's stats and
/// heatmaps see it as the +Infinity it reads back as, so the default colour range
/// is the largest distance, not 1e30.
pub async fn min_plus_runs_see_no_edge_as_infinity_in_stats_and_heatmaps(backend: Backend) {
    let g = js_on(backend).await;
    // Distances [[0, 3], [∞, 1]]; its min-plus square is [[0, 3], [∞, 2]].
    let m = [0.0f32, 3.0, f32::INFINITY, 1.0];
    for name in kernel_names(&g) {
        let o = options(&[("kernel", &name), ("semiring", "min-plus")]);
        let mut run = g
            .start_square_repeatedly(num(2.0), js(&m), num(1.0), o)
            .unwrap();
        for which in ["a", "latest"] {
            if which == "latest" {
                run.step(JsValue::UNDEFINED).unwrap();
            }
            let s = stats(&mut run, which).await;
            let got = ["maxAbs", "inf", "max", "min", "sumAbs"].map(|k| get(&s, k));
            let sum = if which == "a" { 4.0 } else { 5.0 };
            assert_eq!(got, [3.0, 1.0, 3.0, 0.0, sum], "{name} {which}: {s:?}");
            let (c, _) = draw(&mut run, which, (2, 2)).await;
            assert_eq!(
                pixel(&c, 0, 1),
                [230, 159, 0, 255],
                "{name} {which}: ∞ is +Inf's orange"
            );
            let three = pixel(&c, 1, 0);
            assert!(
                three[0] > 150 && three[1] < 60,
                "{name} {which}: 3, the largest distance, is full red, got {three:?}"
            );
        }
    }
}

/// Draws on a new `w`×`h` canvas with `run.drawHeatmapAsync` (and on WebGL
/// `run.drawHeatmap`, which must draw the same) and returns it with the drawn info.
pub async fn draw(
    run: &mut JsRun,
    which: &str,
    (w, h): (u32, u32),
) -> (web_sys::HtmlCanvasElement, JsValue) {
    let c = canvas(w, h);
    let drawn = settle(run.draw_heatmap_async(which.into(), c.clone().into(), JsValue::UNDEFINED))
        .await
        .expect("drawHeatmapAsync resolves");
    if run.backend() == "webgl" {
        let c2 = canvas(w, h);
        run.draw_heatmap(which.into(), c2.clone().into(), JsValue::UNDEFINED)
            .unwrap();
        assert_eq!(pixels(&c), pixels(&c2), "drawHeatmap and drawHeatmapAsync");
    }
    (c, drawn)
}

pub async fn arrays_past_the_device_side_are_drawn_not_refused(backend: Backend) {
    // A 1 x 100,000 array was SIZE_OVER_LIMIT on WebGL (textures of 8192 a side on
    // SwiftShader) and on the CPU (16384) while WebGPU drew it. Its 100 runs of 1000
    // equal values must look as a 1 x 100 array of those values does, drawn the
    // device's own way on the same 100 x 10 canvas (the colours agree to rounding).
    let g = js_on(backend).await;
    let small: Vec<f32> = (0..100).map(|k| k as f32 - 50.0).collect();
    let big: Vec<f32> = (0..100_000).map(|j| small[j / 1000]).collect();
    for [rows, cols] in [[1.0, 100_000.0], [100_000.0, 1.0]] {
        let (w, h) = if rows == 1.0 { (100, 10) } else { (10, 100) };
        let (c, want) = (canvas(w, h), canvas(w, h));
        let u = || JsValue::UNDEFINED;
        let drawn =
            settle(g.draw_heatmap_async(num(rows), num(cols), js(&big), c.clone().into(), u()))
                .await
                .unwrap();
        let along = if rows == 1.0 {
            "blockCols"
        } else {
            "blockRows"
        };
        assert_eq!(get(&drawn, along), 1000.0, "{rows}x{cols}");
        let (r, k) = if rows == 1.0 {
            (1.0, 100.0)
        } else {
            (100.0, 1.0)
        };
        settle(g.draw_heatmap_async(num(r), num(k), js(&small), want.clone().into(), u()))
            .await
            .unwrap();
        let (got, want) = (pixels(&c), pixels(&want));
        let off = got.iter().zip(&want).map(|(a, b)| a.abs_diff(*b)).max();
        assert!(off <= Some(2), "{rows}x{cols}: off by {off:?}");
        if backend != Backend::WebGpu {
            let again = canvas(w, h);
            g.draw_heatmap(num(rows), num(cols), js(&big), again.clone().into(), u())
                .unwrap();
            assert_eq!(pixels(&again), got, "drawHeatmap and drawHeatmapAsync");
        }
    }
    // Past what WebAssembly memory holds as a side: still SIZE_OVER_LIMIT, at once.
    let r = g.draw_heatmap_async(
        num(1.0),
        num(2f64.powi(31)),
        js(&[0.0]),
        canvas(4, 4).into(),
        JsValue::UNDEFINED,
    );
    assert_js_error(settle(r).await, "SIZE_OVER_LIMIT", "cols = 2147483648");
}

pub async fn heatmaps_are_drawn_from_gpu_memory_with_row_zero_on_top(backend: Backend) {
    let g = js_on(backend).await;
    // [[ 2, -2],
    //  [ 0, NaN]]  drawn 2x2 pixels per entry on a 4x4 canvas.
    let m = [2.0f32, -2.0, 0.0, f32::NAN];
    for name in kernel_names(&g) {
        let mut run = g
            .start_square_repeatedly(num(2.0), js(&m), num(0.0), kernel_opts(&name))
            .unwrap();
        let (c, drawn) = draw(&mut run, "a", (4, 4)).await;
        assert_eq!(get(&drawn, "blockRows"), 1.0);
        let [r, _, b, _] = pixel(&c, 0, 0);
        assert!(
            r > 150 && b < 80,
            "{name}: top-left +2 is red, got {:?}",
            pixel(&c, 0, 0)
        );
        let [r, _, b, _] = pixel(&c, 3, 1);
        assert!(
            b > 150 && r < 80,
            "{name}: top-right -2 is blue, got {:?}",
            pixel(&c, 3, 1)
        );
        assert!(
            pixel(&c, 1, 3)[..3].iter().all(|&v| v > 230),
            "{name}: 0 is white"
        );
        let nan = pixel(&c, 3, 3);
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
    let drawn = settle(g.draw_heatmap_async(
        num(64.0),
        num(100.0),
        js(&data),
        c.clone().into(),
        style.into(),
    ))
    .await
    .unwrap();
    assert_eq!(
        (get(&drawn, "blockRows"), get(&drawn, "blockCols")),
        (8.0, 7.0)
    );
    let first = pixel(&c, 0, 0);
    let last = pixel(&c, 15, 7);
    assert!(
        first[0] > 240 && last[0] < 100,
        "pale at 0, dark at the max: {first:?} {last:?}"
    );
    // A canvas of no pixels (one sized from a hidden element) is refused alike on
    // every backend, blocking or not, and the Gpgpu goes on drawing.
    let empty = || -> JsValue { canvas(0, 4).into() };
    let r =
        settle(g.draw_heatmap_async(num(2.0), num(2.0), js(&m), empty(), JsValue::UNDEFINED)).await;
    assert_js_error(r, "BAD_ARGUMENT", "0x4 pixels");
    if backend != Backend::WebGpu {
        let r = g.draw_heatmap(num(2.0), num(2.0), js(&m), empty(), JsValue::UNDEFINED);
        assert_js_error(r.map(JsValue::from), "BAD_ARGUMENT", "0x4 pixels");
    }
    let c = canvas(2, 2);
    settle(g.draw_heatmap_async(
        num(2.0),
        num(2.0),
        js(&m),
        c.clone().into(),
        JsValue::UNDEFINED,
    ))
    .await
    .expect("drawn after the refusal");
    assert!(pixel(&c, 0, 0)[0] > 150, "+2 is red");
}

/// From Rust, `Engine::heatmap` (and `ops::heatmap::heatmap_here`) refuse a range or log
/// floor that is not a finite number > 0, as JavaScript's `style.range` and
/// `style.logFloor` are (BAD_ARGUMENT): a NaN, 0, negative or infinite one drew a
/// picture without a word (the shaders clamp it to f32::MIN_POSITIVE, NaN included).
pub async fn the_rust_heatmap_checks_its_range_and_floor_as_javascript_does(backend: Backend) {
    use gpgpu_matrix::common::Style;
    use gpgpu_matrix::plan::layout::Layout;
    use gpgpu_matrix::{Canvas, Shape};
    let g = on(backend).await;
    let layout = match backend {
        Backend::WebGl => Layout::Scalar,
        Backend::WebGpu | Backend::Cpu => Layout::Linear,
    };
    let (shape, data) = (Shape::new(2, 2), [2.0f32, -2.0, 0.0, 1.0]);
    let style = |log_floor| Style {
        sequential: false,
        range: 0.0, // not read: the range is its own argument
        log_floor,
        no_edge: false,
    };
    let c = canvas(2, 2);
    let draw = |range, log_floor| {
        let mut e = g.engine();
        let m = e.upload(shape, layout, &data, 0.0).unwrap();
        let canvas = Canvas::Element(c.clone());
        let drawn = e.heatmap(&m, &canvas, range, style(log_floor));
        e.recycle(m);
        drawn
    };
    for bad in [f32::NAN, 0.0, -1.0, f32::INFINITY, f32::NEG_INFINITY] {
        let shown = gpgpu_matrix::error::js_number(bad as f64);
        let e = draw(Some(bad), None).map(|_| ());
        let says = format!("range: is {shown}; it must be a finite number > 0");
        assert_error(e, "BAD_ARGUMENT", &says);
        let e = draw(None, Some(bad)).map(|_| ());
        let says = format!("style.log_floor: is {shown}; it must be a finite number > 0");
        assert_error(e, "BAD_ARGUMENT", &says);
        let canvas = Canvas::Element(c.clone());
        let here =
            gpgpu_matrix::ops::heatmap::heatmap_here(shape, &data, &canvas, None, style(Some(bad)));
        assert_error(here.map(|_| ()), "BAD_ARGUMENT", &says);
    }
    // Good ones draw: +2 of a range of 2 is full red, on a log scale too.
    for (range, log_floor) in [
        (Some(2.0), None),
        (None, Some(1e-3)),
        (Some(4.0), Some(0.5)),
    ] {
        draw(range, log_floor).unwrap().wait().await.unwrap();
        let [r, _, b, _] = pixel(&c, 0, 0);
        assert!(
            r > 150 && b < 150,
            "{range:?} {log_floor:?}: {:?}",
            pixel(&c, 0, 0)
        );
    }
    // JavaScript's range of an all-zero array (0, which the Rust path refuses) still draws:
    // every entry in zero's white.
    let j = js_on(backend).await;
    let zeros = js(&[0.0; 4]);
    settle(j.draw_heatmap_async(
        num(2.0),
        num(2.0),
        zeros,
        c.clone().into(),
        JsValue::UNDEFINED,
    ))
    .await
    .expect("an all-zero matrix is drawn");
    assert!(
        pixels(&c)
            .chunks(4)
            .all(|p| p[..3].iter().all(|&v| v > 230)),
        "{:?}",
        pixels(&c)
    );
}

pub async fn when_done_waits_without_blocking_and_untimed_passes_say_nan(backend: Backend) {
    let g = js_on(backend).await;
    let m = uniform(2, 40 * 40);
    let mut run = g
        .start_square_repeatedly(num(40.0), js(&m), num(2.0), JsValue::UNDEFINED)
        .unwrap();
    // Not truthiness: 'x' or 1 is refused, and no pass runs.
    for bad in [JsValue::from("x"), num(1.0)] {
        assert_js_error(
            run.step(bad),
            "BAD_ARGUMENT",
            "timed: must be true or false",
        );
    }
    assert!(run.step(JsValue::UNDEFINED).unwrap());
    settle(run.when_done()).await.expect("resolves");
    assert!(run.step(JsValue::FALSE).unwrap());
    settle(run.when_done()).await.expect("resolves");
    assert!(!run.step(JsValue::NULL).unwrap(), "no pass left");
    let times = run.gpu_times().unwrap();
    assert_eq!(times.length(), 2);
    assert!(
        times.iter().all(|t| t.as_f64().is_some_and(f64::is_nan)),
        "untimed passes are NaN"
    );
    let want = reference::repeated_square(Ordinary, 40, &to_f64(&m), 2);
    assert_close(
        "after whenDone",
        &result(&mut run).await,
        &want,
        4.0 * FROBENIUS_TOL,
    );
}

pub async fn the_identity_of_p_0_is_a_gpu_matrix_too(backend: Backend) {
    let g = js_on(backend).await;
    let mut run = g
        .start_power(num(5.0), js(&uniform(3, 25)), num(0.0), JsValue::UNDEFINED)
        .unwrap();
    assert_eq!(run.pass_count(), 0);
    assert!(run.done());
    let s = stats(&mut run, "result").await;
    assert_eq!((get(&s, "maxAbs"), get(&s, "sumAbs")), (1.0, 5.0));
    let (c, _) = draw(&mut run, "result", (5, 5)).await;
    assert!(pixel(&c, 2, 2)[1] < 100, "the diagonal is coloured");
    assert!(pixel(&c, 1, 2)[..3].iter().all(|&v| v > 230), "0 is white");
    let id = reference::identity(Ordinary, 5);
    assert_exact("identity", &read(&mut run, "result").await, &id);
    assert_exact("identity", &result(&mut run).await, &id);
}

pub async fn timed_passes_time_the_pass_not_the_wait_after_it(backend: Backend) {
    // Only step() between the passes: nothing else makes the browser send the work on.
    let g = js_on(backend).await;
    if prop(&g.info(), "timerQuery").as_bool() != Some(true) {
        return; // no timer on this device: every time is NaN (tested above)
    }
    let m: Vec<f32> = (1..=9).map(|v| v as f32).collect();
    let first = kernel_names(&g).remove(0);
    let mut run = g
        .start_power(num(3.0), js(&m), num(5.0), kernel_opts(&first))
        .unwrap();
    while run.step(JsValue::TRUE).unwrap() {}
    // A 3×3 pass is microseconds of GPU time; a second can only be the wait.
    let times = timer_results_after_a_wait(&mut run).await;
    assert_eq!(times.len(), 3);
    assert!(pass_times_not_waits(&times), "{times:?}");
}

/// Waits 1.5 s (the idle time a wrongly ended timer query would take in), then
/// polls until every pass's GPU time has arrived (at most about a second).
async fn timer_results_after_a_wait(run: &mut JsRun) -> Vec<Option<f64>> {
    sleep(1500).await;
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
        .all(|t| t.is_some_and(|ms| (0.0..1000.0).contains(&ms)))
}

pub async fn freeing_the_gpgpu_under_an_async_call_says_freed(backend: Backend) {
    let g = js_on(backend).await;
    let m = uniform(4, 64 * 64);
    let pending = g.square_async(num(64.0), js(&m), JsValue::UNDEFINED);
    drop(g); // what free() does from JavaScript
    let err = settle(pending).await.expect_err("its result is gone");
    assert_eq!(js_code(&err).as_deref(), Some("FREED"), "{err:?}");
    let message = prop(&err, "message").as_string().unwrap();
    assert!(
        message.contains("freed") && message.contains("settled"),
        "{message}"
    );
    // Said of every backend, the CPU's (no GPU) too.
    assert!(
        message.contains("still in flight") && message.contains("the CPU backend's workers"),
        "{message}"
    );
}
