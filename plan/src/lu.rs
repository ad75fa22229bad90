//! Gaussian elimination with partial pivoting, the pure part: the shapes of an
//! LU factorization and a system, the singularity rule, the algorithm the GPU
//! passes run written once in plain Rust (float32 to mirror the GPU, float64 as
//! the reference), substitution, the residual and the test matrices.
//!
//! The algorithm (right-looking, one pivot per step, as LAPACK's getf2): at step
//! k the pivot row p is the first row i ≥ k with the largest |a_ik|; rows k and p
//! swap (the whole row, multipliers included); below the pivot the multipliers
//! l_ik = a_ik / a_kk replace column k and the trailing block loses
//! l_ik · (row k). The packed result holds U on and above the diagonal, the unit
//! lower triangle L below it, and `pivots[k]` = p, so that P·A = L·U.
//!
//! **Singularity rule**: step k is singular when |a_pk| ≤ n · ε · max|a_ij|, with
//! ε the unit of the arithmetic (2⁻²³ for the GPU's float32, 2⁻⁵² for the
//! reference) and max|a_ij| taken over the input. Below that size a pivot is
//! indistinguishable from the rounding error the elimination has already made
//! in entries of that scale. At a singular step nothing is divided: the
//! multipliers are 0 and the trailing block stays as it is, so the factors are
//! those of a matrix within n·ε·max|a| of A (no NaN, no infinity), and the first
//! such step is reported. A system with a singular step has no solution to give.

use super::random;
use super::shape::{self, Shape};
use super::svd::Real;
use crate::error::{GpgpuError, Result};

/// Float32's unit (2⁻²³): the GPU's arithmetic.
pub const EPS_F32: f64 = f32::EPSILON as f64;
/// Float64's unit (2⁻⁵²): the reference's arithmetic.
pub const EPS_F64: f64 = f64::EPSILON;

/// The size of a factorization (n × n) or of a system (n × n with nrhs right-hand
/// sides, b and x n × nrhs, row-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LuShape {
    pub n: usize,
    pub nrhs: usize,
}

impl LuShape {
    /// Checks n and nrhs as JavaScript passes them (whole numbers ≥ 1, at most
    /// `limit`: the device's texture or dispatch limit).
    pub fn from_numbers(n: f64, nrhs: f64, limit: usize) -> Result<LuShape> {
        let n = shape::dimension("n", n, limit)?;
        let nrhs = shape::dimension("nrhs", nrhs, limit)?;
        // The augmented [A | B] is one matrix on the GPU.
        if n + nrhs > limit {
            return Err(GpgpuError::SizeOverLimit {
                name: "n + nrhs".into(),
                value: (n + nrhs) as f64,
                limit,
            });
        }
        Ok(LuShape { n, nrhs })
    }

    /// A factorization's size: n as JavaScript passes it, no right-hand sides.
    pub fn square(n: f64, limit: usize) -> Result<LuShape> {
        Ok(LuShape {
            n: shape::dimension("n", n, limit)?,
            nrhs: 0,
        })
    }

    /// Checks that `a` is n × n: a square matrix given as n·n numbers (BAD_LENGTH, as
    /// every other matrix of the wrong length is, naming both lengths).
    pub fn check_a(&self, a: usize) -> Result<()> {
        // In u64: n·n of an n within WebGPU's limit (16 × 65535) wraps a wasm32 usize
        // (BadLength multiplies in u64 too).
        if a as u64 == self.n as u64 * self.n as u64 {
            return Ok(());
        }
        Err(GpgpuError::BadLength {
            name: "a".into(),
            rows: self.n,
            cols: self.n,
            actual: a,
        })
    }

    /// Checks that `b` is n × nrhs, a column of n numbers for each right-hand side
    /// (BAD_LENGTH naming both lengths, as a vector of the wrong length is elsewhere).
    pub fn check_b(&self, b: usize) -> Result<()> {
        let needed = self.n as u64 * self.nrhs as u64;
        if b as u64 == needed {
            return Ok(());
        }
        Err(GpgpuError::BadListLength {
            name: "b".into(),
            expected: needed,
            actual: b,
            why: format!(
                "a system with n = {} and nrhs = {} takes n x nrhs numbers, row-major: a \
                 column of n for each right-hand side (x comes back in the same shape)",
                self.n, self.nrhs
            ),
        })
    }

    /// The augmented matrix [A | B] the GPU eliminates.
    pub fn augmented(&self) -> Shape {
        Shape::new(self.n, self.n + self.nrhs)
    }

    /// Floating-point operations of the factorization, n³·2/3 to first order
    /// (exactly Σ_k (n−k−1) divisions + 2(n−k−1)² multiply-adds), plus 2n²
    /// per right-hand side for the two substitutions when `with_solve`.
    pub fn flops(&self, with_solve: bool) -> f64 {
        let n = self.n as f64;
        let factor: f64 = (0..self.n)
            .map(|k| {
                let m = (self.n - k - 1) as f64;
                m + 2.0 * m * m
            })
            .sum();
        factor
            + if with_solve {
                2.0 * n * n * self.nrhs as f64
            } else {
                0.0
            }
    }
}

/// How the GPU runs one factorization or solve: the augmented [A | B] (B absent
/// for a factorization), the threshold and the state row the passes keep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LuPlan {
    pub shape: LuShape,
    /// Pivots of this size or smaller are singular (float32's rule).
    pub tiny: f32,
}

impl LuPlan {
    /// The plan for `a` (n × n, checked), with `nrhs` right-hand sides (0: factor
    /// only).
    pub fn new(shape: LuShape, a: &[f32]) -> LuPlan {
        LuPlan {
            shape,
            tiny: threshold(shape.n, a, EPS_F32) as f32,
        }
    }

    /// Columns of [A | B].
    pub fn cols(&self) -> usize {
        self.shape.n + self.shape.nrhs
    }

    /// [A | B] row-major; OUT_OF_MEMORY where WebAssembly memory cannot give it (an
    /// aborting allocation, a trap, beside large inputs the page holds).
    pub fn augmented(&self, a: &[f32], b: &[f32]) -> Result<Vec<f32>> {
        let (n, m) = (self.shape.n, self.shape.nrhs);
        let mut w = crate::error::room(n * (n + m), || format!("the {n}x{} [A | B]", n + m))?;
        for i in 0..n {
            w.extend_from_slice(&a[i * n..(i + 1) * n]);
            w.extend_from_slice(&b[i * m..(i + 1) * m]);
        }
        Ok(w)
    }

    /// The state row: [p_0 … p_{n−1}, first singular step, current k, next k].
    pub fn state(&self) -> Shape {
        Shape::new(1, self.shape.n + 3)
    }

    /// The state before step 0: no pivots yet, no singular step.
    pub fn initial_state(&self) -> Vec<f32> {
        let n = self.shape.n;
        let mut s = vec![0.0; n + 3];
        s[n] = -1.0;
        s
    }

    /// The pivots of the first `steps` steps and the first singular step, from a
    /// state row as read back (rounding guards against nothing: the GPU writes
    /// whole numbers, exact in float32 up to 2²⁴).
    pub fn decode(&self, state: &[f32], steps: usize) -> (Vec<u32>, Option<usize>) {
        let n = self.shape.n;
        let pivots = state[..steps].iter().map(|&p| p as u32).collect();
        let singular = (state[n] >= 0.0).then(|| state[n] as usize);
        (pivots, singular)
    }
}

/// Checks that every entry is finite: a NaN or an infinity would spread through
/// the elimination (and a NaN is never the largest |a_ik|, so it could not even
/// be pivoted away).
pub fn check_finite(name: &str, values: &[f32]) -> Result<()> {
    shape::check_finite(name, values, "elimination")
}

/// The pivot size at and below which a step is singular: n · ε · max|a_ij|.
pub fn threshold(n: usize, a: &[f32], eps: f64) -> f64 {
    let scale = a.iter().fold(0.0f64, |m, &v| m.max((v as f64).abs()));
    n as f64 * eps * scale
}

/// A factorization: `lu` packed (U on and above the diagonal, L's multipliers
/// below), `pivots[k]` the row swapped into row k at step k, and the first
/// singular step.
#[derive(Clone, Debug, PartialEq)]
pub struct Factors<T> {
    pub lu: Vec<T>,
    pub pivots: Vec<u32>,
    pub singular: Option<usize>,
}

/// The first row i ≥ k with the largest |a_ik| (ties go to the smaller row, as
/// the GPU's reduction breaks them).
fn pivot_row<T: Real>(n: usize, w: &[T], cols: usize, k: usize) -> usize {
    let mut best = k;
    for i in k + 1..n {
        if w[i * cols + k].abs() > w[best * cols + k].abs() {
            best = i;
        }
    }
    best
}

/// Runs the first `steps` steps of elimination on the n × cols matrix `w` (cols
/// ≥ n: extra columns are right-hand sides carried along) in place, as the GPU
/// does: the module's algorithm and rule, with pivots of size ≤ `tiny` singular.
pub fn eliminate<T: Real>(
    n: usize,
    cols: usize,
    steps: usize,
    w: &mut [T],
    tiny: f64,
) -> (Vec<u32>, Option<usize>) {
    let mut pivots = Vec::with_capacity(steps);
    let mut singular = None;
    for k in 0..steps {
        let (p, small) = step(n, cols, k, w, tiny);
        pivots.push(p as u32);
        if small {
            singular.get_or_insert(k);
        }
    }
    (pivots, singular)
}

/// Step k of [`eliminate`]: the pivot row found and swapped in, the multipliers
/// stored and the trailing block updated. Returns the pivot row and whether the
/// step was singular (then nothing below the pivot is eliminated).
pub fn step<T: Real>(n: usize, cols: usize, k: usize, w: &mut [T], tiny: f64) -> (usize, bool) {
    let p = pivot_row(n, w, cols, k);
    if p != k {
        for j in 0..cols {
            w.swap(k * cols + j, p * cols + j);
        }
    }
    let pivot = w[k * cols + k];
    if pivot.abs().get() <= tiny {
        for i in k + 1..n {
            w[i * cols + k] = T::zero();
        }
        return (p, true);
    }
    for i in k + 1..n {
        let l = w[i * cols + k].div(pivot);
        w[i * cols + k] = l;
        for j in k + 1..cols {
            w[i * cols + j] = w[i * cols + j].sub(l.mul(w[k * cols + j]));
        }
    }
    (p, false)
}

/// Back substitution after elimination of [A | B] (n × cols, the right-hand
/// sides in columns n..cols): x (n × (cols − n), row-major) with U·x = y, in the
/// order wgsl/lu/back.wgsl runs it (y_i loses u_ik·x_k for k from n − 1 down,
/// then x_i = y_i / u_ii).
pub fn back<T: Real>(n: usize, cols: usize, w: &[T]) -> Vec<T> {
    let nrhs = cols - n;
    let mut x = vec![T::zero(); n * nrhs];
    for r in 0..nrhs {
        let c = n + r;
        let mut y: Vec<T> = (0..n).map(|i| w[i * cols + c]).collect();
        for k in (0..n).rev() {
            let xk = y[k].div(w[k * cols + k]);
            for (i, yi) in y.iter_mut().enumerate().take(k) {
                *yi = yi.sub(w[i * cols + k].mul(xk));
            }
        }
        for i in 0..n {
            x[i * nrhs + r] = y[i].div(w[i * cols + i]);
        }
    }
    x
}

/// The LU factorization of the n × n `a` in arithmetic `T` with unit `eps`.
pub fn factor<T: Real>(n: usize, a: &[f32], eps: f64) -> Factors<T> {
    let mut lu: Vec<T> = a.iter().map(|&v| T::of(v as f64)).collect();
    let (pivots, singular) = eliminate(n, n, n, &mut lu, threshold(n, a, eps));
    Factors {
        lu,
        pivots,
        singular,
    }
}

/// The float64 reference factorization.
pub fn reference(n: usize, a: &[f32]) -> Factors<f64> {
    factor(n, a, EPS_F64)
}

/// x (n × nrhs) with A·x = b from A's factors, in float64: the pivots applied
/// to b, then L·y = P·b forward and U·x = y back. None when a step was singular.
pub fn substitute(n: usize, nrhs: usize, f: &Factors<f64>, b: &[f32]) -> Option<Vec<f64>> {
    f.singular.is_none().then_some(())?;
    let mut x: Vec<f64> = b.iter().map(|&v| v as f64).collect();
    for (k, &p) in f.pivots.iter().enumerate() {
        for r in 0..nrhs {
            x.swap(k * nrhs + r, p as usize * nrhs + r);
        }
    }
    for i in 0..n {
        for j in 0..i {
            let l = f.lu[i * n + j];
            for r in 0..nrhs {
                x[i * nrhs + r] -= l * x[j * nrhs + r];
            }
        }
    }
    for i in (0..n).rev() {
        for j in i + 1..n {
            let u = f.lu[i * n + j];
            for r in 0..nrhs {
                x[i * nrhs + r] -= u * x[j * nrhs + r];
            }
        }
        for r in 0..nrhs {
            x[i * nrhs + r] /= f.lu[i * n + i];
        }
    }
    Some(x)
}

/// The float64 reference solution of A·x = b (None when singular by the rule at
/// float64's unit).
pub fn reference_solve(n: usize, nrhs: usize, a: &[f32], b: &[f32]) -> Option<Vec<f64>> {
    substitute(n, nrhs, &reference(n, a), b)
}

/// ‖A·x − b‖ / ‖b‖ (Frobenius norms over all right-hand sides), in float64;
/// ‖A·x − b‖ itself when b = 0.
pub fn residual(n: usize, nrhs: usize, a: &[f32], x: &[f32], b: &[f32]) -> f64 {
    let (mut diff, mut norm) = (0.0f64, 0.0f64);
    for i in 0..n {
        for r in 0..nrhs {
            let ax: f64 = (0..n)
                .map(|j| a[i * n + j] as f64 * x[j * nrhs + r] as f64)
                .sum();
            let bi = b[i * nrhs + r] as f64;
            diff += (ax - bi) * (ax - bi);
            norm += bi * bi;
        }
    }
    if norm == 0.0 {
        diff.sqrt()
    } else {
        (diff / norm).sqrt()
    }
}

/// ‖P·A − L·U‖ / ‖A‖ (Frobenius) of a packed factorization, in float64: how
/// well the factors reproduce A (1 for A = 0 with factors 0 is not possible:
/// A = 0 gives 0 / 0, reported as the absolute ‖P·A − L·U‖).
pub fn factor_error(n: usize, a: &[f32], lu: &[f32], pivots: &[u32]) -> f64 {
    let mut pa: Vec<f64> = a.iter().map(|&v| v as f64).collect();
    for (k, &p) in pivots.iter().enumerate() {
        for j in 0..n {
            pa.swap(k * n + j, p as usize * n + j);
        }
    }
    let (mut diff, mut norm) = (0.0f64, 0.0f64);
    for i in 0..n {
        for j in 0..n {
            // (L·U)_ij = Σ_{m ≤ min(i, j)} l_im u_mj with l_ii = 1.
            let mut s = 0.0f64;
            for m in 0..=i.min(j) {
                let l = if m == i { 1.0 } else { lu[i * n + m] as f64 };
                s += l * lu[m * n + j] as f64;
            }
            diff += (pa[i * n + j] - s).powi(2);
            norm += pa[i * n + j].powi(2);
        }
    }
    if norm == 0.0 {
        diff.sqrt()
    } else {
        (diff / norm).sqrt()
    }
}

/// The n × n Hilbert matrix 1 / (i + j + 1): the classic ill-conditioned one
/// (condition number ≈ e^(3.5 n)).
pub fn hilbert(n: usize) -> Vec<f32> {
    (0..n * n)
        .map(|e| 1.0 / ((e / n + e % n + 1) as f32))
        .collect()
}

/// A seeded n × n matrix, uniform in [−1, 1), made strictly diagonally dominant
/// (each diagonal entry n plus its row's magnitude sum): Jacobi converges on it.
pub fn dominant(seed: u32, n: usize) -> Vec<f32> {
    let mut a = random::uniform(seed, n * n, -1.0, 1.0);
    for i in 0..n {
        let off: f32 = (0..n).filter(|&j| j != i).map(|j| a[i * n + j].abs()).sum();
        a[i * n + i] = off + 1.0;
    }
    a
}

/// A seeded n × n matrix of small integers with a zero diagonal: no step can
/// go without a row swap until the swaps have brought nonzeros to it.
pub fn zero_diagonal(seed: u32, n: usize) -> Vec<f32> {
    let mut a = random::integers(seed, n * n, -4, 4);
    for i in 0..n {
        a[i * n + i] = 0.0;
    }
    a
}

/// A seeded n × n integer matrix of rank n − 1 at most (n ≥ 2): its last row is
/// row 0 plus row n − 2 (twice row 0 when n = 2), so elimination meets an
/// exactly zero pivot.
pub fn rank_deficient(seed: u32, n: usize) -> Vec<f32> {
    let mut a = random::integers(seed, n * n, -3, 3);
    for j in 0..n {
        a[(n - 1) * n + j] = a[j] + a[(n - 2) * n + j];
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn max_abs_diff(a: &[f32], b: &[f64]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(&x, &y)| (x as f64 - y).abs())
            .fold(0.0, f64::max)
    }

    /// The float32 run (what the GPU computes) and the float64 reference.
    fn both(n: usize, a: &[f32]) -> (Factors<f32>, Factors<f64>) {
        (factor::<f32>(n, a, EPS_F32), reference(n, a))
    }

    fn x_f32(n: usize, nrhs: usize, f: &Factors<f32>, b: &[f32]) -> Option<Vec<f32>> {
        let f64s = Factors {
            lu: f.lu.iter().map(|&v| v as f64).collect(),
            pivots: f.pivots.clone(),
            singular: f.singular,
        };
        substitute(n, nrhs, &f64s, b).map(|x| x.iter().map(|&v| v as f32).collect())
    }

    #[test]
    fn a_hand_example_factors_exactly() {
        // [[0, 2], [1, 1]]: the zero pivot swaps the rows; U = [[1, 1], [0, 2]].
        let f = reference(2, &[0.0, 2.0, 1.0, 1.0]);
        assert_eq!(f.pivots, vec![1, 1]);
        assert_eq!(f.lu, vec![1.0, 1.0, 0.0, 2.0]);
        assert_eq!(f.singular, None);
        let x = reference_solve(2, 1, &[0.0, 2.0, 1.0, 1.0], &[4.0, 3.0]).unwrap();
        assert_eq!(x, vec![1.0, 2.0]);
    }

    #[test]
    fn n_1_divides() {
        let f = reference(1, &[4.0]);
        assert_eq!((f.lu, f.pivots, f.singular), (vec![4.0], vec![0], None));
        assert_eq!(
            reference_solve(1, 2, &[4.0], &[2.0, -8.0]),
            Some(vec![0.5, -2.0])
        );
        assert_eq!(reference(1, &[0.0]).singular, Some(0));
    }

    #[test]
    fn ties_go_to_the_first_row() {
        let f = reference(3, &[1.0, 0.0, 0.0, -2.0, 1.0, 0.0, 2.0, 0.0, 1.0]);
        assert_eq!(f.pivots[0], 1);
    }

    #[test]
    fn random_matrices_factor_and_solve_in_float32_up_to_1024() {
        for (seed, n) in [(1, 2), (2, 7), (3, 33), (4, 100), (5, 257), (6, 1024)] {
            let a = random::uniform(seed, n * n, -1.0, 1.0);
            let b = random::uniform(seed + 100, n * 2, -1.0, 1.0);
            let (f, r) = both(n, &a);
            assert_eq!(f.singular, None, "n = {n}");
            let err = factor_error(n, &a, &f.lu, &f.pivots);
            assert!(
                err < 1e-6 * (n as f64).sqrt(),
                "n = {n}: ‖PA − LU‖/‖A‖ = {err}"
            );
            let x = x_f32(n, 2, &f, &b).unwrap();
            // Backward stability: about n·ε relative, times a modest growth.
            let res = residual(n, 2, &a, &x, &b);
            assert!(res < 2e-6 * n as f64, "n = {n}: residual {res}");
            assert_eq!(r.singular, None);
        }
    }

    #[test]
    fn diagonally_dominant_matrices_never_swap() {
        for n in [1, 5, 64, 512] {
            let f = factor::<f32>(n, &dominant(n as u32, n), EPS_F32);
            let identity: Vec<u32> = (0..n as u32).collect();
            assert_eq!(f.pivots, identity, "n = {n}");
            assert_eq!(f.singular, None);
        }
    }

    #[test]
    fn zero_diagonals_are_pivoted_around() {
        for n in [2, 3, 8, 31, 200] {
            let a = zero_diagonal(n as u32, n);
            let (f, r) = both(n, &a);
            assert_eq!(f.singular, r.singular, "n = {n}");
            assert_ne!(f.pivots[0], 0, "n = {n}: a zero pivot must swap");
            if f.singular.is_none() {
                assert!(factor_error(n, &a, &f.lu, &f.pivots) < 1e-5, "n = {n}");
            }
        }
    }

    #[test]
    fn exactly_rank_deficient_matrices_are_singular_without_nan() {
        for n in [2, 3, 6, 17, 128] {
            let a = rank_deficient(n as u32, n);
            let (f, r) = both(n, &a);
            assert!(f.singular.is_some(), "n = {n}");
            assert!(r.singular.is_some(), "n = {n}");
            assert!(f.lu.iter().all(|v| v.is_finite()), "n = {n}");
            assert!(x_f32(n, 1, &f, &vec![1.0; n]).is_none());
            // The factors are those of a matrix within the rule's distance.
            assert!(factor_error(n, &a, &f.lu, &f.pivots) < 1e-5, "n = {n}");
        }
        // A zero matrix is singular at its first step.
        assert_eq!(factor::<f32>(4, &[0.0; 16], EPS_F32).singular, Some(0));
    }

    #[test]
    fn a_zero_pivot_mid_way_is_reported_at_its_step() {
        // Rows 0 and 1 are independent, row 2 = row 0 + row 1: step 2 is singular.
        let a = [1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 5.0, 7.0, 10.0];
        assert_eq!(reference(3, &a).singular, Some(2));
        assert_eq!(factor::<f32>(3, &a, EPS_F32).singular, Some(2));
    }

    #[test]
    fn hilbert_is_solved_while_float32_can_and_singular_after() {
        // Small Hilbert matrices solve to residuals near float32's unit (backward
        // stability) even though x itself is off by up to cond · ε.
        for n in [2, 3, 4, 5] {
            let a = hilbert(n);
            let want: Vec<f32> = (0..n).map(|i| i as f32 + 1.0).collect();
            let b: Vec<f32> = (0..n)
                .map(|i| (0..n).map(|j| a[i * n + j] * want[j]).sum())
                .collect();
            let f = factor::<f32>(n, &a, EPS_F32);
            assert_eq!(f.singular, None, "n = {n}");
            let x = x_f32(n, 1, &f, &b).unwrap();
            assert!(residual(n, 1, &a, &x, &b) < 1e-5, "n = {n}");
            // b was rounded to float32, so x moves by up to cond · 2⁻²⁴ from 1, 2, …
            let xr = reference_solve(n, 1, &a, &b).unwrap();
            assert!(
                max_abs_diff(&want, &xr) < 1e-7 * 1e6f64.powf(n as f64 / 4.0),
                "n = {n}"
            );
        }
        // Past float32's reach (cond ≈ 1.5e7 ≈ 1/ε at n = 6, 1e13 at n = 10) the
        // rule calls it singular, while float64 still factors it (the float32
        // rounding of 1/(i + j + 1) leaves even n = 1024 factorable in float64,
        // with factors that reproduce it).
        for n in [6, 8, 12, 64, 1024] {
            let a = hilbert(n);
            assert!(factor::<f32>(n, &a, EPS_F32).singular.is_some(), "n = {n}");
            let f = factor::<f32>(n, &a, EPS_F32);
            assert!(f.lu.iter().all(|v| v.is_finite()), "n = {n}");
        }
        assert_eq!(reference(10, &hilbert(10)).singular, None);
        let a = hilbert(1024);
        let r = reference(1024, &a);
        let lu: Vec<f32> = r.lu.iter().map(|&v| v as f32).collect();
        assert!(factor_error(1024, &a, &lu, &r.pivots) < 1e-6);
    }

    #[test]
    fn the_residual_is_relative_and_zero_for_exact_solutions() {
        let a = [2.0, 0.0, 0.0, 4.0];
        assert_eq!(residual(2, 1, &a, &[1.0, 1.0], &[2.0, 4.0]), 0.0);
        let r = residual(2, 1, &a, &[1.0, 2.0], &[2.0, 4.0]);
        assert!((r - (16.0f64 / 20.0).sqrt()).abs() < 1e-12);
        assert_eq!(residual(2, 1, &a, &[0.0, 0.0], &[0.0, 0.0]), 0.0);
    }

    #[test]
    fn shapes_are_checked_with_what_to_do() {
        assert_eq!(
            LuShape::from_numbers(3.0, 2.0, 8192),
            Ok(LuShape { n: 3, nrhs: 2 })
        );
        let code = |n, r| LuShape::from_numbers(n, r, 8192).unwrap_err().code();
        assert_eq!(code(0.0, 1.0), "BAD_DIMENSION");
        assert_eq!(code(2.5, 1.0), "BAD_DIMENSION");
        assert_eq!(code(3.0, 0.0), "BAD_DIMENSION");
        assert_eq!(code(8000.0, 500.0), "SIZE_OVER_LIMIT");
        let s = LuShape { n: 3, nrhs: 2 };
        assert!(s.check_a(9).is_ok() && s.check_b(6).is_ok());
        // A wrong length is BAD_LENGTH, as everywhere else, naming both lengths: a is
        // a matrix (BadLength's wording), b a list (BadListLength's).
        let e = s.check_a(6).unwrap_err();
        assert_eq!(e.code(), "BAD_LENGTH");
        assert_eq!(
            e.to_string(),
            "a has 6 elements but a 3x3 matrix needs 9. Pass the matrix row-major, \
             rows*cols numbers long (a Float32Array in JavaScript, a &[f32] in Rust)."
        );
        let e = s.check_b(3).unwrap_err();
        assert_eq!(e.code(), "BAD_LENGTH");
        assert_eq!(
            e.to_string(),
            "b has 3 entries but needs 6: a system with n = 3 and nrhs = 2 takes \
             n x nrhs numbers, row-major: a column of n for each right-hand side (x comes \
             back in the same shape)."
        );
        // n · nrhs past 2^32 (n + nrhs within WebGPU's limit) is counted in u64.
        let big = LuShape {
            n: 70_000,
            nrhs: 70_000,
        };
        let e = big.check_b(1).unwrap_err().to_string();
        assert!(e.contains("but needs 4900000000:"), "{e}");
        let e = big.check_a(1).unwrap_err().to_string();
        assert!(e.contains("a 70000x70000 matrix needs 4900000000."), "{e}");
    }

    #[test]
    fn the_plan_augments_and_decodes() {
        let s = LuShape { n: 2, nrhs: 1 };
        let p = LuPlan::new(s, &[1.0, -4.0, 2.0, 3.0]);
        assert_eq!(p.tiny, (2.0 * EPS_F32 * 4.0) as f32);
        assert_eq!(
            p.augmented(&[1.0, 2.0, 3.0, 4.0], &[5.0, 6.0]).unwrap(),
            vec![1.0, 2.0, 5.0, 3.0, 4.0, 6.0]
        );
        assert_eq!(p.initial_state(), vec![0.0, 0.0, -1.0, 0.0, 0.0]);
        assert_eq!(p.decode(&[1.0, 1.0, -1.0, 1.0, 2.0], 2), (vec![1, 1], None));
        assert_eq!(p.decode(&[0.0, 1.0, 1.0, 1.0, 2.0], 1), (vec![0], Some(1)));
        assert_eq!(LuShape::square(3.0, 8).unwrap(), LuShape { n: 3, nrhs: 0 });
    }

    #[test]
    fn flops_follow_two_thirds_n_cubed() {
        let s = LuShape { n: 1000, nrhs: 1 };
        let f = s.flops(false) / (2.0 / 3.0 * 1e9);
        assert!((f - 1.0).abs() < 0.01, "{f}");
        assert_eq!(LuShape { n: 1, nrhs: 1 }.flops(false), 0.0);
        assert_eq!(LuShape { n: 2, nrhs: 1 }.flops(false), 3.0);
    }
}
