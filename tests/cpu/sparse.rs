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
