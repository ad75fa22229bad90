// Inputs of the batched small-matrix bench and its float64 checks (no DOM, node imports it
// too): the synthetic homography scene, RANSAC's 4-point samples (the same generator and
// draw as plan/src/homography.rs), the normalised DLT and its exact 8×8 solve, a float64
// one-sided Jacobi SVD, and sampled checks of every result the bench times, so that a
// wrong fast number is reported as wrong.
import { mulberry32 } from '../reference.js';

/** The scene's homography (tests/common/ransac.rs's), h₃₃ = 1. */
export const TRUE_H = [1.1, 0.2, 30.0, -0.1, 0.9, 50.0, 0.0004, -0.0002, 1.0];

export function applyH(h, x, y) {
  const w = h[6] * x + h[7] * y + h[8];
  if (Math.abs(w) < 1e-12) return null;
  return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
}

/** ‖dst − H·src‖, infinite where H sends src to infinity. */
export function reprojError(h, x, y, u, v) {
  const p = applyH(h, x, y);
  return p ? Math.hypot(p[0] - u, p[1] - v) : Infinity;
}

/** `n` correspondences under TRUE_H in [0, 1000]², a share `outliers` replaced by random
 *  points in [0, 1200]², uniform noise ±`noise` on the rest (tests/common/ransac.rs's scene). */
export function homographyScene(n, outliers, noise, seed) {
  const next = mulberry32(seed);
  const src = new Float32Array(2 * n), dst = new Float32Array(2 * n), truth = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const x = next() * 1000, y = next() * 1000;
    let [u, v] = applyH(TRUE_H, x, y);
    const out = next() < outliers;
    if (out) { u = next() * 1200; v = next() * 1200; } else { u += noise * (2 * next() - 1); v += noise * (2 * next() - 1); }
    src[2 * i] = x; src[2 * i + 1] = y; dst[2 * i] = u; dst[2 * i + 1] = v;
    truth[i] = out ? 0 : 1;
  }
  return { src, dst, truth, n };
}

/** RANSAC's samples: 4 distinct indices per hypothesis (plan/src/homography.rs `samples`). */
export function ransacSamples(n, iterations, seed) {
  const next = mulberry32(seed);
  const out = new Uint32Array(4 * iterations);
  for (let it = 0; it < iterations; it++) {
    let k = 0;
    while (k < 4) {
      const i = (Math.floor(next() * n) >>> 0) % n;
      let seen = false;
      for (let j = 0; j < k; j++) if (out[4 * it + j] === i) seen = true;
      if (!seen) { out[4 * it + k] = i; k++; }
    }
  }
  return out;
}

/** Hartley normalisation (scale, tx, ty) of points [[x, y], …]. */
export function normalisation(pts) {
  let cx = 0, cy = 0;
  for (const [x, y] of pts) { cx += x; cy += y; }
  cx /= pts.length; cy /= pts.length;
  let mean = 0;
  for (const [x, y] of pts) mean += Math.hypot(x - cx, y - cy);
  mean /= pts.length;
  const s = mean > 0 ? Math.SQRT2 / mean : 1;
  return [s, -s * cx, -s * cy];
}

function degenerate(pts) {
  const cross = (a, b, c) => Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]));
  let spread = 0;
  for (const p of pts) for (const q of pts) spread = Math.max(spread, (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2);
  const [a, b, c, d] = pts;
  return [cross(a, b, c), cross(a, b, d), cross(a, c, d), cross(b, c, d)].some((x) => x <= 1e-6 * spread);
}

/** Solves the n×n system M·x = r (row-major) by Gaussian elimination with partial pivoting; null if singular. */
export function gaussSolve(n, m, r) {
  const a = Float64Array.from(m), b = Float64Array.from(r);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(a[i * n + c]) > Math.abs(a[p * n + c])) p = i;
    if (Math.abs(a[p * n + c]) < 1e-12) return null;
    if (p !== c) {
      for (let j = 0; j < n; j++) { const t = a[c * n + j]; a[c * n + j] = a[p * n + j]; a[p * n + j] = t; }
      const t = b[c]; b[c] = b[p]; b[p] = t;
    }
    for (let i = c + 1; i < n; i++) {
      const f = a[i * n + c] / a[c * n + c];
      if (f === 0) continue;
      for (let j = c; j < n; j++) a[i * n + j] -= f * a[c * n + j];
      b[i] -= f * b[c];
    }
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let j = i + 1; j < n; j++) s -= a[i * n + j] * x[j];
    x[i] = s / a[i * n + i];
  }
  return x;
}

const mul3 = (a, b) => {
  const c = new Array(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) c[i * 3 + j] += a[i * 3 + k] * b[k * 3 + j];
  return c;
};

/** H = T₂⁻¹·Ĥ·T₁ scaled to h₃₃ = 1 (null if h₃₃ is 0). */
export function denormalise(hn, [s1, tx1, ty1], [s2, tx2, ty2]) {
  const t1 = [s1, 0, tx1, 0, s1, ty1, 0, 0, 1];
  const t2inv = [1 / s2, 0, -tx2 / s2, 0, 1 / s2, -ty2 / s2, 0, 0, 1];
  const h = mul3(t2inv, mul3(hn, t1));
  if (Math.abs(h[8]) < 1e-12) return null;
  return h.map((v) => v / h[8]);
}

/** The homography of 4 correspondences in float64, as the fit pass does it: Hartley
 *  normalisation, the 8×8 DLT with h₃₃ = 1 solved exactly; null for a degenerate sample. */
export function fitFour(ps, qs) {
  if (degenerate(ps) || degenerate(qs)) return null;
  const t1 = normalisation(ps), t2 = normalisation(qs);
  const m = new Float64Array(64), r = new Float64Array(8);
  for (let k = 0; k < 4; k++) {
    const x = t1[0] * ps[k][0] + t1[1], y = t1[0] * ps[k][1] + t1[2];
    const u = t2[0] * qs[k][0] + t2[1], v = t2[0] * qs[k][1] + t2[2];
    m.set([x, y, 1, 0, 0, 0, -u * x, -u * y], 16 * k); r[2 * k] = u;
    m.set([0, 0, 0, x, y, 1, -v * x, -v * y], 16 * k + 8); r[2 * k + 1] = v;
  }
  const h = gaussSolve(8, m, r);
  return h ? denormalise([...h, 1], t1, t2) : null;
}

/** The 4 sampled correspondences of hypothesis `i`. */
function samplePoints(scene, samples, i) {
  const ps = [], qs = [];
  for (let k = 0; k < 4; k++) {
    const j = samples[4 * i + k];
    ps.push([scene.src[2 * j], scene.src[2 * j + 1]]); qs.push([scene.dst[2 * j], scene.dst[2 * j + 1]]);
  }
  return { ps, qs };
}

/**
 * The log's alternative: each hypothesis's homogeneous DLT system (8 rows of 9 from the
 * normalised sample, padded with a zero row to 9×9), whose null vector is Ĥ; the batch
 * for svdBatchedAsync(iterations, 9, 9, …).
 */
export function dltSystems(scene, samples, iterations) {
  const a = new Float32Array(81 * iterations);
  for (let i = 0; i < iterations; i++) {
    const { ps, qs } = samplePoints(scene, samples, i);
    const t1 = normalisation(ps), t2 = normalisation(qs);
    for (let k = 0; k < 4; k++) {
      const x = t1[0] * ps[k][0] + t1[1], y = t1[0] * ps[k][1] + t1[2];
      const u = t2[0] * qs[k][0] + t2[1], v = t2[0] * qs[k][1] + t2[2];
      a.set([x, y, 1, 0, 0, 0, -u * x, -u * y, -u], 81 * i + 18 * k);
      a.set([0, 0, 0, x, y, 1, -v * x, -v * y, -v], 81 * i + 18 * k + 9);
    }
  }
  return a;
}

/** `count` evenly spread indices of 0..n-1 (first and last included). */
export function picks(n, count) {
  if (n <= count) return [...Array(n).keys()];
  return [...new Set(Array.from({ length: count }, (_, k) => Math.round((k * (n - 1)) / (count - 1))))];
}

function inliersOf(h, scene, threshold) {
  if (!h) return 0;
  let c = 0;
  for (let j = 0; j < scene.n; j++) if (reprojError(h, scene.src[2 * j], scene.src[2 * j + 1], scene.dst[2 * j], scene.dst[2 * j + 1]) <= threshold) c++;
  return c;
}

/**
 * RANSAC's result against float64, on `count` hypotheses spread over the batch:
 * scoring (the GPU's count of its own hypothesis against float64's count of the same H),
 * fitting (float64's H of the same 4 points, its count against the GPU hypothesis's),
 * degenerate samples recognised alike, and the final H against the truth.
 */
export function checkRansac(r, scene, o, count) {
  const samples = ransacSamples(scene.n, o.iterations, o.seed);
  let maxScoreDiff = 0, fitOff = 0, degenerateMismatch = 0, checked = 0;
  const residuals = [];
  for (const i of picks(o.iterations, count)) {
    const hg = Array.from(r.hypotheses.subarray(9 * i, 9 * i + 9));
    const gpuDegenerate = hg.every((v) => v === 0);
    const { ps, qs } = samplePoints(scene, samples, i);
    const href = fitFour(ps, qs);
    if (gpuDegenerate !== !href) { degenerateMismatch++; continue; }
    checked++;
    const gpuCount = gpuDegenerate ? 0 : inliersOf(hg, scene, o.threshold);
    maxScoreDiff = Math.max(maxScoreDiff, Math.abs(r.counts[i] - gpuCount));
    if (!href) continue;
    if (Math.abs(gpuCount - inliersOf(href, scene, o.threshold)) > 3) fitOff++;
    residuals.push(Math.max(...ps.map((p, k) => reprojError(hg, p[0], p[1], qs[k][0], qs[k][1]))));
  }
  residuals.sort((x, y) => x - y);
  let worstTrue = 0, found = 0, trueInliers = 0;
  for (let j = 0; j < scene.n; j++) {
    if (!scene.truth[j]) continue;
    trueInliers++;
    if (r.h) worstTrue = Math.max(worstTrue, reprojError(r.h, scene.src[2 * j], scene.src[2 * j + 1], scene.dst[2 * j], scene.dst[2 * j + 1]));
    if (r.inliers[j]) found++;
  }
  let bestOk = true;
  for (let i = 0; i < r.counts.length; i++) if (r.counts[i] > r.bestCount) bestOk = false;
  const c = {
    hypothesesChecked: checked + degenerateMismatch, maxScoreDiff, fitOff, degenerateMismatch,
    sampleResidualMedian: residuals.length ? residuals[residuals.length >> 1] : null,
    trueInliers, found, worstTrueInlierError: r.h ? worstTrue : null, bestCount: r.bestCount, bestOk,
  };
  c.ok = !!r.h && bestOk && maxScoreDiff <= 3 && fitOff <= Math.ceil(0.05 * checked) && degenerateMismatch <= Math.ceil(0.05 * (checked + 1)) &&
    worstTrue < 3 * o.threshold && found >= 0.98 * trueInliers;
  return c;
}

/** Float64 singular values of a rows×cols matrix (one-sided Jacobi to convergence), decreasing. */
export function singularValues(rows, cols, a) {
  const m = Float64Array.from(a);
  for (let sweep = 0; sweep < 60; sweep++) {
    let rotated = false;
    for (let p = 0; p < cols - 1; p++) {
      for (let q = p + 1; q < cols; q++) {
        let al = 0, be = 0, ga = 0;
        for (let i = 0; i < rows; i++) { const x = m[i * cols + p], y = m[i * cols + q]; al += x * x; be += y * y; ga += x * y; }
        if (Math.abs(ga) <= 1e-15 * Math.sqrt(al * be) || ga === 0) continue;
        rotated = true;
        const zeta = (be - al) / (2 * ga);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t), s = c * t;
        for (let i = 0; i < rows; i++) {
          const x = m[i * cols + p], y = m[i * cols + q];
          m[i * cols + p] = c * x - s * y; m[i * cols + q] = s * x + c * y;
        }
      }
    }
    if (!rotated) break;
  }
  const s = [];
  for (let j = 0; j < cols; j++) { let n = 0; for (let i = 0; i < rows; i++) n += m[i * cols + j] ** 2; s.push(Math.sqrt(n)); }
  return s.sort((x, y) => y - x);
}

/**
 * A batched SVD's result against float64 on `count` matrices spread over the batch:
 * ‖U·diag(s)·Vᵀ − A‖max / ‖A‖max, ‖VᵀV − I‖max, the singular values against float64's
 * (relative to the largest), decreasing order; and the sweeps of the whole batch.
 */
export function checkSvd(res, a, batch, rows, cols, count) {
  let recon = 0, orth = 0, sErr = 0, order = true;
  for (const b of picks(batch, count)) {
    const A = a.subarray(b * rows * cols, (b + 1) * rows * cols);
    const s = res.s.subarray(b * cols, (b + 1) * cols);
    const U = res.u.subarray(b * rows * cols, (b + 1) * rows * cols);
    const V = res.v.subarray(b * cols * cols, (b + 1) * cols * cols);
    let amax = 1e-30;
    for (const x of A) amax = Math.max(amax, Math.abs(x));
    for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) {
      let x = 0;
      for (let k = 0; k < cols; k++) x += U[i * cols + k] * s[k] * V[j * cols + k];
      recon = Math.max(recon, Math.abs(x - A[i * cols + j]) / amax);
    }
    for (let i = 0; i < cols; i++) for (let j = 0; j < cols; j++) {
      let x = 0;
      for (let k = 0; k < cols; k++) x += V[k * cols + i] * V[k * cols + j];
      orth = Math.max(orth, Math.abs(x - (i === j ? 1 : 0)));
    }
    const ref = singularValues(rows, cols, A);
    for (let j = 0; j < cols; j++) {
      sErr = Math.max(sErr, Math.abs(s[j] - ref[j]) / Math.max(ref[0], 1e-30));
      if (j && s[j] > s[j - 1]) order = false;
    }
  }
  let maxSweeps = 0, sum = 0;
  for (const w of res.sweeps) { maxSweeps = Math.max(maxSweeps, w); sum += w; }
  return { matrices: Math.min(batch, count), recon, orth, sErr, order, meanSweeps: sum / res.sweeps.length, maxSweeps, ok: recon <= 1e-4 && orth <= 1e-4 && sErr <= 1e-4 && order && maxSweeps < 30 };
}

/** For the DLT batch: the homographies from each checked system's null vector (V's last
 *  column), their worst reprojection error at the 4 sample points (median and largest). */
export function nullVectorResiduals(res, scene, samples, iterations, count) {
  const out = [];
  for (const i of picks(iterations, count)) {
    const { ps, qs } = samplePoints(scene, samples, i);
    if (degenerate(ps) || degenerate(qs)) continue;
    const hn = [];
    for (let r = 0; r < 9; r++) hn.push(res.v[81 * i + r * 9 + 8]);
    const h = denormalise(hn, normalisation(ps), normalisation(qs));
    out.push(h ? Math.max(...ps.map((p, k) => reprojError(h, p[0], p[1], qs[k][0], qs[k][1]))) : Infinity);
  }
  out.sort((x, y) => x - y);
  return { hypotheses: out.length, median: out[out.length >> 1], max: out[out.length - 1] };
}

/** `batch` signed permutation matrices k×k (their powers are exact in float32). */
export function signedPermutations(seed, batch, k) {
  const next = mulberry32(seed);
  const m = new Float32Array(batch * k * k), p = new Int32Array(k);
  for (let b = 0; b < batch; b++) {
    for (let i = 0; i < k; i++) p[i] = i;
    for (let i = k - 1; i > 0; i--) { const j = Math.floor(next() * (i + 1)); const t = p[i]; p[i] = p[j]; p[j] = t; }
    for (let i = 0; i < k; i++) m[b * k * k + i * k + p[i]] = next() < 0.5 ? -1 : 1;
  }
  return m;
}

function matmul(k, a, b) {
  const c = new Float64Array(k * k);
  for (let i = 0; i < k; i++) for (let l = 0; l < k; l++) { const x = a[i * k + l]; if (x) for (let j = 0; j < k; j++) c[i * k + j] += x * b[l * k + j]; }
  return c;
}

/** max |C − A·B| / max |A·B| over `count` products spread over the batch (float64). */
export function checkProducts(c, a, b, batch, k, count) {
  let err = 0;
  const kk = k * k;
  for (const s of picks(batch, count)) {
    const ref = matmul(k, a.subarray(s * kk, (s + 1) * kk), b.subarray(s * kk, (s + 1) * kk));
    let m = 1e-30, d = 0;
    for (let i = 0; i < kk; i++) { m = Math.max(m, Math.abs(ref[i])); d = Math.max(d, Math.abs(c[s * kk + i] - ref[i])); }
    err = Math.max(err, d / m);
  }
  return { matrices: Math.min(batch, count), relErr: err, ok: err <= 1e-4 && c.length === batch * kk };
}

/** M^(2^squarings) against float64 repeated squaring (exact for signed permutations). */
export function checkPower(c, m, batch, k, squarings, count) {
  let err = 0;
  const kk = k * k;
  for (const s of picks(batch, count)) {
    let ref = Float64Array.from(m.subarray(s * kk, (s + 1) * kk));
    for (let q = 0; q < squarings; q++) ref = matmul(k, ref, ref);
    for (let i = 0; i < kk; i++) err = Math.max(err, Math.abs(c[s * kk + i] - ref[i]));
  }
  return { matrices: Math.min(batch, count), maxAbsErr: err, ok: err <= 1e-6 && c.length === batch * kk };
}
