// What the three parts of "Partitioned matrices" share: a part's status line and
// record, labelled number fields, a small matrix drawn with its partition lines, an
// occupancy picture (one pixel per block) and a sparse-aware float64 product.
//
//   <div class="part" data-status>   idle | running | done | error   (each part)
//   window.__partitioned[part]       the part's last run (the page tests read it)
import { el } from '../ui/format.js';
import { giveKey } from '../ui/canvas-key.js';
import { nextFrame } from './common.js';

/** Saves a part's record for the page tests and the report script. */
export function publishPart(part, record) {
  window.__partitioned = window.__partitioned || {};
  window.__partitioned[part] = record;
}

/**
 * A part's status line: set(state, text, tone) also marks the part's element
 * (data-status), which the tests wait on.
 */
export function partStatus(part, id, initial) {
  const element = el('p', { class: 'status app-status idle', role: 'status', id }, initial);
  part.dataset.status = 'idle';
  return {
    element,
    set(state, text, tone = '') {
      part.dataset.status = state;
      element.textContent = text;
      element.className = `status app-status ${state}${tone ? ` ${tone}` : ''}`;
    },
  };
}

/** A labelled number input in the page's .field style. */
export function numberField(id, label, { min, max, step = 1, value, help = '' }) {
  const input = el('input', { id, name: id, type: 'number', min: String(min), max: String(max), step: String(step), inputmode: step === 1 ? 'numeric' : 'decimal', value: String(value) });
  return { input, element: el('div', { class: 'field' }, el('label', { for: id, title: help || null }, label), input) };
}

/** A labelled select; options [[value, text]]. */
export function selectField(id, label, options, value) {
  const select = el('select', { id, name: id }, options.map(([v, t]) => el('option', { value: v }, t)));
  select.value = value;
  return { select, element: el('div', { class: 'field' }, el('label', { for: id }, label), select) };
}

/**
 * Reads a whole number (or any number when `whole` is false) from lo to hi off an
 * input: { value } or { why } (and the field marked invalid).
 */
export function readNumber(input, lo, hi, whole = true) {
  // A number field holding what does not parse ("1e", "--3") reads as "": say so, not “”.
  const raw = input.validity?.badInput ? 'not a number' : input.value.trim();
  const v = Number(raw);
  const ok = raw !== '' && Number.isFinite(v) && v >= lo && v <= hi && (!whole || Number.isInteger(v));
  if (ok) { input.removeAttribute('aria-invalid'); return { value: v }; }
  input.setAttribute('aria-invalid', 'true');
  const label = input.closest('.field')?.querySelector('label')?.textContent || input.id;
  return { why: `${label} must be ${whole ? 'a whole number' : 'a number'} from ${lo} to ${hi} (it is “${raw}”)` };
}

/**
 * A small matrix as a grid with its partition lines: `cutRows` / `cutCols` are the
 * row / column indices a line is drawn before (2 for the chapter's 2+1 split).
 * `fmt` formats an entry; `cls(i, j)` adds a class to a cell (the block it is in).
 */
export function partitionedGrid(caption, rows, cols, data, { cutRows = [], cutCols = [], fmt = String, cls = null, id = null } = {}) {
  return el('table', { class: 'part-grid', id },
    el('caption', {}, caption),
    el('tbody', {}, Array.from({ length: rows }, (_, i) => el('tr', { class: cutRows.includes(i + 1) ? 'cut-below' : null },
      Array.from({ length: cols }, (_, j) => el('td', {
        class: [cutCols.includes(j + 1) ? 'cut-right' : '', cls ? cls(i, j) : ''].filter(Boolean).join(' ') || null,
      }, fmt(data[i * cols + j])))))));
}

/** An occupancy picture's colours: a block stored, one reserved that came out zero, none. */
const DARK = [30, 58, 138], AMBER = [245, 158, 11], EMPTY = [247, 247, 244];

/**
 * A picture of a block grid's occupancy (the CUDA report's booleans): one canvas
 * pixel per block, dark where a block is stored, scaled up without smoothing.
 * `extra` (optional, same length) marks blocks in a second colour (e.g. blocks
 * the symbolic phase stored that came out zero); `dark` and `amber` name them in the
 * key of a saved PNG.
 */
export function occupancyFigure(title, gridRows, gridCols, occupancy, { extra = null, label = '', id = null, dark = 'stored block', amber = 'reserved, came out zero' } = {}) {
  // Whole canvas pixels per block up to 256 wide, as shown: Save PNG saves the canvas's
  // own pixels, and one pixel per block (a 32×32 PNG) blurs when a slide enlarges it.
  const scale = Math.max(1, Math.floor(256 / Math.max(gridRows, gridCols)));
  const canvas = el('canvas', { width: gridCols * scale, height: gridRows * scale, role: 'img', 'aria-label': label || title, class: 'occupancy' });
  const g = canvas.getContext('2d');
  const img = new ImageData(gridCols, gridRows);
  let stored = 0;
  for (let k = 0; k < gridRows * gridCols; k++) {
    const on = occupancy[k] !== 0;
    const ex = extra && extra[k] !== 0 && !on;
    if (on) stored++;
    const [r, gr, b] = on ? DARK : ex ? AMBER : EMPTY;
    img.data.set([r, gr, b, 255], 4 * k);
  }
  g.imageSmoothingEnabled = false;
  g.drawImage(blockBitmap(img), 0, 0, canvas.width, canvas.height);
  // Whole CSS pixels per block where the grid is small; at most 16 rem wide.
  canvas.style.width = `min(100%, ${Math.max(gridCols, Math.min(256, gridCols * Math.max(1, Math.floor(256 / gridCols))))}px)`;
  // The colours are explained in the section's text: a saved PNG says it under the picture.
  const colour = ([r, gr, b]) => `rgb(${r},${gr},${b})`;
  giveKey(canvas, () => [
    { colour: colour(DARK), text: dark },
    ...(extra ? [{ colour: colour(AMBER), text: amber }] : []),
    { colour: colour(EMPTY), text: 'not stored' },
  ]);
  const total = gridRows * gridCols;
  return el('figure', { class: 'occupancy', id },
    el('figcaption', {}, title),
    canvas,
    el('p', { class: 'help' }, `${gridRows}×${gridCols} blocks, ${stored} stored (${pct(stored / total)}).`));
}

/** `img` on a canvas of its own size, one pixel per block, to be drawn enlarged. */
function blockBitmap(img) {
  const c = el('canvas', { width: img.width, height: img.height });
  c.getContext('2d').putImageData(img, 0, 0);
  return c;
}

/** A share as a percentage: 3 significant digits, "0.098 %", "12.5 %", "100 %". */
export function pct(x) {
  if (x === 0) return '0 %';
  if (x === 1) return '100 %';
  const p = x * 100;
  return `${Number(p.toPrecision(p < 1 ? 2 : 3))} %`;
}

/**
 * A (n×n) · B in float64, skipping the zeros of A (a sparse A costs its nonzeros
 * times n, not n³), yielding to the browser every `budget` multiply-adds.
 */
export async function sparseReference(n, a, b, budget = 2e7) {
  const c = new Float64Array(n * n);
  let work = 0;
  for (let i = 0; i < n; i++) {
    const ci = i * n;
    for (let k = 0; k < n; k++) {
      const aik = a[ci + k];
      if (aik === 0) continue;
      const bk = k * n;
      for (let j = 0; j < n; j++) c[ci + j] += aik * b[bk + j];
      work += n;
    }
    if (work > budget) { work = 0; await nextFrame(); }
  }
  return c;
}

/** The largest |x − ref| over the entries (NaN where one side is not finite). */
export function maxError(x, ref) {
  let worst = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = Math.abs(x[i] - ref[i]);
    if (Number.isNaN(d)) return NaN;
    if (d > worst) worst = d;
  }
  return worst;
}
