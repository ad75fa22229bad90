//! Batched SVD by one-sided (Hestenes) Jacobi, the pure part: the sizes a batch
//! may have, the round-robin order of the rotations, the rotation itself, the
//! float64 reference (the same algorithm), the order and signs of the results, and
//! the tiles the GPU works on. Tested natively.
//!
//! The algorithm (the developer's log: one thread per column, several matrices
//! side by side): rotate pairs of columns (p, q) of A, and of V (starting at I),
//! until every pair is orthogonal. With α = ‖a_p‖², β = ‖a_q‖², γ = a_p·a_q, a pair
//! is left alone when |γ| ≤ [`TOL`]·√α·√β; otherwise ζ = (β − α)/(2γ),
//! t = sign(ζ)/(|ζ| + √(1+ζ²)), c = 1/√(1+t²), s = c·t, and
//! a_p ← c·a_p − s·a_q, a_q ← s·a_p + c·a_q. A sweep visits every pair once, in
//! cols − 1 rounds (cols rounded up to even) of disjoint pairs that run at once.
//! Then σ_j = ‖a_j‖, U_j = a_j/σ_j (a zero column where σ_j = 0), sorted by σ
//! decreasing.

use crate::batched;
use crate::blocks::Atlas;
use crate::error::{GpgpuError, Result};
use crate::shape::Shape;

/// The most columns a batched SVD takes: one invocation per column, so a
/// WebGPU workgroup ([`GROUP_SIZE`]) holds at least two matrices.
pub const MAX_COLS: usize = 16;
/// The most rows: each invocation keeps its column of A and V (rows + cols
/// values) in registers.
pub const MAX_ROWS: usize = batched::MAX_SIDE;
/// A pair is orthogonal when |a_p·a_q| ≤ TOL·‖a_p‖·‖a_q‖. Float32 computes a_p·a_q
/// of exactly orthogonal columns of 32 rows with an error up to about 32·2^-24·
/// ‖a_p‖‖a_q‖ ≈ 2e-6 (typically √32·6e-8 ≈ 3e-7), so a tolerance below that
/// would chase rounding noise until the sweep cap; 1e-6 still leaves UᵀU and VᵀV
/// within 1e-5 of I (measured in the tests below: float32 Jacobi converges in
/// 5-8 sweeps for the shapes allowed).
pub const TOL: f32 = 1e-6;
/// Sweeps after which the iteration stops even if some pair still rotates (none
/// of the tests comes near it: quadratic convergence needs a handful).
pub const MAX_SWEEPS: usize = 30;

/// A checked batch: `count` matrices of rows × cols.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvdShape {
    pub count: usize,
    pub rows: usize,
    pub cols: usize,
}

impl SvdShape {
    /// Checks sizes given as JavaScript numbers: batch ≥ 1, 1 ≤ cols ≤ 16,
    /// cols ≤ rows ≤ 32.
    pub fn from_numbers(batch: f64, rows: f64, cols: f64) -> Result<SvdShape> {
        let count = batched::count(batch)?;
        let rows = batched::side("rows", rows)?;
        let cols = batched::side("cols", cols)?;
        if cols > MAX_COLS {
            return Err(GpgpuError::BadArgument {
                name: "cols".into(),
                detail: format!(
                    "is {cols}; the batched SVD takes at most {MAX_COLS} columns (one \
                     invocation per column): split wider matrices, or use fewer columns"
                ),
            });
        }
        if rows < cols {
            return Err(GpgpuError::BadArgument {
                name: "rows".into(),
                detail: format!(
                    "is {rows}, fewer than cols = {cols}: one-sided Jacobi needs rows >= \
                     cols. Pass the transpose (cols x rows) instead: if Aᵀ = U Σ Vᵀ then \
                     A = V Σ Uᵀ"
                ),
            });
        }
        Ok(SvdShape { count, rows, cols })
    }

    /// [`SvdShape::from_numbers`] for the Rust API's sizes.
    pub fn new(count: usize, rows: usize, cols: usize) -> Result<SvdShape> {
        SvdShape::from_numbers(count as f64, rows as f64, cols as f64)
    }

    /// Checks that `len` floats hold the batch.
    pub fn check_len(&self, name: &str, len: usize) -> Result<()> {
        batched::check_len(name, self.count, Shape::new(self.rows, self.cols), len)
    }

    /// Columns rounded up to even: an odd count gets a dummy column that pairs
    /// with each real one once per sweep and never rotates.
    pub fn even_cols(&self) -> usize {
        self.cols + self.cols % 2
    }

    /// Rounds of disjoint pairs per sweep.
    pub fn rounds(&self) -> usize {
        self.even_cols() - 1
    }
}

/// The partner of column `col` in round `round` of a sweep over `even` columns
/// (the circle method: column even − 1 stays put, the others turn). A partner of
/// `even − 1` for an odd number of real columns is the dummy. The shaders
/// compute the same formula (wgsl/svd/jacobi.wgsl, glsl/svd/common.glsl).
pub fn partner(round: usize, col: usize, even: usize) -> usize {
    let m = even - 1;
    if col == m {
        return round;
    }
    let p = (2 * round + 2 * m - col) % m;
    if p == col {
        m
    } else {
        p
    }
}

/// The pairs (p < q) of each round of one sweep over `cols` columns; pairs with
/// the dummy column are left out.
pub fn schedule(cols: usize) -> Vec<Vec<(usize, usize)>> {
    let even = cols + cols % 2;
    (0..even.saturating_sub(1))
        .map(|r| {
            (0..cols)
                .filter_map(|x| {
                    let y = partner(r, x, even);
                    (x < y && y < cols).then_some((x, y))
                })
                .collect()
        })
        .collect()
}

/// The arithmetic the algorithm needs, in float32 (what the GPU computes) or
/// float64 (the reference).
pub trait Real: Copy + PartialOrd + std::fmt::Debug {
    fn of(v: f64) -> Self;
    fn get(self) -> f64;
    fn zero() -> Self;
    fn one() -> Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn sqrt(self) -> Self;
    fn abs(self) -> Self;
}

macro_rules! real {
    ($t:ty) => {
        impl Real for $t {
            fn of(v: f64) -> Self {
                v as $t
            }
            fn get(self) -> f64 {
                self as f64
            }
            fn zero() -> Self {
                0.0
            }
            fn one() -> Self {
                1.0
            }
            fn add(self, o: Self) -> Self {
                self + o
            }
            fn sub(self, o: Self) -> Self {
                self - o
            }
            fn mul(self, o: Self) -> Self {
                self * o
            }
            fn div(self, o: Self) -> Self {
                self / o
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
        }
    };
}
real!(f32);
real!(f64);

/// The rotation (c, s) that makes columns with these α, β, γ orthogonal, or None
/// when they already are (to `tol`) or one of them is zero.
pub fn rotation<T: Real>(alpha: T, beta: T, gamma: T, tol: T) -> Option<(T, T)> {
    let z = T::zero();
    if !(alpha > z && beta > z) || gamma.abs() <= tol.mul(alpha.sqrt()).mul(beta.sqrt()) {
        return None;
    }
    let two = T::of(2.0);
    let zeta = beta.sub(alpha).div(two.mul(gamma));
    // 1 + ζ² overflows float32 past |ζ| ≈ 1.8e19, where t ≈ 1/(2ζ) anyway.
    let root = if zeta.abs() > T::of(1e15) {
        zeta.abs()
    } else {
        T::one().add(zeta.mul(zeta)).sqrt()
    };
    // sign(0) = +1: equal norms rotate by 45°.
    let sign = if zeta < z { T::of(-1.0) } else { T::one() };
    let t = sign.div(zeta.abs().add(root));
    let c = T::one().div(T::one().add(t.mul(t)).sqrt());
    Some((c, c.mul(t)))
}

/// One matrix's one-sided Jacobi: `a` (rows × cols, row-major) comes back with
/// orthogonal columns (A·V), with V (cols × cols) and the number of sweeps that
/// rotated something (at most `max_sweeps`).
pub fn jacobi<T: Real>(
    rows: usize,
    cols: usize,
    a: &mut [T],
    tol: T,
    max_sweeps: usize,
) -> (Vec<T>, usize) {
    let mut v = vec![T::zero(); cols * cols];
    for j in 0..cols {
        v[j * cols + j] = T::one();
    }
    let rounds = schedule(cols);
    let mut sweeps = 0;
    while sweeps < max_sweeps {
        let mut rotated = false;
        for round in &rounds {
            for &(p, q) in round {
                let (mut al, mut be, mut ga) = (T::zero(), T::zero(), T::zero());
                for i in 0..rows {
                    let (x, y) = (a[i * cols + p], a[i * cols + q]);
                    al = al.add(x.mul(x));
                    be = be.add(y.mul(y));
                    ga = ga.add(x.mul(y));
                }
                let Some((c, s)) = rotation(al, be, ga, tol) else {
                    continue;
                };
                rotated = true;
                for m in [&mut *a, &mut v[..]] {
                    for row in m.chunks_mut(cols) {
                        let (x, y) = (row[p], row[q]);
                        row[p] = c.mul(x).sub(s.mul(y));
                        row[q] = s.mul(x).add(c.mul(y));
                    }
                }
            }
        }
        if !rotated {
            break;
        }
        sweeps += 1;
    }
    (v, sweeps)
}

/// The order of the columns by σ decreasing (ties by index), as the shaders rank
/// them: column j goes to place #{k : σ_k > σ_j, or σ_k = σ_j and k < j}.
pub fn ranks<T: Real>(sigma: &[T]) -> Vec<usize> {
    (0..sigma.len())
        .map(|j| {
            (0..sigma.len())
                .filter(|&k| sigma[k] > sigma[j] || (sigma[k] == sigma[j] && k < j))
                .count()
        })
        .collect()
}

/// The sign of a pair (u_j, v_j): chosen so that the entry of v_j largest in
/// magnitude (the first of equals) is positive; the SVD is unique only up to
/// these signs, and fixing them makes results comparable.
pub fn sign<T: Real>(v_column: impl Iterator<Item = T>) -> T {
    let mut best = T::zero();
    for x in v_column {
        if x.abs() > best.abs() {
            best = x;
        }
    }
    if best < T::zero() {
        T::of(-1.0)
    } else {
        T::one()
    }
}

/// The SVD of one matrix: σ decreasing, U (rows × cols) and V (cols × cols)
/// row-major, and the sweeps run.
#[derive(Clone, Debug, PartialEq)]
pub struct One<T> {
    pub s: Vec<T>,
    pub u: Vec<T>,
    pub v: Vec<T>,
    pub sweeps: usize,
}

/// Singular values, U and V of one matrix from its rotated columns `a` and `v`:
/// σ_j = ‖a_j‖, U_j = a_j/σ_j (zero where σ_j = 0), sorted and signed as the GPU
/// does.
pub fn finish<T: Real>(rows: usize, cols: usize, a: &[T], v: &[T], sweeps: usize) -> One<T> {
    let sigma: Vec<T> = (0..cols)
        .map(|j| {
            (0..rows)
                .fold(T::zero(), |acc, i| {
                    acc.add(a[i * cols + j].mul(a[i * cols + j]))
                })
                .sqrt()
        })
        .collect();
    let rank = ranks(&sigma);
    let mut out = One {
        s: vec![T::zero(); cols],
        u: vec![T::zero(); rows * cols],
        v: vec![T::zero(); cols * cols],
        sweeps,
    };
    for j in 0..cols {
        let r = rank[j];
        let f = sign((0..cols).map(|i| v[i * cols + j]));
        out.s[r] = sigma[j];
        for i in 0..rows {
            out.u[i * cols + r] = if sigma[j] > T::zero() {
                f.mul(a[i * cols + j]).div(sigma[j])
            } else {
                T::zero()
            };
        }
        for i in 0..cols {
            out.v[i * cols + r] = f.mul(v[i * cols + j]);
        }
    }
    out
}

/// The SVD of one matrix in `T`, by the algorithm the GPU runs.
pub fn svd_one<T: Real>(rows: usize, cols: usize, a: &[f32], tol: T, max_sweeps: usize) -> One<T> {
    let mut work: Vec<T> = a.iter().map(|&x| T::of(x as f64)).collect();
    let (v, sweeps) = jacobi(rows, cols, &mut work, tol, max_sweeps);
    finish(rows, cols, &work, &v, sweeps)
}

/// The float64 reference of a batch: each matrix by the same algorithm, in float64,
/// to a tolerance of 1e-15.
pub fn reference(shape: SvdShape, a: &[f32]) -> Vec<One<f64>> {
    let n = shape.rows * shape.cols;
    a.chunks(n)
        .take(shape.count)
        .map(|m| svd_one(shape.rows, shape.cols, m, 1e-15, 100))
        .collect()
}

/// A batch's SVD: singular values decreasing (count·cols), U (count·rows·cols), V
/// (count·cols·cols), all row-major, matrix after matrix, and per matrix the number
/// of sweeps that rotated a pair ([`MAX_SWEEPS`] when the cap stopped it).
#[derive(Clone, Debug, PartialEq)]
pub struct Svd {
    pub s: Vec<f32>,
    pub u: Vec<f32>,
    pub v: Vec<f32>,
    pub sweeps: Vec<u32>,
}

/// The batch as the kernels decompose it. Jacobi squares column norms (α = Σ a²),
/// which overflow float32 from entries of about 1.8e19 (σ and U came back non-finite
/// near 3e38) and underflow below about 1e-19; a matrix whose largest |entry| lies
/// outside [2^-40, 2^40] is scaled by a power of two (exact) to a largest |entry| in
/// [0.5, 1), and its σ scaled back. U and V do not change with the scale. Every other
/// batch is decomposed as given, bit for bit, with no copy.
#[derive(Clone, Debug, PartialEq)]
pub struct Scaling {
    /// Per matrix: its entries were multiplied by 2^-e. Empty: none scaled.
    exponents: Vec<i32>,
    scaled: Vec<f32>,
}

/// Largest |entry| exponents kept as given: α ≤ 32 · 2^80 and the smallest
/// squares of interest stay normal float32.
const KEPT: std::ops::RangeInclusive<i32> = -40..=40;

impl Scaling {
    /// The scaling of the batch `a` of `shape`; OUT_OF_MEMORY where WebAssembly
    /// memory cannot give the scaled copy.
    pub fn of(shape: SvdShape, a: &[f32]) -> Result<Scaling> {
        let size = shape.rows * shape.cols;
        let exponents: Vec<i32> = a
            .chunks(size)
            .take(shape.count)
            .map(|m| {
                // NaN is skipped by max; an infinite matrix stays as it is.
                let max = m.iter().fold(0f32, |x, v| x.max(v.abs()));
                match max.is_finite() && max > 0.0 {
                    true => (max as f64).log2().floor() as i32 + 1,
                    false => 0,
                }
            })
            .collect();
        if exponents.iter().all(|e| KEPT.contains(e)) {
            return Ok(Scaling {
                exponents: vec![],
                scaled: vec![],
            });
        }
        let mut scaled = crate::error::room(a.len(), || {
            format!(
                "the scaled copy of {} {}x{} matrices",
                shape.count, shape.rows, shape.cols
            )
        })?;
        for (m, &e) in a.chunks(size).zip(&exponents) {
            let f = 2f64.powi(-e);
            scaled.extend(m.iter().map(|&v| (v as f64 * f) as f32));
        }
        Ok(Scaling { exponents, scaled })
    }

    /// What the kernels decompose: `a` itself, or its scaled copy.
    pub fn input<'a>(&'a self, a: &'a [f32]) -> &'a [f32] {
        match self.exponents.is_empty() {
            true => a,
            false => &self.scaled,
        }
    }

    /// The SVD of the batch as given, from the one of [`Scaling::input`]: each σ
    /// times 2^e (infinite where the true σ is past float32's range).
    pub fn restore(&self, mut svd: Svd, cols: usize) -> Svd {
        for (s, &e) in svd.s.chunks_mut(cols).zip(&self.exponents) {
            let f = 2f64.powi(e);
            for x in s {
                *x = (*x as f64 * f) as f32;
            }
        }
        svd
    }
}

/// What the SVD kernels are told, and the atlases they work on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvdPlan {
    pub shape: SvdShape,
    /// The inputs, rows × cols tiles (WebGPU reads them).
    pub input: Atlas,
    /// The working tiles [A; V], (rows + cols) × cols (WebGL's passes).
    pub work: Atlas,
    /// The results [U; V; σᵀ], (rows + cols + 1) × cols.
    pub out: Atlas,
    /// A round's rotations, one float per column, 1 × cols (WebGL).
    pub rotations: Atlas,
    /// One float per matrix (WebGL's convergence measure; WebGPU's sweep counts).
    pub scalars: Atlas,
    /// Matrices per WebGPU workgroup, one invocation per column.
    pub per_group: usize,
}

/// Invocations of a WebGPU workgroup (wgsl/svd/jacobi.wgsl's GROUP, where the
/// measurements that chose it are).
pub const GROUP_SIZE: usize = 32;

impl SvdPlan {
    /// The plan of `shape` with atlases at most `width` entries wide.
    pub fn new(shape: SvdShape, width: usize) -> SvdPlan {
        let (r, c) = (shape.rows, shape.cols);
        SvdPlan {
            shape,
            input: Atlas::new(Shape::new(r, c), width),
            work: Atlas::new(Shape::new(r + c, c), width),
            out: Atlas::new(Shape::new(r + c + 1, c), width),
            rotations: Atlas::new(Shape::new(1, c), width),
            scalars: Atlas::new(Shape::new(1, 1), width),
            per_group: GROUP_SIZE / c,
        }
    }

    /// Workgroups of the one-dispatch form.
    pub fn groups(&self) -> usize {
        self.shape.count.div_ceil(self.per_group)
    }

    /// Each matrix as the working tile [A; I], one after another.
    pub fn augmented(&self, a: &[f32]) -> Result<Vec<f32>> {
        let SvdShape { count, rows, cols } = self.shape;
        let mut out = crate::error::room(count * (rows + cols) * cols, || {
            format!("the {count} stacked [A; V] of {}x{cols}", rows + cols)
        })?;
        for m in a.chunks(rows * cols).take(count) {
            out.extend_from_slice(m);
            for i in 0..cols {
                out.extend((0..cols).map(|j| if i == j { 1.0 } else { 0.0 }));
            }
        }
        Ok(out)
    }

    /// The results from the result tiles (unpacked, one after another).
    pub fn split(&self, tiles: &[f32], sweeps: Vec<u32>) -> Svd {
        let SvdShape { count, rows, cols } = self.shape;
        let tile = (rows + cols + 1) * cols;
        let mut out = Svd {
            s: Vec::with_capacity(count * cols),
            u: Vec::with_capacity(count * rows * cols),
            v: Vec::with_capacity(count * cols * cols),
            sweeps,
        };
        for t in tiles.chunks(tile).take(count) {
            out.u.extend_from_slice(&t[..rows * cols]);
            out.v
                .extend_from_slice(&t[rows * cols..(rows + cols) * cols]);
            out.s.extend_from_slice(&t[(rows + cols) * cols..]);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random;

    #[test]
    fn sizes_are_checked() {
        assert!(SvdShape::new(1, 32, 16).is_ok());
        assert!(SvdShape::new(3, 1, 1).is_ok());
        let code = |r: Result<SvdShape>| r.unwrap_err().code();
        assert_eq!(code(SvdShape::new(0, 3, 3)), "BAD_COUNT");
        assert_eq!(code(SvdShape::new(1, 17, 17)), "BAD_ARGUMENT");
        assert_eq!(code(SvdShape::new(1, 33, 3)), "BAD_ARGUMENT");
        assert_eq!(code(SvdShape::new(1, 3, 5)), "BAD_ARGUMENT");
        assert_eq!(code(SvdShape::new(1, 0, 0)), "BAD_DIMENSION");
        let e = SvdShape::new(1, 3, 5).unwrap_err().to_string();
        assert!(e.contains("transpose"), "{e}");
        let e = SvdShape::new(1, 20, 17).unwrap_err().to_string();
        assert!(e.contains("at most 16"), "{e}");
        let s = SvdShape::new(2, 3, 2).unwrap();
        assert!(s.check_len("a", 12).is_ok());
        assert_eq!(s.check_len("a", 11).unwrap_err().code(), "BAD_LENGTH");
    }

    #[test]
    fn each_sweep_pairs_every_two_columns_once_in_disjoint_rounds() {
        for cols in 1..=MAX_COLS {
            let rounds = schedule(cols);
            assert_eq!(rounds.len(), (cols + cols % 2).saturating_sub(1));
            let mut seen = std::collections::HashSet::new();
            for round in &rounds {
                let mut used = std::collections::HashSet::new();
                for &(p, q) in round {
                    assert!(p < q && q < cols);
                    assert!(used.insert(p) && used.insert(q), "{cols}: {round:?}");
                    assert!(seen.insert((p, q)), "{cols}: ({p}, {q}) twice");
                }
            }
            assert_eq!(seen.len(), cols * (cols - 1) / 2, "{cols} columns");
            // The partner relation is symmetric, as both ends of a pair rely on.
            let even = cols + cols % 2;
            for r in 0..even - 1 {
                for x in 0..even {
                    assert_eq!(partner(r, partner(r, x, even), even), x);
                    assert_ne!(partner(r, x, even), x);
                }
            }
        }
    }

    /// ‖A − UΣVᵀ‖_F/‖A‖_F, ‖UᵀU − I‖_F over columns with σ > 0, ‖VᵀV − I‖_F.
    fn errors<T: Real>(rows: usize, cols: usize, a: &[f32], r: &One<T>) -> [f64; 3] {
        let g = |m: &[T], i: usize| m[i].get();
        let (mut num, mut den) = (0.0, 0.0);
        for i in 0..rows {
            for j in 0..cols {
                let x: f64 = (0..cols)
                    .map(|k| g(&r.u, i * cols + k) * g(&r.s, k) * g(&r.v, j * cols + k))
                    .sum();
                num += (a[i * cols + j] as f64 - x).powi(2);
                den += (a[i * cols + j] as f64).powi(2);
            }
        }
        let gram = |m: &[T], n: usize, keep: &dyn Fn(usize) -> bool| {
            let mut e = 0.0;
            for p in (0..cols).filter(|&p| keep(p)) {
                for q in (0..cols).filter(|&q| keep(q)) {
                    let d: f64 = (0..n)
                        .map(|i| g(m, i * cols + p) * g(m, i * cols + q))
                        .sum();
                    e += (d - if p == q { 1.0 } else { 0.0 }).powi(2);
                }
            }
            e.sqrt()
        };
        let positive = |p: usize| g(&r.s, p) > 0.0;
        [
            if den > 0.0 {
                (num / den).sqrt()
            } else {
                num.sqrt()
            },
            gram(&r.u, rows, &positive),
            gram(&r.v, cols, &|_| true),
        ]
    }

    #[test]
    fn the_reference_decomposes_and_sorts() {
        let a = [3.0, 0.0, 0.0, -5.0, 0.0, 0.0];
        let r = svd_one::<f64>(3, 2, &a, 1e-15, 100);
        assert_eq!(r.s, [5.0, 3.0]);
        // Swapped and signed: v_1 = (0, 1) after the sign rule, u_1 = (0, -1, 0).
        assert_eq!(r.v, [0.0, 1.0, 1.0, 0.0]);
        assert_eq!(r.u, [0.0, 1.0, -1.0, 0.0, 0.0, 0.0]);
        assert_eq!(r.sweeps, 0);
        for (rows, cols) in [(1, 1), (2, 2), (3, 3), (9, 9), (12, 7), (32, 16), (16, 16)] {
            let a = random::uniform(rows as u32 * 100 + cols as u32, rows * cols, -1.0, 1.0);
            let r = svd_one::<f64>(rows, cols, &a, 1e-15, 100);
            let e = errors(rows, cols, &a, &r);
            assert!(e.iter().all(|&x| x < 1e-13), "{rows}x{cols}: {e:?}");
            assert!(r.s.windows(2).all(|w| w[0] >= w[1]));
        }
    }

    /// What float32 reaches with TOL: the GPU's arithmetic, emulated, on uniform
    /// matrices (printed with --nocapture). Measured: reconstruction ≤ 2.2e-6,
    /// UᵀU ≤ 4.3e-6, VᵀV ≤ 7.2e-6, |Δσ_k| ≤ 4e-6·σ_max; sweeps 1 (2×2), 2-3 (3×3),
    /// 4-5 (9×9), 4-5 (12×7), 5-6 (32×16, 16×16).
    #[test]
    fn float32_jacobi_meets_the_stated_tolerances() {
        for (rows, cols) in [(2, 2), (3, 3), (9, 9), (12, 7), (32, 16), (16, 16), (32, 1)] {
            let mut worst = [0f64; 4];
            let mut sweeps = vec![];
            for seed in 0..20 {
                let a = random::uniform(seed * 7 + rows as u32, rows * cols, -1.0, 1.0);
                let r = svd_one::<f32>(rows, cols, &a, TOL, MAX_SWEEPS);
                let want = svd_one::<f64>(rows, cols, &a, 1e-15, 100);
                let e = errors(rows, cols, &a, &r);
                // Float32 gets each σ to a few ulps of σ_max (not of σ_k: 16×16
                // uniform matrices reach condition numbers of 1e3).
                let s = (0..cols)
                    .map(|k| (r.s[k] as f64 - want.s[k]).abs() / want.s[0])
                    .fold(0.0, f64::max);
                for (w, x) in worst.iter_mut().zip(e.iter().chain([&s])) {
                    *w = w.max(*x);
                }
                sweeps.push(r.sweeps);
            }
            println!("{rows}x{cols}: worst [A, U, V, σ] errors {worst:?}, sweeps {sweeps:?}");
            assert!(worst.iter().all(|&x| x <= 1e-5), "{rows}x{cols}: {worst:?}");
            assert!(sweeps.iter().all(|&s| s < MAX_SWEEPS), "{sweeps:?}");
        }
    }

    #[test]
    fn zero_and_rank_deficient_matrices() {
        let r = svd_one::<f32>(3, 3, &[0.0; 9], TOL, MAX_SWEEPS);
        assert_eq!(r.s, [0.0; 3]);
        assert_eq!(r.u, [0.0; 9]);
        assert_eq!(r.v, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(r.sweeps, 0);
        // Two equal columns: one singular value is zero.
        let a = [1.0, 1.0, 2.0, 2.0, 3.0, 3.0];
        let r = svd_one::<f32>(3, 2, &a, TOL, MAX_SWEEPS);
        assert!((r.s[0] as f64 - 28f64.sqrt()).abs() < 1e-5, "{:?}", r.s);
        assert!(r.s[1] < 1e-6, "{:?}", r.s);
    }

    #[test]
    fn matrices_near_float32s_ends_are_scaled_and_their_sigma_restored() {
        let shape = SvdShape::new(3, 3, 2).unwrap();
        let base: Vec<f32> = (0..6).map(|v| v as f32 - 2.5).collect();
        let mut a = base.clone();
        a.extend(base.iter().map(|v| v * 1e37));
        a.extend(base.iter().map(|v| v * 1e-30));
        let scaling = Scaling::of(shape, &a).unwrap();
        assert_eq!(scaling.exponents, [2, 125, -98]);
        let input = scaling.input(&a);
        // Each matrix times 2^-e, exactly, its largest |entry| now in [0.5, 1).
        for (k, &e) in scaling.exponents.iter().enumerate() {
            let m = &input[6 * k..6 * k + 6];
            for (x, y) in m.iter().zip(&a[6 * k..6 * k + 6]) {
                assert_eq!(*x as f64, *y as f64 / 2f64.powi(e));
            }
            let max = m.iter().fold(0f32, |x, v| x.max(v.abs()));
            assert!((0.5..1.0).contains(&max), "{k}: {max}");
        }
        let mut svd = Svd {
            s: vec![1.0, 0.5, 1.0, 0.5, 1.0, 0.5],
            u: vec![],
            v: vec![],
            sweeps: vec![],
        };
        svd = scaling.restore(svd, 2);
        assert_eq!(
            svd.s,
            [
                4.0,
                2.0,
                2f32.powi(125),
                2f32.powi(124),
                2f32.powi(-98),
                2f32.powi(-99)
            ]
        );
        // Ordinary batches go through as given, with no copy.
        let plain = Scaling::of(shape, &base.repeat(3)).unwrap();
        assert!(plain.exponents.is_empty() && plain.scaled.is_empty());
    }

    #[test]
    fn tiles_pack_and_split() {
        let plan = SvdPlan::new(SvdShape::new(2, 2, 1).unwrap(), 4096);
        assert_eq!(
            plan.augmented(&[1.0, 2.0, 3.0, 4.0]).unwrap(),
            [1.0, 2.0, 1.0, 3.0, 4.0, 1.0]
        );
        assert_eq!(plan.per_group, 32);
        let tiles = [0.6, 0.8, 1.0, 5.0, /* second */ 1.0, 0.0, -1.0, 2.0];
        let svd = plan.split(&tiles, vec![1, 0]);
        assert_eq!(svd.u, [0.6, 0.8, 1.0, 0.0]);
        assert_eq!(svd.v, [1.0, -1.0]);
        assert_eq!(svd.s, [5.0, 2.0]);
        let nine = SvdPlan::new(SvdShape::new(1000, 9, 9).unwrap(), 4096);
        assert_eq!((nine.per_group, nine.groups()), (3, 334));
    }
}
