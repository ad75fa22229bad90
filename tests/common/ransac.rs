//! The RANSAC checks, written once for both backends: synthetic correspondences
//! under a known homography with noise and 0–80 % outliers, against the ground
//! truth and against the float64 implementation of the same steps
//! (plan::homography::ransac_reference); errors.

use super::*;
use gpgpu_matrix::batched::ransac::ransac;
use gpgpu_matrix::plan::homography::{self, RansacOptions};
use gpgpu_matrix::plan::random::Mulberry32;

/// The RANSAC checks, one test each, on `$backend`.
macro_rules! ransac_tests {
    ($backend:expr) => {
        checks!($backend; common::ransac:
            exact_data_gives_h,
            any_coordinate_scale_gives_h,
            outliers_and_noise_leave_the_true_inliers,
            ransac_errors_say_what_to_do,
        );
    };
}

/// A perspective homography with h₃₃ = 1.
const H: [f64; 9] = [1.1, 0.2, 30.0, -0.1, 0.9, 50.0, 0.0004, -0.0002, 1.0];

/// `n` correspondences under H in [0, 1000]², a share `outliers` replaced by random
/// points, uniform noise of ±`noise` on the rest; which are true inliers.
fn scene(n: usize, outliers: f64, noise: f64, seed: u32) -> (Vec<f32>, Vec<f32>, Vec<bool>) {
    let mut rng = Mulberry32::new(seed);
    let (mut src, mut dst, mut truth) = (vec![], vec![], vec![]);
    for _ in 0..n {
        let p = [rng.next_f64() * 1000.0, rng.next_f64() * 1000.0];
        let mut q = homography::apply(&H, p).unwrap();
        let out = rng.next_f64() < outliers;
        if out {
            q = [rng.next_f64() * 1200.0, rng.next_f64() * 1200.0];
        } else {
            q[0] += noise * (2.0 * rng.next_f64() - 1.0);
            q[1] += noise * (2.0 * rng.next_f64() - 1.0);
        }
        src.extend([p[0] as f32, p[1] as f32]);
        dst.extend([q[0] as f32, q[1] as f32]);
        truth.push(!out);
    }
    (src, dst, truth)
}

pub async fn exact_data_gives_h(backend: Backend) {
    let t = shared_on(backend).await;
    let (src, dst, _) = scene(200, 0.0, 0.0, 1);
    let o = RansacOptions {
        iterations: 500,
        threshold: 1.0,
        seed: 2,
    };
    let r = ransac(&t.handle(), &src, &dst, &o).await.unwrap();
    let h = r.h.expect("a homography");
    let scale = H.iter().map(|v| v.abs()).fold(0.0, f64::max);
    for (a, b) in h.iter().zip(H) {
        assert!(
            (a - b).abs() <= 1e-4 * scale.max(b.abs()),
            "{h:?} against {H:?}"
        );
    }
    assert_eq!(r.inliers.iter().map(|&i| i as usize).sum::<usize>(), 200);
    assert_eq!((r.counts.len(), r.hypotheses.len()), (500, 4500));
    // On exact data nearly every sample's H explains every point.
    assert!(r.best_count == 200, "best {}", r.best_count);
}

/// The passes fit and score in normalised coordinates: the same scene scaled by
/// 1e-12 or 1e20 (float32 squares of 1e20 overflow) gives the same inliers and the
/// scaled H. Before, the GPUs found no inlier from 1e18 on.
pub async fn any_coordinate_scale_gives_h(backend: Backend) {
    let t = shared_on(backend).await;
    let (src, dst, _) = scene(100, 0.0, 0.0, 6);
    for k in [1e-12f64, 1e20] {
        let scaled = |v: &[f32]| -> Vec<f32> { v.iter().map(|&x| (x as f64 * k) as f32).collect() };
        let o = RansacOptions {
            iterations: 200,
            threshold: 1.0 * k,
            seed: 7,
        };
        let r = ransac(&t.handle(), &scaled(&src), &scaled(&dst), &o)
            .await
            .unwrap();
        let h = r.h.unwrap_or_else(|| panic!("scale {k}: no homography"));
        assert_eq!(
            r.inliers.iter().map(|&i| i as usize).sum::<usize>(),
            100,
            "scale {k}"
        );
        // H_k = S·H·S⁻¹ with S = diag(k, k, 1).
        let want = [
            H[0],
            H[1],
            H[2] * k,
            H[3],
            H[4],
            H[5] * k,
            H[6] / k,
            H[7] / k,
            1.0,
        ];
        for (a, b) in h.iter().zip(want) {
            assert!(
                (a - b).abs() <= 1e-4 * b.abs().max(want[0]),
                "scale {k}: {h:?} against {want:?}"
            );
        }
    }
}

pub async fn outliers_and_noise_leave_the_true_inliers(backend: Backend) {
    let t = shared_on(backend).await;
    for (seed, outliers) in [(3, 0.2), (4, 0.5), (5, 0.8)] {
        let (src, dst, truth) = scene(400, outliers, 0.5, seed);
        let o = RansacOptions {
            iterations: 2000,
            threshold: 3.0,
            seed,
        };
        let r = ransac(&t.handle(), &src, &dst, &o).await.unwrap();
        let reference = homography::ransac_reference(&src, &dst, &o)
            .unwrap()
            .unwrap();
        let h = r.h.expect("a homography");
        let (s, d) = (homography::pairs(&src), homography::pairs(&dst));
        // H maps every true inlier within the noise (±0.5 in x and y).
        for ((p, q), inlier) in s.iter().zip(&d).zip(&truth) {
            if *inlier {
                let e = homography::error(&h, *p, *q);
                assert!(e < 1.5, "{outliers}: a true inlier off by {e}");
            }
        }
        // The same steps in float64 agree: the scores of every hypothesis within a
        // few borderline points, the final inliers nearly all the same.
        for (i, (&gpu, &cpu)) in r
            .counts
            .iter()
            .zip(&reference_counts(&src, &dst, &o))
            .enumerate()
        {
            assert!(
                gpu.abs_diff(cpu) <= 3,
                "{outliers}: hypothesis {i} scores {gpu} on the GPU, {cpu} in f64"
            );
        }
        let same = r
            .inliers
            .iter()
            .zip(&reference.inliers)
            .filter(|(a, b)| a == b)
            .count();
        assert!(
            same >= 398,
            "{outliers}: {same} of 400 inlier flags agree with f64"
        );
        let true_inliers = truth.iter().filter(|t| **t).count();
        let found = r
            .inliers
            .iter()
            .zip(&truth)
            .filter(|(i, t)| **i == 1 && **t)
            .count();
        assert!(
            found * 100 >= true_inliers * 98,
            "{outliers}: found {found} of {true_inliers}"
        );
    }
}

/// Every hypothesis's inliers in float64 (the reference's scoring step).
fn reference_counts(src: &[f32], dst: &[f32], o: &RansacOptions) -> Vec<u32> {
    let (s, d) = (homography::pairs(src), homography::pairs(dst));
    homography::samples(s.len(), o.iterations, o.seed)
        .unwrap()
        .iter()
        .map(|idx| {
            let ps: Vec<_> = idx.iter().map(|&i| s[i as usize]).collect();
            let qs: Vec<_> = idx.iter().map(|&i| d[i as usize]).collect();
            homography::fit(&ps, &qs).map_or(0, |h| {
                s.iter()
                    .zip(&d)
                    .filter(|(p, q)| homography::error(&h, **p, **q) <= o.threshold)
                    .count() as u32
            })
        })
        .collect()
}

pub async fn ransac_errors_say_what_to_do(backend: Backend) {
    let api = js_on(backend).await;
    let f = |v: &[f32]| JsValue::from(Float32Array::from(v));
    let eight = [0.0f32, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0];
    let mut nan = eight;
    nan[5] = f32::NAN;
    let opts = |k: &str, v: JsValue| {
        let o = Object::new();
        Reflect::set(&o, &k.into(), &v).unwrap();
        JsValue::from(o)
    };
    let cases = [
        (
            "3 points",
            f(&eight[..6]),
            f(&eight[..6]),
            JsValue::UNDEFINED,
            "at least 4",
        ),
        (
            "different lengths",
            f(&eight),
            f(&eight[..6]),
            JsValue::UNDEFINED,
            "one destination point",
        ),
        (
            "odd length",
            f(&eight[..7]),
            f(&eight[..7]),
            JsValue::UNDEFINED,
            "even",
        ),
        ("NaN", f(&nan), f(&eight), JsValue::UNDEFINED, "finite"),
        (
            "iterations 0",
            f(&eight),
            f(&eight),
            opts("iterations", 0.into()),
            "iterations",
        ),
        (
            "threshold -1",
            f(&eight),
            f(&eight),
            opts("threshold", (-1).into()),
            "threshold",
        ),
        (
            "seed 1.5",
            f(&eight),
            f(&eight),
            opts("seed", 1.5.into()),
            "seed",
        ),
        (
            "unknown option",
            f(&eight),
            f(&eight),
            opts("iteration", 5.into()),
            "unknown option",
        ),
    ];
    for (what, src, dst, o, text) in cases {
        let e = JsFuture::from(api.ransac_homography_async(src, dst, o)).await;
        assert_js_error(e, "BAD_ARGUMENT", text);
        let _ = what;
    }
    // Four collinear points: every sample is degenerate, so there is no model.
    let line = [0.0f32, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0];
    let r = JsFuture::from(api.ransac_homography_async(f(&line), f(&line), JsValue::UNDEFINED))
        .await
        .unwrap();
    assert!(Reflect::get(&r, &"h".into()).unwrap().is_null());
    assert_eq!(
        Reflect::get(&r, &"bestCount".into()).unwrap().as_f64(),
        Some(0.0)
    );
}
