// The pass timeline: one row per pass (a render-to-texture pass on WebGL, a compute
// pass on WebGPU) with what it computed, its
// time (GPU timer query where the browser has one, else wall time around a
// synchronisation, labelled as such), its speed, the largest |value| it produced,
// NaN/Inf counts, its error against the float64 pass, and a thumbnail of its output.
import { resolutionText } from './clock.js';
import { clockMs, clockNote, el, flops, gflops, magnitude, ms, num, rate, sci } from './format.js';
import { HeatmapView } from './heatmap.js';
import { t, tn } from '../i18n/index.js';

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
      el('th', { scope: 'col' }, t('timeline.pass')),
      el('th', { scope: 'col' }, t('timeline.computes')),
      el('th', { scope: 'col' }, timer ? t(backend === 'webgpu' ? 'timeline.gpuTimestamps' : 'timeline.gpuTimer') : t('timeline.time')),
      el('th', { scope: 'col' }, t('timeline.wallTime')),
      el('th', { scope: 'col' }, 'GFLOP/s'),
      el('th', { scope: 'col' }, t('timeline.max')),
      el('th', { scope: 'col' }, 'NaN / ±Inf'),
      el('th', { scope: 'col', title: t('timeline.errorTitle') }, t('timeline.error')),
      el('th', { scope: 'col' }, t('timeline.output')));
    const body = el('tbody');
    labels.forEach((label, idx) => {
      const thumb = new HeatmapView({ title: '', target: 72, small: true, label: t('timeline.thumb', { pass: idx + 1, label }) });
      // data-label: the column's name, shown beside the value when the table is
      // stacked on narrow screens.
      const cells = {
        gpu: el('td', { class: 'num time', 'data-label': t(timer ? 'timeline.gpuTime' : 'timeline.time') }, el('span', { class: 'bar' }), el('span', { class: 'v' }, '—')),
        wall: el('td', { class: 'num', 'data-label': t('timeline.wall') }, '—'),
        rate: el('td', { class: 'num', 'data-label': 'GFLOP/s' }, '—'),
        max: el('td', { class: 'num', 'data-label': t('timeline.max') }, '—'),
        bad: el('td', { class: 'num', 'data-label': 'NaN / ±Inf' }, '—'),
        err: el('td', { class: 'num', 'data-label': t('timeline.error') }, reference ? '—' : t('timeline.off')),
        pic: el('td', { class: 'pic' }, thumb.element),
      };
      const tr = el('tr', { class: 'pending', 'data-pass': String(idx + 1) },
        el('th', { scope: 'row' }, String(idx + 1)),
        el('td', { class: 'label', 'data-label': t('timeline.computes') }, label),
        cells.gpu, cells.wall, cells.rate, cells.max, cells.bad, cells.err, cells.pic);
      body.append(tr);
      this.rows.push({ tr, cells, thumb, wallMs: null, gpuMs: null });
    });
    const gpuWebgpu = backend === 'webgpu';
    const api = gpuWebgpu ? 'webgpu' : 'webgl';
    const how = t(`timeline.how.${api}`);
    let note = t(`timeline.${this.timer ? 'timer' : 'noTimer'}.${api}`, { how });
    let wallNote = t(`timeline.wallNote.${api}`);
    let kind = t(`timeline.kind.${api}`);
    if (backend === 'cpu') {
      note = t('timeline.noTimer.cpu');
      wallNote = t('timeline.wallNote.cpu');
      kind = 'CPU';
    }
    // With the reference off no double is computed: the column says "off", and the
    // caption says why rather than explaining an error nobody measures.
    const errorNote = reference
      ? t('timeline.errorNote', { dev: backend === 'cpu' ? 'CPU' : 'GPU' })
      : t('timeline.errorOff');
    const caption = el('caption', {}, labels.length
      ? `${tn('timeline.caption', labels.length, { kind, flops: flops(flopsPerPass), n })} ${errorNote}`
      : t('timeline.none'));
    const table = labels.length ? el('table', { class: 'timeline' }, caption, el('thead', {}, head), body) : el('p', {}, caption.textContent);
    // The timeline as a picture too (www/ui/figures.js: Save PNG / Save SVG beside Copy).
    if (labels.length) table.figureSvg = () => this.svg();
    // Its files' name: what it is, whole (its caption's first sentence is long).
    if (labels.length) table.dataset.figureName = `pass timeline ${labels.length} ${kind} pass${labels.length > 1 ? 'es' : ''} n ${n}`;
    this.container.replaceChildren(el('div', { class: 'scroll-x' }, table), labels.length ? el('p', { class: 'help' }, `${note}${wallNote} ${clockNote()}`) : '');
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
    r.cells.wall.textContent = clockMs(wallMs, { bare: true });
    const finite = stats.nan + stats.inf < this.entries;
    r.cells.max.textContent = !finite ? t('timeline.noFinite', { what: stats.inf ? 'Inf' : 'NaN' })
      : stats.inf > 0 ? t('timeline.infFinite', { max: magnitude(stats.maxAbs) }) : magnitude(stats.maxAbs);
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
    const finite = m.compared < m.total ? t('timeline.finiteOf', { compared: m.compared, total: m.total }) : '';
    r.cells.err.textContent = m.compared === 0 ? t('timeline.noFiniteEntry') : `${sci(m.relFrobenius)}${finite}`;
    r.cells.err.title = t('timeline.exactTitle', { exact: m.exact, total: m.total });
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
    const kind = t(this.timer ? 'timeline.gpuTime' : 'timeline.wallKind');
    const title = tn('timeline.svgTitle', this.rows.length, { kind });
    // A picture of wall times states the clock's resolution, as the table's note does.
    svg.append(node('text', { x: 8, y: 18, 'font-weight': 600 }, this.timer ? title : t('clock.figure', { time: title, res: resolutionText() })));
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
        svg.append(node('text', { x: LABEL + 36 + BAR, y: mid }, this.timeText(r, t)));
      }
      if (r.thumb.canvas.width > 1) {
        svg.append(node('image', { x: W - THUMB - 8, y: y + (ROW - THUMB) / 2, width: THUMB, height: THUMB, href: r.thumb.canvas.toDataURL('image/png'), 'image-rendering': 'pixelated' }));
      }
    });
    return svg;
  }

  /** Time `t` of row `r` as text: a GPU timer's to its precision, a wall time to the clock's. */
  timeText(r, t) { return this.timer && r.gpuMs !== null ? ms(t) : clockMs(t, { bare: true }); }

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
      if (this.timer && r.gpuMs === null) v.textContent = this.settled ? `${clockMs(t, { bare: true })} (wall; no timer result)` : 'pending…';
      else v.textContent = this.timeText(r, t);
      bar.style.width = `${(100 * t) / max}%`;
      r.cells.rate.textContent = rate(gflops(this.flopsPerPass, t));
    }
  }
}
