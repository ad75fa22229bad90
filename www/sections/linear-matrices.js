// The matrices of "Linear systems": the same seeded families as the Rust tests
// (plan/src/lu.rs: hilbert, dominant, zero_diagonal, rank_deficient), float64
// checks (the residual ‖Ax − b‖/‖b‖, x = X·b for an inverse), and a small
// heatmap of one elimination step drawn on a plain <canvas>.
import { mulberry32 } from '../reference.js';
import { giveKey } from '../ui/canvas-key.js';
import { magnitude } from '../ui/format.js';

/** `len` values uniform in [lo, hi), rounded to float32 (plan::random::uniform). */
export function uniform(seed, len, lo = -1, hi = 1) {
  const next = mulberry32(seed);
  return Float32Array.from({ length: len }, () => lo + (hi - lo) * next());
}

/** `len` whole numbers in lo..=hi (plan::random::integers). */
export function integers(seed, len, lo, hi) {
  const next = mulberry32(seed);
  return Float32Array.from({ length: len }, () => lo + Math.floor(next() * (hi - lo + 1)));
}

export const KINDS = {
  dominant: {
    label: 'diagonally dominant (random)',
    make(n, seed) {
      const a = uniform(seed, n * n);
      for (let i = 0; i < n; i++) {
        let off = 0;
        for (let j = 0; j < n; j++) if (j !== i) off += Math.abs(a[i * n + j]);
        a[i * n + i] = Math.fround(off + 1);
      }
      return a;
    },
  },
  random: { label: 'random, uniform in [−1, 1)', make: (n, seed) => uniform(seed, n * n) },
  zero: {
    label: 'integers with zeros on the diagonal (needs pivots)',
    make(n, seed) {
      const a = integers(seed, n * n, -4, 4);
      for (let i = 0; i < n; i++) a[i * n + i] = 0;
      return a;
    },
  },
  hilbert: {
    label: 'Hilbert 1/(i + j + 1) (ill-conditioned)',
    make: (n) => Float32Array.from({ length: n * n }, (_, e) => 1 / (Math.floor(e / n) + (e % n) + 1)),
  },
  singular: {
    label: 'integers of rank n − 1 (singular)',
    make(n, seed) {
      const a = integers(seed, n * n, -3, 3);
      if (n < 2) return new Float32Array(1);
      for (let j = 0; j < n; j++) a[(n - 1) * n + j] = a[j] + a[(n - 2) * n + j];
      return a;
    },
  },
};

/** ‖A·x − b‖/‖b‖ in float64 (one right-hand side). */
export function residual(n, a, x, b) {
  let diff = 0, norm = 0;
  for (let i = 0; i < n; i++) {
    let ax = 0;
    for (let j = 0; j < n; j++) ax += a[i * n + j] * x[j];
    diff += (ax - b[i]) ** 2;
    norm += b[i] ** 2;
  }
  return norm > 0 ? Math.sqrt(diff / norm) : Math.sqrt(diff);
}

/** X·b in float64. */
export function times(n, m, b) {
  return Float64Array.from({ length: n }, (_, i) => {
    let s = 0;
    for (let j = 0; j < n; j++) s += m[i * n + j] * b[j];
    return s;
  });
}

/** Red for positive, blue for negative, white for 0, by |v| / range. */
function colour(v, range) {
  if (!Number.isFinite(v)) return '#000';
  const t = Math.min(1, Math.abs(v) / range);
  const fade = (c) => Math.round(247 + (c - 247) * t);
  return v >= 0 ? `rgb(${fade(179)},${fade(23)},${fade(43)})` : `rgb(${fade(33)},${fade(102)},${fade(172)})`;
}

/**
 * One step of the elimination as a heatmap on a <canvas>: the n × n matrix
 * (entries at or below the diagonal of the finished columns are multipliers:
 * hatched grey frame), the pivot row outlined in black.
 */
export function stepCanvas(n, data, { pivotRow = null, done = 0, range = 1, label = '' }) {
  const cell = Math.max(6, Math.min(24, Math.floor(240 / n)));
  const canvas = document.createElement('canvas');
  canvas.width = n * cell;
  canvas.height = n * cell;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  const g = canvas.getContext('2d');
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      g.fillStyle = colour(data[i * n + j], range);
      g.fillRect(j * cell, i * cell, cell, cell);
      if (j < done && i > j) {
        g.strokeStyle = '#999';
        g.strokeRect(j * cell + 0.5, i * cell + 0.5, cell - 1, cell - 1);
      }
    }
  }
  if (pivotRow !== null) {
    g.strokeStyle = '#000';
    g.lineWidth = 2;
    g.strokeRect(1, pivotRow * cell + 1, n * cell - 2, cell - 2);
  }
  // The page says what the colours and frames mean in its text: a saved PNG says it under the picture.
  const r = magnitude(range);
  giveKey(canvas, () => [
    { colours: [colour(-range, range), colour(0, range), colour(range, range)], from: `−${r}`, to: `+${r}` },
    done > 0 ? { outline: '#999', text: 'a multiplier of L' } : null,
    pivotRow !== null ? { outline: '#000', width: 2, text: 'the pivot row' } : null,
  ].filter(Boolean));
  return canvas;
}
