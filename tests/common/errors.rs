//! Every argument error of the JavaScript API as a caller meets it (an `Error` with
//! name "GpgpuError", a `code` and a message saying what to do), in each way it can
//! be called: WebGL's blocking forms, and the Promise forms on both backends. Also
//! the largest dimension of each backend and the leak check through the async API.

use super::*;
use gpgpu_matrix::js::JsRun;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::{Kernel, Semiring};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;

/// The argument checks, one test each, for a [`JsSetup`].
macro_rules! argument_error_tests {
    ($setup:expr) => {
        checks!($setup; common::errors:
            bad_dimensions_are_refused_with_a_clear_message,
            lengths_counts_and_arguments_are_checked,
            matrices_of_any_numeric_kind_are_accepted_and_others_named,
            application_calls_check_their_arguments,
            every_argument_of_the_wrong_kind_is_a_gpgpu_error,
            options_left_undefined_take_their_defaults,
            a_name_of_the_wrong_kind_lists_the_names_taken,
            a_canvas_with_another_context_says_to_draw_on_another,
            options_that_are_not_plain_objects_are_refused,
            arguments_whose_own_code_throws_are_bad_argument,
        );
    };
}

/// The check of a backend's largest dimension, as a test on `$backend`.
macro_rules! limit_tests {
    ($backend:expr) => {
        checks!($backend; common::errors: the_largest_dimension_works_and_one_more_is_tiled);
    };
}

/// What a JS caller sees of a run's read in this setup: `run.read(which)`
/// (blocking) or `await run.readAsync(which)`.
async fn run_read(api: &Api, run: &mut JsRun, which: JsValue) -> Result<JsValue, JsValue> {
    if api.blocking {
        run.read(which).map(Into::into)
    } else {
        settle(run.read_async(which)).await
    }
}

async fn run_stats(api: &Api, run: &mut JsRun, which: JsValue) -> Result<JsValue, JsValue> {
    if api.blocking {
        run.stats(which).map(Into::into)
    } else {
        settle(run.stats_async(which)).await
    }
}

pub async fn bad_dimensions_are_refused_with_a_clear_message(setup: JsSetup) {
    let api = setup.make().await;
    let u = || JsValue::UNDEFINED;
    let r = api.square(num(0.0), f32s(0), u()).await;
    assert_js_error(r, "BAD_DIMENSION", "n = 0: a dimension must be");
    let r = api.square(num(2.5), f32s(4), u()).await;
    assert_js_error(r, "BAD_DIMENSION", "not an integer");
    let r = api.square(num(-3.0), f32s(9), u()).await;
    assert_js_error(r, "BAD_DIMENSION", "negative");
    let r = api.square(num(f64::NAN), f32s(9), u()).await;
    assert_js_error(r, "BAD_DIMENSION", "not a finite");
    let max = get(&api.g.info(), "maxDimension");
    // Past the device limit a product is cut into tiles (tests/common/blocks.rs), so
    // one more than the limit is refused only for what memory cannot hold: on WebGL
    // (8192 on SwiftShader) the length check then speaks; on WebGPU (16 × 65535)
    // the matrix would need terabytes of WebAssembly memory, and on the CPU (16384)
    // 4 GiB with the CPU backend's own copies.
    let memory = "bytes) of WebAssembly memory";
    let r = api.square(num(max + 1.0), f32s(1), u()).await;
    match api.backend() {
        Backend::WebGl => assert_js_error(
            r,
            "BAD_LENGTH",
            &format!("needs {}", (max + 1.0) * (max + 1.0)),
        ),
        Backend::WebGpu | Backend::Cpu => assert_js_error(r, "SIZE_OVER_LIMIT", memory),
    };
    let dims = |r: f64, i: f64, c: f64| [num(r), num(i), num(c)];
    let r = api
        .multiply(dims(2.0, 0.0, 2.0), f32s(0), f32s(0), u())
        .await;
    assert_js_error(r, "BAD_DIMENSION", "inner = 0");
    let r = api
        .multiply(dims(2.0, 3.0, max + 1.0), f32s(6), f32s(3), u())
        .await;
    assert_js_error(r, "BAD_LENGTH", "b has 3 elements");
    let r = api.square(num(60000.0), f32s(4), u()).await;
    assert_js_error(r, "SIZE_OVER_LIMIT", memory);
    // Values are repeated as JavaScript prints them, never clipped or in Rust syntax,
    // and past wasm32's usize the message still names the limit.
    let r = api.square(num(4294967300.0), f32s(4), u()).await;
    assert_js_error(r, "SIZE_OVER_LIMIT", "n = 4294967300");
    let r = api.square(num(4294967300.0), f32s(4), u()).await;
    assert_js_error(r, "SIZE_OVER_LIMIT", "WebAssembly memory");
    // Step-through runs hold whole matrices: there the device limit stands.
    let limit = match api.backend() {
        Backend::WebGl => format!("n <= {max}"),
        // No GPU: the CPU's own limit (WebAssembly memory), not a texture's.
        Backend::Cpu => format!("over the CPU backend's limit (info().maxDimension) of {max}"),
        Backend::WebGpu => "maxComputeWorkgroupsPerDimension".to_string(),
    };
    let r = api
        .g
        .start_square(num(max + 1.0), f32s(1), u())
        .map(JsValue::from);
    assert_js_error(r, "SIZE_OVER_LIMIT", &limit);
    // checkRunSize says the same with no array, so a caller (the page) can ask before
    // building an n x n input: at n = 65536 that is 16 GiB, which JavaScript cannot
    // allocate ("Array buffer allocation failed", the page's PAGE_ERROR once).
    let r = api.g.check_run_size(num(max + 1.0), u(), u());
    assert_js_error(r, "SIZE_OVER_LIMIT", &limit);
    let r = api.g.check_run_size(num(65536.0), u(), u());
    let message = assert_js_error(r, "SIZE_OVER_LIMIT", "65536");
    // The CPU has no GPU: its message says what limits it.
    match api.backend() {
        Backend::Cpu => assert!(message.contains("WebAssembly's 4 GiB"), "{message}"),
        _ => assert!(!message.contains("CPU backend"), "{message}"),
    }
    let r = api.g.check_run_size(num(0.0), u(), u());
    assert_js_error(r, "BAD_DIMENSION", "n = 0");
    let r = api.g.check_run_size(num(2.0), num(3.0), num(max + 1.0));
    assert_js_error(r, "SIZE_OVER_LIMIT", "cols");
    // Two sizes are no shape: the missing one was taken from rows with no word
    // (checkRunSize(2, 3) passed, having checked a 2 x 3 · 3 x 2 product).
    for (inner, cols) in [(num(3.0), u()), (u(), num(3.0))] {
        let r = api.g.check_run_size(num(2.0), inner, cols);
        assert_js_error(r, "BAD_ARGUMENT", "give rows, inner and cols");
    }
    for (rows, inner, cols) in [(64.0, u(), u()), (2.0, num(3.0), num(4.0))] {
        api.g
            .check_run_size(num(rows), inner, cols)
            .expect("a size a run takes");
    }
    // The largest n it takes is one a run takes: maxDimension on WebGL (8192), one
    // buffer's worth on WebGPU, and on the CPU what 4 GiB less 256 MiB hold of the
    // input and the result twice over (the CPU backend's own copies): 15863.
    let n = largest_run(&api.g, max.min(65536.0));
    match api.backend() {
        Backend::WebGl => assert_eq!(n, max),
        Backend::Cpu => {
            let held = |n: f64| 2.0 * 2.0 * n * n * 4.0;
            let limit = (4096.0 - 256.0) * 1024.0 * 1024.0;
            assert!(held(n) <= limit && held(n + 1.0) > limit, "{n}");
        }
        Backend::WebGpu => {
            let bytes = get(&api.g.info(), "maxMatrixBytes");
            assert!(
                n * n * 4.0 <= bytes && (n + 1.0) * (n + 1.0) * 4.0 > bytes,
                "{n}"
            );
        }
    }
}

/// The largest n <= hi that checkRunSize takes, as the page finds it.
fn largest_run(g: &gpgpu_matrix::js::JsGpgpu, hi: f64) -> f64 {
    let fits = |n: f64| {
        g.check_run_size(num(n), JsValue::UNDEFINED, JsValue::UNDEFINED)
            .is_ok()
    };
    if fits(hi) {
        return hi;
    }
    let (mut lo, mut hi) = (1.0, hi);
    while hi - lo > 1.0 {
        let mid = ((lo + hi) / 2.0_f64).floor();
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

pub async fn lengths_counts_and_arguments_are_checked(setup: JsSetup) {
    let api = setup.make().await;
    let u = || JsValue::UNDEFINED;
    let dims = |r: f64, i: f64, c: f64| [num(r), num(i), num(c)];
    let r = api.square(num(3.0), f32s(8), u()).await;
    assert_js_error(r, "BAD_LENGTH", "needs 9");
    let r = api
        .multiply(dims(3.0, 5.0, 2.0), f32s(15), f32s(11), u())
        .await;
    assert_js_error(
        r,
        "BAD_LENGTH",
        "b has 11 elements but a 5x2 matrix needs 10",
    );
    let r = api.power(num(2.0), f32s(4), num(-1.0), u()).await;
    assert_js_error(r, "BAD_COUNT", "p = -1 is negative");
    let r = api.power(num(2.0), f32s(4), num(1.5), u()).await;
    assert_js_error(r, "BAD_COUNT", "not an integer");
    let r = api
        .square_repeatedly(num(2.0), f32s(4), num(-2.0), u())
        .await;
    assert_js_error(r, "BAD_COUNT", "times = -2");
    let r = api
        .square_repeatedly(num(2.0), f32s(4), num(0.25), u())
        .await;
    assert_js_error(r, "BAD_COUNT", "not an integer");
    let r = api.power(num(2.0), f32s(4), num(f64::INFINITY), u()).await;
    assert_js_error(r, "BAD_COUNT", "p = Infinity is not a finite number");
    let r = api.power(num(2.0), f32s(4), num(1e300), u()).await;
    assert_js_error(r, "BAD_COUNT", "p = 1e+300 is larger than 9007199254740992");
    let r = api
        .square_repeatedly(num(2.0), f32s(4), num(65.0), u())
        .await;
    assert_js_error(r, "BAD_COUNT", "times = 65 is larger than 64");
    let r = api
        .square(num(2.0), f32s(4), options(&[("kernel", "fast")]))
        .await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown kernel 'fast'");
    let r = api
        .square(num(2.0), f32s(4), options(&[("kernal", "naive")]))
        .await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown option 'kernal'");
    let r = api
        .square(num(2.0), f32s(4), options(&[("semiring", "max-times")]))
        .await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown semiring");
    // A kernel of the other backend is refused, naming the backend to create.
    let (other, backend) = match api.backend() {
        Backend::WebGl => ("tiled16", "'webgpu'"),
        Backend::WebGpu | Backend::Cpu => ("blocked4", "'webgl'"),
    };
    let r = api.square(num(2.0), f32s(4), kernel_opts(other)).await;
    assert_js_error(r, "BAD_ARGUMENT", backend);
    // (min, +) has no use for −Infinity: added to "no edge" it would make a path
    // through an edge that does not exist.
    let neg_inf = || js(&[0.0, f32::NEG_INFINITY, f32::INFINITY, 0.0]);
    let min_plus = || options(&[("semiring", "min-plus")]);
    let r = api.square(num(2.0), neg_inf(), min_plus()).await;
    assert_js_error(r, "BAD_ARGUMENT", "m: entry 1 is −Infinity");
    let r = api.shortest_paths(num(2.0), neg_inf(), u()).await;
    assert_js_error(r, "BAD_ARGUMENT", "weights: entry 1 is −Infinity");
    let r = api
        .multiply(dims(2.0, 2.0, 2.0), f32s(4), neg_inf(), min_plus())
        .await;
    assert_js_error(r, "BAD_ARGUMENT", "b: entry 1");
    // Ordinary arithmetic takes it as IEEE float32 does.
    assert!(api.square(num(2.0), neg_inf(), u()).await.is_ok());
}

pub async fn matrices_of_any_numeric_kind_are_accepted_and_others_named(setup: JsSetup) {
    let api = setup.make().await;
    let u = || JsValue::UNDEFINED;
    // Plain arrays of numbers and any numeric typed array are accepted (converted to
    // float32); the error names what was passed instead.
    let plain = Array::of4(&1.into(), &2.into(), &3.into(), &4.into());
    let ints = js_sys::Int32Array::from(&[1, 2, 3, 4][..]);
    let bytes = js_sys::Uint8Array::from(&[1u8, 2, 3, 4][..]);
    let doubles = js_sys::Float64Array::from(&[1.0, 2.0, 3.0, 4.0][..]);
    for m in [plain.into(), ints.into(), bytes.into(), doubles.into()] {
        let r = api.square(num(2.0), m, u()).await.unwrap();
        assert_eq!(floats(&r), [7.0, 10.0, 15.0, 22.0]);
    }
    let r = api.square(num(2.0), "abcd".into(), u()).await;
    assert_js_error(r, "BAD_ARGUMENT", "Float32Array");
    let strings = Array::of4(&"1".into(), &2.into(), &3.into(), &4.into());
    let r = api.square(num(2.0), strings.into(), u()).await;
    assert_js_error(r, "BAD_ARGUMENT", "element 0 is a string, not a number");
    let r = api.square(num(2.0), JsValue::NULL, u()).await;
    assert_js_error(r, "BAD_ARGUMENT", "got null");
    let big = js_sys::BigInt64Array::new_with_length(4);
    let r = api.square(num(2.0), big.into(), u()).await;
    assert_js_error(r, "BAD_ARGUMENT", "got a BigInt64Array");
    // Its U said "you": "a Uint32Array", not "an".
    let size = js_sys::Uint32Array::new_with_length(1);
    let r = api.square(size.into(), f32s(4), u()).await;
    assert_js_error(r, "BAD_ARGUMENT", "got a Uint32Array");
    // An array whose buffer was transferred (postMessage to a worker, structuredClone)
    // reads as length 0, and copying it threw a raw TypeError out of the call.
    let detached = js_sys::Function::new_no_args(
        "const a = new Float32Array(4); structuredClone(a.buffer, { transfer: [a.buffer] }); return a;",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    let r = api.square(num(2.0), detached.clone(), u()).await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "m: is a Float32Array whose ArrayBuffer was detached",
    );
    let r = api
        .multiply([num(2.0), num(2.0), num(2.0)], f32s(4), detached, u())
        .await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "b: is a Float32Array whose ArrayBuffer was detached",
    );
    // A view left out of bounds by a resizable buffer that shrank is empty, not a TypeError.
    let out_of_bounds = js_sys::Function::new_no_args(
        "const b = new ArrayBuffer(16, { maxByteLength: 32 }); \
         const a = new Int32Array(b, 0, 4); b.resize(8); return a;",
    )
    .call0(&JsValue::NULL)
    .unwrap();
    let r = api.square(num(2.0), out_of_bounds, u()).await;
    assert_js_error(r, "BAD_LENGTH", "m has 0 elements");
    let r = api.square(num(2.0), f32s(4), u()).await;
    assert!(r.is_ok(), "the Gpgpu works after them");
}

/// A value made by JavaScript source (a getter, a Proxy, a subclass).
fn made(body: &str) -> JsValue {
    js_sys::Function::new_no_args(body)
        .call0(&JsValue::NULL)
        .unwrap()
}

pub async fn arguments_whose_own_code_throws_are_bad_argument(setup: JsSetup) {
    // Their exceptions passed through the call (a plain Error out of the library, and
    // its Gpgpu left borrowed: free() threw); a subclass's lying `length` had the copy
    // assert (RuntimeError: unreachable) or read past the numbers.
    let api = setup.make().await;
    let u = || JsValue::UNDEFINED;
    let getter = || {
        made(
            "const a = [1, 2, 3, 4]; \
             Object.defineProperty(a, 2, { get() { throw new Error('boom'); } }); return a;",
        )
    };
    let r = api.square(num(2.0), getter(), u()).await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "m: reading it threw Error: boom (a getter",
    );
    let r = api
        .multiply([num(2.0), num(2.0), num(2.0)], js(&[1.0; 4]), getter(), u())
        .await;
    assert_js_error(r, "BAD_ARGUMENT", "b: reading it threw Error: boom");
    // What a browser call threw (readPixels, createBuffer, …) is said by its message,
    // not a `JsValue(…)` dump with a stack: also for an exception that is not an Error.
    let describe = gpgpu_matrix::common::guard::describe_js;
    let refused = made("return new DOMException('refused', 'SecurityError');");
    assert_eq!(describe(&refused), "refused");
    let event = made("return { type: 'error', message: 'no Worker here' };");
    assert_eq!(describe(&event), "no Worker here");
    let proxy = made(
        "return new Proxy([1, 2, 3, 4], { get(t, k) { \
           if (k === 'length') throw new RangeError('no length'); return t[k]; } });",
    );
    let r = api.square(num(2.0), proxy, u()).await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "m: reading it threw RangeError: no length",
    );
    let thrown_string = made("return new Proxy([1, 2, 3, 4], { get() { throw 'nope'; } });");
    let r = api.square(num(2.0), thrown_string, u()).await;
    assert_js_error(r, "BAD_ARGUMENT", "reading it threw 'nope'");
    let bad_options = made("return { get kernel() { throw new TypeError('opt'); } };");
    let r = api.square(num(2.0), js(&[1.0; 4]), bad_options).await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "options.kernel: reading it threw TypeError: opt",
    );
    // Subclasses whose `length`, `buffer` or constructor name lie or throw: read as the
    // numbers they hold (the internal slots), none of their code run.
    for body in [
        "class Lie extends Float32Array { get length() { return 100; } } return new Lie([1, 2, 3, 4]);",
        "class Short extends Float32Array { get length() { return 2; } } return new Short([1, 2, 3, 4]);",
        "class Throws extends Float32Array { get length() { throw new Error('x'); } \
           get buffer() { throw new Error('y'); } static get name() { throw new Error('z'); } } \
         return new Throws([1, 2, 3, 4]);",
        "class Ints extends Int32Array { get length() { return 9; } } return new Ints([1, 2, 3, 4]);",
        "const a = new Float32Array([1, 2, 3, 4]); \
         Object.defineProperty(a, 'length', { get() { throw new Error('own'); } }); return a;",
    ] {
        let r = api.square(num(2.0), made(body), u()).await.unwrap();
        assert_eq!(floats(&r), [7.0, 10.0, 15.0, 22.0], "{body}");
        let r = api
            .multiply([num(2.0), num(2.0), num(2.0)], made(body), made(body), u())
            .await
            .unwrap();
        assert_eq!(floats(&r), [7.0, 10.0, 15.0, 22.0], "{body}");
    }
    let r = api.square(num(2.0), js(&[1.0, 2.0, 3.0, 4.0]), u()).await;
    assert_eq!(
        floats(&r.unwrap()),
        [7.0, 10.0, 15.0, 22.0],
        "the Gpgpu works after them"
    );
}

pub async fn application_calls_check_their_arguments(setup: JsSetup) {
    let api = setup.make().await;
    let u = || JsValue::UNDEFINED;
    let r = api.reachability(num(3.0), f32s(8), u()).await;
    assert_js_error(r, "BAD_LENGTH", "adjacency");
    let r = api.shortest_paths(num(0.0), f32s(0), u()).await;
    assert_js_error(r, "BAD_DIMENSION", "n = 0");
    let r = api.fibonacci(num(-1.0), u()).await;
    assert_js_error(r, "BAD_COUNT", "k = -1");
    let r = api
        .inverse(num(2.0), f32s(4), options(&[("method", "magic")]))
        .await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown method 'magic'");
    let r = api
        .inverse(num(2.0), f32s(4), options(&[("semiring", "boolean")]))
        .await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown option 'semiring'");
    for k in [4.0, 0.0, -1.0, 1.5] {
        let r = api.eigen(num(3.0), f32s(9), num(k), u()).await;
        assert_js_error(r, "BAD_ARGUMENT", "k must be a whole number from 1 to 3");
    }
    let d0 = options(&[("method", "series")]);
    Reflect::set(&d0, &"d".into(), &0.0.into()).unwrap();
    let r = api.inverse(num(2.0), f32s(4), d0.clone()).await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "options.d: is 0; it must be a finite number > 0",
    );
    Reflect::set(&d0, &"d".into(), &"x".into()).unwrap();
    let r = api.inverse(num(2.0), f32s(4), d0).await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "options.d: is a string; it must be a finite number",
    );
    let with_nan = js(&[1.0, f32::NAN, 0.0, 1.0]);
    let r = api.inverse(num(2.0), with_nan, u()).await.unwrap();
    let message = prop(&r, "message").as_string();
    assert!(
        message
            .as_deref()
            .unwrap_or("")
            .contains("NaN or infinite entry"),
        "{message:?}"
    );
    assert_eq!(prop(&r, "converged"), JsValue::FALSE);
    let r = api.jacobi(num(2.0), f32s(4), f32s(3), u()).await;
    assert_js_error(r, "BAD_LENGTH", "b has 3 elements");
    let r = api.jacobi(num(2.0), f32s(4), f32s(2), u()).await;
    assert_js_error(r, "BAD_ARGUMENT", "a[0][0] is 0");
    // And a working call returns the documented fields.
    let f = api.fibonacci(num(36.0), u()).await.unwrap();
    assert_eq!(prop(&f, "value").as_f64(), Some(14_930_352.0));
    assert_eq!(prop(&f, "exact").as_bool(), Some(true));
    assert_eq!(
        prop(&f, "exactValue").as_string().as_deref(),
        Some("14930352")
    );
}

pub async fn every_argument_of_the_wrong_kind_is_a_gpgpu_error(setup: JsSetup) {
    let api = setup.make().await;
    let u = || JsValue::UNDEFINED;
    let m = || js(&[1.0, 0.0, 0.0, 1.0]);
    // Numbers where numbers belong, repeated as given: an f64 parameter turned
    // undefined into NaN, null into 0, true into 1 and threw a raw TypeError for 2n.
    for (bad, shown) in [
        (JsValue::UNDEFINED, "got undefined"),
        (JsValue::NULL, "got null"),
        (JsValue::TRUE, "got a boolean"),
        ("4".into(), "got a string"),
        (js_sys::BigInt::from(2u32).into(), "got a bigint"),
    ] {
        let r = api.square(bad.clone(), m(), u()).await;
        assert_js_error(r, "BAD_ARGUMENT", &format!("n: must be a number, {shown}"));
        let r = api.power(num(2.0), m(), bad, u()).await;
        assert_js_error(r, "BAD_ARGUMENT", "p: must be a number");
    }
    // Strings where strings belong: a number there once read wasm memory as a string.
    let mut run = api.g.start_power(num(2.0), m(), num(3.0), u()).unwrap();
    let r = run_read(&api, &mut run, 0.into()).await;
    assert_js_error(r, "BAD_ARGUMENT", "which: must be a string, got 0");
    let r = run_stats(&api, &mut run, u()).await;
    assert_js_error(r, "BAD_ARGUMENT", "got undefined");
    let r = run_read(&api, &mut run, "b".into()).await;
    assert_js_error(r, "BAD_ARGUMENT", "use 'a' (or 'input'), 'latest'");
    let r = run_read(&api, &mut run, "result".into()).await;
    assert_js_error(r, "BAD_ARGUMENT", "once every pass has run");
    assert_js_error(
        gpgpu_matrix::js::JsGpgpu::kernel_source(5.into()),
        "BAD_ARGUMENT",
        "kernel: must be a string",
    );
    assert_js_error(
        gpgpu_matrix::js::JsGpgpu::program_source(JsValue::NULL, u()),
        "BAD_ARGUMENT",
        "got null",
    );
    let canvas = || -> JsValue { canvas(2, 2).into() };
    let style = Object::new();
    Reflect::set(&style, &"rang".into(), &2.into()).unwrap();
    let two = || [num(2.0), num(2.0)];
    let r = api.draw_heatmap(two(), m(), canvas(), style.into()).await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown key 'rang'");
    let style = Object::new();
    Reflect::set(&style, &"range".into(), &(-1).into()).unwrap();
    let r = api.draw_heatmap(two(), m(), canvas(), style.into()).await;
    assert_js_error(r, "BAD_ARGUMENT", "style.range: is -1; it must be > 0");
    // A NaN range was named options.range, a key of no argument of this call.
    let style = Object::new();
    Reflect::set(&style, &"range".into(), &num(f64::NAN)).unwrap();
    let r = api.draw_heatmap(two(), m(), canvas(), style.into()).await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "style.range: is NaN; it must be a finite number",
    );
    // sequential is a boolean: 'yes' or 1 drew the diverging map with no word.
    for bad in [JsValue::from("yes"), num(1.0)] {
        let style = Object::new();
        Reflect::set(&style, &"sequential".into(), &bad).unwrap();
        let r = api.draw_heatmap(two(), m(), canvas(), style.into()).await;
        assert_js_error(r, "BAD_ARGUMENT", "style.sequential: must be true or false");
    }
    let r = api.draw_heatmap(two(), m(), num(1.0), u()).await;
    assert_js_error(r, "BAD_ARGUMENT", "canvas");
    // Finite numbers beyond float32 became Infinity without a word.
    let style = Object::new();
    Reflect::set(&style, &"range".into(), &1e40.into()).unwrap();
    let r = api.draw_heatmap(two(), m(), canvas(), style.into()).await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "style.range: is 1e+40, beyond float32's largest value",
    );
    assert_js_error(
        api.g.set_poison(num(-1e40)),
        "BAD_ARGUMENT",
        "value: is -1e+40, beyond float32's largest value (about 3.4e38), where it would become -Infinity",
    );
    // Infinity itself, and float32's largest value, are what they say.
    api.g.set_poison(num(f64::INFINITY)).unwrap();
    api.g.set_poison(num(f32::MAX as f64)).unwrap();
    api.g.set_poison(JsValue::NULL).unwrap();
    // Whole-number options say the same thing for every bad value.
    for bad in [0.0, -1.0, 2.5, 1001.0] {
        let o = Object::new();
        Reflect::set(&o, &"maxDoublings".into(), &bad.into()).unwrap();
        let r = api.inverse(num(2.0), m(), o.into()).await;
        assert_js_error(
            r,
            "BAD_ARGUMENT",
            "it must be a whole number from 1 to 1000",
        );
    }
    // Options that do not apply are refused, not ignored.
    let r = api
        .reachability(num(2.0), m(), options(&[("semiring", "min-plus")]))
        .await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown option 'semiring'");
    let r = api
        .fibonacci(num(10.0), options(&[("semiring", "boolean")]))
        .await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown option 'semiring'");
    let o = Object::new();
    Reflect::set(&o, &"d".into(), &0.5.into()).unwrap();
    let r = api.inverse(num(2.0), m(), o.into()).await;
    assert_js_error(r, "BAD_ARGUMENT", "'series' only");
    // Out of doublings while still improving is said so.
    let spd = js(&[4.0, 1.0, 0.0, 1.0, 3.0, 1.0, 0.0, 1.0, 2.0]);
    let o = Object::new();
    Reflect::set(&o, &"maxDoublings".into(), &1.into()).unwrap();
    let r = api.inverse(num(3.0), spd, o.into()).await.unwrap();
    let message = prop(&r, "message").as_string().unwrap();
    assert!(message.contains("raise options.maxDoublings"), "{message}");
    // A NaN in Jacobi's A is reported at once as diverging, not iterated 1000 times.
    let a = js(&[4.0, f32::NAN, 1.0, 3.0]);
    let b = js(&[1.0, 1.0]);
    let r = api.jacobi(num(2.0), a, b, u()).await.unwrap();
    assert_eq!(prop(&r, "diverged"), JsValue::TRUE);
    assert_eq!(prop(&r, "iterations").as_f64(), Some(1.0));
}

pub async fn the_largest_dimension_works_and_one_more_is_tiled(backend: Backend) {
    let g = poisoned_on(backend).await;
    let max = g.max_dimension();
    // Small integers keep the exact answer (|sum| <= 3·max < 2^24) representable,
    // so it must be exact.
    let a = random::integers(1, max, -3, 3);
    let b = random::integers(2, max, -3, 3);
    let dot = reference::multiply(Semiring::Ordinary, 1, max, 1, &to_f64(&a), &to_f64(&b));
    let doubled: Vec<f64> = a.iter().map(|&v| 2.0 * v as f64).collect();
    // On WebGPU every kernel shares one grid rule (16 rows or columns per
    // workgroup, at most maxComputeWorkgroupsPerDimension), checked here with global
    // and register; tiled16 at 16 × 65535 rows takes SwiftShader 40 s (a barrier per
    // tile in 65535 workgroups of 256 emulated invocations), so not here.
    let checked = match backend {
        Backend::WebGl | Backend::Cpu => kernels(&g),
        Backend::WebGpu => vec![Kernel::Global, Kernel::Register],
    };
    for kernel in checked {
        let o = opts(kernel);
        // inner = max: a 1×max row times a max×1 column.
        let got = g.multiply_async(1, max, 1, &a, &b, &o).await.unwrap();
        assert_exact(&format!("{kernel:?} 1x{max}·{max}x1"), &got, &dot);
        // rows = max: a max×1 column times a 1×1.
        let got = g.multiply_async(max, 1, 1, &a, &[2.0], &o).await.unwrap();
        assert_exact(&format!("{kernel:?} {max}x1·1x1"), &got, &doubled);
        // One more, as inner and as rows: cut into tiles the device holds.
        let (a1, b1) = (
            random::integers(3, max + 1, -3, 3),
            random::integers(4, max + 1, -3, 3),
        );
        let dot = reference::multiply(
            Semiring::Ordinary,
            1,
            max + 1,
            1,
            &to_f64(&a1),
            &to_f64(&b1),
        );
        let got = g.multiply_async(1, max + 1, 1, &a1, &b1, &o).await.unwrap();
        assert_exact(
            &format!("{kernel:?} 1x{}·{}x1 in tiles", max + 1, max + 1),
            &got,
            &dot,
        );
        let got = g
            .multiply_async(max + 1, 1, 1, &a1, &[2.0], &o)
            .await
            .unwrap();
        let doubled: Vec<f64> = a1.iter().map(|&v| 2.0 * v as f64).collect();
        assert_exact(
            &format!("{kernel:?} {}x1·1x1 in tiles", max + 1),
            &got,
            &doubled,
        );
        g.engine().trim();
    }
}

/// The leak check through the async API, run on WebGPU (tests/webgpu/device.rs) and
/// the CPU (tests/cpu/api.rs).
/// WebGL's runs 1000 blocking calls (tests/webgl/leaks.rs): its async reads poll a
/// fence from the event loop, too slow for 1000 of them in a test's time.
pub async fn a_thousand_async_calls_leave_the_same_live_objects_as_one(backend: Backend) {
    // A new engine of its own: the counts are of this engine's objects only.
    let g = poisoned_on(backend).await;
    let n = 6;
    let m = uniform(9, n * n);
    let all = kernels(&g);
    let min_plus = Semiring::MinPlus;
    for &kernel in &all {
        g.square_async(n, &m, &opts(kernel)).await.unwrap();
        g.power_async(n, &m, 5, &in_semiring(kernel, min_plus))
            .await
            .unwrap();
    }
    let after_first = g.live_objects();
    // Something to count: the GPUs pool their buffers; the CPU frees its matrices
    // when a call ends (0 after it) and keeps its workers.
    let kept = if backend == Backend::Cpu {
        "workers"
    } else {
        "buffers"
    };
    assert!(g.live(kept) >= 1, "{after_first:?}");
    for i in 0..1000 {
        let kernel = all[i % all.len()];
        if i % 10 == 0 {
            let o = in_semiring(kernel, min_plus);
            g.power_async(n, &m, 5, &o).await.unwrap();
        } else {
            g.square_async(n, &m, &opts(kernel)).await.unwrap();
        }
    }
    assert_eq!(g.live_objects(), after_first, "after 1000 calls");
    // Dropping the engine deletes everything it made.
    match backend {
        Backend::WebGl => {
            let gl = gl_of(&g);
            drop(g);
            assert_eq!(gl.counts(), Default::default(), "after drop");
        }
        Backend::WebGpu => {
            let gpu = gpu_of(&g);
            drop(g);
            assert_eq!(gpu.counts(), Default::default(), "after drop");
        }
        Backend::Cpu => {
            let others = gpgpu_matrix::cpu::live_workers() - g.live("workers");
            drop(g);
            assert_eq!(
                gpgpu_matrix::cpu::live_workers(),
                others,
                "workers after drop"
            );
        }
    }
}

/// `{ kernel: undefined }` is `{}`, as the d.ts's `kernel?:` promises and as every
/// other option reads it (`maxTile`, the applications' own, `Gpgpu.create`'s): it was
/// BAD_ARGUMENT "options.kernel: must be a string", so `{ kernel: opts.kernel }`
/// failed whenever the caller's own option was unset. A key the call does not take
/// is refused all the same, undefined or not.
pub async fn options_left_undefined_take_their_defaults(setup: JsSetup) {
    let api = setup.make().await;
    let undefined = |keys: &[&str]| {
        let o = Object::new();
        for k in keys {
            Reflect::set(&o, &(*k).into(), &JsValue::UNDEFINED).unwrap();
        }
        JsValue::from(o)
    };
    let m = || js(&[1.0, 2.0, 3.0, 4.0]);
    let all = undefined(&["kernel", "semiring", "maxTile"]);
    let r = api.square(num(2.0), m(), all.clone()).await.unwrap();
    assert_eq!(floats(&r), [7.0, 10.0, 15.0, 22.0]);
    let r = api.power(num(2.0), m(), num(2.0), all).await.unwrap();
    assert_eq!(floats(&r), [7.0, 10.0, 15.0, 22.0]);
    let r = api
        .fibonacci(num(10.0), undefined(&["kernel"]))
        .await
        .unwrap();
    assert_eq!(get(&r, "value"), 55.0);
    // The applications fix their own semiring: naming it is still refused.
    let r = api.fibonacci(num(10.0), undefined(&["semiring"])).await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown option 'semiring'");
}

/// Options given as an array are refused as any other value that is no options object
/// is: `typeof []` is "object", so `Gpgpu.create([])`, `square(n, m, [])`, an
/// application's, PageRank's or a heatmap's `[]` ran with the defaults without a word,
/// and `['packed']` was "unknown option '0'". A function is refused alike, and so are
/// the objects that are no plain object and have no keys of their own (a Map, a Date, a
/// RegExp, a Promise): `square(n, m, new Map([['kernel', 'naive']]))` ignored the Map.
/// A plain object and one with a null prototype (`Object.create(null)`, refused before
/// as "got an object") are options, their keys read.
pub async fn options_that_are_not_plain_objects_are_refused(setup: JsSetup) {
    let api = setup.make().await;
    let m = || js(&[1.0, 2.0, 3.0, 4.0]);
    let csr = gpgpu_matrix::js::sparse::JsCsr::from_dense(num(2.0), num(2.0), m()).unwrap();
    let function = js_sys::Function::new_no_args("return 1");
    let map = js_sys::Map::new();
    map.set(&"kernel".into(), &"naive".into());
    let not_objects = [
        (JsValue::from(Array::new()), "an Array"),
        (Array::of1(&"packed".into()).into(), "an Array"),
        (function.into(), "a function"),
        (map.into(), "a Map"),
        (js_sys::Date::new_0().into(), "a Date"),
        (js_sys::RegExp::new("kernel", "").into(), "a RegExp"),
        (js_sys::Promise::resolve(&JsValue::NULL).into(), "a Promise"),
    ];
    for (value, kind) in not_objects {
        let says = |example: &str| format!("must be an object such as {example}, got {kind}");
        let r = settle(gpgpu_matrix::js::JsGpgpu::create(value.clone())).await;
        assert_js_error(r, "BAD_ARGUMENT", &says("{ backend: 'auto' }"));
        let r = api.square(num(2.0), m(), value.clone()).await;
        assert_js_error(r, "BAD_ARGUMENT", &says("{ kernel: 'auto' }"));
        let r = api.fibonacci(num(10.0), value.clone()).await;
        assert_js_error(r, "BAD_ARGUMENT", &says("{ kernel: 'auto' }"));
        let r = settle(api.g.pagerank_async(csr.clone(), value.clone())).await;
        assert_js_error(r, "BAD_ARGUMENT", &says("{ damping: 0.85 }"));
        let two = [num(2.0), num(2.0)];
        let r = api
            .draw_heatmap(two, m(), canvas(2, 2).into(), value.clone())
            .await;
        let message = assert_js_error(r, "BAD_ARGUMENT", &says("{ range: 2 }"));
        assert!(message.starts_with("style: "), "{message}");
    }
    // An object still works, and so does none; the advice given, followed, works in
    // every browser ({ backend: 'webgpu' }, said before, is NO_WEBGPU where WebKitGTK or
    // Firefox ESR as installed has none).
    let advised = gpgpu_matrix::js::JsGpgpu::create(options(&[("backend", "auto")]));
    let created = settle(advised)
        .await
        .expect("Gpgpu.create({ backend: 'auto' })");
    let free: js_sys::Function = Reflect::get(&created, &"free".into()).unwrap().into();
    free.call0(&created).unwrap();
    let r = api.square(num(2.0), m(), Object::new().into()).await;
    assert_eq!(floats(&r.unwrap()), [7.0, 10.0, 15.0, 22.0]);
    let r = api.fibonacci(num(10.0), JsValue::UNDEFINED).await;
    assert_eq!(get(&r.unwrap(), "value"), 55.0);
    // A null prototype is an object of options: its keys are read (an unknown kernel
    // and an unknown key are refused, a known one is taken).
    let bare = |key: &str, value: &str| -> JsValue {
        let o = Object::new();
        Reflect::set_prototype_of(&o, &JsValue::NULL).unwrap();
        Reflect::set(&o, &key.into(), &value.into()).unwrap();
        o.into()
    };
    let r = api.square(num(2.0), m(), bare("kernel", "fast")).await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown kernel 'fast'");
    let r = settle(api.g.pagerank_async(csr.clone(), bare("dampening", "0.5"))).await;
    assert_js_error(r, "BAD_ARGUMENT", "unknown option 'dampening'");
    let r = api.square(num(2.0), m(), bare("kernel", "auto")).await;
    assert_eq!(floats(&r.unwrap()), [7.0, 10.0, 15.0, 22.0]);
}

/// A name given as something other than a string lists the names taken, as an unknown
/// name does: `{ kernel: 3 }` was BAD_ARGUMENT "options.kernel: must be a string" and
/// said nothing of 'auto' or the kernels (likewise `semiring`, the inverse's `method`,
/// `Gpgpu.create`'s `backend` and `powerPreference`, `kernelSource`'s and a run's `which`).
pub async fn a_name_of_the_wrong_kind_lists_the_names_taken(setup: JsSetup) {
    let api = setup.make().await;
    let m = || js(&[1.0, 2.0, 3.0, 4.0]);
    let one = |key: &str, value: JsValue| -> JsValue {
        let o = Object::new();
        Reflect::set(&o, &key.into(), &value).unwrap();
        o.into()
    };
    let kernels = format!("one of {}", Kernel::ALL.map(|k| k.name()).join(", "));
    let r = api.square(num(2.0), m(), one("kernel", num(3.0))).await;
    let with_auto = format!("options.kernel: must be a string, got 3; use 'auto' or {kernels}");
    assert_js_error(r, "BAD_ARGUMENT", &with_auto);
    let r = api
        .square(num(2.0), m(), one("semiring", JsValue::TRUE))
        .await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "options.semiring: must be a string, got a boolean; use 'ordinary', 'boolean' or 'min-plus'",
    );
    let r = api.fibonacci(num(10.0), one("kernel", JsValue::NULL)).await;
    assert_js_error(r, "BAD_ARGUMENT", "got null; use 'auto' or one of naive");
    let r = api.inverse(num(2.0), m(), one("method", num(1.0))).await;
    assert_js_error(r, "BAD_ARGUMENT", "got 1; use 'newton-schulz' or 'series'");
    let r = settle(gpgpu_matrix::js::JsGpgpu::create(one("backend", num(1.0)))).await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "got 1; use 'auto', 'webgl', 'webgpu' or 'cpu'",
    );
    let r = settle(gpgpu_matrix::js::JsGpgpu::create(one(
        "powerPreference",
        num(2.0),
    )))
    .await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "got 2; use 'low-power' or 'high-performance'",
    );
    assert_js_error(
        gpgpu_matrix::js::JsGpgpu::kernel_source(5.into()),
        "BAD_ARGUMENT",
        &format!("kernel: must be a string, got 5; use {kernels}"),
    );
    let mut run = api
        .g
        .start_square(num(2.0), m(), JsValue::UNDEFINED)
        .unwrap();
    let r = run_read(&api, &mut run, 0.into()).await;
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "got 0; use 'a' (or 'input'), 'latest' or 'result'",
    );
}

/// A heatmap on a canvas that already has another context (a WebGL Gpgpu's own
/// canvas, say) says why and what to draw on: it said only that the canvas must give
/// a '2d' context.
pub async fn a_canvas_with_another_context_says_to_draw_on_another(setup: JsSetup) {
    let api = setup.make().await;
    let taken = canvas(2, 2);
    taken
        .get_context("webgl2")
        .unwrap()
        .expect("a WebGL2 context");
    let two = || [num(2.0), num(2.0)];
    let m = || js(&[1.0, 2.0, 3.0, 4.0]);
    let r = api
        .draw_heatmap(two(), m(), taken.into(), JsValue::UNDEFINED)
        .await;
    let msg = assert_js_error(r, "BAD_ARGUMENT", "canvas: a heatmap needs");
    assert!(msg.contains("already has another"), "{msg}");
    assert!(
        msg.contains("draw on a canvas used only for 2D drawing"),
        "{msg}"
    );
    if api.backend() == Backend::WebGl {
        let r = api
            .draw_heatmap(two(), m(), api.g.canvas(), JsValue::UNDEFINED)
            .await;
        let msg = assert_js_error(r, "BAD_ARGUMENT", "a WebGL Gpgpu's own canvas");
        assert!(msg.contains("such as a new one"), "{msg}");
    }
    // A canvas past what a heatmap draws (2^28 pixels) is SIZE_OVER_LIMIT before any
    // picture is made: 40000 x 40000 x 4 bytes wrapped in a wasm32 usize, WebGPU asked
    // for a 2105032704-byte buffer (WEBGPU_ERROR, "a bug or a driver limitation") and
    // the CPU panicked ("capacity overflow"), leaving the library unusable.
    for (w, h) in [(40000, 40000), (70000, 70000), (16385, 16384)] {
        let huge = web_sys::OffscreenCanvas::new(w, h).unwrap();
        let r = api
            .draw_heatmap(two(), m(), huge.into(), JsValue::UNDEFINED)
            .await;
        let msg = assert_js_error(r, "SIZE_OVER_LIMIT", &format!("a {w}x{h} canvas"));
        assert!(msg.contains("smaller canvas"), "{msg}");
    }
    let mut run = api
        .g
        .start_square(num(2.0), m(), JsValue::UNDEFINED)
        .unwrap();
    let huge = web_sys::OffscreenCanvas::new(40000, 40000).unwrap();
    let r = settle(run.draw_heatmap_async("a".into(), huge.into(), JsValue::UNDEFINED)).await;
    assert_js_error(r, "SIZE_OVER_LIMIT", "a 40000x40000 canvas");
    drop(run);
    // A 2D canvas works, and so does the library after those.
    let r = api
        .draw_heatmap(two(), m(), canvas(2, 2).into(), JsValue::UNDEFINED)
        .await;
    assert!(r.is_ok(), "{r:?}");
}
