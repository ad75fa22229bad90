//! The CPU forms of the engine's passes other than the product: each is the loop of
//! its compute shader (named on each function) over the same buffers in the same
//! layouts, run on the calling thread when the queue runs. So a block-sparse
//! product, SpMV, a batch, an SVD, RANSAC or an elimination computes on the CPU what
//! the GPU computes, from the same plans, and its drivers (crate::blocks, sparse,
//! batched, linear) run unchanged.
//!
//! Float32 as on the GPU, except RANSAC's 4-point fits, which reuse the float64 DLT
//! of [`crate::homography`] (the shader's steps, in double) rather than
//! carrying a second copy of them.

use crate::batched::BatchedProduct;
use crate::blocks::Numeric;
use crate::homography::{self, RansacPasses};
use crate::lu::{self, LuPlan};
use crate::semiring::Semiring;
use crate::svd::{self, SvdPlan};

/// out ← alpha·p + beta·q + gamma·I, element-wise over rows `cols` wide
/// (wgsl/elementwise/affine.wgsl); without q its term is absent, not 0·p (which would turn an
/// infinite p into NaN).
pub fn affine(
    cols: usize,
    p: &[f32],
    q: Option<&[f32]>,
    [alpha, beta, gamma]: [f32; 3],
    out: &mut [f32],
) {
    for (i, o) in out.iter_mut().enumerate() {
        let qv = q.map_or(0.0, |q| beta * q[i]);
        let diagonal = if i / cols == i % cols { gamma } else { 0.0 };
        *o = alpha * p[i] + qv + diagonal;
    }
}

/// out ← p ⊕ q element-wise in `semiring` (the sum of a tiled product's tile
/// products).
pub fn combine(semiring: Semiring, [p, q]: [&[f32]; 2], out: &mut [f32]) {
    for ((o, &x), &y) in out.iter_mut().zip(p).zip(q) {
        *o = semiring.add(x as f64, y as f64) as f32;
    }
}

/// A whole number the index table stores as an f32 (exact below 2^24).
fn whole(v: f32) -> usize {
    v as usize
}

/// The numeric phase of a block-sparse product (wgsl/block_sparse/block_sparse.wgsl): each entry
/// of each stored block of C sums its listed block products, or walks its block row
/// of A and looks B's blocks up in the map.
pub fn block_product(n: &Numeric, [a, b, index]: [&[f32]; 3], c: &mut [f32]) {
    let at = &n.atlas;
    let bs = at.tile.rows;
    let idx = |t: usize| whole(index[t]);
    for o in 0..n.out_blocks {
        let (i, j) = (idx(n.out_coords + 2 * o), idx(n.out_coords + 2 * o + 1));
        // (A's slot, B's slot) of each block product of this block of C.
        let pairs: Vec<(usize, usize)> = if n.listed {
            (idx(n.pair_starts + o)..idx(n.pair_starts + o + 1))
                .map(|p| (idx(n.pairs + 2 * p), idx(n.pairs + 2 * p + 1)))
                .collect()
        } else {
            (idx(n.a_row_starts + i)..idx(n.a_row_starts + i + 1))
                .filter_map(|p| {
                    let k = idx(n.a_cols + p);
                    let stored = idx(n.b_map + k * n.b_grid_cols + j);
                    // B_kj is a zero block: skipped.
                    (stored != 0).then(|| (idx(n.a_slots + p), stored - 1))
                })
                .collect()
        };
        for r in 0..bs {
            for col in 0..bs {
                let mut acc = 0f32;
                for &(sa, sb) in &pairs {
                    for t in 0..bs {
                        acc = a[at.at(sa, r, t)].mul_add(b[at.at(sb, t, col)], acc);
                    }
                }
                c[at.at(o, r, col)] = acc;
            }
        }
    }
}

/// C's occupancy (wgsl/block_sparse/block_flags.wgsl): 1 per stored block holding a nonzero (NaN
/// counts), else 0.
pub fn block_flags(n: &Numeric, c: &[f32], flags: &mut [f32]) {
    let at = &n.atlas;
    let bs = at.tile.rows;
    for (s, flag) in flags.iter_mut().enumerate().take(n.out_blocks) {
        let any = (0..bs * bs).any(|e| c[at.at(s, e / bs, e % bs)] != 0.0);
        *flag = if any { 1.0 } else { 0.0 };
    }
}

/// y ← A·x for a CSR A of `rows` rows (wgsl/spmv/spmv.wgsl): column indices and row
/// offsets are u32s stored by their bits; y's padding past the rows gets 0.
pub fn spmv(rows: usize, [values, columns, offsets, x]: [&[f32]; 4], y: &mut [f32]) {
    let bits = |v: f32| v.to_bits() as usize;
    for (row, out) in y.iter_mut().enumerate() {
        *out = if row < rows {
            (bits(offsets[row])..bits(offsets[row + 1]))
                .fold(0f32, |acc, k| values[k].mul_add(x[bits(columns[k])], acc))
        } else {
            0.0
        };
    }
}

/// A batch of small products (wgsl/batched/batched_matmul.wgsl): C_s ← A_s · B_s.
pub fn batched_product(p: &BatchedProduct, [a, b]: [&[f32]; 2], c: &mut [f32]) {
    let (rows, inner, cols) = (p.a.tile.rows, p.a.tile.cols, p.c.tile.cols);
    for s in 0..p.count {
        for i in 0..rows {
            for j in 0..cols {
                let acc = (0..inner).fold(0f32, |acc, k| {
                    a[p.a.at(s, i, k)].mul_add(b[p.b.at(s, k, j)], acc)
                });
                c[p.c.at(s, i, j)] = acc;
            }
        }
    }
}

/// RANSAC's hypotheses (wgsl/ransac/fit.wgsl's steps): the H of each 4-point
/// sample, 9 floats with h33 = 1, or 0 for a degenerate sample.
pub fn ransac_fit(p: &RansacPasses, [pts, samples]: [&[f32]; 2], hyps: &mut [f32]) {
    let point = |i: usize, o: usize| [pts[4 * i + o] as f64, pts[4 * i + o + 1] as f64];
    for h in 0..p.count {
        let picked: Vec<usize> = (0..4).map(|k| whole(samples[4 * h + k])).collect();
        let src: Vec<[f64; 2]> = picked.iter().map(|&i| point(i, 0)).collect();
        let dst: Vec<[f64; 2]> = picked.iter().map(|&i| point(i, 2)).collect();
        let fitted = homography::fit(&src, &dst).unwrap_or([0.0; 9]);
        for (out, v) in hyps[9 * h..9 * h + 9].iter_mut().zip(fitted) {
            *out = v as f32;
        }
    }
}

/// RANSAC's scoring (wgsl/ransac/score.wgsl): each hypothesis's inliers, the
/// correspondences whose reprojection error is within the threshold.
pub fn ransac_score(p: &RansacPasses, [pts, hyps]: [&[f32]; 2], counts: &mut [f32]) {
    let t2 = p.threshold * p.threshold;
    for (h, count) in counts.iter_mut().enumerate().take(p.count) {
        let m = &hyps[9 * h..9 * h + 9];
        let inliers = pts
            .chunks_exact(4)
            .take(p.points)
            .filter(|q| {
                let (x, y) = (q[0], q[1]);
                let w = m[6] * x + m[7] * y + m[8];
                if w.abs() <= 1e-12 {
                    return false;
                }
                let du = (m[0] * x + m[1] * y + m[2]) / w - q[2];
                let dv = (m[3] * x + m[4] * y + m[5]) / w - q[3];
                du * du + dv * dv <= t2
            })
            .count();
        *count = inliers as f32;
    }
}

/// A batch of SVDs by one-sided Jacobi (wgsl/svd/jacobi.wgsl): each matrix's
/// [U; V; σᵀ] tile, and its sweeps, by the float32 algorithm of
/// [`crate::svd`].
pub fn svd_jacobi(p: &SvdPlan, a: &[f32], [out, sweeps]: [&mut [f32]; 2]) {
    let (rows, cols) = (p.shape.rows, p.shape.cols);
    let input = p.input.unpack(a, p.shape.count);
    for (s, m) in input.chunks(rows * cols).enumerate() {
        let one = svd::svd_one::<f32>(rows, cols, m, svd::TOL, svd::MAX_SWEEPS);
        let tile = one.u.iter().chain(&one.v).chain(&one.s);
        for (e, &v) in tile.enumerate() {
            out[p.out.at(s, e / cols, e % cols)] = v;
        }
        sweeps[p.scalars.at(s, 0, 0)] = one.sweeps as f32;
    }
}

/// Gaussian elimination's step k in place on [A | B] `w` and the state row
/// ([p_0 … p_{n−1}, first singular step, k, next k]: [`LuPlan::state`]). Unlike
/// the GPU's pivot dispatch, the step stores its own multipliers at once, so a
/// factorization stopped part way needs no closing pass.
pub fn lu_step(p: &LuPlan, k: usize, [w, state]: [&mut [f32]; 2]) {
    let n = p.shape.n;
    let (pivot, singular) = lu::step(n, p.cols(), k, w, p.tiny as f64);
    state[k] = pivot as f32;
    if singular && state[n] < 0.0 {
        state[n] = k as f32;
    }
    state[n + 1] = k as f32;
    state[n + 2] = (k + 1) as f32;
}

/// Back substitution over the eliminated [A | B] (wgsl/lu/back.wgsl): x (n × nrhs).
pub fn lu_back(p: &LuPlan, w: &[f32], x: &mut [f32]) {
    let solved = lu::back(p.shape.n, p.cols(), w);
    x[..solved.len()].copy_from_slice(&solved);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocks::Atlas;
    use crate::lu::LuShape;
    use crate::shape::Shape;
    use crate::svd::SvdShape;

    #[test]
    fn spmv_sums_each_row_and_zeroes_the_padding() {
        // [[1, 0, 2], [0, 0, 0], [0, 3, 0]] · [1, 10, 100]
        let bits = |v: &[u32]| v.iter().map(|&i| f32::from_bits(i)).collect::<Vec<_>>();
        let values = [1.0, 2.0, 3.0];
        let (columns, offsets) = (bits(&[0, 2, 1]), bits(&[0, 2, 2, 3]));
        let mut y = [f32::NAN; 5];
        spmv(
            3,
            [&values, &columns, &offsets, &[1.0, 10.0, 100.0]],
            &mut y,
        );
        assert_eq!(y, [201.0, 0.0, 30.0, 0.0, 0.0]);
    }

    #[test]
    fn a_batch_of_products_lands_in_the_output_atlas() {
        // Two 2x3 · 3x1 products in atlases 4 entries wide.
        let p = BatchedProduct::new(2, [2, 3, 1], 4);
        let a: Vec<f32> = (1..=12).map(|v| v as f32).collect();
        let b = [1.0, 0.0, -1.0, 2.0, 2.0, 2.0];
        let (pa, pb) = (p.a.pack(&a), p.b.pack(&b));
        let mut c = vec![f32::NAN; p.c.shape(2).len()];
        batched_product(&p, [&pa, &pb], &mut c);
        assert_eq!(p.c.unpack(&c, 2), [-2.0, -2.0, 2.0 * 24.0, 2.0 * 33.0]);
    }

    #[test]
    fn one_elimination_step_at_a_time_is_the_whole_factorization() {
        let n = 5;
        let a = lu::zero_diagonal(3, n);
        let p = LuPlan::new(LuShape { n, nrhs: 1 }, &a);
        let b = [1.0, 2.0, 3.0, 4.0, 5.0];
        let mut w = p.augmented(&a, &b).unwrap();
        let mut state = p.initial_state();
        for k in 0..n {
            lu_step(&p, k, [&mut w, &mut state]);
        }
        let want = lu::factor::<f32>(n, &a, lu::EPS_F32);
        let (pivots, singular) = p.decode(&state, n);
        assert_eq!((pivots, singular), (want.pivots, want.singular));
        for i in 0..n {
            assert_eq!(w[i * (n + 1)..i * (n + 1) + n], want.lu[i * n..(i + 1) * n]);
        }
        let mut x = vec![f32::NAN; n];
        lu_back(&p, &w, &mut x);
        let exact = lu::reference_solve(n, 1, &a, &b).unwrap();
        for (got, want) in x.iter().zip(exact) {
            assert!((*got as f64 - want).abs() <= 1e-4 * want.abs().max(1.0));
        }
    }

    #[test]
    fn a_singular_step_is_recorded_once() {
        // Rank 1: every step after the first is singular.
        let a = [1.0, 2.0, 2.0, 4.0];
        let p = LuPlan::new(LuShape { n: 2, nrhs: 0 }, &a);
        let (mut w, mut state) = (a.to_vec(), p.initial_state());
        lu_step(&p, 0, [&mut w, &mut state]);
        lu_step(&p, 1, [&mut w, &mut state]);
        assert_eq!(p.decode(&state, 2), (vec![1, 1], Some(1)));
        assert!(w.iter().all(|v| v.is_finite()));
    }

    #[test]
    fn svd_tiles_hold_u_v_and_sigma_of_each_matrix() {
        let shape = SvdShape::new(3, 3, 2).unwrap();
        let p = SvdPlan::new(shape, 8);
        let a: Vec<f32> = (0..18).map(|v| ((v * 7) % 5) as f32 - 2.0).collect();
        let mut out = vec![f32::NAN; p.out.shape(3).len()];
        let mut sweeps = vec![f32::NAN; p.scalars.shape(3).len()];
        svd_jacobi(&p, &p.input.pack(&a), [&mut out, &mut sweeps]);
        let got = p.split(
            &p.out.unpack(&out, 3),
            p.scalars
                .unpack(&sweeps, 3)
                .iter()
                .map(|&s| s as u32)
                .collect(),
        );
        for (m, want) in svd::reference(shape, &a).iter().enumerate() {
            for (g, w) in got.s[2 * m..2 * m + 2].iter().zip(&want.s) {
                assert!((*g as f64 - w).abs() < 1e-5, "σ {g} vs {w}");
            }
        }
    }

    #[test]
    fn ransac_scores_the_fitted_homography_of_exact_data() {
        // (x, y) → (2x + 1, 3y − 2): an affine H, every point an inlier.
        let grid: Vec<[f32; 2]> = (0..9).map(|i| [(i % 3) as f32, (i / 3) as f32]).collect();
        let pts: Vec<f32> = grid
            .iter()
            .flat_map(|&[x, y]| [x, y, 2.0 * x + 1.0, 3.0 * y - 2.0])
            .collect();
        let p = RansacPasses {
            count: 2,
            points: 9,
            width: 16,
            threshold: 0.01,
        };
        // Corners (a fit), then three collinear points (degenerate: H = 0).
        let samples = [0.0, 2.0, 6.0, 8.0, 0.0, 1.0, 2.0, 4.0];
        let mut hyps = vec![f32::NAN; 18];
        ransac_fit(&p, [&pts, &samples], &mut hyps);
        assert!((hyps[0] - 2.0).abs() < 1e-5 && (hyps[8] - 1.0).abs() < 1e-6);
        assert!(hyps[9..].iter().all(|&v| v == 0.0));
        let mut counts = [f32::NAN; 2];
        ransac_score(&p, [&pts, &hyps], &mut counts);
        assert_eq!(counts, [9.0, 0.0]);
    }

    #[test]
    fn block_flags_mark_blocks_with_a_nonzero_or_nan() {
        let atlas = Atlas::square(2, 4);
        let n = Numeric {
            atlas,
            out_blocks: 3,
            index_width: 4,
            a_row_starts: 0,
            a_cols: 0,
            a_slots: 0,
            b_map: 0,
            out_coords: 0,
            b_grid_cols: 0,
            listed: false,
            pair_starts: 0,
            pairs: 0,
        };
        let mut blocks = vec![0f32; 12];
        blocks[7] = f32::NAN; // block 1
        blocks[8 + 3] = -1.0; // block 2
        let c = atlas.pack(&blocks);
        let mut flags = vec![f32::NAN; 3];
        block_flags(&n, &c, &mut flags);
        assert_eq!(flags, [0.0, 1.0, 1.0]);
        assert_eq!(atlas.shape(3), Shape::new(4, 4));
    }
}
