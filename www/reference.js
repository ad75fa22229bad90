// The JavaScript double-precision reference: what the GPU's float32 answer is
// compared with. Plain ES module, no dependencies; it runs in the page, in Web
// Workers and in Node. The same definitions exist in Rust (plan/src/).
//
// Matrices are row-major: element (i, j) of a rows×cols matrix is at i*cols + j.
// Inputs may be Float32Array, Float64Array or plain arrays; results are Float64Array.

/** Mulberry32: a tiny seeded generator, identical to plan/src/random.rs. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `len` values uniform in [lo, hi), rounded to float32 (as the GPU will see them). */
export function uniformMatrix(seed, len, lo = -1, hi = 1) {
  const next = mulberry32(seed);
  const m = new Float32Array(len);
  for (let i = 0; i < len; i++) m[i] = lo + (hi - lo) * next();
  return m;
}

/** `len` whole numbers in lo..hi inclusive. */
export function integerMatrix(seed, len, lo, hi) {
  const next = mulberry32(seed);
  const m = new Float32Array(len);
  for (let i = 0; i < len; i++) m[i] = lo + Math.floor(next() * (hi - lo + 1));
  return m;
}

/** The n×n identity. */
export function identity(n) {
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++) m[i * n + i] = 1;
  return m;
}

/**
 * A (rows×inner) · B (inner×cols) in float64. i-k-j loop order: it streams rows
 * of B, the cache-friendly order for row-major data. `onRow(i)` reports progress.
 */
export function multiply(rows, inner, cols, a, b, onRow) {
  if (a.length !== rows * inner) throw new Error(`a has ${a.length} elements, ${rows}x${inner} needs ${rows * inner}`);
  if (b.length !== inner * cols) throw new Error(`b has ${b.length} elements, ${inner}x${cols} needs ${inner * cols}`);
  const A = a instanceof Float64Array ? a : Float64Array.from(a);
  const B = b instanceof Float64Array ? b : Float64Array.from(b);
  const c = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const ci = i * cols;
    for (let k = 0; k < inner; k++) {
      const aik = A[i * inner + k];
      const bk = k * cols;
      for (let j = 0; j < cols; j++) c[ci + j] += aik * B[bk + j];
    }
    if (onRow) onRow(i);
  }
  return c;
}

/** M · M. */
export function square(n, m, onRow) {
  return multiply(n, n, n, m, m, onRow);
}

/** M^(2^times). */
export function repeatedSquare(n, m, times) {
  let r = Float64Array.from(m);
  for (let t = 0; t < times; t++) r = square(n, r);
  return r;
}

/** M^p (p a whole number >= 0), right-to-left binary exponentiation. */
export function power(n, m, p) {
  if (!Number.isInteger(p) || p < 0) throw new Error(`p = ${p}: must be a whole number >= 0`);
  let result = identity(n);
  let base = Float64Array.from(m);
  while (p > 0) {
    if (p % 2 === 1) result = multiply(n, n, n, result, base);
    p = Math.floor(p / 2);
    if (p > 0) base = square(n, base);
  }
  return result;
}

/**
 * How far a float32 result is from the float64 reference:
 *  maxAbs        max |r − ref| over entries where both are finite
 *  maxRel        max |r − ref| / |ref| over finite, nonzero ref
 *  relFrobenius  ‖R − Ref‖_F / ‖Ref‖_F (‖R − Ref‖_F itself when Ref = 0)
 *  exact         entries equal to the reference rounded to float32, where both are
 *                finite numbers (NaN = NaN is agreement, not exactness; an overflow
 *                to ±Inf does not count either)
 *  nonfiniteMismatch  entries where one side is NaN/±Inf and the other differs
 *  compared      entries finite on both sides (the three errors cover these; they
 *                are null when there is none, e.g. after an overflow everywhere)
 *  worst         index of the entry with the largest absolute error (-1 if none)
 */
export function compare(result, reference) {
  if (result.length !== reference.length) throw new Error('compare: lengths differ');
  let maxAbs = 0, maxRel = 0, diff2 = 0, ref2 = 0, exact = 0, nonfiniteMismatch = 0, worst = -1, compared = 0;
  for (let i = 0; i < result.length; i++) {
    const r = result[i], x = reference[i];
    const rounded = Math.fround(x);
    if (r === rounded && Number.isFinite(rounded)) exact++;
    if (!Number.isFinite(r) || !Number.isFinite(x)) {
      const same = (Number.isNaN(r) && Number.isNaN(x)) || r === x;
      if (!same) nonfiniteMismatch++;
      continue;
    }
    compared++;
    const d = Math.abs(r - x);
    if (d > maxAbs || worst < 0) { if (d >= maxAbs) worst = i; maxAbs = Math.max(maxAbs, d); }
    if (x !== 0) maxRel = Math.max(maxRel, d / Math.abs(x));
    diff2 += d * d;
    ref2 += x * x;
  }
  const relFrobenius = ref2 > 0 ? Math.sqrt(diff2 / ref2) : Math.sqrt(diff2);
  if (compared === 0) return { maxAbs: null, maxRel: null, relFrobenius: null, exact, nonfiniteMismatch, compared, total: result.length, worst };
  return { maxAbs, maxRel, relFrobenius, exact, nonfiniteMismatch, compared, total: result.length, worst };
}

/** 2^24: above it float32 no longer holds every integer. */
export const FLOAT32_EXACT_INTEGER_LIMIT = 16777216;
