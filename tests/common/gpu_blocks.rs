//! Block-sparse matrices resident on the GPU (WebGPU): the generator against the
//! CPU's copy of it (bit for bit), the GPU symbolic phase against the CPU's
//! `symbolic` (patterns with empty block rows and columns, full and empty matrices,
//! a grid past two levels of the prefix sum), the numeric phase against the float64
//! reference, uploads in parts, the JavaScript class, and the errors; on WebGL and
//! the CPU, the error that says WebGPU is needed.

use super::*;
use gpgpu_matrix::blocks::resident::{
    dense_pays, give_back, multiply_listing, GpuBlocks, NumericPath,
};
use gpgpu_matrix::plan::blockgen::{reference_block, relative_error, Generated};
use gpgpu_matrix::plan::blocks::{symbolic, BlockSparse, Pattern};
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::{Semiring, Shape};

/// The GPU-resident checks, one test each, on `$backend`.
macro_rules! gpu_block_tests {
    (errors: $backend:expr) => {
        checks!($backend; common::gpu_blocks: gpu_block_sparse_errors);
    };
    ($backend:expr) => {
        checks!($backend; common::gpu_blocks:
            generated_matrices_match_the_cpu_generator,
            gpu_products_match_the_cpu_symbolic_phase_and_reference,
            a_grid_past_two_scan_levels_matches_the_cpu,
            a_product_of_several_numeric_dispatches,
            blocks_uploaded_in_parts_multiply,
            gpu_block_sparse_from_javascript,
            gpu_block_sparse_errors,
        );
    };
}

/// Every stored block of `m` read back, in parts of `part` blocks.
async fn read_all(g: &Gpgpu, m: &GpuBlocks, part: usize) -> (Vec<(u32, u32)>, Vec<f32>) {
    let (mut at, mut values) = (vec![], vec![]);
    let mut start = 0;
    while start < m.stored() {
        let count = part.min(m.stored() - start);
        let p = g.read_blocks_async(m, start, count).await.unwrap();
        at.extend(p.rows.iter().copied().zip(p.cols.iter().copied()));
        values.extend(p.values);
        start += count;
    }
    (at, values)
}

/// A·B of square CPU block-sparse matrices, dense, in float64.
fn dense_product(a: &BlockSparse, b: &BlockSparse) -> Vec<f64> {
    let n = a.shape.rows;
    let (a, b) = (
        to_f64(&a.to_dense().unwrap()),
        to_f64(&b.to_dense().unwrap()),
    );
    reference::multiply(Semiring::Ordinary, n, n, n, &a, &b)
}

/// A CPU BlockSparse of `m`'s blocks (in slot order, which for a product is
/// row-major).
fn to_cpu(n: usize, bs: usize, at: &[(u32, u32)], values: &[f32]) -> BlockSparse {
    let t = n / bs;
    let mut o = vec![false; t * t];
    at.iter()
        .for_each(|&(i, j)| o[i as usize * t + j as usize] = true);
    let pattern = Pattern::from_occupancy(t, t, &o);
    // Slots in row-major order of their cells, as the pattern stores them.
    assert!(at.windows(2).all(|w| w[0] < w[1]), "C's slots out of order");
    let (shape, block_size, values) = (Shape::new(n, n), bs, values.to_vec());
    BlockSparse {
        shape,
        block_size,
        pattern,
        values,
    }
}

pub async fn generated_matrices_match_the_cpu_generator(backend: Backend) {
    let g = on(backend).await;
    for (n, bs, k, seed) in [
        (60, 3, 150, 7),
        (16, 4, 0, 1),
        (16, 4, 16, 2),
        (8, 1, 64, 3),
        (40, 8, 13, 9),
    ] {
        let m = g.generate_block_sparse_async(n, bs, k, seed).await.unwrap();
        assert_eq!(m.stored(), k);
        let want = Generated::new((n / bs) as u32, bs as u32, k as u32, seed);
        let (at, values) = read_all(&g, &m, 7).await;
        for s in 0..k {
            assert_eq!(at[s], want.coordinates(s as u32), "n={n} slot {s}");
            let got = &values[s * bs * bs..(s + 1) * bs * bs];
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(got), bits(&want.values(s as u32)), "n={n} slot {s}");
        }
        let mut cells: Vec<_> = at.clone();
        cells.sort();
        cells.dedup();
        assert_eq!(cells.len(), k, "distinct blocks");
    }
}

/// C = A·B on the GPU, checked against the CPU's symbolic phase (pattern and
/// products, exactly) and the float64 reference (values).
async fn check_product(g: &Gpgpu, what: &str, a: &BlockSparse, b: &BlockSparse) {
    let (ga, gb) = (
        g.upload_block_sparse(a).unwrap(),
        g.upload_block_sparse(b).unwrap(),
    );
    let want = symbolic(&a.pattern, &b.pattern).unwrap();
    let cells: Vec<(u32, u32)> = want
        .out
        .coordinates()
        .map(|(i, j)| (i as u32, j as u32))
        .collect();
    let n = a.shape.rows;
    let dense = dense_product(a, b);
    // The sparse path also in bands of at most 5 block products (most rows then a
    // band of their own, some past the bound).
    let ways = [
        (NumericPath::Sparse, None),
        (NumericPath::Sparse, Some(5)),
        (NumericPath::Dense, None),
        (NumericPath::Auto, None),
    ];
    for (path, most) in ways {
        let what = format!("{what}, {path:?} listing {most:?}");
        let c = multiply_listing(&g.handle(), &ga, &gb, path, most)
            .await
            .unwrap();
        assert_eq!(c.products(), Some(want.products), "{what}: block products");
        assert_eq!(c.stored(), want.out.stored(), "{what}: stored blocks");
        let ran_dense = path == NumericPath::Dense
            || (path == NumericPath::Auto && dense_pays(n, a.block_size, want.products));
        assert_eq!(c.ran_dense(), Some(ran_dense), "{what}");
        let (at, values) = read_all(g, &c, 5).await;
        assert_eq!(at, cells, "{what}: C's pattern");
        let got = to_cpu(n, a.block_size, &at, &values).to_dense().unwrap();
        assert_close(&what, &got, &dense, FROBENIUS_TOL);
    }
}

/// A pattern with rows and columns of the grid left empty and values in [-1, 1).
fn with_gaps(seed: u32, n: usize, bs: usize, density: f64) -> BlockSparse {
    let t = n / bs;
    let mut rng = gpgpu_matrix::plan::random::Mulberry32::new(seed);
    let mut data = vec![0f32; n * n];
    for bi in 0..t {
        for bj in 0..t {
            // Block row 1 and block column t-2 stay empty.
            if bi == 1 || bj + 2 == t || rng.next_f64() >= density {
                continue;
            }
            for i in bi * bs..bi * bs + bs {
                for j in bj * bs..bj * bs + bs {
                    data[i * n + j] = (2.0 * rng.next_f64() - 1.0) as f32 + 2.5;
                }
            }
        }
    }
    BlockSparse::from_dense(Shape::new(n, n), &data, bs).unwrap()
}

pub async fn gpu_products_match_the_cpu_symbolic_phase_and_reference(backend: Backend) {
    let g = on(backend).await;
    for (n, bs, da, db) in [
        (12, 1, 0.3, 0.3),
        (40, 4, 0.2, 0.5),
        (64, 8, 0.4, 0.4),
        (150, 3, 0.05, 0.1),
        (36, 2, 1.0, 1.0),
        (96, 12, 0.5, 0.4),
        (64, 16, 0.6, 0.6),
    ] {
        let (a, b) = (
            with_gaps(n as u32, n, bs, da),
            with_gaps(n as u32 + 1, n, bs, db),
        );
        check_product(&g, &format!("n={n} m={bs} gaps"), &a, &b).await;
    }
    // Full matrices (every block stored, C full), an empty one, and one block.
    let full = |seed, n, bs| with_gaps(seed, n, bs, 1.0).pruned();
    let dense = |seed: u32, n: usize, bs| {
        let data = uniform(seed, n * n)
            .iter()
            .map(|v| v + 3.0)
            .collect::<Vec<_>>();
        BlockSparse::from_dense(Shape::new(n, n), &data, bs).unwrap()
    };
    let (a, b) = (dense(5, 48, 4), dense(6, 48, 4));
    assert!(a.pattern.is_full());
    check_product(&g, "full", &a, &b).await;
    let empty = BlockSparse::from_dense(Shape::new(32, 32), &[0.0; 1024], 4).unwrap();
    check_product(&g, "empty A", &empty, &dense(7, 32, 4)).await;
    check_product(&g, "empty B", &full(8, 32, 4), &empty).await;
    let mut one = vec![0.0f32; 16 * 16];
    one[5 * 16 + 9] = 2.0;
    let one = BlockSparse::from_dense(Shape::new(16, 16), &one, 4).unwrap();
    check_product(&g, "one block", &one, &dense(9, 16, 4)).await;
}

/// The pattern of a generated matrix on a t×t grid.
fn generated_pattern(gen: &Generated, t: u32) -> Pattern {
    let mut o = vec![false; (t * t) as usize];
    (0..gen.stored).for_each(|s| {
        let (i, j) = gen.coordinates(s);
        o[(i * t + j) as usize] = true
    });
    Pattern::from_occupancy(t as usize, t as usize, &o)
}

pub async fn a_grid_past_two_scan_levels_matches_the_cpu(backend: Backend) {
    let g = on(backend).await;
    // 1100² = 1.21M cells: chunks of 1024, then 1182 chunk sums, then 2. Twice, the
    // first C handed back in between: the second product then runs in the first's
    // buffers (flags, C's map: over 1 MiB), whose old contents must not show.
    let (n, bs, t) = (1100usize, 1usize, 1100u32);
    for (ka, kb, seed) in [(2500, 3000, 11), (3000, 2000, 13)] {
        let a = g
            .generate_block_sparse_async(n, bs, ka, seed)
            .await
            .unwrap();
        let b = g
            .generate_block_sparse_async(n, bs, kb, seed + 1)
            .await
            .unwrap();
        // Listed in bands of at most 1000 block products.
        let c = multiply_listing(&g.handle(), &a, &b, NumericPath::Sparse, Some(1000))
            .await
            .unwrap();
        let (ga, gb) = (
            Generated::new(t, 1, ka as u32, seed),
            Generated::new(t, 1, kb as u32, seed + 1),
        );
        let want = symbolic(&generated_pattern(&ga, t), &generated_pattern(&gb, t)).unwrap();
        assert_eq!(c.products(), Some(want.products), "seed {seed}");
        assert_eq!(c.stored(), want.out.stored(), "seed {seed}");
        assert!(c.stored() > 1000, "{}", c.stored());
        let (at, values) = read_all(&g, &c, 4096).await;
        let cells: Vec<(u32, u32)> = want
            .out
            .coordinates()
            .map(|(i, j)| (i as u32, j as u32))
            .collect();
        assert_eq!(at, cells, "C's pattern, seed {seed}");
        // Every block against the generator's float64 product.
        let mut worst = 0f64;
        for (s, &(i, j)) in at.iter().enumerate() {
            let (r, products) = reference_block(&ga, &gb, i, j);
            assert!(products > 0);
            worst = worst.max(relative_error(&values[s..s + 1], &r));
        }
        assert!(worst < 1e-6, "seed {seed}: {worst}");
        drop((a, b));
        give_back(&mut g.shared().borrow_mut(), c);
    }
}

pub async fn a_product_of_several_numeric_dispatches(backend: Backend) {
    let g = on(backend).await;
    // C: ≈ 430000 blocks of 8×8, past the 2^24 entries of one numeric dispatch.
    let (n, bs, t, ka, kb) = (5600, 8, 700u32, 2100, 245_000);
    let a = g.generate_block_sparse_async(n, bs, ka, 21).await.unwrap();
    let b = g.generate_block_sparse_async(n, bs, kb, 22).await.unwrap();
    let c = g
        .multiply_gpu_block_sparse_async(&a, &b, NumericPath::Sparse)
        .await
        .unwrap();
    assert!(c.stored() * 64 > 1 << 24, "{}", c.stored());
    let (ga, gb) = (
        Generated::new(t, 8, ka as u32, 21),
        Generated::new(t, 8, kb as u32, 22),
    );
    let mut rng = gpgpu_matrix::plan::random::Mulberry32::new(5);
    let mut slots: Vec<usize> = (0..24)
        .map(|_| (rng.next_f64() * c.stored() as f64) as usize)
        .collect();
    slots.extend([0, (1 << 24) / 64 - 1, (1 << 24) / 64, c.stored() - 1]);
    for s in slots {
        let p = g.read_blocks_async(&c, s, 1).await.unwrap();
        let (r, products) = reference_block(&ga, &gb, p.rows[0], p.cols[0]);
        assert!(products > 0, "slot {s}: a block of C with no products");
        let err = relative_error(&p.values, &r);
        assert!(err < 1e-6, "slot {s}: {err}");
    }
}

pub async fn blocks_uploaded_in_parts_multiply(backend: Backend) {
    let g = on(backend).await;
    let (n, bs) = (48, 4);
    let (a, b) = (with_gaps(31, n, bs, 0.3), with_gaps(32, n, bs, 0.4));
    let mut ga = g.gpu_block_sparse(n, bs, a.pattern.stored() + 3).unwrap();
    let coords: Vec<(u32, u32)> = a
        .pattern
        .coordinates()
        .map(|(i, j)| (i as u32, j as u32))
        .collect();
    let b2 = bs * bs;
    let half = coords.len() / 2;
    for (from, to) in [(0, half), (half, half), (half, coords.len())] {
        let (rows, cols): (Vec<u32>, Vec<u32>) = coords[from..to].iter().copied().unzip();
        g.write_blocks(&mut ga, &rows, &cols, &a.values[from * b2..to * b2])
            .unwrap();
    }
    assert_eq!(ga.stored(), coords.len());
    // Out of order, twice the same block, off the grid, a short part: refused.
    let last = *coords.last().unwrap();
    for (rows, cols, needle) in [
        (vec![last.0], vec![last.1], "increasing row-major order"),
        (vec![0], vec![0], "increasing row-major order"),
        (vec![12], vec![0], "on the grid"),
    ] {
        let r = g.write_blocks(&mut ga, &rows, &cols, &vec![1.0; b2]);
        assert_error(r, "BAD_ARGUMENT", needle);
    }
    assert_error(
        g.write_blocks(&mut ga, &[11], &[11], &[1.0; 3]),
        "BAD_ARGUMENT",
        "values per block",
    );
    let r = g.write_blocks(
        &mut ga,
        &[11, 11, 11, 11],
        &[8, 9, 10, 11],
        &vec![1.0; 4 * b2],
    );
    assert_error(r, "BAD_ARGUMENT", "larger capacity");
    let gb = g.upload_block_sparse(&b).unwrap();
    let c = g
        .multiply_gpu_block_sparse_async(&ga, &gb, NumericPath::Auto)
        .await
        .unwrap();
    let (at, values) = read_all(&g, &c, 1000).await;
    let want = dense_product(&a, &b);
    let got = to_cpu(n, bs, &at, &values).to_dense().unwrap();
    assert_close("uploaded in parts", &got, &want, FROBENIUS_TOL);
}

pub async fn gpu_block_sparse_from_javascript(backend: Backend) {
    let g = JsValue::from(js_on(backend).await);
    let call = |o: &JsValue, name: &str, args: &[JsValue]| -> Result<JsValue, JsValue> {
        let f: js_sys::Function = Reflect::get(o, &name.into()).unwrap().into();
        f.apply(o, &args.iter().collect::<js_sys::Array>())
    };
    let gen = |k: f64, seed: f64| {
        call(
            &g,
            "generateBlockSparseAsync",
            &[num(64.0), num(4.0), num(k), num(seed)],
        )
    };
    let a = settle(gen(40.0, 1.0).unwrap().into()).await.unwrap();
    let b = settle(gen(50.0, 2.0).unwrap().into()).await.unwrap();
    assert_eq!(get(&a, "storedBlocks"), 40.0);
    assert_eq!(get(&a, "gridSize"), 16.0);
    assert!(get(&a, "gpuBytes") >= (16.0 * 16.0 + 40.0 * 17.0) * 4.0);
    let c = settle(
        call(&g, "multiplyGpuBlockSparseAsync", &[a.clone(), b.clone()])
            .unwrap()
            .into(),
    )
    .await
    .unwrap();
    let stored = get(&c, "storedBlocks");
    assert!(stored > 0.0 && get(&c, "blockProducts") > 0.0);
    // 'auto': dense where dense_pays says so.
    let auto = match dense_pays(64, 4, get(&c, "blockProducts") as u64) {
        true => "dense",
        false => "sparse",
    };
    assert_eq!(prop(&c, "numericPath").as_string().as_deref(), Some(auto));
    assert!(get(&c, "scratchBytes") > 0.0);
    // The dense path gives the same blocks, up to rounding.
    let dense = options(&[("numeric", "dense")]);
    let d = call(
        &g,
        "multiplyGpuBlockSparseAsync",
        &[a.clone(), b.clone(), dense],
    );
    let d = settle(d.unwrap().into()).await.unwrap();
    assert_eq!(
        prop(&d, "numericPath").as_string().as_deref(),
        Some("dense")
    );
    assert_eq!(get(&d, "storedBlocks"), stored);
    let bad = options(&[("numeric", "fast")]);
    let r = settle(
        call(
            &g,
            "multiplyGpuBlockSparseAsync",
            &[a.clone(), b.clone(), bad],
        )
        .unwrap()
        .into(),
    )
    .await;
    assert_js_error(r, "BAD_ARGUMENT", "'auto', 'sparse' or 'dense'");
    let part = settle(
        call(&c, "readBlocksAsync", &[num(0.0), num(stored)])
            .unwrap()
            .into(),
    )
    .await
    .unwrap();
    let (rows, cols, data) = (
        prop(&part, "rows"),
        prop(&part, "cols"),
        floats(&prop(&part, "data")),
    );
    let rows = js_sys::Uint32Array::from(rows).to_vec();
    let cols = js_sys::Uint32Array::from(cols).to_vec();
    assert_eq!(data.len(), stored as usize * 16);
    let mut worst = 0f64;
    for s in 0..stored as usize {
        let reference = gpgpu_matrix::js::gpu_blocks::JsGpuBlockSparse::generated_product_block(
            64.0,
            4.0,
            40.0,
            1.0,
            50.0,
            2.0,
            rows[s] as f64,
            cols[s] as f64,
        )
        .unwrap()
        .to_vec();
        worst = worst.max(relative_error(&data[s * 16..(s + 1) * 16], &reference));
    }
    assert!(worst < 1e-6, "{worst}");
    // Reading past the stored blocks, then a freed operand.
    let r = settle(
        call(&c, "readBlocksAsync", &[num(stored), num(1.0)])
            .unwrap()
            .into(),
    )
    .await;
    assert_js_error(r, "BAD_ARGUMENT", "within the stored blocks");
    call(&a, "free", &[]).unwrap();
    let r = settle(
        call(&g, "multiplyGpuBlockSparseAsync", &[a, b.clone()])
            .unwrap()
            .into(),
    )
    .await;
    assert_js_error(r, "FREED", "GpuBlockSparse was freed");
    for m in [b, c, d] {
        call(&m, "free", &[]).unwrap();
    }
    // A product's work reads its operands after the call returns: a write before it
    // has finished is refused, and the product is of the matrix as it was called.
    let w = call(&g, "gpuBlockSparse", &[num(16.0), num(4.0), num(4.0)]).unwrap();
    let block = |v: f32| JsValue::from(js_sys::Float32Array::from(&[v; 16][..]));
    let at = |i: u32| JsValue::from(js_sys::Uint32Array::from(&[i][..]));
    call(&w, "writeBlocks", &[at(0), at(0), block(1.0)]).unwrap();
    let pending = call(&g, "multiplyGpuBlockSparseAsync", &[w.clone(), w.clone()]).unwrap();
    let r = call(&w, "writeBlocks", &[at(1), at(1), block(3.0)]);
    assert_js_error(
        r,
        "BAD_ARGUMENT",
        "a call in flight is using this GpuBlockSparse",
    );
    let p = settle(pending.into()).await.unwrap();
    assert_eq!(get(&p, "storedBlocks"), 1.0);
    call(&w, "writeBlocks", &[at(1), at(1), block(3.0)]).unwrap();
    // Another Gpgpu's matrix is the caller's mix-up, not a lost device.
    let other = JsValue::from(js_on(backend).await);
    let o = call(&other, "gpuBlockSparse", &[num(16.0), num(4.0), num(4.0)]).unwrap();
    let r = settle(
        call(&g, "multiplyGpuBlockSparseAsync", &[o.clone(), o.clone()])
            .unwrap()
            .into(),
    )
    .await;
    assert_js_error(r, "BAD_ARGUMENT", "made by another Gpgpu");
    for m in [w, p, o] {
        call(&m, "free", &[]).unwrap();
    }
    call(&other, "free", &[]).unwrap();
}

pub async fn gpu_block_sparse_errors(backend: Backend) {
    let g = on(backend).await;
    if backend != Backend::WebGpu {
        let r = g.generate_block_sparse_async(16, 4, 3, 1).await;
        assert_error(r, "NO_WEBGPU", "need the WebGPU backend");
        assert_error(
            g.gpu_block_sparse(16, 4, 3),
            "NO_WEBGPU",
            "need the WebGPU backend",
        );
        return;
    }
    assert_error(
        g.generate_block_sparse_async(18, 4, 3, 1).await,
        "BAD_ARGUMENT",
        "multiple of the block size",
    );
    assert_error(
        g.generate_block_sparse_async(16, 4, 17, 1).await,
        "BAD_ARGUMENT",
        "at most 16",
    );
    assert_error(
        g.generate_block_sparse_async(16, 0, 1, 1).await,
        "BAD_COUNT",
        "blockSize",
    );
    // Past the device's buffers, refused before anything is made: 65535² cells.
    let live = g.live("buffers");
    let r = g.generate_block_sparse_async(65535, 1, 1, 1).await;
    assert_error(r, "SIZE_OVER_LIMIT", "bytes");
    let r = g.generate_block_sparse_async(32768, 8, 1 << 24, 1).await;
    assert_error(r, "SIZE_OVER_LIMIT", "blocks of 8x8");
    assert_eq!(g.live("buffers"), live, "nothing allocated");
    let (a, b) = (
        g.generate_block_sparse_async(16, 4, 3, 1).await.unwrap(),
        g.generate_block_sparse_async(32, 4, 3, 1).await.unwrap(),
    );
    let r = g
        .multiply_gpu_block_sparse_async(&a, &b, NumericPath::Auto)
        .await;
    assert_error(r, "BAD_ARGUMENT", "one size and block size");
    assert_error(
        g.read_blocks_async(&a, 2, 2).await,
        "BAD_ARGUMENT",
        "within the stored blocks",
    );
}
