//! Sparse matrices (CSR, SpMV, PageRank, sparse Jacobi and power method) on the CPU
//! backend, with the JavaScript classes, errors and the leak check
//! (tests/common/sparse.rs); the bench timings' counts from Rust.

use crate::common::*;

sparse_tests!(Setup::Cpu);

/// The bench's timings take `repeats` and `len` as benchSpmvAsync and benchStreamAsync
/// read them: from Rust, repeats = 0 divided the wall time by 0 (NaN ms, no error)
/// and a count past JavaScript's 10^5 ran (usize::MAX for ever); len = 0 timed an
/// empty stream.
#[wasm_bindgen_test::wasm_bindgen_test]
async fn the_bench_timings_take_their_counts_as_javascript_does() {
    use gpgpu_matrix::plan::sparse::Csr;
    use gpgpu_matrix::sparse::timing;
    let g = on(Backend::Cpu).await;
    let h = g.handle();
    let a = Csr::from_dense(2, 2, &[1.0, 0.0, 0.0, 2.0]).unwrap();
    // 0 runs one pass, as in JavaScript.
    let t = timing::spmv(&h, &a, 0, None).await.unwrap();
    assert!(t.wall_ms.is_finite(), "{t:?}");
    let t = timing::stream(&h, 8, 0).await.unwrap();
    assert!(t.wall_ms.is_finite(), "{t:?}");
    assert_error(
        timing::spmv(&h, &a, 100_001, None).await,
        "BAD_COUNT",
        "repeats",
    );
    assert_error(timing::stream(&h, 8, 100_001).await, "BAD_COUNT", "repeats");
    assert_error(timing::stream(&h, 0, 1).await, "BAD_DIMENSION", "len = 0");
    let e = timing::stream(&h, (1 << 27) + 1, 1).await;
    assert_error(e, "BAD_ARGUMENT", "at most 2^27 entries");
}

/// Csr.fromArrays given a Uint32Array over wasm memory itself: the index copy's room
/// grows that memory, which detached the view before it was read (`to_vec` then
/// panicked). Read from a copy made in JavaScript first, as matrix arguments are. No
/// GPU is involved: the CPU suite alone runs it.
#[wasm_bindgen_test::wasm_bindgen_test]
async fn csr_indices_over_wasm_memory_are_read_when_their_copy_grows_memory() {
    use gpgpu_matrix::js::sparse::JsCsr;
    use js_sys::Object;
    use wasm_bindgen::JsCast;
    let nnz = 1usize << 20;
    let held = memory_just_grown();
    let columns: Vec<u32> = (0..nnz as u32).map(|i| i % 7).collect();
    let values = js_sys::Float32Array::new_with_length(nnz as u32);
    values.fill(1.0, 0, nnz as u32);
    let offsets = js_sys::Uint32Array::from(&[0u32, nnz as u32][..]);
    // SAFETY: the view is handed to the call at once, which copies it.
    let view = unsafe { js_sys::Uint32Array::view(&columns) };
    let before = wasm_memory_buffer();
    let csr = JsCsr::from_arrays(
        num(1.0),
        num(7.0),
        values.into(),
        view.into(),
        offsets.into(),
    );
    let grew = !Object::is(&before, &wasm_memory_buffer());
    drop(held);
    assert!(grew, "the copy grew wasm memory (the case checked here)");
    let csr = csr.expect("fromArrays takes the view");
    assert!(js_sys::Uint32Array::new(&prop(&csr, "columns")).to_vec() == columns);
    let free: js_sys::Function = prop(&csr, "free").unchecked_into();
    free.call0(&csr).unwrap();
}
