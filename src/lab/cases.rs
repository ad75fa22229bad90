//! The seeded cases of a lab check, their float64 references and the comparison of
//! a learner's result with them, element by element (the first wrong element is
//! what a learner needs, not a norm).

use super::Exercise;
use crate::plan::random;
use crate::plan::reference;
use crate::plan::semiring::{Semiring, NO_EDGE};

/// Relative tolerance of a float case: an element may be off by this share of
/// Σ_k |a_ik·b_kj| (min-plus: of |want|), the scale of float32 rounding in a sum
/// of products. The library's own tests ask 1e-5 of the relative Frobenius error.
pub const TOLERANCE: f64 = 1e-5;

/// A min-plus result at least this large reads as "no edge" (half of NO_EDGE: a
/// weight added to "no edge" stays above it).
pub const NO_EDGE_FROM: f64 = 5e29;

/// One case: its shape and inputs, seeded.
pub struct Case {
    pub dims: [usize; 3],
    /// Small whole numbers, whose products and sums float32 holds exactly.
    pub integers: bool,
    pub a: Vec<f32>,
    pub b: Vec<f32>,
}

/// How a case went.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub dims: [usize; 3],
    pub max_abs_error: f64,
    /// The largest error as a share of its element's scale (see [`TOLERANCE`]).
    pub max_rel_error: f64,
    pub tolerance: f64,
    /// (i, j, got, want) of the first element, row-major, outside the tolerance.
    pub first_wrong: Option<(usize, usize, f32, f64)>,
    pub nondeterministic: bool,
    /// Each element's error over its scale (NaN where nothing was written; 0 for
    /// two "no edge"s): what the heatmap shows. Empty when the case passed.
    pub errors: Vec<f32>,
    /// The stored nonzeros of an spmv case's matrix (its label is rows × cols, nnz).
    pub nnz: Option<usize>,
}

impl Outcome {
    pub fn passed(&self) -> bool {
        self.first_wrong.is_none() && !self.nondeterministic
    }
}

/// The shapes an exercise is checked at, in order: n = 1, odd and non-square
/// sizes, sizes off 16 and off the learner's `tile`, small integers, one large.
pub fn shapes(ex: Exercise, [tile_rows, tile_cols]: [usize; 2]) -> Vec<([usize; 3], bool)> {
    if ex == Exercise::Square {
        return [
            (1, false),
            (3, false),
            (17, false),
            (30, true),
            (257, false),
        ]
        .map(|(n, int)| ([n; 3], int))
        .to_vec();
    }
    vec![
        ([1, 1, 1], false),
        ([3, 5, 2], false),
        ([17, 33, 9], false),
        ([2 * tile_rows + 1, 37, 3 * tile_cols + 1], false),
        ([20, 31, 24], true),
        ([257, 200, 263], false),
    ]
}

/// The inputs of case `index` of shape `dims`.
pub fn case(ex: Exercise, index: usize, (dims, integers): ([usize; 3], bool)) -> Case {
    let [rows, inner, cols] = dims;
    let seed = 1000 + 2 * index as u32;
    let (la, lb) = (
        rows * inner,
        if ex == Exercise::Square {
            0
        } else {
            inner * cols
        },
    );
    let draw = |seed: u32, len: usize| match ex.semiring() {
        Semiring::Ordinary if integers => random::integers(seed, len, -3, 3),
        Semiring::Ordinary => random::uniform(seed, len, -1.0, 1.0),
        // About 1.5 edges per row, so that some pairs are reachable and some not.
        Semiring::Boolean => {
            let p = (1.5 / inner as f64).clamp(0.05, 0.5);
            let u = random::uniform(seed, len, 0.0, 1.0);
            u.iter().map(|&v| ((v as f64) < p) as u8 as f32).collect()
        }
        Semiring::MinPlus => {
            let w = if integers {
                random::integers(seed, len, 1, 9)
            } else {
                random::uniform(seed, len, 0.0, 10.0)
            };
            let edge = random::uniform(seed + 7919, len, 0.0, 1.0);
            w.iter()
                .zip(edge)
                .map(|(&w, e)| if e < 0.3 { NO_EDGE } else { w })
                .collect()
        }
    };
    let a = draw(seed, la);
    let b = if ex == Exercise::Square {
        a.clone()
    } else {
        draw(seed + 1, lb)
    };
    Case {
        dims,
        integers,
        a,
        b,
    }
}

/// Compares `got` (the first run) with the float64 reference; `again` is the
/// second run, which must be the same bits.
pub fn compare(ex: Exercise, case: &Case, got: &[f32], again: &[f32]) -> Outcome {
    let [rows, inner, cols] = case.dims;
    let sr = ex.semiring();
    let (a, b) = (reference::to_f64(&case.a), reference::to_f64(&case.b));
    let want = reference::multiply(sr, rows, inner, cols, &a, &b);
    let scale = match sr {
        Semiring::Ordinary => {
            let abs = |m: &[f64]| m.iter().map(|v| v.abs()).collect::<Vec<_>>();
            reference::multiply(sr, rows, inner, cols, &abs(&a), &abs(&b))
        }
        _ => want.iter().map(|w| w.abs()).collect(),
    };
    let exact = case.integers || sr == Semiring::Boolean;
    judge(case.dims, sr, exact, &want, &scale, got, again)
}

/// Compares `got` (the first run, `dims[0]` × `dims[2]` row-major) with `want`
/// element by element, each within the tolerance of its `scale` (exact: equal);
/// `again` is the second run, which must be the same bits.
pub fn judge(
    dims: [usize; 3],
    sr: Semiring,
    exact: bool,
    want: &[f64],
    scale: &[f64],
    got: &[f32],
    again: &[f32],
) -> Outcome {
    let cols = dims[2];
    let tolerance = if exact { 0.0 } else { TOLERANCE };
    let (mut max_abs, mut max_rel) = (0.0f64, 0.0f64);
    let mut first_wrong = None;
    let mut errors = Vec::with_capacity(got.len());
    for (idx, (&g, &w)) in got.iter().zip(want).enumerate() {
        let (abs, rel) = if sr == Semiring::MinPlus && w >= NO_EDGE_FROM {
            // "No edge" wanted: any result past the threshold is right.
            let e = if g as f64 >= NO_EDGE_FROM {
                0.0
            } else {
                f64::INFINITY
            };
            (e, e)
        } else if g.is_nan() {
            (f64::NAN, f64::NAN)
        } else {
            let abs = (g as f64 - w).abs();
            (
                abs,
                if scale[idx] > 0.0 {
                    abs / scale[idx]
                } else {
                    abs
                },
            )
        };
        max_abs = max_abs.max(abs);
        max_rel = max_rel.max(rel);
        // NaN fails both comparisons: an unwritten element is wrong.
        let right = if exact { abs == 0.0 } else { rel <= tolerance };
        if !right && first_wrong.is_none() {
            first_wrong = Some((idx / cols, idx % cols, g, w));
        }
        errors.push(rel as f32);
    }
    if got.iter().any(|v| v.is_nan()) {
        (max_abs, max_rel) = (f64::NAN, f64::NAN);
    }
    let nondeterministic = got
        .iter()
        .zip(again)
        .any(|(x, y)| x.to_bits() != y.to_bits() && !(x.is_nan() && y.is_nan()));
    let mut outcome = Outcome {
        dims,
        max_abs_error: max_abs,
        max_rel_error: max_rel,
        tolerance,
        first_wrong,
        nondeterministic,
        errors,
        nnz: None,
    };
    if outcome.passed() {
        outcome.errors = Vec::new();
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    fn product(a: &[f32], b: &[f32], [rows, inner, cols]: [usize; 3]) -> Vec<f32> {
        let mut c = vec![0.0; rows * cols];
        for i in 0..rows {
            for j in 0..cols {
                c[i * cols + j] = (0..inner).map(|k| a[i * inner + k] * b[k * cols + j]).sum();
            }
        }
        c
    }

    #[test]
    fn a_float32_product_passes_and_a_changed_element_is_the_first_wrong() {
        for (index, shape) in shapes(Exercise::Global, [8, 8]).into_iter().enumerate() {
            let case = case(Exercise::Global, index, shape);
            let got = product(&case.a, &case.b, case.dims);
            let o = compare(Exercise::Global, &case, &got, &got);
            assert!(o.passed(), "{o:?}");
            assert!(o.errors.is_empty());
            let mut bad = got.clone();
            let last = bad.len() - 1;
            bad[last] = f32::NAN;
            let o = compare(Exercise::Global, &case, &bad, &bad);
            let [rows, _, cols] = case.dims;
            assert_eq!(
                o.first_wrong.map(|w| (w.0, w.1)),
                Some((rows - 1, cols - 1))
            );
            assert!(o.max_abs_error.is_nan());
            assert_eq!(o.errors.len(), rows * cols);
        }
    }

    #[test]
    fn runs_that_differ_are_nondeterministic_and_integers_are_exact() {
        let shape = shapes(Exercise::Global, [8, 8])[4];
        assert!(shape.1, "the integer case");
        let case = case(Exercise::Global, 4, shape);
        let got = product(&case.a, &case.b, case.dims);
        let mut other = got.clone();
        other[3] += 1.0;
        let o = compare(Exercise::Global, &case, &got, &other);
        assert!(o.nondeterministic && o.first_wrong.is_none() && !o.passed());
        let mut off = got.clone();
        off[2] += 1e-6 * off[2].abs().max(1.0);
        let o = compare(Exercise::Global, &case, &off, &off);
        assert_eq!(o.tolerance, 0.0);
        assert_eq!(o.first_wrong.map(|w| w.1), Some(2));
    }

    #[test]
    fn min_plus_reads_large_results_as_no_edge() {
        let shape = shapes(Exercise::MinPlus, [8, 8])[2];
        let case = case(Exercise::MinPlus, 2, shape);
        assert!(case.a.contains(&NO_EDGE) && case.a.iter().any(|&v| v < 10.0));
        let [rows, inner, cols] = case.dims;
        let mut got = vec![0.0; rows * cols];
        for i in 0..rows {
            for j in 0..cols {
                got[i * cols + j] = (0..inner)
                    .map(|k| case.a[i * inner + k] + case.b[k * cols + j])
                    .fold(NO_EDGE, f32::min);
            }
        }
        assert!(compare(Exercise::MinPlus, &case, &got, &got).passed());
        let zeros = vec![0.0; rows * cols];
        let o = compare(Exercise::MinPlus, &case, &zeros, &zeros);
        assert_eq!(o.first_wrong.map(|w| (w.0, w.1)), Some((0, 0)));
    }
}
