// "Several devices" (issue 17, point 3): the course report's two unequal GPUs, whose
// rows of C are split at a chosen ratio, and the chapter's OpenMP loop over CPU cores,
// on the devices a page has: the GPU through WebGL, through WebGPU, and the CPU's cores
// through Web Workers (Gpgpu.create({ backend: 'cpu' })). A slider sets the share of
// C's rows the first device gets; one bar per device shows its time, and a sweep of
// shares 0…1 gives the report's table with the balanced split ('auto') marked, each time
// the median of SWEEP_REPEATS timed calls (www/split-timing.js).
// The controls live in the address (config.js SECTION_PARAMS: dev*): a link runs the
// split it names. window.__devices holds the last results for the page tests.
import { Devices } from '../pkg/gpgpu_matrix.js';
import { clockNote, el } from '../ui/format.js';
import { resolutionText, wallNumber } from '../ui/clock.js';
import { disableWhileBusy } from './common.js';
import { svgLegend } from './svg-legend.js';
import { splitSummary, timedSplits } from '../split-timing.js';
import { DEVICE_SIZES as SIZES } from '../config.js';
import { probeWebgl } from '../backends.js';
import { t } from '../i18n/index.js';

const ID = 'devices';
const NAMES = { webgl: 'GPU (WebGL)', webgpu: 'GPU (WebGPU, high-performance)', 'webgpu-low-power': 'GPU (WebGPU, low-power)', cpu: 'CPU (Web Workers)' };
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c'];
const SVG = 'http://www.w3.org/2000/svg';
/** Timed calls a share of the sweep is the median of: one alone on a shared CPU is mostly noise. */
const SWEEP_REPEATS = 5;
/** 'auto' runs that learn the devices' throughput before the balanced split is timed. */
const AUTO_RUNS = 4;

function svgEl(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A seeded matrix of small integers: every device's float32 product is exact. */
function intMatrix(len, seed) {
  const m = new Float32Array(len);
  let s = seed >>> 0;
  for (let i = 0; i < len; i++) { s = (s * 1664525 + 1013904223) >>> 0; m[i] = (s >>> 28) - 8; }
  return m;
}

/** The largest |C - A·B| against a float64 product here in JavaScript. */
function maxError(n, a, b, c) {
  let worst = 0;
  const row = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    row.fill(0);
    for (let k = 0; k < n; k++) { const x = a[i * n + k]; for (let j = 0; j < n; j++) row[j] += x * b[k * n + j]; }
    for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(row[j] - c[i * n + j]));
  }
  return worst;
}

// Wall-clock ms, no finer than the timer's resolution (stated once by each status, chart and table).
const fmt = (ms) => wallNumber(ms);

/**
 * The devices this browser cannot give, each with why: WebGPU without navigator.gpu or
 * an adapter (the page's probe), WebGL2 where no context can be made. A pair naming one
 * would only fail with NO_WEBGL2 or NO_WEBGPU when Run is pressed.
 */
function missingDevices(backends) {
  const missing = new Map();
  const webgpu = backends?.webgpu;
  if (webgpu && (webgpu.state === 'none' || webgpu.state === 'no-adapter')) {
    missing.set('webgpu', webgpu.text);
    missing.set('webgpu-low-power', webgpu.text);
  }
  // As the demo's backend menu asks (the page's Backends, which asks once).
  const webgl = backends?.probeWebgl?.() ?? probeWebgl();
  if (webgl.state === 'none') missing.set('webgl', webgl.text);
  return missing;
}

export default {
  id: ID,
  title: 'Several devices',
  mount(container, ctx) {
    this.ctx = ctx;
    this.engines = new Map();
    this.missing = missingDevices(ctx.backends);
    // A device the browser cannot give stays listed, marked and not selectable (as the
    // demo's backend menu marks WebGPU).
    const select = (id) => el('select', { id }, ...Object.entries(NAMES).map(([k, label]) => (this.missing.has(k)
      ? el('option', { value: k, disabled: '' }, `${label} (not in this browser)`)
      : el('option', { value: k }, label))));
    this.first = select('devices-first');
    this.second = select('devices-second');
    this.size = el('select', { id: 'devices-n' }, ...SIZES.map((n) => el('option', { value: String(n) }, `n = ${n}`)));
    this.slider = el('input', { type: 'range', id: 'devices-ratio', min: '0', max: '100', step: '5', 'aria-label': t('sec.devices.share') });
    this.share = el('output', { id: 'devices-share', for: 'devices-ratio' });
    this.status = el('p', { id: 'devices-status', class: 'help', 'data-status': 'idle', role: 'status' }, t('sec.devices.idle'));
    this.set(ctx.url.state());
    this.slider.addEventListener('input', () => { this.share.textContent = `${this.slider.value} %`; });
    this.slider.addEventListener('change', () => this.run());
    this.bars = svgEl('svg', { id: 'devices-bars', width: '100%', style: 'max-width: 640px', viewBox: '0 0 480 168', role: 'img', 'aria-label': 'each device\'s time' });
    this.chart = svgEl('svg', { id: 'devices-sweep', width: '100%', style: 'max-width: 800px', viewBox: '0 0 600 240', role: 'img', 'aria-label': 'times against the share' });
    this.table = el('table', { id: 'devices-table', class: 'data' });
    const runButton = el('button', { type: 'button', class: 'primary', id: 'devices-run' }, t('sec.devices.run'));
    const sweepButton = el('button', { type: 'button', id: 'devices-sweep-run' }, t('sec.devices.sweep'));
    runButton.addEventListener('click', () => this.run());
    sweepButton.addEventListener('click', () => this.sweep());
    this.buttons = [runButton, sweepButton];
    // Results drawn for other devices or another n than the controls now show would be
    // read as theirs: they go when a control changes (the share is a column of the sweep).
    for (const control of [this.first, this.second, this.size]) control.addEventListener('change', () => this.clear());
    container.replaceChildren(
      el('div', { class: 'app-intro' },
        el('p', {}, 'A course report split the rows of C = A·B between two unequal GPUs (a K40 and a GTX 750) at a configurable ratio: at n = 3072 the best split, about half and half, took the time from about 0.6 s on one GPU to about 0.2 s. The chapter does the same loop over CPU threads with OpenMP\'s parallel-for. A browser page has several devices too: the GPU through WebGL, the GPU (or a second adapter, on dual-GPU laptops) through WebGPU, and the CPU\'s cores through Web Workers.'),
        el('p', {}, el('code', {}, "new Devices([gl, cpu]).multiplySplitAsync(n, n, n, a, b, { ratios: [s, 1 - s] })"), ' gives the first device the first s·n rows of A and C and the second the rest; both parts start at once, each a plain product on its own device, and C is assembled in row order. ', el('code', {}, "ratios: 'auto'"), ' balances by each device\'s measured throughput and refines after every run. The CPU backend (', el('code', {}, "Gpgpu.create({ backend: 'cpu' })"), ') runs a blocked, register-tiled SIMD128 kernel in one Web Worker per core, each worker computing a block of C\'s rows as OpenMP\'s static schedule would. Where the GPU is a software one (SwiftShader, as on a machine without a GPU), every device runs on the same cores, and the split shows it: each part slows the other down.')),
      el('div', { class: 'part-controls' },
        el('label', {}, `${t('sec.devices.first')} `, this.first), el('label', {}, `${t('sec.devices.second')} `, this.second),
        el('label', {}, `${t('sec.devices.size')} `, this.size), el('label', {}, `${t('sec.devices.share')} `, this.slider, ' ', this.share)),
      el('div', { class: 'buttons' }, ...this.buttons),
      this.status, this.bars, this.chart, el('div', { class: 'scroll-x' }, this.table));
  },

  /** The controls as the address says (at mount, and on Back / Forward). */
  set(s) {
    const first = this.usable(s.devFirst, s.devSecond);
    const second = this.usable(s.devSecond, first);
    this.first.value = first;
    this.second.value = second;
    const moved = [[s.devFirst, first, 'first'], [s.devSecond, second, 'second']].filter(([asked, got]) => asked !== got);
    if (moved.length) {
      this.setStatus(`${moved.map(([asked, got, which]) => `${NAMES[asked]} cannot be used here (${this.missing.get(asked)}): the ${which} device is ${NAMES[got]} instead`).join('; ')}. Choose two devices and a share, then Run.`, 'idle');
    }
    this.size.value = String(s.devN);
    this.slider.value = String(s.devShare);
    this.share.textContent = `${s.devShare} %`;
  },

  /** `name` if this browser has it, else the first device it has other than `other`. */
  usable(name, other) {
    if (!this.missing.has(name)) return name;
    return Object.keys(NAMES).find((k) => !this.missing.has(k) && k !== other) ?? name;
  },

  /** The controls into the address (config.js SECTION_PARAMS), so a link reproduces the run. */
  writeUrl(what, how) {
    this.ctx.url.set({ devFirst: this.first.value, devSecond: this.second.value, devN: Number(this.size.value), devShare: Number(this.slider.value) },
      { run: `devices-${what}`, replay: how?.replay === true });
  },

  /** After the demo's first run: a link naming the controls runs the split at its share. */
  async restore(ctx) {
    if (ctx.url.state().given.some((k) => k.startsWith('dev'))) await this.run({ replay: true });
  },

  /**
   * Back / Forward: the controls follow the address, and results of other ones go; a run
   * or sweep that this history entry made runs again.
   */
  onUrl(ctx) {
    this.set(ctx.url.state());
    if (this.shown && this.shown !== this.key()) this.clear();
    if (this.replayable(ctx.url.state())) {
      this.setStatus('Back or Forward: these controls ran here before; running them again…', 'idle');
      ctx.url.replay(() => {
        const what = this.replayable(ctx.url.state());
        return what ? this[what]({ replay: true }) : null;
      });
    }
  },

  /** 'sweep' or 'run': what history entry `s` ran with its controls and is not shown now; else null. */
  replayable(s) {
    if (s.ran.includes('devices-sweep')) return this.sweepShown === this.key() ? null : 'sweep';
    if (s.ran.includes('devices-run')) return this.shown === this.key() && this.shownShare === this.slider.value ? null : 'run';
    return null;
  },

  setStatus(text, state) {
    this.status.textContent = text;
    this.status.dataset.status = state;
  },

  /** The controls' devices and n, as a key to compare what is drawn with. */
  key() {
    return `${this.first.value}|${this.second.value}|${this.size.value}`;
  },

  /** Removes the bars, the sweep and its table (and their records), if any is shown. */
  clear() {
    if (!this.shown) return;
    this.shown = null;
    this.sweepShown = null;
    for (const e of [this.bars, this.chart, this.table]) e.replaceChildren();
    window.__devices = { ...window.__devices, run: null, sweep: null };
    this.setStatus('The devices or the size changed: the earlier results were for other ones. Run or sweep again.', 'idle');
  },

  async engine(name) {
    if (!this.engines.has(name)) {
      // The two WebGPU preferences are two adapters on a dual-GPU laptop, the same one elsewhere.
      const options = name.startsWith('webgpu') ? { backend: 'webgpu', powerPreference: name === 'webgpu' ? 'high-performance' : 'low-power' } : { backend: name };
      this.engines.set(name, await this.ctx.Gpgpu.create(options));
    }
    return this.engines.get(name);
  },

  async pair() {
    const names = [this.first.value, this.second.value];
    const gpus = [];
    for (const name of names) gpus.push(await this.engine(name));
    return { names, gpus };
  },

  inputs() {
    const n = Number(this.size.value);
    return { n, a: intMatrix(n * n, 1), b: intMatrix(n * n, 2) };
  },

  async guarded(work) {
    if (this.busy) return;
    this.busy = true;
    // The selects too: a result must be drawn for the controls it was run with.
    const release = disableWhileBusy([...this.buttons, this.first, this.second, this.size]);
    // What the results will be of, though Back or Forward may change the controls meanwhile.
    const key = this.key();
    try {
      await work(key);
    } catch (e) {
      const d = this.ctx.describeError ? this.ctx.describeError(e) : { code: e?.code, message: e?.message };
      this.setStatus(`Failed: ${d.code ? `${d.code}: ` : ''}${d.message || e}`, 'error');
    } finally {
      this.busy = false;
      release();
      // Back / Forward during the run moved the controls: its results are not theirs.
      if (this.shown && this.shown !== this.key()) this.clear();
    }
    if (this.rerun) {
      this.rerun = false;
      await this.run();
    }
  },

  run(how) {
    // The slider moved while busy (each arrow key is a change): run the share it ends at
    // afterwards, or the bars and the address would keep the first step's share.
    if (this.busy) {
      this.rerun = true;
      return Promise.resolve();
    }
    return this.guarded(async (key) => {
      this.setStatus(t('sec.runningShort'), 'running');
      this.writeUrl('run', how);
      // A sweep of other devices or another n (set without a change event: a link, Back)
      // does not belong under this run.
      if (this.sweepShown !== this.key()) {
        this.sweepShown = null;
        this.chart.replaceChildren();
        this.table.replaceChildren();
        window.__devices = { ...window.__devices, sweep: null };
      }
      this.bars.replaceChildren(); // redrawn for this run; gone if it fails
      const { names, gpus } = await this.pair();
      const { n, a, b } = this.inputs();
      const s = Number(this.slider.value) / 100;
      const devices = new Devices(gpus);
      let runs;
      try {
        // A first call pays for compiling kernels and starting workers: time the second.
        runs = await timedSplits(devices, n, a, b, [s, 1 - s], 1);
      } finally {
        devices.free();
      }
      const p = splitSummary(runs);
      const err = maxError(n, a, b, runs[0].c);
      window.__devices = { ...window.__devices, run: { names, share: s, rows: p.rows, ms: p.ms, totalMs: p.totalMs, maxError: err } };
      this.drawBars(names, p, `At the slider's share: ${Math.round(s * 100)} % of the rows on ${NAMES[names[0]]}`);
      this.shown = key;
      this.shownShare = String(Math.round(s * 100));
      this.setStatus(`n = ${n}: ${p.rows.map((rows, i) => `${NAMES[names[i]]} ${rows} rows in ${fmt(p.ms[i])} ms`).join(', ')}; C assembled in ${fmt(p.totalMs)} ms (the second of two calls; timer resolution ${resolutionText()}). Largest error against float64: ${err} (integer inputs: exact).`, 'done');
    });
  },

  sweep(how) {
    return this.guarded(async (key) => {
      // Redrawn at the end; a sweep that fails leaves none of the earlier one standing.
      for (const e of [this.bars, this.chart, this.table]) e.replaceChildren();
      this.sweepShown = null;
      this.shownShare = null;
      this.writeUrl('sweep', how);
      const { names, gpus } = await this.pair();
      const { n, a, b } = this.inputs();
      const points = [];
      const devices = new Devices(gpus);
      try {
        for (let k = 0; k <= 10; k++) {
          const s = k / 10;
          this.setStatus(`Sweeping: share ${Math.round(s * 100)} %…`, 'running');
          points.push({ share: s, ...splitSummary(await timedSplits(devices, n, a, b, [s, 1 - s], SWEEP_REPEATS)) });
        }
      } finally {
        devices.free();
      }
      this.setStatus('Balancing (auto)…', 'running');
      // A fresh balance, so that the sweep's runs do not steer it.
      const auto = new Devices(gpus);
      let balanced;
      try {
        for (let k = 0; k < AUTO_RUNS; k++) await auto.multiplySplitAsync(n, n, n, a, b, { ratios: 'auto' });
        const p = splitSummary(await timedSplits(auto, n, a, b, 'auto', SWEEP_REPEATS));
        balanced = { share: p.ratios[0], ...p };
      } finally {
        auto.free();
      }
      const best = points.reduce((x, y) => (y.totalMs < x.totalMs ? y : x));
      window.__devices = { ...window.__devices, sweep: { names, n, points, balanced, best } };
      this.drawSweep(names, n, points, balanced);
      // The bars show the balanced run, not an older one, and say so: the slider keeps its own share.
      const share = (balanced.share * 100).toFixed(0);
      const other = share === this.slider.value ? '' : `, not the slider's ${this.slider.value} %`;
      this.drawBars(names, balanced, `Balanced ('auto'): ${share} % of the rows on ${NAMES[names[0]]}${other}`);
      this.drawTable(names, points, balanced);
      this.shown = this.sweepShown = key;
      this.setStatus(`n = ${n}, each time the median of ${SWEEP_REPEATS} calls: the fastest share of ${NAMES[names[0]]} was ${Math.round(best.share * 100)} % (${fmt(best.totalMs)} ms); balanced ('auto'): ${(balanced.share * 100).toFixed(0)} %, ${fmt(balanced.totalMs)} ms (timer resolution ${resolutionText()}).`, 'done');
    });
  },

  /** One bar per device and one for the total of split `p` (www/split-timing.js), under `caption` (which split they show). */
  drawBars(names, p, caption) {
    const max = Math.max(p.totalMs, ...p.ms) || 1;
    const rows = [...p.ms.map((ms, i) => ({ label: `${NAMES[names[i]]}: ${p.rows[i]} rows`, ms, color: COLORS[i] })), { label: 'total (C assembled)', ms: p.totalMs, color: '#444' }];
    const top = 18;
    this.bars.replaceChildren(svgEl('text', { class: 'caption', x: 0, y: 12, 'font-size': 12, 'font-weight': 600 }, caption),
      // The bars' times are wall-clock ones: the picture states the clock's resolution.
      svgEl('text', { class: 'clock', x: 0, y: 160, 'font-size': 11 }, `wall-clock times; timer resolution ${resolutionText()}`),
      ...rows.flatMap((row, i) => [
        svgEl('text', { x: 0, y: top + 22 + 40 * i, 'font-size': 12 }, row.label),
        svgEl('rect', { class: 'bar', x: 180, y: top + 8 + 40 * i, width: Math.max(1, (row.ms / max) * 240), height: 20, fill: row.color }),
        svgEl('text', { x: 186 + (row.ms / max) * 240, y: top + 22 + 40 * i, 'font-size': 12 }, `${fmt(row.ms)} ms`),
      ]));
  },

  drawSweep(names, n, points, balanced) {
    // T: room above the plot for the balanced line's label, under the title.
    const W = 600, H = 240, L = 58, B = 30, T = 34;
    const max = Math.max(...points.flatMap((p) => [p.totalMs, ...p.ms]), balanced.totalMs) || 1;
    const x = (s) => L + s * (W - L - 20);
    const y = (ms) => H - B - (ms / max) * (H - B - T);
    const bw = (W - L - 20) / 11 / 3;
    const parts = [svgEl('text', { x: 4, y: 12, 'font-size': 11 }, `n = ${n}: each device's ms (bars), the total (line), by ${NAMES[names[0]]}'s share; medians of ${SWEEP_REPEATS} calls; timer resolution ${resolutionText()}`)];
    for (const p of points) {
      p.ms.forEach((ms, k) => parts.push(svgEl('rect', { class: 'bar', x: x(p.share) - bw + k * bw, y: y(ms), width: bw - 1, height: H - B - y(ms), fill: COLORS[k] })));
      parts.push(svgEl('text', { x: x(p.share), y: H - B + 14, 'text-anchor': 'middle', 'font-size': 11 }, `${Math.round(p.share * 100)}%`));
    }
    parts.push(svgEl('polyline', { fill: 'none', stroke: '#000', 'stroke-width': 2, points: points.map((p) => `${x(p.share)},${y(p.totalMs)}`).join(' ') }));
    parts.push(svgEl('line', { class: 'balanced', x1: x(balanced.share), x2: x(balanced.share), y1: T, y2: H - B, stroke: '#d62728', 'stroke-dasharray': '4 3', 'stroke-width': 2 }));
    // The label on the line's open side: right of it, or left where it stands past the
    // middle; above the plot, where no bar or total reaches (inside it, the tallest bar
    // beside the line covered it, red on blue).
    const right = balanced.share <= 0.5;
    parts.push(svgEl('text', { class: 'balanced', x: x(balanced.share) + (right ? 4 : -4), y: T - 6, fill: '#d62728', 'font-size': 11, 'text-anchor': right ? 'start' : 'end' }, `balanced ${(balanced.share * 100).toFixed(0)} %: ${fmt(balanced.totalMs)} ms`));
    // The scale's labels end short of the plot's left edge, clear of a balanced line at
    // 0 % (T leaves the top one room below the title).
    const scale = (ty, text) => svgEl('text', { class: 'scale', x: L - 8, y: ty, 'text-anchor': 'end', 'font-size': 11 }, text);
    parts.push(scale(y(max) + 4, `${fmt(max)} ms`), scale(H - B, '0'));
    // Which colour is which device, drawn in the picture so that a saved PNG or SVG keeps it.
    const box = (fill) => (cx, cy) => [svgEl('rect', { x: cx - 6, y: cy - 6, width: 12, height: 12, fill })];
    const line = (attrs) => (cx, cy) => [svgEl('line', { x1: cx - 12, x2: cx + 12, y1: cy, y2: cy, 'stroke-width': 2, ...attrs })];
    const legend = svgLegend([
      ...names.map((name, k) => ({ marks: box(COLORS[k]), text: `${NAMES[name]}: its ms` })),
      { marks: line({ stroke: '#000' }), swatch: 24, text: 'total (C assembled)' },
      { marks: line({ stroke: '#d62728', 'stroke-dasharray': '4 3' }), swatch: 24, text: 'balanced (\'auto\')' },
    ], { x: 4, top: H + 4, width: W - 8, size: 11 });
    this.chart.setAttribute('viewBox', `0 0 ${W} ${H + 4 + legend.height}`);
    this.chart.replaceChildren(...parts, legend.group);
  },

  drawTable(names, points, balanced) {
    const head = el('tr', {}, ...[t('sec.devices.shareOf', { device: NAMES[names[0]] }), t('sec.devices.rowsOf', { device: NAMES[names[0]] }), t('sec.devices.rowsOf', { device: NAMES[names[1]] }), `${NAMES[names[0]]} ms`, `${NAMES[names[1]]} ms`, t('sec.devices.totalMs')].map((h) => el('th', { scope: 'col' }, h)));
    // Each row keeps the totals its median is of, for whoever wants the spread.
    const samples = (p) => p.samplesMs.map((ms) => ms.toPrecision(3)).join(' ');
    const row = (label, p, key) => el('tr', { 'data-key': key, 'data-samples-ms': samples(p) }, el('th', { scope: 'row' }, label), ...[p.rows[0], p.rows[1], fmt(p.ms[0]), fmt(p.ms[1]), fmt(p.totalMs)].map((v) => el('td', {}, String(v))));
    // Copy as CSV (www/ui/figures.js): the share a number of its own ("10 %" and
    // "balanced (47 %)" are not), which run in a column, the times unrounded to 3 digits.
    const [one, two] = names.map((x) => NAMES[x]);
    const data = (run, p) => [run, Number((p.share * 100).toPrecision(3)), p.rows[0], p.rows[1], ...[...p.ms, p.totalMs].map((ms) => Number(ms.toPrecision(3)))];
    this.table.figureData = () => [['run', `share of ${one} (%)`, `rows on ${one}`, `rows on ${two}`, `${one} (ms)`, `${two} (ms)`, 'total (ms)'],
      ...points.map((p) => data('sweep', p)), data('balanced (auto)', balanced)];
    this.table.replaceChildren(el('caption', {}, `The course report's table, live: rows per device, each device's time, the total; each time the median of ${SWEEP_REPEATS} timed calls after a warm-up. `, el('span', { class: 'clock-note' }, clockNote())),
      el('thead', {}, head), el('tbody', {}, ...points.map((p) => row(`${Math.round(p.share * 100)} %`, p, String(Math.round(p.share * 100)))), row(`balanced (${(balanced.share * 100).toFixed(0)} %)`, balanced, 'balanced')));
  },
};
