// The pass timeline: one row per pass (a render-to-texture pass on WebGL, a compute
// pass on WebGPU) with what it computed, its
// time (GPU timer query where the browser has one, else wall time around a
// synchronisation, labelled as such), its speed, the largest |value| it produced,
// NaN/Inf counts, its error against the float64 pass, and a thumbnail of its output.
import { el, flops, gflops, magnitude, ms, num, rate, sci } from './format.js';
import { HeatmapView } from './heatmap.js';

export class Timeline {
  constructor(container) {
    this.container = container;
    this.rows = [];
  }

  /**
   * A fresh table for `labels`; `timer` says whether GPU timer queries are on,
   * `reference` whether a float64 pass is computed to measure the error against.
   */
  reset(labels, { timer, flopsPerPass, n, backend = 'webgl', reference = true }) {
    this.timer = timer;
    this.flopsPerPass = flopsPerPass;
    this.entries = n * n;
    this.rows = [];
    this.settled = false;
    const head = el('tr', {},
      el('th', { scope: 'col' }, 'pass'),
      el('th', { scope: 'col' }, 'computes'),
      el('th', { scope: 'col' }, timer ? `GPU time (${backend === 'webgpu' ? 'timestamps' : 'timer query'})` : 'time'),
      el('th', { scope: 'col' }, 'wall time'),
      el('th', { scope: 'col' }, 'GFLOP/s'),
      el('th', { scope: 'col' }, 'max |value|'),
      el('th', { scope: 'col' }, 'NaN / ±Inf'),
      el('th', { scope: 'col', title: 'relative Frobenius error against the float64 pass' }, 'error vs double'),
      el('th', { scope: 'col' }, 'output'));
    const body = el('tbody');
    labels.forEach((label, idx) => {
      const thumb = new HeatmapView({ title: '', target: 72, small: true, label: `output of pass ${idx + 1}: ${label}` });
      // data-label: the column's name, shown beside the value when the table is
      // stacked on narrow screens.
      const cells = {
        gpu: el('td', { class: 'num time', 'data-label': timer ? 'GPU time' : 'time' }, el('span', { class: 'bar' }), el('span', { class: 'v' }, '—')),
        wall: el('td', { class: 'num', 'data-label': 'wall' }, '—'),
        rate: el('td', { class: 'num', 'data-label': 'GFLOP/s' }, '—'),
        max: el('td', { class: 'num', 'data-label': 'max |value|' }, '—'),
        bad: el('td', { class: 'num', 'data-label': 'NaN / ±Inf' }, '—'),
        err: el('td', { class: 'num', 'data-label': 'error vs double' }, reference ? '—' : 'off'),
        pic: el('td', { class: 'pic' }, thumb.element),
      };
      const tr = el('tr', { class: 'pending', 'data-pass': String(idx + 1) },
        el('th', { scope: 'row' }, String(idx + 1)),
        el('td', { class: 'label', 'data-label': 'computes' }, label),
        cells.gpu, cells.wall, cells.rate, cells.max, cells.bad, cells.err, cells.pic);
      body.append(tr);
      this.rows.push({ tr, cells, thumb, wallMs: null, gpuMs: null });
    });
    const gpuWebgpu = backend === 'webgpu';
    const how = gpuWebgpu
      ? 'onSubmittedWorkDone, awaited through run.whenDone()'
      : 'a synchronising one-texel readback for small passes, a fence for large ones';
    let note = !this.timer
      ? `This ${gpuWebgpu ? 'device grants no timestamp queries (timestamp-query)' : 'browser offers no GPU timer (EXT_disjoint_timer_query_webgl2)'}, so the times are wall times around a synchronisation: from issuing the pass until the GPU reported it finished (${how}).`
      : gpuWebgpu
        ? `GPU time: measured on the GPU by timestamp queries (timestamp-query) written at the start and the end of the pass's compute pass; the first passes of a run can also hold one-time work (pipeline and buffer set-up at a new size), so compare later passes. Wall time: from issuing the pass until the GPU reported it finished (${how}).`
        : `GPU time: measured on the GPU by EXT_disjoint_timer_query_webgl2 around the pass's draw call; the first passes of a run can also hold one-time driver work (on SwiftShader, the software GPU of headless Chromium, the first draws at a new size measured several times longer than later ones), so compare later passes. Wall time: from issuing the pass until the GPU reported it finished (${how}).`;
    let wallNote = ` A wall time also holds the hand-over to the GPU and any GPU work queued before the pass (on a software ${gpuWebgpu ? 'adapter' : 'renderer'} such as SwiftShader, drawing the page itself); the first pass of a run often also holds one-time set-up (its output ${gpuWebgpu ? 'buffer' : 'texture'}, and driver work on the first ${gpuWebgpu ? 'dispatch' : 'draw'} at this size).`;
    let kind = gpuWebgpu ? 'compute' : 'render-to-texture';
    if (backend === 'cpu') {
      note = 'The CPU has no GPU timer: the times are wall times from step() until run.whenDone() resolved, which sends the pass\'s product to the Web Workers (C\'s rows split among them) and waits for every part.';
      wallNote = ' A wall time also holds copying A and B into the workers\' messages and C back out; the first pass of a run often also holds each worker compiling the module.';
      kind = 'CPU';
    }
    // With the reference off no double is computed: the column says "off", and the
    // caption says why rather than explaining an error nobody measures.
    const errorNote = reference
      ? `Error vs double: ‖${backend === 'cpu' ? 'CPU' : 'GPU'} − double‖_F / ‖double‖_F of the pass's output, the double being the same pass in float64.`
      : 'Error vs double: not measured, the float64 reference is off for this run.';
    const caption = el('caption', {}, labels.length
      ? `${labels.length} ${kind} pass${labels.length > 1 ? 'es' : ''}, ${labels.length > 1 ? 'each ' : ''}an n×n×n product (${flops(flopsPerPass)} at n = ${n}). ${errorNote}`
      : 'No pass: the answer needs no product (M^0 = I, M^1 = M, M^(2^0) = M).');
    const table = labels.length ? el('table', { class: 'timeline' }, caption, el('thead', {}, head), body) : el('p', {}, caption.textContent);
    // The timeline as a picture too (www/ui/figures.js: Save PNG / Save SVG beside Copy).
    if (labels.length) table.figureSvg = () => this.svg();
    // Its files' name: what it is, whole (its caption's first sentence is long).
    if (labels.length) table.dataset.figureName = `pass timeline ${labels.length} ${kind} pass${labels.length > 1 ? 'es' : ''} n ${n}`;
    this.container.replaceChildren(el('div', { class: 'scroll-x' }, table), labels.length ? el('p', { class: 'help' }, note + wallNote) : '');
    if (this.rows.length) this.rows[0].tr.classList.add('next');
  }

  /** Fills row `idx` once its pass finished. */
  setPass(idx, { wallMs, stats }) {
    const r = this.rows[idx];
    if (!r) return;
    r.wallMs = wallMs;
    r.tr.classList.remove('pending', 'next');
    r.tr.classList.add('ran');
    this.rows[idx + 1]?.tr.classList.add('next');
    r.cells.wall.textContent = ms(wallMs);
    const finite = stats.nan + stats.inf < this.entries;
    r.cells.max.textContent = !finite ? (stats.inf ? 'Inf (no finite entry)' : 'NaN (no finite entry)')
      : stats.inf > 0 ? `Inf (finite ≤ ${magnitude(stats.maxAbs)})` : magnitude(stats.maxAbs);
    r.cells.bad.textContent = `${stats.nan} / ${stats.inf}`;
    if (stats.nan || stats.inf) r.cells.bad.classList.add('warn');
    if (stats.maxAbs > 16777216) r.cells.max.classList.add('over');
    this.#times();
    return r.thumb;
  }

  setGpuTime(idx, gpuMs) {
    const r = this.rows[idx];
    if (!r || gpuMs === null || gpuMs === undefined) return;
    r.gpuMs = gpuMs;
    this.#times();
  }

  /** The pass's error against its float64 pass (`m`: a compare() result). */
  setError(idx, m) {
    const r = this.rows[idx];
    if (!r) return;
    // An error over the finite entries only must say so: a tiny number beside a pass
    // whose entries mostly overflowed would mislead.
    const finite = m.compared < m.total ? ` (${m.compared} of ${m.total} finite)` : '';
    r.cells.err.textContent = m.compared === 0 ? '— (no finite entry)' : `${sci(m.relFrobenius)}${finite}`;
    r.cells.err.title = `${m.exact} of ${m.total} entries equal the float64 value rounded to float32`;
  }

  /** No more timer results will come: passes without one show their wall time. */
  settle() { this.settled = true; this.#times(); }

  /**
   * The timeline as a standalone SVG: per pass its label, a bar of its time (scaled to
   * the longest), the time, and its output's thumbnail.
   */
  svg() {
    const NS = 'http://www.w3.org/2000/svg';
    const node = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      if (text !== undefined) e.textContent = text;
      return e;
    };
    const ROW = 44, THUMB = 36, W = 720, LABEL = 190, BAR = 300, TOP = 30;
    const svg = node('svg', { xmlns: NS, viewBox: `0 0 ${W} ${TOP + ROW * this.rows.length + 8}`, width: W, height: TOP + ROW * this.rows.length + 8, 'font-family': 'system-ui, sans-serif', 'font-size': 13 });
    svg.append(node('rect', { x: 0, y: 0, width: '100%', height: '100%', fill: '#fff' }));
    const kind = this.timer ? 'GPU time' : 'time (wall)';
    svg.append(node('text', { x: 8, y: 18, 'font-weight': 600 }, `Pass timeline: ${this.rows.length} pass${this.rows.length === 1 ? '' : 'es'}, ${kind}`));
    const times = this.rows.map((r) => this.shownTime(r));
    const max = Math.max(1e-9, ...times.filter((t) => t !== null));
    this.rows.forEach((r, i) => {
      const y = TOP + i * ROW;
      const mid = y + ROW / 2 + 4;
      const label = r.tr.querySelector('td.label')?.textContent || '';
      svg.append(node('text', { x: 8, y: mid, fill: '#555' }, String(i + 1)));
      svg.append(node('text', { x: 30, y: mid, 'font-family': 'ui-monospace, monospace', 'font-size': 12 }, label));
      const t = times[i];
      if (t !== null) {
        svg.append(node('rect', { x: LABEL + 30, y: y + 12, width: Math.max(1, (BAR * t) / max), height: ROW - 24, fill: '#c7d2fe' }));
        svg.append(node('text', { x: LABEL + 36 + BAR, y: mid }, ms(t)));
      }
      if (r.thumb.canvas.width > 1) {
        svg.append(node('image', { x: W - THUMB - 8, y: y + (ROW - THUMB) / 2, width: THUMB, height: THUMB, href: r.thumb.canvas.toDataURL('image/png'), 'image-rendering': 'pixelated' }));
      }
    });
    return svg;
  }

  /** Time shown per pass: the GPU timer's where it has one, else the wall time. */
  shownTime(r) { return this.timer && r.gpuMs !== null ? r.gpuMs : r.wallMs; }

  #times() {
    const shown = this.rows.map((r) => this.shownTime(r)).filter((t) => t !== null);
    const max = Math.max(1e-9, ...shown);
    for (const r of this.rows) {
      const t = this.shownTime(r);
      const v = r.cells.gpu.querySelector('.v');
      const bar = r.cells.gpu.querySelector('.bar');
      if (t === null) continue;
      if (this.timer && r.gpuMs === null) v.textContent = this.settled ? `${ms(t)} (wall; no timer result)` : 'pending…';
      else v.textContent = ms(t);
      bar.style.width = `${(100 * t) / max}%`;
      r.cells.rate.textContent = rate(gflops(this.flopsPerPass, t));
    }
  }
}
