//! The CPU backend (wasm SIMD128 in two Web Workers) against the float64
//! reference: the shared product, chain and semiring checks, then what is the
//! CPU's own: the blocking path on the calling thread, a failing worker, and
//! workers ended on free.

use crate::common::*;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::{BackendChoice, CreateOptions, Gpgpu, Semiring};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

product_tests!(Setup::Cpu);
checks!(Setup::Cpu; common::products: a_long_k_is_summed_in_full);
chain_tests!(Setup::Cpu);
boolean_tests!(Setup::Cpu);
min_plus_tests!(Setup::Cpu);

async fn cpu(threads: usize) -> Gpgpu {
    Gpgpu::create(CreateOptions {
        backend: BackendChoice::Cpu,
        threads: Some(threads),
        ..CreateOptions::default()
    })
    .await
    .expect("the CPU backend")
}

/// The blocking calls run the queue on the calling thread (no worker starts), the
/// Async ones on the workers; both equal the reference.
#[wasm_bindgen_test]
async fn blocking_calls_compute_on_this_thread_and_async_ones_on_the_workers() {
    let g = cpu(3).await;
    let (rows, inner, cols) = (37, 41, 29);
    let (a, b, want) = random_product(7, [rows, inner, cols]);
    let o = gpgpu_matrix::Options::default();
    let now = g.multiply(rows, inner, cols, &a, &b, &o).unwrap();
    assert_close("blocking", &now, &want, FROBENIUS_TOL);
    assert_eq!(g.live("workers"), 0, "a blocking call starts no worker");
    let later = g
        .multiply_async(rows, inner, cols, &a, &b, &o)
        .await
        .unwrap();
    assert_close("async", &later, &want, FROBENIUS_TOL);
    assert_eq!(g.live("workers"), 3);
    // Both ran the same kernel on the same rows: the same float32 sums.
    assert_eq!(now, later);
    let p = g.power(17, &uniform(9, 289), 5, &o).unwrap();
    let pw = reference::power(Semiring::Ordinary, 17, &to_f64(&uniform(9, 289)), 5);
    assert_close("blocking power", &p, &pw, FROBENIUS_TOL);
}

/// A blocking call while an Async one is on the workers runs at once on this thread
/// (it was BAD_ARGUMENT, "await it first", on the CPU alone: WebGL's blocking calls
/// work beside its Async ones), and the Async call still gives its product.
#[wasm_bindgen_test]
async fn a_blocking_call_while_an_async_one_is_on_the_workers_works() {
    let g = js_on(Backend::Cpu).await;
    let n = 128;
    let m = uniform(4, n * n);
    let pending = g.square_async(num(n as f64), js(&m), JsValue::UNDEFINED);
    sleep(0).await; // the Async call has sent its product to the workers
    let now = g.square(num(2.0), js(&[1.0, 2.0, 3.0, 4.0]), JsValue::UNDEFINED);
    assert_eq!(
        now.expect("the blocking call").to_vec(),
        [7.0, 10.0, 15.0, 22.0]
    );
    let later = floats(&settle(pending).await.expect("the Async call"));
    let want = reference::square(Semiring::Ordinary, n, &to_f64(&m));
    assert_close("async", &later, &want, FROBENIUS_TOL);
}

/// A worker whose WebAssembly traps fails the call with WORKER_ERROR; its workers
/// are ended, the queue dropped, and the next call starts new ones and succeeds.
#[wasm_bindgen_test]
async fn a_failing_worker_is_a_gpgpu_error_and_nothing_is_left() {
    let g = cpu(2).await;
    let n = 64;
    let m = uniform(3, n * n);
    let o = gpgpu_matrix::Options::default();
    let want = reference::square(Semiring::Ordinary, n, &to_f64(&m));
    assert_close(
        "before",
        &g.square_async(n, &m, &o).await.unwrap(),
        &want,
        FROBENIUS_TOL,
    );
    let before = gpgpu_matrix::cpu::live_workers();
    g.engine().cpu().unwrap().break_next_job();
    let err = g.square_async(n, &m, &o).await.unwrap_err();
    assert_eq!(err.code(), "WORKER_ERROR", "{err}");
    assert!(
        err.to_string().contains("unreachable") || err.to_string().contains("worker"),
        "{err}"
    );
    assert_eq!(g.live("workers"), 0, "the failed pool ended its workers");
    assert_eq!(gpgpu_matrix::cpu::live_workers(), before - 2);
    assert_eq!(g.live("buffers"), 0, "no matrix left behind");
    let again = g.square_async(n, &m, &o).await.unwrap();
    assert_close("after", &again, &want, FROBENIUS_TOL);
    assert_eq!(g.live("workers"), 2);
}

/// Where no Worker can be made (none in the global scope, as in Node), an async
/// product is WORKER_ERROR naming the way out, not an exception thrown past the call;
/// with Worker back, the next call starts the workers and succeeds.
#[wasm_bindgen_test]
async fn no_worker_constructor_is_a_worker_error() {
    let g = cpu(2).await;
    let n = 16;
    let m = uniform(4, n * n);
    let o = gpgpu_matrix::Options::default();
    let global = js_sys::global();
    let worker = js_sys::Reflect::get(&global, &"Worker".into()).unwrap();
    js_sys::Reflect::delete_property(&global, &"Worker".into()).unwrap();
    let err = g.square_async(n, &m, &o).await;
    js_sys::Reflect::set(&global, &"Worker".into(), &worker).unwrap();
    let err = err.unwrap_err();
    assert_eq!(err.code(), "WORKER_ERROR", "{err}");
    assert!(err.to_string().contains("threads: 0"), "{err}");
    assert_eq!(g.live("workers"), 0);
    let want = reference::square(Semiring::Ordinary, n, &to_f64(&m));
    assert_close(
        "after",
        &g.square_async(n, &m, &o).await.unwrap(),
        &want,
        FROBENIUS_TOL,
    );
}

/// 100 create/free cycles, each running an async product, leave no worker.
#[wasm_bindgen_test]
async fn a_hundred_create_free_cycles_leave_no_worker() {
    let start = gpgpu_matrix::cpu::live_workers();
    let m = uniform(5, 16 * 16);
    let o = gpgpu_matrix::Options::default();
    for _ in 0..100 {
        let g = cpu(2).await;
        g.square_async(16, &m, &o).await.unwrap();
        assert!(g.live("workers") >= 1);
        drop(g);
    }
    assert_eq!(gpgpu_matrix::cpu::live_workers(), start);
}

/// Freeing the engine while workers compute rejects the call with FREED and ends
/// them.
#[wasm_bindgen_test]
async fn freeing_under_an_async_product_ends_the_workers() {
    let start = gpgpu_matrix::cpu::live_workers();
    let g = cpu(2).await;
    let n = 128;
    let m = uniform(6, n * n);
    let h = g.handle();
    let call = async move {
        gpgpu_matrix::apps::run_plan(
            &h,
            n,
            &m,
            gpgpu_matrix::plan::passes::power(2),
            &Default::default(),
        )
        .await
    };
    let pending = wasm_bindgen_futures::future_to_promise(async move {
        call.await
            .map(|_| wasm_bindgen::JsValue::NULL)
            .map_err(|e| e.code().into())
    });
    // Let the call reach its workers, then free the engine under it.
    while g.live("workers") == 0 {
        gpgpu_matrix::common::next_tick().await;
    }
    drop(g);
    let got = wasm_bindgen_futures::JsFuture::from(pending).await;
    assert_eq!(got.unwrap_err().as_string().as_deref(), Some("FREED"));
    assert_eq!(gpgpu_matrix::cpu::live_workers(), start);
}

/// The blocking forms of the passes beyond products (elimination, a block-sparse
/// product, a batch, SVDs) run their queue on the calling thread, start no worker,
/// and give what the Async forms give; SpMV (Async only) equals the reference.
#[wasm_bindgen_test]
async fn the_passes_beyond_products_run_blocking_and_async_alike() {
    let g = cpu(2).await;
    let a = [2.0, 1.0, 1.0, 3.0];
    let now = g.solve(2, &a, &[3.0, 5.0], 1).unwrap();
    assert_eq!(g.live("workers"), 0, "a blocking call starts no worker");
    let later = g.solve_async(2, &a, &[3.0, 5.0], 1).await.unwrap();
    assert_eq!(now.x, later.x);
    assert_close(
        "2x + y = 3, x + 3y = 5",
        now.x.as_deref().unwrap(),
        &[0.8, 1.4],
        1e-6,
    );
    assert_eq!(g.lu(2, &a).unwrap().lu, g.lu_async(2, &a).await.unwrap().lu);
    let d: Vec<f32> = (0..36)
        .map(|v| if v % 4 == 0 { v as f32 } else { 0.0 })
        .collect();
    let s = gpgpu_matrix::plan::blocks::BlockSparse::from_dense(
        gpgpu_matrix::plan::shape::Shape::square(6),
        &d,
        2,
    )
    .unwrap();
    let want = reference::multiply(Semiring::Ordinary, 6, 6, 6, &to_f64(&d), &to_f64(&d));
    let now = g.multiply_block_sparse(&s, &s).unwrap();
    assert_exact("block-sparse", &now.result.to_dense().unwrap(), &want);
    let later = g.multiply_block_sparse_async(&s, &s).await.unwrap();
    assert_eq!(now.result, later.result);
    let m = uniform(3, 4 * 9);
    assert_eq!(
        g.multiply_batched(4, [3, 3, 3], &m, &m).unwrap(),
        g.multiply_batched_async(4, [3, 3, 3], &m, &m)
            .await
            .unwrap()
    );
    assert_eq!(
        g.svd_batched(4, 3, 3, &m).unwrap(),
        g.svd_batched_async(4, 3, 3, &m).await.unwrap()
    );
    let csr =
        gpgpu_matrix::plan::sparse::Csr::from_dense(2, 3, &[1.0, 0.0, 2.0, 0.0, 3.0, 0.0]).unwrap();
    let y = gpgpu_matrix::sparse::multiply(&g.handle(), &csr, &[1.0, 10.0, 100.0])
        .await
        .unwrap();
    assert_eq!(y, [201.0, 30.0]);
}
