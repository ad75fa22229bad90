//! The sparse-matrix checks, written once for both backends: SpMV against the
//! float64 reference (integer values, exact in f32; odd shapes, empty rows, a long
//! row, n = 1, a tridiagonal matrix); PageRank against networkx's ranks (the
//! fixture) and the float64 reference; Jacobi and the power method on sparse
//! matrices; the JavaScript classes and every CSR/graph error; the leak check.
//! Outputs are poisoned with NaN before every pass.

use super::*;
use gpgpu_matrix::apps::jacobi::JacobiSettings;
use gpgpu_matrix::js::sparse::{JsCsr, JsTridiagonal};
use gpgpu_matrix::plan::sparse::{self, Csr, Tridiagonal};
use gpgpu_matrix::sparse::{self as gpu_sparse, PageRankSettings};
use js_sys::{Array, Function, Uint32Array};

/// The sparse checks, one test each, on `$setup`.
macro_rules! sparse_tests {
    ($setup:expr) => {
        checks!($setup; common::sparse:
            spmv_matches_the_float64_reference,
            pagerank_matches_networkx_and_the_reference,
            jacobi_and_power_method_on_sparse_matrices,
            csr_from_javascript_and_its_errors,
            sparse_iterations_leak_nothing,
        );
    };
}

/// A rows×cols CSR of small integers: row 1 empty, row 2 full (a long row), the
/// rest with about a third of their entries.
fn integer_csr(seed: u32, rows: usize, cols: usize) -> Csr {
    let v = random::integers(seed, rows * cols, -4, 4);
    let keep = random::uniform(seed + 1, rows * cols, 0.0, 1.0);
    let d: Vec<f32> = (0..rows * cols)
        .map(|k| match k / cols {
            1 => 0.0,
            2 => v[k],
            _ if keep[k] < 0.33 => v[k],
            _ => 0.0,
        })
        .collect();
    Csr::from_dense(rows, cols, &d).unwrap()
}

pub async fn spmv_matches_the_float64_reference(setup: Setup) {
    let t = setup.shared().await;
    let h = t.handle();
    let tri = Tridiagonal::new(vec![1.0; 6], vec![-2.0; 7], vec![3.0; 6]).unwrap();
    let mut cases = vec![
        Csr::from_dense(1, 1, &[3.0]).unwrap(),
        integer_csr(5, 3, 4),
        integer_csr(6, 7, 5),
        integer_csr(7, 61, 300), // x and A's lists past one list row
        tri.to_csr().unwrap(),
    ];
    cases.push(integer_csr(8, 300, 61));
    for (c, a) in cases.iter().enumerate() {
        let x = random::integers(90 + c as u32, a.cols, -3, 3);
        let y = gpu_sparse::multiply(&h, a, &x).await.unwrap();
        let x64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
        assert_exact(
            &format!("{} SpMV {}×{}", t.label(t.kernels[0]), a.rows, a.cols),
            &y,
            &a.spmv(&x64),
        );
    }
    // Floats: within f32 rounding of the float64 answer.
    let a = Csr::from_dense(40, 40, &uniform(3, 1600)).unwrap();
    let x = uniform(4, 40);
    let y = gpu_sparse::multiply(&h, &a, &x).await.unwrap();
    let x64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    assert_close("SpMV of floats", &y, &a.spmv(&x64), 1e-5);
    // Hub rows by a workgroup each (WebGPU; WebGL ignores the threshold): a Zipf
    // matrix whose first rows run to thousands of entries, thresholds that list many
    // rows, one, or none.
    let z = sparse::random_skewed(300, 9000, 5);
    let xz = uniform(6, 300);
    let xz64: Vec<f64> = xz.iter().map(|&v| v as f64).collect();
    let expect = z.spmv(&xz64);
    for long_from in [Some(8), Some(1000), Some(1 << 20), None] {
        let y = gpu_sparse::multiply_with(&h, &z, &xz, long_from)
            .await
            .unwrap();
        assert_close(
            &format!("skewed SpMV, long rows past {long_from:?}"),
            &y,
            &expect,
            1e-5,
        );
    }
    let e = gpu_sparse::multiply(&h, &a, &x[..39]).await;
    assert_error(
        e,
        "BAD_LENGTH",
        "x has 39 entries but needs 40: A·x needs one",
    );
}

/// The fixture's graph and networkx's ranks.
fn fixture() -> (Csr, Vec<f64>) {
    let text = include_str!("../fixtures/pagerank-networkx.json");
    let json = js_sys::JSON::parse(text).unwrap();
    let n = get(&json, "n") as usize;
    let edges: Vec<f64> = Array::from(&prop(&json, "edges"))
        .iter()
        .flat_map(|e| {
            Array::from(&e)
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    let r: Vec<f64> = edges.iter().step_by(2).copied().collect();
    let c: Vec<f64> = edges.iter().skip(1).step_by(2).copied().collect();
    let g = Csr::from_triplets(n, n, &r, &c, &vec![1.0; r.len()]).unwrap();
    let ranks = Array::from(&prop(&json, "ranks"))
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    (g, ranks)
}

pub async fn pagerank_matches_networkx_and_the_reference(setup: Setup) {
    let t = setup.shared().await;
    let h = t.handle();
    let (g, networkx) = fixture();
    // The smallest tolerance float32 resolves (1e-7 is refused: below).
    let s = PageRankSettings {
        damping: 0.85,
        tolerance: gpu_sparse::MIN_PAGERANK_TOLERANCE,
        max_iterations: 300,
    };
    let p = gpu_sparse::pagerank(&h, &g, s).await.unwrap();
    assert!(p.converged, "{:?}", p.deltas);
    assert_close("PageRank vs networkx", &p.ranks, &networkx, 1e-5);
    // A random graph with dangling nodes and weights, against the float64 reference.
    let n = 150;
    let src = random::uniform(11, 600, 0.0, (n - 10) as f64);
    let dst = random::uniform(12, 600, 0.0, n as f64);
    let w = random::integers(13, 600, 1, 3);
    let r: Vec<f64> = src.iter().map(|v| v.floor() as f64).collect();
    let c: Vec<f64> = dst.iter().map(|v| v.floor() as f64).collect();
    let g = Csr::from_triplets(n, n, &r, &c, &w).unwrap();
    // Damping 0.5: fewer iterations (each reads two records back, slow on SwiftShader).
    let half = PageRankSettings { damping: 0.5, ..s };
    let reference = sparse::pagerank(&g, 0.5, 1e-12, 1000);
    let p = gpu_sparse::pagerank(&h, &g, half).await.unwrap();
    assert!(p.converged);
    assert_close("PageRank vs float64", &p.ranks, &reference.ranks, 1e-5);
    let sum: f64 = p.ranks.iter().map(|&v| v as f64).sum();
    assert!((sum - 1.0).abs() < 1e-5, "ranks sum to {sum}");
    // Errors: damping outside (0, 1), NaN weights, a non-square graph.
    let bad = PageRankSettings { damping: 1.0, ..s };
    assert_error(
        gpu_sparse::pagerank(&h, &g, bad).await,
        "BAD_ARGUMENT",
        "damping: is 1",
    );
    let nan = Csr::new(2, 2, vec![1.0, f32::NAN], vec![1, 0], vec![0, 1, 2]).unwrap();
    let e = gpu_sparse::pagerank(&h, &nan, s).await;
    assert_error(e, "BAD_ARGUMENT", "values[1] (edge 1 → 0) is NaN");
    let rect = integer_csr(1, 3, 4);
    assert_error(
        gpu_sparse::pagerank(&h, &rect, s).await,
        "BAD_ARGUMENT",
        "not square",
    );
    // A 4-node graph at tolerance 1e-7 converged in 37 iterations on WebGL and the
    // CPU (Σ|Δx| dipping to 8.9e-8 by chance) and never on WebGPU (stuck at 2^-23 for
    // all 200): below what float32 resolves, refused on every backend alike; at the
    // smallest tolerance taken, every backend converges.
    let four = Csr::from_triplets(
        4,
        4,
        &[0.0, 1.0, 2.0, 2.0],
        &[1.0, 2.0, 0.0, 3.0],
        &[1.0; 4],
    )
    .unwrap();
    let at = |tolerance| PageRankSettings {
        tolerance,
        max_iterations: 200,
        ..s
    };
    for tiny in [1e-7, 2e-7] {
        assert_error(
            gpu_sparse::pagerank(&h, &four, at(tiny)).await,
            "BAD_ARGUMENT",
            "below what float32 resolves",
        );
    }
    let p = gpu_sparse::pagerank(&h, &four, at(gpu_sparse::MIN_PAGERANK_TOLERANCE))
        .await
        .unwrap();
    assert!(p.converged, "{:?}", p.deltas);
    let reference = sparse::pagerank(&four, 0.85, 1e-12, 1000);
    assert_close(
        "4-node PageRank vs float64",
        &p.ranks,
        &reference.ranks,
        1e-5,
    );
    // The JavaScript call says the same (a rejected promise).
    let api = js_on(setup.backend()).await;
    let graph = JsCsr::from_triplets(
        num(4.0),
        num(4.0),
        Uint32Array::from(&[0u32, 1, 2, 2][..]).into(),
        Uint32Array::from(&[1u32, 2, 0, 3][..]).into(),
        js(&[1.0; 4]),
    )
    .unwrap();
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"tolerance".into(), &num(1e-7)).unwrap();
    let e = settle(api.pagerank_async(graph, options.into())).await;
    let message = assert_js_error(e, "BAD_ARGUMENT", "below what float32 resolves");
    assert!(message.contains("2.4e-7"), "{message}");
}

pub async fn jacobi_and_power_method_on_sparse_matrices(setup: Setup) {
    let t = setup.shared().await;
    let h = t.handle();
    let n = 37;
    let a = Tridiagonal::new(vec![-1.0; n - 1], vec![4.0; n], vec![-1.0; n - 1])
        .unwrap()
        .to_csr()
        .unwrap();
    let x_true: Vec<f64> = (0..n).map(|i| (i % 5) as f64 - 2.0).collect();
    let b: Vec<f32> = a.spmv(&x_true).iter().map(|&v| v as f32).collect();
    let settings = JacobiSettings {
        epsilon: 1e-6,
        max_iterations: 200,
        record_every: None,
    };
    let r = gpu_sparse::jacobi(&h, &a, &b, settings).await.unwrap();
    assert!(r.converged && !r.diverged, "{:?}", r.deltas);
    assert_eq!(r.deltas.len(), r.norms.len());
    assert_close("sparse Jacobi", &r.x, &x_true, 1e-5);
    let zero = Csr::from_dense(2, 2, &[0.0, 1.0, 1.0, 1.0]).unwrap();
    assert_error(
        gpu_sparse::jacobi(&h, &zero, &[1.0, 1.0], settings).await,
        "BAD_ARGUMENT",
        "a[0][0] is 0",
    );
    assert_error(
        gpu_sparse::jacobi(&h, &a, &b[1..], settings).await,
        "BAD_LENGTH",
        "b",
    );
    // Power method: diagonal 0..m−1 but the last 60, 1s beside it (a wide gap: few
    // iterations); λ checked against the vector it returns and float64.
    let m = 20;
    let diag: Vec<f32> = (0..m)
        .map(|i| if i == m - 1 { 60.0 } else { i as f32 })
        .collect();
    let s = Tridiagonal::new(vec![1.0; m - 1], diag, vec![1.0; m - 1])
        .unwrap()
        .to_csr()
        .unwrap();
    let p = gpu_sparse::power(&h, &s, 1e-5, 500).await.unwrap();
    assert!(p.converged, "{:?}", p.residuals);
    assert_eq!(p.history.len(), p.residuals.len());
    let v: Vec<f64> = p.vector.iter().map(|&x| x as f64).collect();
    let av = s.spmv(&v);
    let vv: f64 = v.iter().map(|x| x * x).sum();
    let rq = v.iter().zip(&av).map(|(a, b)| a * b).sum::<f64>() / vv;
    assert!(
        (p.value - rq).abs() < 1e-4 * rq.abs(),
        "λ {} vs vᵀAv {rq}",
        p.value
    );
    // The dominant eigenvalue by float64 power iteration (its gap is wide: fast).
    let mut x = vec![1.0; m];
    let mut lambda = 0.0;
    for _ in 0..2000 {
        let y = s.spmv(&x);
        let norm = y.iter().map(|v| v * v).sum::<f64>().sqrt();
        lambda = x.iter().zip(&y).map(|(a, b)| a * b).sum::<f64>();
        x = y.iter().map(|v| v / norm).collect();
    }
    assert!(
        (p.value - lambda).abs() < 1e-4 * lambda,
        "λ {} vs float64 {lambda}",
        p.value
    );
}

fn call(obj: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = Reflect::get(obj, &method.into())
        .unwrap()
        .dyn_into()
        .unwrap();
    f.apply(obj, &args.iter().collect::<Array>())
}

fn u32s(v: &[u32]) -> JsValue {
    Uint32Array::from(v).into()
}

pub async fn csr_from_javascript_and_its_errors(setup: Setup) {
    let api = js_on(setup.backend()).await;
    let dense = [3.0, 0.0, 0.0, 1.0, 0.0, 4.0, 2.0, 0.0, 5.0f32];
    let a = JsCsr::from_dense(num(3.0), num(3.0), js(&dense)).unwrap();
    assert_eq!(floats(&prop(&a, "values")), [3.0, 1.0, 4.0, 2.0, 5.0]);
    assert_eq!(
        Uint32Array::new(&prop(&a, "columns")).to_vec(),
        [0, 0, 2, 0, 2]
    );
    assert_eq!(
        Uint32Array::new(&prop(&a, "rowOffsets")).to_vec(),
        [0, 1, 3, 5]
    );
    let wrong = call(
        &a,
        "compareListing",
        &[
            js(&[3.0, 1.0, 4.0, 2.0, 5.0]),
            u32s(&[0, 0, 2, 0, 2]),
            u32s(&[0, 1, 2, 5]),
        ],
    )
    .unwrap();
    assert_eq!(Array::from(&wrong).to_vec(), [JsValue::from("rowOffsets")]);
    let y = settle(api.spmv_async(a.clone(), js(&[1.0, 2.0, 3.0])))
        .await
        .unwrap();
    assert_eq!(floats(&y), [3.0, 13.0, 17.0]);
    let t = JsCsr::from_triplets(
        num(3.0),
        num(3.0),
        js(&[2.0, 0.0, 1.0, 2.0]),
        js(&[0.0, 0.0, 0.0, 2.0]),
        js(&[2.0, 3.0, 1.0, 5.0]),
    )
    .unwrap();
    assert_eq!(
        floats(&call(&t, "toDense", &[]).unwrap()),
        [3.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 5.0]
    );
    let tri = JsTridiagonal::new(js(&[1.0]), js(&[2.0, 3.0]), js(&[4.0])).unwrap();
    let tc = tri.to_csr().unwrap();
    assert_eq!(
        floats(&call(&tc, "toDense", &[]).unwrap()),
        [2.0, 4.0, 1.0, 3.0]
    );
    // Each malformed CSR is a GpgpuError saying what is wrong.
    let from_arrays = |rows: f64, v: &[f32], c: &[u32], o: &[u32]| {
        JsCsr::from_arrays(num(rows), num(3.0), js(v), u32s(c), u32s(o))
    };
    assert_js_error(
        from_arrays(2.0, &[1.0, 2.0], &[0, 1], &[0, 2, 1]),
        "BAD_ARGUMENT",
        "not monotone",
    );
    assert_js_error(
        from_arrays(2.0, &[1.0, 2.0], &[0, 3], &[0, 1, 2]),
        "BAD_ARGUMENT",
        "columns[1] = 3 is out of range",
    );
    // Arrays whose lengths disagree are BAD_LENGTH, as a matrix of the wrong length
    // is, naming the length needed and the one given (they were BAD_ARGUMENT).
    assert_js_error(
        from_arrays(2.0, &[1.0, 2.0], &[0], &[0, 1, 2]),
        "BAD_LENGTH",
        "columns has 1 entries but needs 2: one column index per stored value",
    );
    assert_js_error(
        from_arrays(1.0, &[1.0], &[0], &[0, 1, 1]),
        "BAD_LENGTH",
        "rowOffsets has 3 entries but needs 2: a matrix of 1 rows has rows + 1",
    );
    let e = JsCsr::from_triplets(num(2.0), num(2.0), js(&[0.0]), js(&[0.0]), js(&[1.0, 2.0]));
    assert_js_error(e, "BAD_LENGTH", "values has 2 entries but needs 1");
    let e = JsTridiagonal::new(js(&[1.0]), js(&[2.0, 3.0, 4.0]), js(&[1.0, 1.0]));
    assert_js_error(
        e,
        "BAD_LENGTH",
        "lower has 1 entries but needs 2: a tridiagonal matrix of order 3",
    );
    // More nonzeros per row than columns: the columns are the limit, not the device.
    let e = JsCsr::random_uniform(num(2.0), num(2.0), num(5.0), num(1.0));
    let message = assert_js_error(e, "BAD_ARGUMENT", "perRow: is 5, more than the 2 columns");
    assert!(!message.contains("maxDimension"), "{message}");
    // Past wasm32's usize as well (it was SIZE_OVER_LIMIT, "this device's limit of
    // 4294967295 (info().maxDimension …)").
    let e = JsCsr::random_uniform(num(2.0), num(2.0), num(4294967296.0), num(1.0));
    assert_js_error(
        e,
        "BAD_ARGUMENT",
        "perRow: is 4294967296, more than the 2 columns",
    );
    // Sizes no Csr holds are SIZE_OVER_LIMIT naming a Csr: 2^31 rows panicked
    // allocating the row offsets ("capacity overflow", then RuntimeError: unreachable),
    // and so did toDense of a huge sparse matrix, allocating rows × cols floats.
    let none = || js(&[]);
    let e = JsCsr::from_triplets(num(2f64.powi(31)), num(2.0), none(), none(), none());
    let message = assert_js_error(e, "SIZE_OVER_LIMIT", "what a Csr takes");
    assert!(!message.contains("maxDimension"), "{message}");
    let huge = JsCsr::from_triplets(num(1e5), num(1e5), js(&[0.0]), js(&[0.0]), js(&[1.0]));
    let e = call(&huge.unwrap(), "toDense", &[]);
    assert_js_error(e, "SIZE_OVER_LIMIT", "toDense: a 100000x100000 Csr");
    // The bench's sizes are named as given (benchStreamAsync's len was called "nnz").
    let e = settle(api.bench_stream_async(num(1e12), num(1.0))).await;
    assert_js_error(e, "BAD_ARGUMENT", "len: is 1000000000000: bench matrices");
    // Graph errors through the JS API: damping, NaN weights, vector length, freed.
    let opts = Object::new();
    Reflect::set(&opts, &"damping".into(), &1.5.into()).unwrap();
    let e = settle(api.pagerank_async(a.clone(), opts.into())).await;
    assert_js_error(e, "BAD_ARGUMENT", "damping: is 1.5");
    let misspelt = Object::new();
    Reflect::set(&misspelt, &"dampening".into(), &0.5.into()).unwrap();
    let e = settle(api.pagerank_async(a.clone(), misspelt.into())).await;
    assert_js_error(e, "BAD_ARGUMENT", "unknown option 'dampening'");
    // The sparse Jacobi and power method check their keys too (a misspelt one ran
    // with the defaults), and options that are no object are refused, not read as
    // none (PageRank took `5` as no options).
    let b = js(&[1.0, 1.0, 1.0]);
    let opts = |key: &str| {
        let o = Object::new();
        Reflect::set(&o, &key.into(), &1e-3.into()).unwrap();
        JsValue::from(o)
    };
    let e = settle(api.jacobi_sparse_async(a.clone(), b.clone(), opts("epsilonn"))).await;
    assert_js_error(
        e,
        "BAD_ARGUMENT",
        "unknown option 'epsilonn'; known: epsilon",
    );
    let e = settle(api.jacobi_sparse_async(a.clone(), b.clone(), opts("kernel"))).await;
    assert_js_error(e, "BAD_ARGUMENT", "unknown option 'kernel'");
    let e = settle(api.power_sparse_async(a.clone(), opts("tol"))).await;
    assert_js_error(e, "BAD_ARGUMENT", "unknown option 'tol'; known: tolerance");
    let e = settle(api.jacobi_sparse_async(a.clone(), b.clone(), num(5.0))).await;
    assert_js_error(e, "BAD_ARGUMENT", "must be an object");
    let e = settle(api.power_sparse_async(a.clone(), "fast".into())).await;
    assert_js_error(e, "BAD_ARGUMENT", "must be an object");
    let e = settle(api.pagerank_async(a.clone(), num(5.0))).await;
    assert_js_error(e, "BAD_ARGUMENT", "must be an object");
    let e = call(&a, "pagerankReference", &[num(5.0)]);
    assert_js_error(e, "BAD_ARGUMENT", "must be an object");
    let nan = JsCsr::from_dense(num(2.0), num(2.0), js(&[0.0, f32::NAN, 1.0, 0.0])).unwrap();
    let e = settle(api.pagerank_async(nan, JsValue::UNDEFINED)).await;
    assert_js_error(
        e,
        "BAD_ARGUMENT",
        "is NaN: PageRank needs finite, non-negative edge weights",
    );
    let e = settle(api.spmv_async(a.clone(), js(&[1.0, 2.0]))).await;
    assert_js_error(e, "BAD_LENGTH", "x has 2 entries but needs 3");
    let e = call(&a, "multiplyReference", &[js(&[1.0, 2.0, 3.0, 4.0])]);
    assert_js_error(e, "BAD_LENGTH", "x has 4 entries but needs 3");
    let e = settle(api.jacobi_sparse_async(a.clone(), js(&[1.0]), JsValue::UNDEFINED)).await;
    assert_js_error(
        e,
        "BAD_LENGTH",
        "b has 1 entries but needs 3: A x = b needs one entry per row of the 3×3 matrix.",
    );
    call(&a, "free", &[]).unwrap();
    let e = settle(api.spmv_async(a, js(&[1.0, 2.0, 3.0]))).await;
    assert_js_error(e, "FREED", "this Csr was freed");
}

pub async fn sparse_iterations_leak_nothing(setup: Setup) {
    let g = poisoned_on(setup.backend()).await;
    let h = g.handle();
    let (graph, _) = fixture();
    let s = PageRankSettings {
        damping: 0.85,
        tolerance: 1e-6,
        max_iterations: 5,
    };
    gpu_sparse::pagerank(&h, &graph, s).await.unwrap();
    let a = integer_csr(3, 9, 9);
    gpu_sparse::multiply(&h, &a, &[1.0; 9]).await.unwrap();
    let after_first = g.live_objects();
    for _ in 0..4 {
        gpu_sparse::pagerank(&h, &graph, s).await.unwrap();
        gpu_sparse::multiply(&h, &a, &[1.0; 9]).await.unwrap();
        let _ = gpu_sparse::multiply(&h, &a, &[1.0; 8]).await;
    }
    assert_eq!(
        g.live_objects(),
        after_first,
        "after 4 PageRanks and 8 SpMVs"
    );
}
