// What the three parts of "Many small problems at once" share: their record for the
// page tests, a bar chart in SVG (the batch's inlier counts, the SVD's sweeps), the
// seeded random numbers and the float64 pieces the checks use (a homography applied
// to a point, an 8×8 solve). Their Run buttons are part-runner.js's.
//
//   <div class="part" data-status>   idle | running | done | error   (each part)
//   window.__batched[part]           the part's last run (the page tests read it)
import { el } from '../ui/format.js';
import { mulberry32 } from '../reference.js';

/** Saves a part's record for the page tests. */
export function publishBatched(part, record) {
  window.__batched = window.__batched || {};
  window.__batched[part] = record;
}

const SVG = 'http://www.w3.org/2000/svg';
/** An SVG element with attributes and children. */
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) e.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/**
 * A bar chart: bars [{ label, value, mark }] over equal slots, heights linear or
 * logarithmic (log(1 + v), for counts spanning decades); a bar with `mark` is
 * drawn in the highlight colour with `mark` written over it.
 */
export function barChart(title, bars, { log = false, xLabel = '', id = null, ariaLabel = '' } = {}) {
  const W = 480, H = 150, left = 8, right = 8, top = 22, bottom = 30;
  const scale = (v) => (log ? Math.log1p(v) : v);
  const peak = Math.max(1e-9, ...bars.map((b) => scale(b.value)));
  const slot = (W - left - right) / Math.max(1, bars.length);
  const plotH = H - top - bottom;
  const every = Math.max(1, Math.ceil(bars.length / 10));
  const g = bars.map((b, i) => {
    const h = b.value > 0 ? Math.max(1.5, (scale(b.value) / peak) * plotH) : 0;
    const x = left + i * slot;
    return svg('g', { class: b.mark ? 'bar marked' : 'bar' },
      svg('rect', { x: (x + 0.5).toFixed(2), y: (top + plotH - h).toFixed(2), width: Math.max(1, slot - 1).toFixed(2), height: h.toFixed(2) },
        svg('title', {}, `${b.label}: ${b.value}`)),
      b.mark ? svg('text', { x: (x + slot / 2).toFixed(2), y: Math.max(11, top + plotH - h - 5).toFixed(2), class: `mark${x + slot / 2 > W - 45 ? ' end' : x + slot / 2 < 45 ? ' start' : ''}` }, b.mark) : null,
      i % every === 0 || i === bars.length - 1 ? svg('text', { x: (x + slot / 2).toFixed(2), y: H - bottom + 13, class: 'tick' }, b.label) : null);
  });
  return el('figure', { class: 'batched-chart', id },
    el('figcaption', {}, title),
    svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': ariaLabel || title, class: 'batched-bars' },
      svg('line', { x1: left, x2: W - right, y1: top + plotH + 0.5, y2: top + plotH + 0.5, class: 'axis' }),
      g,
      xLabel ? svg('text', { x: W / 2, y: H - 3, class: 'xlabel' }, xLabel) : null));
}

/** `count` seeded uniform numbers from lo to hi, as float32 (what the GPU gets). */
export function uniformMatrices(count, seed, lo = -1, hi = 1) {
  const next = mulberry32(seed);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = lo + (hi - lo) * next();
  return out;
}

/** H·(x, y) for a 3×3 row-major H, in float64; null where H sends it to infinity. */
export function applyH(h, x, y) {
  const w = h[6] * x + h[7] * y + h[8];
  if (!(Math.abs(w) > 1e-300)) return null;
  return [(h[0] * x + h[1] * y + h[2]) / w, (h[3] * x + h[4] * y + h[5]) / w];
}

/** Solves the n×n system M x = r (row-major M) by Gaussian elimination with partial pivoting, float64. */
export function solve(n, m, r) {
  const a = Array.from({ length: n }, (_, i) => [...m.slice(i * n, i * n + n), r[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(a[i][c]) > Math.abs(a[p][c])) p = i;
    if (a[p][c] === 0) return null;
    [a[c], a[p]] = [a[p], a[c]];
    for (let i = c + 1; i < n; i++) {
      const f = a[i][c] / a[c][c];
      for (let j = c; j <= n; j++) a[i][j] -= f * a[c][j];
    }
  }
  const x = new Array(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = a[i][n];
    for (let j = i + 1; j < n; j++) s -= a[i][j] * x[j];
    x[i] = s / a[i][i];
  }
  return x;
}

/** The homography (h33 = 1) taking four points to four others: the 8×8 DLT, float64. */
export function homographyFrom4(from, to) {
  const m = [], r = [];
  for (let k = 0; k < 4; k++) {
    const [x, y] = from[k], [u, v] = to[k];
    m.push(x, y, 1, 0, 0, 0, -u * x, -u * y); r.push(u);
    m.push(0, 0, 0, x, y, 1, -v * x, -v * y); r.push(v);
  }
  const h = solve(8, m, r);
  return h ? [...h, 1] : null;
}

/** Reads fields into a state: fields { key: [input, lo, hi, whole] } → { state } or { bad }. */
export function readFields(fields, readNumber) {
  const got = Object.entries(fields).map(([k, [input, lo, hi, whole]]) => [k, readNumber(input, lo, hi, whole)]);
  const bad = got.filter(([, r]) => 'why' in r).map(([, r]) => r.why);
  return bad.length ? { bad } : { state: Object.fromEntries(got.map(([k, r]) => [k, r.value])) };
}
