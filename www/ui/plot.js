// Small hand-written SVG line plots for the application sections: a value per pass
// or per iteration (residuals, errors, eigenvalue estimates), one line per series,
// on a log-scale y axis where the values span decades. Zeros (exact results) and
// ±Inf / NaN (overflow, divergence) cannot sit on a log axis: they get their own
// rows at the bottom ("0") and the top ("∞ / NaN") so that they are still shown.
// The plot is drawn at the width of its box (redrawn when the box resizes), so its
// text stays readable on a phone; its legend is drawn inside the picture, so that a
// saved PNG or SVG still says which line is which; a "Data" table under it gives
// every value.
import { el, sci } from './format.js';

const SVG = 'http://www.w3.org/2000/svg';
const COLOURS = ['#1d4ed8', '#b91c1c', '#15803d', '#7c3aed', '#c2410c', '#0e7490'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];
const SUP = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

/** 10^e as a tick label: plain for 0.01 … 1000, else 10 with a superscript exponent. */
export function decadeLabel(e) {
  if (e >= -2 && e <= 3) return String(10 ** e).replace(/^0\./, '0.');
  return `10${String(e).split('').map((c) => SUP[c]).join('')}`;
}

/** Nice ticks (1, 2, 5 × 10^k steps) covering [lo, hi], about `count` of them. */
export function niceTicks(lo, hi, count = 6) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : +v.toPrecision(12));
  return out;
}

const minOf = (a) => a.reduce((m, v) => Math.min(m, v), Infinity);
const maxOf = (a) => a.reduce((m, v) => Math.max(m, v), -Infinity);
const fmtTick = (v) => (Math.abs(v) >= 1e5 || (v !== 0 && Math.abs(v) < 1e-3) ? sci(v) : String(+v.toPrecision(6)).replaceAll('-', '−'));

/**
 * A series in words, for the plot's text alternative: its trend (rising, falling, flat,
 * and whether steadily) and its extremes with where they are, e.g. "time: 5 points,
 * rises from 1.2 to 9.8, not steadily; lowest 1.2 at n 64, highest 9.8 at n 1024".
 */
export function describeSeries(s, fmt = String, xLabel = 'x') {
  const pts = s.points.filter(([, y]) => Number.isFinite(y));
  if (!pts.length) return `${s.name}: no points${s.points.length ? ' with a finite value' : ''}`;
  const count = `${s.points.length} point${s.points.length === 1 ? '' : 's'}`;
  if (pts.length === 1) return `${s.name}: ${count}, ${fmt(pts[0][1])} at ${xLabel} ${pts[0][0]}`;
  const first = pts[0][1], last = pts[pts.length - 1][1];
  const steps = pts.slice(1).map(([, y], k) => Math.sign(y - pts[k][1]));
  const trend = last > first ? `rises from ${fmt(first)} to ${fmt(last)}` : last < first ? `falls from ${fmt(first)} to ${fmt(last)}` : `ends where it starts, at ${fmt(first)}`;
  const steady = last > first ? steps.every((d) => d >= 0) : last < first ? steps.every((d) => d <= 0) : steps.every((d) => d === 0);
  let lo = pts[0], hi = pts[0];
  for (const p of pts) { if (p[1] < lo[1]) lo = p; if (p[1] > hi[1]) hi = p; }
  return `${s.name}: ${count}, ${trend}${steady ? '' : ', not steadily'}; lowest ${fmt(lo[1])} at ${xLabel} ${lo[0]}, highest ${fmt(hi[1])} at ${xLabel} ${hi[0]}`;
}

export class LinePlot {
  /**
   * title: the caption; xLabel / yLabel: the axes; log: true, false or 'auto' (log
   * when the positive values span more than two decades); label: the picture's
   * accessible name (defaults to the title); yFormat: how the data table shows y.
   */
  constructor({ title = '', xLabel = '', yLabel = '', log = 'auto', label = '', yFormat = sci } = {}) {
    this.opts = { xLabel, yLabel, log, label: label || title, yFormat };
    this.title = el('span', {}, title);
    this.area = el('div', { class: 'plot-area' });
    this.note = el('p', { class: 'plot-note' });
    this.table = el('div', { class: 'scroll-x' });
    this.details = el('details', { class: 'plot-data' }, el('summary', {}, 'Data'), this.table);
    this.element = el('figure', { class: 'plot' }, el('figcaption', {}, this.title), this.area, this.note, this.details);
    this.spec = null;
    this.width = 0;
    if (typeof ResizeObserver !== 'undefined') {
      this.observer = new ResizeObserver(() => {
        const w = this.area.clientWidth;
        if (this.spec && Math.abs(w - this.width) > 4) this.#render();
      });
      this.observer.observe(this.area);
    }
  }

  setTitle(text) { this.title.textContent = text; }

  /**
   * series: [{ name, points: [[x, y], …] }]; hlines / vlines: [{ y | x, label }];
   * note: a sentence under the legend.
   */
  set({ series, hlines = [], vlines = [], note = '' }) {
    this.spec = { series, hlines, vlines };
    this.note.textContent = note;
    this.note.hidden = !note;
    this.#table();
    this.#render();
  }

  clear() {
    this.spec = null;
    this.area.replaceChildren();
    this.table.replaceChildren();
    this.note.textContent = '';
  }

  /**
   * The legend under the x axis, from y = `top`, in rows as wide as the picture: a
   * swatch of each series (and each reference line) and its name. Returns its parts
   * and its height.
   */
  #legend(W, top) {
    const { series, hlines } = this.spec;
    const entries = [
      ...series.map((s, k) => ({ name: s.name, colour: COLOURS[k % COLOURS.length], dash: DASHES[k % DASHES.length], width: 2.5 })),
      ...hlines.map((h) => ({ name: h.label, colour: '#6b7280', dash: '4 3', width: 1 })),
    ];
    if (!entries.length) return { parts: [], height: 0 };
    // 11 px text: about 6.2 px a character, measured before the picture is on the page.
    const ROW = 18, SWATCH = 26, LEFT = 8;
    const parts = [];
    let x = LEFT, y = top;
    for (const e of entries) {
      const w = SWATCH + 6 + Math.ceil(e.name.length * 6.2) + 16;
      if (x > LEFT && x + w > W) { x = LEFT; y += ROW; }
      const mid = y + ROW / 2;
      parts.push(svg('line', { x1: x, x2: x + SWATCH, y1: mid, y2: mid, stroke: e.colour, 'stroke-width': e.width, 'stroke-dasharray': e.dash || null, class: 'plot-key' }));
      parts.push(svg('text', { x: x + SWATCH + 6, y: mid + 4, class: 'plot-tick plot-key' }, e.name));
      x += w;
    }
    return { parts, height: y + ROW - top + 4 };
  }

  #table() {
    const { series } = this.spec;
    const xs = [...new Set(series.flatMap((s) => s.points.map((p) => p[0])))].sort((a, b) => a - b);
    const maps = series.map((s) => new Map(s.points.map(([x, y]) => [x, y])));
    const f = this.opts.yFormat;
    this.table.replaceChildren(el('table', { class: 'plot-table' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, this.opts.xLabel || 'x'),
        series.map((s) => el('th', { scope: 'col' }, s.name)))),
      el('tbody', {}, xs.map((x) => el('tr', {}, el('th', { scope: 'row' }, String(x)),
        maps.map((m) => el('td', { class: 'num' }, m.has(x) ? f(m.get(x)) : '')))))));
  }

  #render() {
    const { series, hlines, vlines } = this.spec;
    const W = Math.max(260, Math.min(720, this.area.clientWidth || 520));
    this.width = this.area.clientWidth;
    const H = Math.round(Math.max(190, Math.min(280, W * 0.5)));
    const all = series.flatMap((s) => s.points.map((p) => p[1]));
    const finite = all.filter(Number.isFinite);
    const positive = finite.filter((v) => v > 0).concat(hlines.map((h) => h.y).filter((v) => v > 0));
    let log = this.opts.log;
    if (log === 'auto') {
      const lo = minOf(positive), hi = maxOf(positive);
      log = positive.length > 0 && finite.every((v) => v >= 0) && hi / lo > 100;
    }
    const hasInf = all.some((v) => !Number.isFinite(v));
    const hasZero = log && finite.some((v) => v <= 0);

    const m = { left: 58, right: 14, top: hasInf ? 34 : 10, bottom: (hasZero ? 22 : 0) + 40 };
    const x0 = m.left, x1 = W - m.right, yTop = m.top, yBot = H - m.bottom;
    const xsAll = series.flatMap((s) => s.points.map((p) => p[0])).concat(vlines.map((v) => v.x));
    let xMin = minOf(xsAll), xMax = maxOf(xsAll);
    if (!(xMax > xMin)) { xMin -= 1; xMax += 1; }
    const X = (x) => x0 + ((x - xMin) / (xMax - xMin)) * (x1 - x0);

    let Y, yTicks;
    if (log) {
      const lo = positive.length ? Math.floor(Math.log10(minOf(positive))) : -1;
      let hi = positive.length ? Math.ceil(Math.log10(maxOf(positive))) : 0;
      if (hi <= lo) hi = lo + 1;
      // A label every `every` decades, the axis extended to end on one (a top label
      // squeezed in off the step collided with the one below it).
      const every = Math.ceil((hi - lo + 1) / 7);
      hi = lo + Math.ceil((hi - lo) / every) * every;
      Y = (v) => yBot - ((Math.log10(v) - lo) / (hi - lo)) * (yBot - yTop);
      yTicks = [];
      for (let e = lo; e <= hi; e += every) yTicks.push({ y: Y(10 ** e), text: decadeLabel(e), grid: true });
    } else {
      let lo = finite.length ? minOf(finite.concat(hlines.map((h) => h.y))) : 0;
      let hi = finite.length ? maxOf(finite.concat(hlines.map((h) => h.y))) : 1;
      if (hi === lo) { lo -= Math.abs(lo) * 0.1 || 1; hi += Math.abs(hi) * 0.1 || 1; }
      const pad = (hi - lo) * 0.06;
      lo -= pad; hi += pad;
      Y = (v) => yBot - ((v - lo) / (hi - lo)) * (yBot - yTop);
      yTicks = niceTicks(lo, hi, 5).map((v) => ({ y: Y(v), text: fmtTick(v), grid: true }));
    }
    const zeroRow = H - m.bottom + 18, infRow = 10;
    const place = (v) => (Number.isFinite(v) ? (log && v <= 0 ? zeroRow : Y(v)) : infRow);
    if (hasZero) yTicks.push({ y: zeroRow, text: '0', grid: false });
    if (hasInf) yTicks.push({ y: infRow, text: '∞/NaN', grid: false });

    const parts = [];
    // Axes, grid and ticks.
    for (const t of yTicks) {
      if (t.grid) parts.push(svg('line', { x1: x0, x2: x1, y1: t.y, y2: t.y, class: 'plot-grid' }));
      parts.push(svg('text', { x: x0 - 6, y: t.y + 4, 'text-anchor': 'end', class: 'plot-tick' }, t.text));
    }
    const xTicks = niceTicks(xMin, xMax, Math.max(3, Math.floor((x1 - x0) / 60))).filter((v) => Number.isInteger(v) && v >= xMin && v <= xMax);
    for (const v of xTicks) {
      parts.push(svg('line', { x1: X(v), x2: X(v), y1: H - m.bottom + (hasZero ? 22 : 0), y2: H - m.bottom + (hasZero ? 26 : 4), class: 'plot-axis' }));
      parts.push(svg('text', { x: X(v), y: H - m.bottom + (hasZero ? 38 : 16), 'text-anchor': 'middle', class: 'plot-tick' }, String(v)));
    }
    const axisY = H - m.bottom + (hasZero ? 22 : 0);
    parts.push(svg('line', { x1: x0, x2: x1, y1: axisY, y2: axisY, class: 'plot-axis' }));
    parts.push(svg('line', { x1: x0, x2: x0, y1: yTop - (hasInf ? 20 : 0), y2: axisY, class: 'plot-axis' }));
    if (hasZero) parts.push(svg('line', { x1: x0 - 4, x2: x0 + 4, y1: yBot + 9, y2: yBot + 5, class: 'plot-axis' }));
    parts.push(svg('text', { x: (x0 + x1) / 2, y: H - 6, 'text-anchor': 'middle', class: 'plot-label' }, this.opts.xLabel));
    parts.push(svg('text', { x: 12, y: (yTop + yBot) / 2, 'text-anchor': 'middle', class: 'plot-label', transform: `rotate(-90 12 ${(yTop + yBot) / 2})` }, this.opts.yLabel));

    // Reference lines.
    for (const h of hlines) {
      if (log && !(h.y > 0)) continue;
      const y = Y(h.y);
      parts.push(svg('line', { x1: x0, x2: x1, y1: y, y2: y, class: 'plot-ref' }));
    }
    for (const v of vlines) {
      const x = X(v.x);
      parts.push(svg('line', { x1: x, x2: x, y1: yTop, y2: axisY, class: 'plot-ref' }));
      parts.push(svg('text', { x: x + 4, y: yTop + 12, class: 'plot-tick' }, v.label));
    }

    // The series.
    series.forEach((s, k) => {
      const colour = COLOURS[k % COLOURS.length];
      const pts = s.points.map(([x, y]) => [X(x), place(y), y]);
      if (pts.length > 1) {
        const d = pts.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`).join('');
        parts.push(svg('path', { d, fill: 'none', stroke: colour, 'stroke-width': 2, 'stroke-dasharray': DASHES[k % DASHES.length] || null, 'stroke-linejoin': 'round' }));
      }
      const markers = pts.length <= 60;
      for (const [x, y, v] of pts) {
        const special = !Number.isFinite(v) || (log && v <= 0);
        if (!markers && !special) continue;
        parts.push(svg('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: special ? 3.5 : 2.6, fill: special ? '#fff' : colour, stroke: colour, 'stroke-width': 1.5 }));
      }
    });

    const summary = series.map((s) => describeSeries(s, this.opts.yFormat, this.opts.xLabel || 'x')).join('; ');
    const legend = this.#legend(W, H + 2);
    parts.push(...legend.parts);
    const fullH = H + legend.height;
    const pic = svg('svg', {
      viewBox: `0 0 ${W} ${fullH}`, width: W, height: fullH, role: 'img',
      'aria-label': `${this.opts.label}${log ? ' (log scale)' : ''}. ${summary}.`, class: 'plot-svg',
    }, ...parts);
    this.area.replaceChildren(pic);
    this.area.dataset.scale = log ? 'log' : 'linear';
  }
}
