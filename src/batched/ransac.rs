//! Homographies by RANSAC on the GPU (the developer's log): a batch of seeded
//! 4-point samples; one pass fits every hypothesis (normalised DLT with h₃₃ = 1,
//! solved exactly, 8×8, in each invocation or fragment: the log's SVD of the 9×9
//! system is the alternative, the exact solve needs no iteration); one pass scores
//! every hypothesis against every correspondence; the counts come back, the best
//! hypothesis is refitted on its inliers on the CPU (float64, least squares). The
//! pure steps are in [`crate::plan::homography`].

use crate::blocks::grid;
use crate::engine::Handle;
use crate::engine::{Engine, Matrix, Timer};
use crate::error::Result;
use crate::ops::ransac::Pass;
use crate::plan::homography::{self, RansacOptions, RansacPasses};
use crate::plan::shape::Shape;

/// A Hartley normalisation (scale, tx, ty): see [`homography::normalisation`].
type Normaliser = (f64, f64, f64);

/// (x, y) in the coordinates of `t`, as float32 for the GPU.
fn normalised(t: Normaliser, x: f32, y: f32) -> [f32; 2] {
    homography::normalise(t, [x as f64, y as f64]).map(|v| v as f32)
}
use crate::plan::layout::Layout;
use crate::plan::semiring::Semiring;

/// What a RANSAC run found and did.
#[derive(Clone, Debug, PartialEq)]
pub struct Ransac {
    /// The homography (3×3 row-major, h₃₃ = 1) refitted on the best hypothesis's
    /// inliers; None when no hypothesis had an inlier (every sample degenerate).
    pub h: Option<[f64; 9]>,
    /// One 0/1 per correspondence: an inlier of `h`.
    pub inliers: Vec<u8>,
    /// Hypotheses scored (the `iterations` option).
    pub iterations: usize,
    /// The best hypothesis and its inlier count.
    pub best: usize,
    pub best_count: usize,
    /// Every hypothesis's H (9 each, zero for a degenerate sample) and inliers.
    pub hypotheses: Vec<f32>,
    pub counts: Vec<u32>,
    /// GPU time of the fitting pass and of the scoring pass, where the device
    /// times passes.
    pub fit_ms: Option<f64>,
    pub score_ms: Option<f64>,
}

/// The GPU part queued: the reads of the hypotheses and counts, the timers.
struct Queued {
    hyps: crate::engine::PendingRead,
    counts: crate::engine::PendingRead,
    timers: [Option<Timer>; 2],
}

/// The correspondences' and hypotheses' lists against the device's limits.
fn check_lists(e: &Engine, p: &RansacPasses) -> Result<()> {
    for (what, len) in [
        ("the correspondences", 4 * p.points),
        ("the hypotheses", 9 * p.count),
    ] {
        e.check_atlas(
            what,
            p.list(len),
            "Use fewer correspondences or iterations per call.",
        )?;
    }
    Ok(())
}

/// Refuses, before the points are read, `n` correspondences the device cannot hold,
/// or whose copies WebAssembly memory cannot: src and dst, their float64 pairs
/// (normalisation and the refit) and the normalised points uploaded. The JavaScript
/// call asks first: 10^8 correspondences (two arrays of 800 MB) trapped.
pub fn check_size(e: &Engine, n: usize, o: &RansacOptions) -> Result<()> {
    homography::check_options(o)?;
    let p = RansacPasses {
        count: o.iterations,
        points: n,
        width: e.atlas_width(),
        threshold: 0.0,
    };
    check_lists(e, &p)?;
    grid::check_memory_on(
        e.backend(),
        &format!("RANSAC of {n} correspondences"),
        &[Shape::new(n, 4), Shape::new(n, 8)],
        Shape::new(n, 4),
        "Use fewer correspondences (a sample of them): WebAssembly in a browser holds at most \
         4 GiB, and each correspondence is held several times over (as given, in float64, \
         normalised for the GPU).",
    )
}

fn queue(
    e: &mut Engine,
    src: &[f32],
    dst: &[f32],
    o: &RansacOptions,
    n: usize,
    [ns, nd]: [Normaliser; 2],
) -> Result<Queued> {
    e.ensure()?;
    // Fitted and scored in Hartley-normalised coordinates, so the float32 passes see
    // numbers near 1 at any scale (coordinates of 1e18 overflowed there, and RANSAC
    // found nothing where the CPU found every inlier). The threshold is a distance
    // in dst's coordinates, which its normalisation scales by nd.0.
    let p = RansacPasses {
        count: o.iterations,
        points: n,
        width: e.atlas_width(),
        threshold: (o.threshold * nd.0) as f32,
    };
    let mut pts = Vec::with_capacity(4 * n);
    for (s, d) in src.chunks(2).zip(dst.chunks(2)) {
        pts.extend_from_slice(&normalised(ns, s[0], s[1]));
        pts.extend_from_slice(&normalised(nd, d[0], d[1]));
    }
    let samples: Vec<f32> = homography::samples(n, o.iterations, o.seed)?
        .iter()
        .flat_map(|s| s.map(|i| i as f32))
        .collect();
    let pad = |mut v: Vec<f32>, len: usize| {
        v.resize(p.list(len).len(), 0.0);
        v
    };
    check_lists(e, &p)?;
    let mut made: Vec<Matrix> = vec![];
    let ran = (|| {
        let pts = e.upload(p.list(4 * n), Layout::Scalar, &pad(pts, 4 * n), 0.0)?;
        made.push(pts);
        let samples = e.upload(
            p.list(4 * p.count),
            Layout::Scalar,
            &pad(samples, 4 * p.count),
            0.0,
        )?;
        made.push(samples);
        made.push(e.alloc(p.list(9 * p.count), Layout::Scalar)?);
        made.push(e.alloc(p.list(p.count), Layout::Scalar)?);
        let [pts, samples, hyps, counts] = [&made[0], &made[1], &made[2], &made[3]];
        let fit = e.ransac(Pass::Fit, &p, [pts, samples, hyps], true)?;
        let score = e.ransac(Pass::Score, &p, [pts, hyps, counts], true)?;
        Ok(Queued {
            hyps: e.read(hyps, Semiring::Ordinary)?,
            counts: e.read(counts, Semiring::Ordinary)?,
            timers: [fit, score],
        })
    })();
    // The reads have copied what they need: the pool may have these back.
    for m in made {
        e.recycle(m);
    }
    ran
}

/// RANSAC for the homography taking `src` to `dst` ([x0, y0, x1, y1, …], at
/// least 4 correspondences), on either backend.
pub async fn ransac(
    handle: &Handle,
    src: &[f32],
    dst: &[f32],
    o: &RansacOptions,
) -> Result<Ransac> {
    let n = homography::check_points(src, dst)?;
    homography::check_options(o)?;
    handle.ready().await?;
    let (s, d) = (homography::pairs(src), homography::pairs(dst));
    let norm = [homography::normalisation(&s), homography::normalisation(&d)];
    let q = handle.with(|e| queue(e, src, dst, o, n, norm))?;
    let hypotheses = q.hyps.wait().await?;
    let counts: Vec<u32> = q.counts.wait().await?[..o.iterations]
        .iter()
        .map(|&c| c as u32)
        .collect();
    let [fit, score] = q.timers;
    let fit_ms = match fit {
        Some(t) => handle.timer_ms(&t).await,
        None => None,
    };
    let score_ms = match score {
        Some(t) => handle.timer_ms(&t).await,
        None => None,
    };
    let (best, best_count) = homography::best(&counts);
    // Back in the caller's coordinates, in float64.
    let original: Vec<[f64; 9]> = hypotheses[..9 * o.iterations]
        .chunks(9)
        .map(|h| {
            let hn: [f64; 9] = std::array::from_fn(|i| h[i] as f64);
            // A degenerate sample's zeros stay zeros.
            homography::denormalise(&hn, norm[0], norm[1]).unwrap_or([0.0; 9])
        })
        .collect();
    let hypotheses: Vec<f32> = original.iter().flatten().map(|&v| v as f32).collect();
    let refined = match best_count {
        0 => None,
        _ => homography::refine(&s, &d, &original[best], o.threshold),
    };
    let (h, inliers) = match refined {
        Some((h, inliers)) => (Some(h), inliers),
        None => (None, vec![0; n]),
    };
    Ok(Ransac {
        h,
        inliers,
        iterations: o.iterations,
        best,
        best_count,
        hypotheses,
        counts,
        fit_ms,
        score_ms,
    })
}
