//! Homographies by RANSAC, the pure part (the developer's log): argument checks,
//! the seeded 4-point samples, Hartley normalisation, the DLT with h₃₃ = 1 solved
//! exactly (8×8, partial pivoting), scoring by reprojection error, the least-squares
//! refit on the inliers, and a float64 RANSAC doing the same steps as the GPU, for
//! the tests. Tested natively.
//!
//! A homography H (3×3, row-major, h₃₃ = 1) maps a point (x, y) to
//! ((h₀x + h₁y + h₂)/w, (h₃x + h₄y + h₅)/w) with w = h₆x + h₇y + h₈.

use crate::error::{GpgpuError, Result};
use crate::linalg::gaussian_solve;
use crate::random::Mulberry32;

/// What RANSAC's GPU passes are told: how many hypotheses and correspondences,
/// the width of the lists (x, y, u, v per correspondence; 4 sample indices and 9
/// entries of H per hypothesis, as rows of `width` floats), the threshold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RansacPasses {
    pub count: usize,
    pub points: usize,
    pub width: usize,
    pub threshold: f32,
}

impl RansacPasses {
    /// A list of `len` floats as a matrix `width` wide (a width of 0 taken as 1,
    /// where it divided by zero).
    pub fn list(&self, len: usize) -> crate::shape::Shape {
        crate::sparse::list_shape(len, self.width)
    }
}

/// Settings of a RANSAC run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RansacOptions {
    /// Hypotheses drawn, all scored in one GPU batch.
    pub iterations: usize,
    /// A correspondence is an inlier when its reprojection error is at most this.
    pub threshold: f64,
    /// Seed of the 4-point samples.
    pub seed: u32,
}

impl Default for RansacOptions {
    fn default() -> Self {
        RansacOptions {
            iterations: 2000,
            threshold: 3.0,
            seed: 1,
        }
    }
}

/// The most hypotheses in one batch.
pub const MAX_ITERATIONS: usize = 1 << 20;

/// The correspondences of `src` and `dst` given their lengths: as many of each, an
/// even count, at least 4 points. Checkable before the arrays are read.
pub fn check_counts(src: usize, dst: usize) -> Result<usize> {
    if src != dst {
        return Err(GpgpuError::BadArgument {
            name: "dst".into(),
            detail: format!(
                "src has {src} numbers and dst {dst}: give one destination point per source point"
            ),
        });
    }
    if src % 2 != 0 {
        return Err(GpgpuError::BadArgument {
            name: "src".into(),
            detail: format!("has {src} numbers: points are [x0, y0, x1, y1, …], so an even count"),
        });
    }
    let n = src / 2;
    if n < 4 {
        return Err(GpgpuError::BadArgument {
            name: "src".into(),
            detail: format!("has {n} points: a homography needs at least 4 correspondences"),
        });
    }
    Ok(n)
}

/// Checks `src` and `dst` ([x0, y0, x1, y1, …]): the same length, an even one, at
/// least 4 points, every coordinate finite. Returns the number of points.
pub fn check_points(src: &[f32], dst: &[f32]) -> Result<usize> {
    let n = check_counts(src.len(), dst.len())?;
    for (name, pts) in [("src", src), ("dst", dst)] {
        if let Some(i) = pts.iter().position(|v| !v.is_finite()) {
            return Err(GpgpuError::BadArgument {
                name: name.into(),
                detail: format!(
                    "coordinate {i} (point {}) is {}: every coordinate must be a finite number",
                    i / 2,
                    crate::decimal::display(pts[i])
                ),
            });
        }
    }
    Ok(n)
}

/// Checks the options a caller gave.
pub fn check_options(o: &RansacOptions) -> Result<()> {
    if o.iterations == 0 || o.iterations > MAX_ITERATIONS {
        return Err(GpgpuError::BadArgument {
            name: "options.iterations".into(),
            detail: format!(
                "is {}; give a whole number from 1 to {MAX_ITERATIONS}",
                o.iterations
            ),
        });
    }
    if !(o.threshold.is_finite() && o.threshold > 0.0) {
        return Err(GpgpuError::BadArgument {
            name: "options.threshold".into(),
            detail: format!(
                "is {}; give a positive reprojection error in the points' units",
                crate::decimal::display(o.threshold)
            ),
        });
    }
    Ok(())
}

/// `iterations` samples of 4 distinct point indices (of `n`), from `seed`. n from 4
/// to u32::MAX (fewer points have no 4 distinct ones: n = 0 divided by zero and 1 to 3
/// looped forever; the indices are u32) and iterations from 1 to [`MAX_ITERATIONS`]
/// (as [`check_options`] takes them), else BAD_ARGUMENT.
pub fn samples(n: usize, iterations: usize, seed: u32) -> Result<Vec<[u32; 4]>> {
    if !(4..=u32::MAX as usize).contains(&n) {
        return Err(GpgpuError::BadArgument {
            name: "n".into(),
            detail: format!(
                "is {n}: a sample is 4 distinct points of n, so n is a whole number from 4 \
                 to {} (the points' indices are u32)",
                u32::MAX
            ),
        });
    }
    check_options(&RansacOptions {
        iterations,
        ..Default::default()
    })?;
    let mut rng = Mulberry32::new(seed);
    Ok((0..iterations)
        .map(|_| {
            let mut s = [0u32; 4];
            let mut k = 0;
            while k < 4 {
                let i = (rng.next_f64() * n as f64) as u32 % n as u32;
                if !s[..k].contains(&i) {
                    s[k] = i;
                    k += 1;
                }
            }
            s
        })
        .collect())
}

/// Hartley normalisation of points: the similarity T that moves their centroid to
/// the origin and their mean distance from it to √2, as (scale, tx, ty) with
/// T·(x, y) = (scale·x + tx, scale·y + ty).
pub fn normalisation(points: &[[f64; 2]]) -> (f64, f64, f64) {
    let n = points.len() as f64;
    let (cx, cy) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), p| (a + p[0], b + p[1]));
    let (cx, cy) = (cx / n, cy / n);
    let mean = points
        .iter()
        .map(|p| ((p[0] - cx).powi(2) + (p[1] - cy).powi(2)).sqrt())
        .sum::<f64>()
        / n;
    let scale = if mean > 0.0 {
        std::f64::consts::SQRT_2 / mean
    } else {
        1.0
    };
    (scale, -scale * cx, -scale * cy)
}

/// `p` moved by the normalisation `(scale, tx, ty)` of [`normalisation`].
pub fn normalise((s, tx, ty): (f64, f64, f64), p: [f64; 2]) -> [f64; 2] {
    [s * p[0] + tx, s * p[1] + ty]
}

/// The two DLT rows of a correspondence (x, y) → (u, v) with h₃₃ = 1: the left
/// sides (8 each) and right sides.
pub fn dlt_rows([x, y]: [f64; 2], [u, v]: [f64; 2]) -> [([f64; 8], f64); 2] {
    [
        ([x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y], u),
        ([0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y], v),
    ]
}

/// H = T_dst⁻¹ · Ĥ · T_src, scaled to h₃₃ = 1 (None if h₃₃ is 0).
pub fn denormalise(
    h: &[f64; 9],
    (s1, tx1, ty1): (f64, f64, f64),
    (s2, tx2, ty2): (f64, f64, f64),
) -> Option<[f64; 9]> {
    let t1 = [s1, 0.0, tx1, 0.0, s1, ty1, 0.0, 0.0, 1.0];
    let t2_inv = [
        1.0 / s2,
        0.0,
        -tx2 / s2,
        0.0,
        1.0 / s2,
        -ty2 / s2,
        0.0,
        0.0,
        1.0,
    ];
    let m = |a: &[f64; 9], b: &[f64; 9]| {
        let mut c = [0.0; 9];
        for i in 0..3 {
            for j in 0..3 {
                c[i * 3 + j] = (0..3).map(|k| a[i * 3 + k] * b[k * 3 + j]).sum();
            }
        }
        c
    };
    let h = m(&t2_inv, &m(h, &t1));
    if h[8].abs() < 1e-12 {
        return None;
    }
    Some(h.map(|v| v / h[8]))
}

/// Whether three of the points are (nearly) collinear, relative to their spread:
/// such a sample does not determine a homography.
pub fn degenerate(points: &[[f64; 2]; 4]) -> bool {
    let cross = |a: [f64; 2], b: [f64; 2], c: [f64; 2]| {
        ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])).abs()
    };
    let spread = points
        .iter()
        .flat_map(|p| {
            points
                .iter()
                .map(move |q| (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2))
        })
        .fold(0.0, f64::max);
    let [a, b, c, d] = *points;
    [
        cross(a, b, c),
        cross(a, b, d),
        cross(a, c, d),
        cross(b, c, d),
    ]
    .iter()
    .any(|&x| x <= 1e-6 * spread)
}

/// The homography of correspondences by the normalised DLT with h₃₃ = 1, solved
/// in the least-squares sense (exactly for 4 points): None for a degenerate set.
pub fn fit(src: &[[f64; 2]], dst: &[[f64; 2]]) -> Option<[f64; 9]> {
    if src.len() == 4
        && (degenerate(&[src[0], src[1], src[2], src[3]])
            || degenerate(&[dst[0], dst[1], dst[2], dst[3]]))
    {
        return None;
    }
    let (t1, t2) = (normalisation(src), normalisation(dst));
    // Normal equations AᵀA h = Aᵀb (for 4 points A is square and this is A h = b).
    let mut ata = [0.0; 64];
    let mut atb = [0.0; 8];
    for (p, q) in src.iter().zip(dst) {
        for (row, rhs) in dlt_rows(normalise(t1, *p), normalise(t2, *q)) {
            for i in 0..8 {
                atb[i] += row[i] * rhs;
                for j in 0..8 {
                    ata[i * 8 + j] += row[i] * row[j];
                }
            }
        }
    }
    let h = gaussian_solve(8, &ata, &atb)?;
    let mut full = [1.0; 9];
    full[..8].copy_from_slice(&h);
    denormalise(&full, t1, t2)
}

/// Where H takes (x, y); None when it sends it to infinity.
pub fn apply(h: &[f64; 9], [x, y]: [f64; 2]) -> Option<[f64; 2]> {
    let w = h[6] * x + h[7] * y + h[8];
    if w.abs() < 1e-12 {
        return None;
    }
    Some([
        (h[0] * x + h[1] * y + h[2]) / w,
        (h[3] * x + h[4] * y + h[5]) / w,
    ])
}

/// The reprojection error ‖dst − H·src‖ (infinite where H sends src to infinity).
pub fn error(h: &[f64; 9], src: [f64; 2], dst: [f64; 2]) -> f64 {
    apply(h, src).map_or(f64::INFINITY, |p| {
        ((p[0] - dst[0]).powi(2) + (p[1] - dst[1]).powi(2)).sqrt()
    })
}

/// Points as pairs, in f64.
pub fn pairs(flat: &[f32]) -> Vec<[f64; 2]> {
    flat.chunks(2).map(|p| [p[0] as f64, p[1] as f64]).collect()
}

/// What a RANSAC run found.
#[derive(Clone, Debug, PartialEq)]
pub struct Ransac {
    /// The homography refitted on the best hypothesis's inliers (h₃₃ = 1).
    pub h: [f64; 9],
    /// One 0/1 per correspondence: inlier of `h`.
    pub inliers: Vec<u8>,
    /// The winning hypothesis and its inlier count.
    pub best: usize,
    pub best_count: usize,
}

/// The best hypothesis: most inliers, the first of equals.
pub fn best(counts: &[u32]) -> (usize, usize) {
    counts.iter().enumerate().fold((0, 0), |(b, c), (i, &n)| {
        if n as usize > c {
            (i, n as usize)
        } else {
            (b, c)
        }
    })
}

/// Refits `hypothesis` on its inliers and returns the final model and its inliers.
pub fn refine(
    src: &[[f64; 2]],
    dst: &[[f64; 2]],
    hypothesis: &[f64; 9],
    threshold: f64,
) -> Option<([f64; 9], Vec<u8>)> {
    let inlier = |h: &[f64; 9]| -> Vec<u8> {
        src.iter()
            .zip(dst)
            .map(|(p, q)| (error(h, *p, *q) <= threshold) as u8)
            .collect()
    };
    let first = inlier(hypothesis);
    let (s, d): (Vec<_>, Vec<_>) = src
        .iter()
        .zip(dst)
        .zip(&first)
        .filter(|(_, &k)| k == 1)
        .map(|((p, q), _)| (*p, *q))
        .unzip();
    let h = if s.len() >= 4 {
        fit(&s, &d).unwrap_or(*hypothesis)
    } else {
        *hypothesis
    };
    Some((h, inlier(&h)))
}

/// The float64 RANSAC: the same samples, fits, scores and refit as the GPU's.
pub fn ransac_reference(src: &[f32], dst: &[f32], o: &RansacOptions) -> Result<Option<Ransac>> {
    let n = check_points(src, dst)?;
    check_options(o)?;
    let (s, d) = (pairs(src), pairs(dst));
    let counts: Vec<u32> = samples(n, o.iterations, o.seed)?
        .iter()
        .map(|idx| {
            let ps: Vec<_> = idx.iter().map(|&i| s[i as usize]).collect();
            let qs: Vec<_> = idx.iter().map(|&i| d[i as usize]).collect();
            fit(&ps, &qs).map_or(0, |h| {
                s.iter()
                    .zip(&d)
                    .filter(|(p, q)| error(&h, **p, **q) <= o.threshold)
                    .count() as u32
            })
        })
        .collect();
    let (b, count) = best(&counts);
    if count == 0 {
        return Ok(None);
    }
    let idx = samples(n, o.iterations, o.seed)?[b];
    let ps: Vec<_> = idx.iter().map(|&i| s[i as usize]).collect();
    let qs: Vec<_> = idx.iter().map(|&i| d[i as usize]).collect();
    let h0 = fit(&ps, &qs).expect("scored, so it fitted");
    Ok(refine(&s, &d, &h0, o.threshold).map(|(h, inliers)| Ransac {
        h,
        inliers,
        best: b,
        best_count: count,
    }))
}

#[cfg(test)]
pub(crate) mod tests {

    use super::*;

    /// A perspective homography with h₃₃ = 1.
    pub const H: [f64; 9] = [1.1, 0.2, 30.0, -0.1, 0.9, 50.0, 0.0004, -0.0002, 1.0];

    /// `n` correspondences under H in [0, 1000]², `outliers` of them replaced by
    /// random points, Gaussian-ish noise of `noise` on the rest.
    pub fn scene(
        n: usize,
        outliers: f64,
        noise: f64,
        seed: u32,
    ) -> (Vec<f32>, Vec<f32>, Vec<bool>) {
        let mut rng = Mulberry32::new(seed);
        let (mut src, mut dst, mut truth) = (vec![], vec![], vec![]);
        for _ in 0..n {
            let p = [rng.next_f64() * 1000.0, rng.next_f64() * 1000.0];
            let mut q = apply(&H, p).unwrap();
            let out = rng.next_f64() < outliers;
            if out {
                q = [rng.next_f64() * 1200.0, rng.next_f64() * 1200.0];
            } else {
                q[0] += noise * (rng.next_f64() + rng.next_f64() - 1.0);
                q[1] += noise * (rng.next_f64() + rng.next_f64() - 1.0);
            }
            src.extend([p[0] as f32, p[1] as f32]);
            dst.extend([q[0] as f32, q[1] as f32]);
            truth.push(!out);
        }
        (src, dst, truth)
    }

    #[test]
    fn four_exact_points_give_h() {
        let src = [[0.0, 0.0], [1000.0, 0.0], [1000.0, 800.0], [0.0, 800.0]];
        let dst: Vec<_> = src.iter().map(|p| apply(&H, *p).unwrap()).collect();
        let h = fit(&src, &dst).unwrap();
        for (a, b) in h.iter().zip(H) {
            assert!((a - b).abs() <= 1e-9 * b.abs().max(1e-3), "{h:?}");
        }
    }

    #[test]
    fn collinear_samples_are_refused() {
        let src = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [0.0, 5.0]];
        assert!(degenerate(&src));
        assert!(fit(&src, &src).is_none());
        assert!(!degenerate(&[
            [0.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [0.0, 1.0]
        ]));
    }

    #[test]
    fn samples_are_distinct_and_seeded() {
        let s = samples(10, 100, 7).unwrap();
        assert_eq!(s, samples(10, 100, 7).unwrap());
        assert_ne!(s, samples(10, 100, 8).unwrap());
        for idx in &s {
            for i in 0..4 {
                assert!(idx[i] < 10 && !idx[..i].contains(&idx[i]));
            }
        }
        assert_eq!(
            samples(4, 1, 1).unwrap()[0]
                .iter()
                .map(|&i| 1u32 << i)
                .sum::<u32>(),
            15
        );
    }

    #[test]
    fn samples_of_too_few_points_or_bad_counts_are_errors() {
        // n = 0 divided by zero; 1 to 3 points looped forever looking for a 4th
        // distinct one; a huge count asked for its whole Vec at once.
        let past_u32 = (usize::BITS > 32).then_some(usize::MAX);
        for n in [0, 1, 3].into_iter().chain(past_u32) {
            let e = samples(n, 10, 1).unwrap_err();
            assert_eq!(e.code(), "BAD_ARGUMENT");
            assert!(e.to_string().starts_with(&format!("n: is {n}")), "{e}");
        }
        for iterations in [0, MAX_ITERATIONS + 1, usize::MAX] {
            let e = samples(10, iterations, 1).unwrap_err();
            assert!(e.to_string().starts_with("options.iterations"), "{e}");
        }
        assert_eq!(
            samples(10, MAX_ITERATIONS, 1).unwrap().len(),
            MAX_ITERATIONS
        );
    }

    #[test]
    fn ransac_finds_h_among_outliers() {
        let (src, dst, truth) = scene(300, 0.6, 0.5, 3);
        let o = RansacOptions::default();
        let r = ransac_reference(&src, &dst, &o).unwrap().unwrap();
        let (s, d) = (pairs(&src), pairs(&dst));
        for ((p, q), t) in s.iter().zip(&d).zip(&truth) {
            if *t {
                assert!(error(&r.h, *p, *q) < 2.0);
            }
        }
        let found = r
            .inliers
            .iter()
            .zip(&truth)
            .filter(|(i, t)| **i == 1 && **t)
            .count();
        assert!(found >= truth.iter().filter(|t| **t).count() * 95 / 100);
    }

    #[test]
    fn bad_points_and_options_are_refused() {
        let four = [0.0f32; 8];
        assert!(check_points(&four, &four[..6]).is_err());
        assert!(check_points(&four[..6], &four[..6]).is_err());
        assert!(check_points(&four[..7], &four[..7]).is_err());
        let mut nan = four;
        nan[3] = f32::NAN;
        assert!(check_points(&nan, &four).is_err());
        assert_eq!(check_points(&four, &four).unwrap(), 4);
        let bad = RansacOptions {
            iterations: 0,
            ..Default::default()
        };
        assert!(check_options(&bad).is_err());
        let bad = RansacOptions {
            threshold: -1.0,
            ..Default::default()
        };
        assert!(check_options(&bad).is_err());
    }
}
