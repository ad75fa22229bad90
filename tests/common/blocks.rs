//! The partitioned-matrix checks, written once for both backends: tiled products
//! (forced at small sizes with `max_tile`) against the float64 reference, in every
//! semiring, through plain products, squarings and powers; block-sparse products
//! against the dense reference at densities from 0.1 % to 100 % and block sizes 1
//! to 32; repeated squaring of a block-sparse matrix; the JavaScript class; errors;
//! the leak check. Outputs are poisoned with NaN before every pass.

use super::*;
use gpgpu_matrix::blocks::sparse::Product;
use gpgpu_matrix::js::blocks::JsBlockSparse;
use gpgpu_matrix::plan::blocks::BlockSparse;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::{Semiring, Shape};
use js_sys::{Array, Function, Uint8Array};

/// The partitioned-matrix checks, one test each, on `$setup`.
macro_rules! block_tests {
    ($setup:expr) => {
        checks!($setup; common::blocks:
            tiled_products_match_the_reference,
            tiled_chains_in_every_semiring,
            block_sparse_products_match_the_dense_reference,
            block_sparse_edge_cases,
            block_sparse_squaring_stays_sparse,
            block_sparse_from_javascript,
            block_errors_say_what_to_do,
            a_thousand_block_sparse_products_leak_nothing,
        );
    };
}

/// A product on `g`: blocking on WebGL (its async reads poll a fence from the
/// event loop, slow in bulk), async on WebGPU.
async fn multiply(g: &Gpgpu, [r, k, c]: [usize; 3], a: &[f32], b: &[f32], o: &Options) -> Vec<f32> {
    match g.backend() {
        Backend::WebGl => g.multiply(r, k, c, a, b, o).unwrap(),
        Backend::WebGpu | Backend::Cpu => g.multiply_async(r, k, c, a, b, o).await.unwrap(),
    }
}

async fn sparse_product(g: &Gpgpu, a: &BlockSparse, b: &BlockSparse) -> Product {
    match g.backend() {
        Backend::WebGl => g.multiply_block_sparse(a, b).unwrap(),
        Backend::WebGpu | Backend::Cpu => g.multiply_block_sparse_async(a, b).await.unwrap(),
    }
}

fn tiled(kernel: Kernel, semiring: Semiring, tile: usize) -> Options {
    Options {
        max_tile: Some(tile),
        ..in_semiring(kernel, semiring)
    }
}

pub async fn tiled_products_match_the_reference(setup: Setup) {
    let t = setup.shared().await;
    // (rows, inner, cols, tile): odd sizes, non-square, tiles that do not divide,
    // a tile larger than one side only, n = 1.
    let cases = [
        (1, 1, 1, 1),
        (3, 3, 3, 2),
        (13, 7, 22, 5),
        (37, 37, 37, 16),
        (20, 65, 9, 32),
        (70, 70, 70, 64),
    ];
    for (seed, &(r, k, c, tile)) in cases.iter().enumerate() {
        let a = uniform(300 + seed as u32, r * k);
        let b = uniform(400 + seed as u32, k * c);
        let want = reference::multiply(Semiring::Ordinary, r, k, c, &to_f64(&a), &to_f64(&b));
        for (g, kernel, label) in t.pairs() {
            let o = tiled(kernel, Semiring::Ordinary, tile);
            let got = multiply(g, [r, k, c], &a, &b, &o).await;
            let what = format!("{label} {r}x{k}x{c} in tiles of {tile}");
            assert_close(&what, &got, &want, FROBENIUS_TOL);
        }
    }
    // The chapter's example, partitioned 2 + 1: exact.
    let a = [1.0, 5.0, 12.0, 0.0, 3.0, 6.0, 4.0, 8.0, 2.0];
    let b = [0.0, 2.0, 5.0, 0.0, 9.0, 10.0, 1.0, 1.0, 2.0];
    let c = [12.0, 59.0, 79.0, 6.0, 33.0, 42.0, 2.0, 82.0, 104.0];
    for (g, kernel, label) in t.pairs() {
        let got = multiply(g, [3, 3, 3], &a, &b, &tiled(kernel, Semiring::Ordinary, 2)).await;
        assert_eq!(got, c, "{label}: the chapter's C = AB in 2 + 1 blocks");
    }
}

pub async fn tiled_chains_in_every_semiring(setup: Setup) {
    let t = setup.shared().await;
    let n = 19;
    // Small integers: every power below stays exact in float32.
    let m = random::integers(77, n * n, 0, 2);
    for (g, kernel, label) in t.pairs() {
        for semiring in [Semiring::Ordinary, Semiring::Boolean, Semiring::MinPlus] {
            let o = tiled(kernel, semiring, 8);
            let m = match semiring {
                Semiring::MinPlus => m
                    .iter()
                    .map(|&v| if v == 0.0 { f32::INFINITY } else { v })
                    .collect(),
                _ => m.clone(),
            };
            let p = 3;
            let want = reference::power(semiring, n, &to_f64(&m), p);
            let got = g.power_async(n, &m, p, &o).await.unwrap();
            let want32: Vec<f32> = want.iter().map(|&v| v as f32).collect();
            assert_eq!(got, want32, "{label} {semiring:?} M^{p} in tiles of 8");
            let want = reference::power(semiring, n, &to_f64(&m), 4);
            let got = g.square_repeatedly_async(n, &m, 2, &o).await.unwrap();
            let want32: Vec<f32> = want.iter().map(|&v| v as f32).collect();
            assert_eq!(got, want32, "{label} {semiring:?} (M^2)^2 in tiles of 8");
        }
        let id = g
            .power_async(5, &[1.0; 25], 0, &tiled(kernel, Semiring::Ordinary, 2))
            .await;
        let want: Vec<f32> = reference::identity(Semiring::Ordinary, 5)
            .iter()
            .map(|&v| v as f32)
            .collect();
        assert_eq!(id.unwrap(), want, "{label}: M^0 in tiles is I");
    }
}

/// A random block-sparse matrix: each block stored with probability `density`,
/// holding integers in -2..=2 (`integers`) or floats in [-1, 1].
fn random_blocks(seed: u32, shape: Shape, bs: usize, density: f64, integers: bool) -> BlockSparse {
    let mut rng = random::Mulberry32::new(seed);
    let (gr, gc) = (shape.rows.div_ceil(bs), shape.cols.div_ceil(bs));
    let mut data = vec![0f32; shape.len()];
    for bi in 0..gr {
        for bj in 0..gc {
            if rng.next_f64() >= density {
                continue;
            }
            for i in bi * bs..(bi * bs + bs).min(shape.rows) {
                for j in bj * bs..(bj * bs + bs).min(shape.cols) {
                    let v = rng.next_f64();
                    // Integers ±1, ±2: no zero inside a stored block, so a block
                    // of a dense matrix is always stored.
                    let k = (v * 4.0).floor() as f32 - 2.0;
                    data[i * shape.cols + j] = match integers {
                        true if k >= 0.0 => k + 1.0,
                        true => k,
                        false => (2.0 * v - 1.0) as f32,
                    };
                }
            }
        }
    }
    BlockSparse::from_dense(shape, &data, bs).unwrap()
}

/// Checks a block-sparse product against the dense float64 reference.
async fn check_sparse(
    g: &Gpgpu,
    what: &str,
    a: &BlockSparse,
    b: &BlockSparse,
    exact: bool,
) -> Product {
    let p = sparse_product(g, a, b).await;
    let (r, k, c) = (a.shape.rows, a.shape.cols, b.shape.cols);
    let want = reference::multiply(
        Semiring::Ordinary,
        r,
        k,
        c,
        &to_f64(&a.to_dense().unwrap()),
        &to_f64(&b.to_dense().unwrap()),
    );
    let got = p.result.to_dense().unwrap();
    if exact {
        let want32: Vec<f32> = want.iter().map(|&v| v as f32).collect();
        assert_eq!(got, want32, "{what}");
    } else {
        assert_close(what, &got, &want, FROBENIUS_TOL);
    }
    // Every stored block of the result holds a nonzero: zero blocks were dropped.
    assert_eq!(
        p.result.pruned().pattern,
        p.result.pattern,
        "{what}: a stored zero block"
    );
    p
}

pub async fn block_sparse_products_match_the_dense_reference(setup: Setup) {
    let g = &setup.shared().await.g;
    let mut seed = 1;
    // Densities 0.1 % to 100 %, block sizes 1 to 32, odd n.
    for &(n, bs) in &[(37, 1), (61, 2), (45, 3), (100, 8), (70, 32)] {
        for density in [0.001, 0.01, 0.1, 0.5, 1.0] {
            let shape = Shape::square(n);
            // Every other case in small integers, whose products must be exact.
            let integers = seed % 4 == 1;
            let a = random_blocks(seed, shape, bs, density, integers);
            let b = random_blocks(seed + 1, shape, bs, density, integers);
            seed += 2;
            let what = format!("n {n} blocks of {bs} density {density}");
            let p = check_sparse(g, &what, &a, &b, integers).await;
            let g_side = n.div_ceil(bs) as u64;
            assert_eq!(p.dense_products, g_side * g_side * g_side, "{what}");
            assert!(p.products <= p.dense_products, "{what}");
            if density == 1.0 {
                assert_eq!(p.products, p.dense_products, "{what}: dense inputs");
            }
        }
    }
    // Past 2^21 block products the kernel walks A's block row and B's map instead
    // of a list: a dense 130×130 in blocks of 1 has 130³ ≈ 2.2·10⁶.
    let dense = random_blocks(80, Shape::square(130), 1, 1.0, true);
    let p = check_sparse(g, "2.2e6 products, not listed", &dense, &dense, true).await;
    assert!(p.products > gpgpu_matrix::plan::blocks::MAX_LISTED);
    // Block-sparse times dense, non-square: B stored whole.
    let a = random_blocks(90, Shape::new(23, 31), 4, 0.3, false);
    let dense = uniform(91, 31 * 17);
    let b = BlockSparse::from_dense(Shape::new(31, 17), &dense, 4).unwrap();
    check_sparse(g, "23x31 sparse times 31x17 dense", &a, &b, false).await;
}

pub async fn block_sparse_edge_cases(setup: Setup) {
    let g = &setup.shared().await.g;
    let shape = Shape::square(20);
    // An all-zero matrix: nothing stored, no products, a zero result.
    let zero = BlockSparse::from_dense(shape, &[0.0; 400], 4).unwrap();
    let m = random_blocks(5, shape, 4, 0.5, true);
    let p = check_sparse(g, "zero times M", &zero, &m, true).await;
    assert_eq!((p.products, p.result.pattern.stored()), (0, 0));
    check_sparse(g, "M times zero", &m, &zero, true).await;
    // Empty block rows and columns: A's block row 1 and B's block column 2 empty.
    let mut a = random_blocks(6, shape, 4, 1.0, true).to_dense().unwrap();
    let mut b = random_blocks(7, shape, 4, 1.0, true).to_dense().unwrap();
    for i in 4..8 {
        a[i * 20..(i + 1) * 20].fill(0.0);
    }
    for row in b.chunks_mut(20) {
        row[8..12].fill(0.0);
    }
    let (a, b) = (
        BlockSparse::from_dense(shape, &a, 4).unwrap(),
        BlockSparse::from_dense(shape, &b, 4).unwrap(),
    );
    let p = check_sparse(g, "empty block row and column", &a, &b, true).await;
    let occupancy = p.result.pattern.occupancy();
    assert!(
        occupancy[5..10].iter().all(|&o| o == 0),
        "C's block row 1 is empty"
    );
    assert!(
        (0..5).all(|i| occupancy[i * 5 + 2] == 0),
        "C's block column 2 is empty"
    );
    // The numeric pass is timed where the device has timestamps (SwiftShader's
    // WebGPU adapter does).
    if let gpgpu_matrix::Info::WebGpu(info) = g.info() {
        if info.timestamp_query {
            let ms = p.gpu_ms.expect("a timed numeric pass");
            assert!((0.0..10_000.0).contains(&ms), "{ms} ms");
        }
    }
    // n = 1, and one block larger than the matrix.
    let one = BlockSparse::from_dense(Shape::square(1), &[3.0], 1).unwrap();
    let p = check_sparse(g, "1x1", &one, &one, true).await;
    assert_eq!(p.result.to_dense().unwrap(), [9.0]);
    let small = BlockSparse::from_dense(
        Shape::square(3),
        &[1.0, 2.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
        8,
    )
    .unwrap();
    check_sparse(g, "3x3 in one block of 8", &small, &small, true).await;
    // Cancellation: A·B has a structurally stored block that is exactly zero.
    let a = BlockSparse::from_dense(Shape::square(2), &[1.0, 1.0, 0.0, 0.0], 1).unwrap();
    let b = BlockSparse::from_dense(Shape::square(2), &[1.0, 0.0, -1.0, 0.0], 1).unwrap();
    let p = check_sparse(g, "cancellation", &a, &b, true).await;
    assert_eq!(
        p.result.pattern.stored(),
        0,
        "the cancelled block is dropped"
    );
}

pub async fn block_sparse_squaring_stays_sparse(setup: Setup) {
    let g = &setup.shared().await.g;
    // A path graph's adjacency in blocks of 4: the band widens with each squaring.
    let n = 64;
    let mut m = vec![0f32; n * n];
    for i in 0..n - 1 {
        m[i * n + i + 1] = 1.0;
        m[(i + 1) * n + i] = 1.0;
    }
    let a = BlockSparse::from_dense(Shape::square(n), &m, 4).unwrap();
    let s = g.square_block_sparse_repeatedly_async(&a, 5).await.unwrap();
    let want = reference::power(Semiring::Ordinary, n, &to_f64(&m), 32);
    // Path counts reach ~1e9: compare relatively.
    assert_close(
        "path graph ^32 in blocks",
        &s.result.to_dense().unwrap(),
        &want,
        1e-5,
    );
    assert_eq!(s.steps.len(), 5);
    let stored: Vec<usize> = s.steps.iter().map(|st| st.stored_blocks).collect();
    let nonzero: Vec<usize> = s.steps.iter().map(|st| st.nonzero_blocks).collect();
    assert!(stored.windows(2).all(|w| w[0] <= w[1]), "{stored:?}");
    // The symbolic phase sees A_i,i+1 · A_i+1,i+2 and stores block (i, i+2); its
    // entries come out zero (each off-diagonal block holds one corner entry), so
    // A² is still block-tridiagonal: 16 + 2·15 nonzero blocks of the 74 stored, and
    // the next squaring starts from those 46 (its products skip the zero blocks).
    assert_eq!((stored[0], nonzero[0]), (16 + 2 * 15 + 2 * 14, 16 + 2 * 15));
    assert!(s.steps[0].density < 0.3);
    let products: Vec<u64> = s.steps.iter().map(|st| st.products).collect();
    // A²'s nonzero blocks form A's own pattern (block-tridiagonal), so the second
    // squaring computes as many block products as the first: none of the zero ones.
    let first = gpgpu_matrix::plan::blocks::symbolic(&a.pattern, &a.pattern).unwrap();
    assert_eq!(
        products[..2],
        [first.products; 2],
        "the second squaring skips A²'s zero blocks"
    );
    // A^32 has a band of half-width 32 entries = 8 blocks: not yet dense (16 wide).
    assert_eq!(s.dense_after, None, "{nonzero:?}");
    assert_eq!(
        s.result.pattern.stored(),
        nonzero[4],
        "zero blocks are dropped"
    );
    let s = g.square_block_sparse_repeatedly_async(&a, 7).await.unwrap();
    assert_eq!(s.dense_after, Some(6), "A^64: every block nonzero");
    // times = 0 gives M back.
    let s = g.square_block_sparse_repeatedly_async(&a, 0).await.unwrap();
    assert_eq!(s.result, a);
}

/// Calls `obj.method(...args)` on a JS object.
fn call(obj: &JsValue, method: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = Reflect::get(obj, &method.into())
        .unwrap()
        .dyn_into()
        .unwrap();
    f.apply(obj, &args.iter().collect::<Array>())
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &key.into()).unwrap()
}

pub async fn block_sparse_from_javascript(setup: Setup) {
    let api = js_on(setup.backend()).await;
    let n = 5.0;
    let data: Vec<f32> = (0..25)
        .map(|v| if v % 6 == 0 { 1.0 } else { 0.0 })
        .collect();
    let a = JsBlockSparse::from_dense(
        n.into(),
        n.into(),
        Float32Array::from(&data[..]).into(),
        2.0.into(),
    )
    .unwrap();
    assert_eq!(get(&a, "gridRows").as_f64(), Some(3.0));
    assert_eq!(
        get(&a, "nonzeroBlocks").as_f64(),
        Some(3.0),
        "the diagonal blocks"
    );
    let occ: Uint8Array = call(&a, "occupancy", &[]).unwrap().dyn_into().unwrap();
    assert_eq!(occ.to_vec(), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
    let dense: Float32Array = call(&a, "toDense", &[]).unwrap().dyn_into().unwrap();
    assert_eq!(dense.to_vec(), data);
    // From blocks: the identity's two blocks of a 3x3 in blocks of 2.
    let block = |row: f64, col: f64, d: &[f32]| {
        let o = Object::new();
        Reflect::set(&o, &"row".into(), &row.into()).unwrap();
        Reflect::set(&o, &"col".into(), &col.into()).unwrap();
        Reflect::set(&o, &"data".into(), &Float32Array::from(d)).unwrap();
        JsValue::from(o)
    };
    let list: Array = [
        block(0.0, 0.0, &[1.0, 0.0, 0.0, 1.0]),
        block(1.0, 1.0, &[1.0, 9.0, 9.0, 9.0]),
    ]
    .into_iter()
    .collect();
    let id = JsBlockSparse::from_blocks(3.0.into(), 3.0.into(), 2.0.into(), list.into()).unwrap();
    let d: Float32Array = call(&id, "toDense", &[]).unwrap().dyn_into().unwrap();
    assert_eq!(d.to_vec(), [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    // A product through the JS API, B dense.
    let b: Vec<f32> = (0..25).map(|v| v as f32).collect();
    let p = if setup.backend() == Backend::WebGl {
        api.multiply_block_sparse(a.clone(), Float32Array::from(&b[..]).into())
            .unwrap()
    } else {
        let promise = api.multiply_block_sparse_async(a.clone(), Float32Array::from(&b[..]).into());
        JsFuture::from(promise).await.unwrap()
    };
    let got: Float32Array = call(&p, "toDense", &[]).unwrap().dyn_into().unwrap();
    let want = reference::multiply(Semiring::Ordinary, 5, 5, 5, &to_f64(&data), &to_f64(&b));
    assert_eq!(
        got.to_vec(),
        want.iter().map(|&v| v as f32).collect::<Vec<_>>()
    );
    assert!(get(&p, "blockProducts").as_f64().unwrap() >= 1.0);
    assert_eq!(get(&p, "denseBlockProducts").as_f64(), Some(27.0));
    let plan = JsBlockSparse::product_plan(a.clone(), a.clone()).unwrap();
    assert_eq!(get(&plan, "products").as_f64(), Some(3.0));
    // A freed BlockSparse is a GpgpuError, not a null-pointer crash.
    call(&p, "free", &[]).unwrap();
    let e = JsFuture::from(api.multiply_block_sparse_async(p.clone(), a.clone())).await;
    let e = e.expect_err("a freed BlockSparse");
    assert_eq!(get(&e, "code").as_string().as_deref(), Some("FREED"));
    assert!(
        get(&e, "message").as_string().unwrap().contains("freed"),
        "{e:?}"
    );
    let s = JsFuture::from(api.square_block_sparse_repeatedly_async(a.clone(), 2.0.into()))
        .await
        .unwrap();
    assert!(get(&s, "denseAfter").is_null());
    assert_eq!(Array::from(&get(&s, "steps")).length(), 2);
}

/// `result` must be a GpgpuError with `code` whose message contains `text`.
fn expect_js_error(what: &str, result: Result<JsValue, JsValue>, code: &str, text: &str) {
    let e = result.expect_err(what);
    assert_eq!(
        get(&e, "code").as_string().as_deref(),
        Some(code),
        "{what}: {e:?}"
    );
    let message = get(&e, "message").as_string().unwrap();
    assert!(message.contains(text), "{what}: {message}");
}

pub async fn block_errors_say_what_to_do(setup: Setup) {
    let api = js_on(setup.backend()).await;
    let d4: JsValue = Float32Array::from(&[1.0f32; 4][..]).into();
    let from = |bs: f64, data: &JsValue| {
        JsBlockSparse::from_dense(2.0.into(), 2.0.into(), data.clone(), bs.into())
    };
    // Every refusal states the one valid range (0 is refused, so ">= 0" would not be).
    for bad in [0.0, 1.5, -2.0, f64::NAN, 1025.0] {
        expect_js_error(
            &format!("block size {bad}"),
            from(bad, &d4),
            "BAD_COUNT",
            "blockSize",
        );
        expect_js_error(
            &format!("block size {bad}"),
            from(bad, &d4),
            "BAD_COUNT",
            "it must be a whole number from 1 to 1024.",
        );
    }
    let d3: JsValue = Float32Array::from(&[1.0f32; 3][..]).into();
    expect_js_error("short data", from(1.0, &d3), "BAD_LENGTH", "data");
    let a = from(1.0, &d4).unwrap();
    let a3 = JsBlockSparse::from_dense(
        3.0.into(),
        3.0.into(),
        Float32Array::from(&[1.0f32; 9][..]).into(),
        1.0.into(),
    )
    .unwrap();
    let a2 = from(2.0, &d4).unwrap();
    for (what, x, y, text) in [
        ("inner dimensions differ", a.clone(), a3.clone(), "rows"),
        ("block sizes differ", a.clone(), a2.clone(), "block size"),
        (
            "not a BlockSparse",
            JsValue::from(7),
            a.clone(),
            "BlockSparse",
        ),
    ] {
        let e = JsFuture::from(api.multiply_block_sparse_async(x, y)).await;
        expect_js_error(what, e, "BAD_ARGUMENT", text);
    }
    let e = JsFuture::from(
        api.multiply_block_sparse_async(a.clone(), Float32Array::from(&[1.0f32; 3][..]).into()),
    )
    .await;
    expect_js_error("dense b of the wrong length", e, "BAD_LENGTH", "b");
    let e = JsFuture::from(api.square_block_sparse_repeatedly_async(a3.clone(), 1.5.into())).await;
    expect_js_error("times 1.5", e, "BAD_COUNT", "times");
    let rect = JsBlockSparse::from_dense(
        1.0.into(),
        2.0.into(),
        Float32Array::from(&[1.0f32; 2][..]).into(),
        1.0.into(),
    )
    .unwrap();
    let e = JsFuture::from(api.square_block_sparse_repeatedly_async(rect, 1.0.into())).await;
    expect_js_error("a non-square square", e, "BAD_ARGUMENT", "square");
    if setup.backend() == Backend::WebGpu {
        let e = api.multiply_block_sparse(a.clone(), a.clone());
        expect_js_error(
            "blocking on WebGPU",
            e,
            "NEEDS_ASYNC",
            "multiplyBlockSparseAsync",
        );
    }
    // maxTile must be a whole number >= 1.
    let options = Object::new();
    Reflect::set(&options, &"maxTile".into(), &0.into()).unwrap();
    let e = JsFuture::from(api.square_async(2.0.into(), d4.clone(), options.into())).await;
    expect_js_error("maxTile 0", e, "BAD_ARGUMENT", "maxTile");
    // Step-through runs do not tile.
    let options = Object::new();
    Reflect::set(&options, &"maxTile".into(), &1.into()).unwrap();
    let e = api
        .start_square(2.0.into(), d4.clone(), options.into())
        .map(JsValue::from);
    expect_js_error("startSquare with maxTile", e, "BAD_ARGUMENT", "tiles");
}

pub async fn a_thousand_block_sparse_products_leak_nothing(setup: Setup) {
    // A new engine of its own: the counts are of this engine's objects only.
    let g = poisoned_on(setup.backend()).await;
    let a = random_blocks(40, Shape::square(12), 3, 0.5, true);
    let tiles = Options {
        max_tile: Some(5),
        ..Options::default()
    };
    let m = uniform(41, 144);
    sparse_product(&g, &a, &a).await;
    multiply(&g, [12, 12, 12], &m, &m, &tiles).await;
    g.square_block_sparse_repeatedly_async(&a, 2).await.unwrap();
    let after_first = g.live_objects();
    for i in 0..1000 {
        sparse_product(&g, &a, &a).await;
        if i % 50 == 0 {
            multiply(&g, [12, 12, 12], &m, &m, &tiles).await;
            g.square_block_sparse_repeatedly_async(&a, 2).await.unwrap();
        }
    }
    assert_eq!(
        g.live_objects(),
        after_first,
        "after 1000 block-sparse products"
    );
}
