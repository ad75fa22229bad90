// The teaching page: reads the configuration from the URL, runs it on the GPU pass
// by pass (yielding to the browser between passes), draws every texture as a
// heatmap, times each pass, checks the answer against a float64 reference computed
// in a Web Worker, and explains the difference. It runs on WebGL2 or WebGPU
// (backend=auto|webgl|webgpu) and uses the library's Async calls on both: on WebGPU
// the blocking ones throw NEEDS_ASYNC.
//
// Machine-readable state for the report script and the page tests:
//   document.body.dataset.status   loading | running | paused | done | error | cancelled
//   document.body.dataset.passesDone / passCount
//   <script type="application/json" id="results"> and window.__results (see publish())
//   window.__page                  { gpu, backends, last: { gpu: Float32Array, ref: Float64Array } }
import init, { BlockSparse, Csr, Gpgpu, Tridiagonal } from './pkg/gpgpu_matrix.js';
import * as reference from './reference.js';
import { compare } from './reference.js';
import * as inputs from './inputs.js';
import { INPUT_KINDS, describeInput, makeInput } from './inputs.js';
import {
  parseQuery, referenceOn, relevantKeys, toQuery, fitKernel, DEFAULTS, DEFAULT_KERNEL,
  SECTION_PARAMS, demoQuery, parseSectionQuery, withSectionParams, N_CAP, opText, describeConfig,
} from './config.js';
import { Backends } from './backends.js';
import { productFlops } from './chain.js';
import { ReferenceClient } from './reference-client.js';
import { ranHere, replay, writeEntry } from './section-history.js';
import { HeatmapView } from './ui/heatmap.js';
import { ShaderPanel } from './ui/shader-panel.js';
import { deviceLine, deviceName } from './ui/device.js';
import { describeError } from './ui/errors.js';
import * as format from './ui/format.js';
import { el, gflops, ms, num, rate, sci, ulp32, clockMs } from './ui/format.js';
import { Timeline } from './ui/timeline.js';
import { renderPrecision } from './ui/precision.js';
import { Controls } from './ui/controls.js';
import { mountSections, SECTIONS } from './sections/index.js';
import { mountFigureTools } from './ui/figures.js';
import { applyEmbed, embedded, mountSlidesLink } from './ui/slides.js';
import computeSection from './sections/compute.js';
import partitionedSection from './sections/partitioned.js';
import batchedSection from './sections/batched.js';
import devicesSection from './sections/devices.js';
import linearSection from './sections/linear.js';
import sparseSection from './sections/sparse.js';

const $ = (id) => document.getElementById(id);
const sleep = (t) => new Promise((r) => setTimeout(r, t));
const nextFrame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
/** Passes of at most this many multiply-adds are waited for by a blocking one-texel readback. */
const SMALL_PASS = 256 ** 3;
/**
 * Every pass's output is read back (for hover values and per-pass errors) and the worker
 * sends every float64 pass while they take at most this many bytes (float64) in all.
 */
const KEEP_PASS_BYTES = 64 * 1024 * 1024;

const page = { gpu: null, info: null, last: null, session: null, backends: null };
window.__page = page;

let controls, timeline, refClient, gl, shaderPanel;
/** The "Link for slides" box (www/ui/slides.js): its snippet follows the permalink. */
let slides = null;
const views = {};

// ---------------------------------------------------------------------------------
// Status, notes, errors

/**
 * Names what computes the float32 side, 'GPU' or 'CPU', in the progress bar's label and
 * the precision panel's heading: from the configuration at load, then from each run.
 */
function nameDevice(dev) {
  document.querySelector('label[for="gpu-progress"]').textContent = `${dev} passes`;
  $('precision-h').textContent = `Precision: float32 on the ${dev}, float64 in JavaScript`;
}

/** `tone` 'warn' marks a finished run whose answer overflowed or turned NaN. */
function setStatus(status, text, tone = '') {
  document.body.dataset.status = status;
  $('status').textContent = text;
  $('status').className = `status ${status}${tone ? ` ${tone}` : ''}`;
}

function showNotes(notes, heading = 'Some settings were ignored:') {
  const box = $('notes');
  if (!notes.length) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  box.replaceChildren(
    el('p', {}, el('strong', {}, heading)),
    el('ul', {}, notes.map((n) => el('li', { 'data-param': n.param },
      el('code', {}, `${n.param}=${n.value}`), ` — ${n.why}.`))),
    // Focus goes to the field a note is about (else n), not lost to the page body; on a
    // slide (embed=1), which shows no form, to Run.
    el('button', { type: 'button', class: 'link', onclick: () => {
      box.hidden = true;
      (embedded() ? $('run') : document.querySelector('#config [aria-invalid="true"]') || $('n')).focus();
    } }, 'Dismiss'));
  page.notes = notes;
}

function showError(err, where = '') {
  const d = describeError(err, page.gpu?.backend);
  const banner = $('banner');
  banner.hidden = false;
  banner.className = 'banner error';
  banner.dataset.code = d.code;
  banner.replaceChildren(
    el('p', { class: 'banner-title' }, el('strong', {}, d.title), ' ', el('code', {}, d.code)),
    el('p', {}, where ? `${where}: ${d.message}` : d.message),
    el('p', { class: 'help' }, d.advice),
    // Hidden with the banner, the button would drop the keyboard's focus to <body>: it
    // goes to the field the error is about (else n), as the notes' Dismiss does.
    el('button', { type: 'button', class: 'link', onclick: () => {
      banner.hidden = true;
      (document.querySelector('#config [aria-invalid="true"]') || $('n')).focus();
    } }, 'Dismiss'));
  return d;
}

function showBanner(kind, title, text) {
  const banner = $('banner');
  banner.hidden = false;
  banner.className = `banner ${kind}`;
  banner.dataset.code = kind;
  banner.replaceChildren(el('p', { class: 'banner-title' }, el('strong', {}, title)), el('p', {}, text));
}

function clearBanner() { $('banner').hidden = true; }

/** Publishes the machine-readable results (report script, tests). */
function publish(results) {
  window.__results = results;
  $('results').textContent = JSON.stringify(results, (k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 1);
}

// ---------------------------------------------------------------------------------
// One run of a configuration

/** { maxAbs, nan, inf } of a JS array, as run.stats() gives them for GPU matrices. */
/** Why GPU value `g` has no error against the double `x` (one of them is not finite). */
function unmeasured(g, x) {
  if (Number.isFinite(x)) return 'float32 overflowed (or turned NaN) where the double is finite';
  if (g === x || (Number.isNaN(g) && Number.isNaN(x))) return 'the double is ±Inf/NaN too: no error to measure';
  return 'NaN or ±Inf on one side only';
}

function statsOf(data) {
  let maxAbs = 0, nan = 0, inf = 0;
  for (const v of data) {
    if (Number.isNaN(v)) nan++;
    else if (!Number.isFinite(v)) inf++;
    else if (Math.abs(v) > maxAbs) maxAbs = Math.abs(v);
  }
  return { maxAbs, nan, inf };
}

class Session {
  constructor(config) {
    this.config = config;
    this.cancelled = false;
    this.n = config.n;
    this.passes = [];
    this.gpuPass = [];
    this.refPass = [];
    this.ref = null;
    this.refState = referenceOn(config) ? 'waiting' : 'off';
  }

  get opText() { return opText(this.config); }

  /** Inputs, the GPU run (inputs uploaded) and the first drawings; false if cancelled meanwhile. */
  async prepare() {
    const c = this.config;
    const gpu = page.gpu;
    this.backend = gpu.backend;
    // What computed the passes, in the page's words: the CPU backend has no GPU.
    this.dev = this.backend === 'cpu' ? 'CPU' : 'GPU';
    nameDevice(this.dev);
    // The library checks n against the device and WebAssembly memory (SIZE_OVER_LIMIT)
    // before anything is built: an n×n input past them takes long to build, or cannot
    // be allocated at all (n = 65536 is 16 GiB of float32).
    gpu.checkRunSize(c.n);
    const autoKernel = gpu.defaultKernel(c.n);
    this.kernel = c.kernel === 'auto' ? autoKernel : c.kernel;
    this.opts = { kernel: this.kernel };
    setStatus('running', `Building the ${c.n}×${c.n} input…`);
    await nextFrame();
    if (this.cancelled) return false;
    this.a = makeInput(c.input, c.n, c.seed, c.prob);
    if (c.op === 'multiply') this.b = makeInput(c.bInput, c.n, c.bSeed, c.bProb);
    await nextFrame();
    if (this.cancelled) return false;
    // Compile the kernel on a 1×1 product first, so no pass's time includes compiling it.
    let t = performance.now();
    await gpu.squareAsync(1, new Float32Array([1]), this.opts);
    this.compileMs = performance.now() - t;
    if (this.cancelled) return false;
    t = performance.now();
    const n = c.n;
    if (c.op === 'square') this.run = gpu.startSquare(n, this.a, this.opts);
    else if (c.op === 'multiply') this.run = gpu.startMultiply(n, n, n, this.a, this.b, this.opts);
    else if (c.op === 'repeat') this.run = gpu.startSquareRepeatedly(n, this.a, c.k, this.opts);
    else this.run = gpu.startPower(n, this.a, c.p, this.opts);
    await this.settle();
    this.uploadMs = performance.now() - t;
    if (this.cancelled) return false;
    this.labels = this.run.labels();
    this.passCount = this.run.passCount;
    this.timed = !!page.info.timerQuery;
    this.smallPass = n * n * n <= SMALL_PASS;
    this.keepPasses = n * n * 8 * Math.max(1, this.passCount) <= KEEP_PASS_BYTES;
    document.body.dataset.passCount = String(this.passCount);
    document.body.dataset.passesDone = '0';
    showShader(this.kernel);
    timeline.reset(this.labels, { timer: this.timed, flopsPerPass: productFlops(n), n, backend: this.backend, reference: this.refState !== 'off' });
    this.#progress();
    await nextFrame();
    if (this.cancelled) return false;
    await this.#drawInputs();
    return !this.cancelled;
  }

  async #drawInputs() {
    const c = this.config;
    const n = c.n;
    const product = c.op === 'multiply';
    const area = $('heatmaps');
    const store = { webgpu: 'buffer', cpu: 'array in wasm memory' }[this.backend] ?? 'texture';
    views.a = new HeatmapView({ title: product ? `A (input, ${store} 0)` : `M (input ${store})`, label: 'heatmap of the input matrix' });
    views.b = product ? new HeatmapView({ title: `B (input, ${store} 1)`, label: 'heatmap of B' }) : null;
    views.out = new HeatmapView({ title: 'Output', label: 'heatmap of the latest pass output' });
    views.diff = new HeatmapView({ title: 'Error', sequential: true, label: 'heatmap of the error of each entry', nanLabel: 'NaN/±Inf: no error to measure' });
    area.replaceChildren(...[views.a, views.b, views.out, views.diff].filter(Boolean).map((v) => v.element));
    this.inputStats = await this.run.statsAsync('a');
    if (this.cancelled) return;
    await this.#draw(views.a, 'a', this.inputStats);
    views.a.setValues((i, j) => `(${i}, ${j}): ${num(this.a[i * n + j])} (float32, as uploaded)`);
    if (product) {
      await nextFrame();
      if (this.cancelled) return;
      const sb = await this.run.statsAsync('b');
      if (this.cancelled) return;
      await this.#draw(views.b, 'b', sb);
      views.b.setValues((i, j) => `(${i}, ${j}): ${num(this.b[i * n + j])} (float32, as uploaded)`);
    }
    views.out.setTitle(this.passCount ? `Output: no pass has run yet (${this.passCount} to go)` : 'Output');
    views.diff.setTitle(this.refState === 'off' ? 'Error: no float64 reference' : 'Error: drawn after the last pass, against the float64 reference');
  }

  async #draw(view, which, stats) {
    const range = stats.maxAbs > 0 ? stats.maxAbs : 1;
    const canvas = view.prepare(this.n, this.n);
    const drawn = await this.run.drawHeatmapAsync(which, canvas, { range });
    view.drawn(drawn, range, stats);
  }

  /**
   * Waits for the upload of the inputs: WebGL blocks on a one-texel readback (what
   * it measured before), WebGPU waits for onSubmittedWorkDone.
   */
  async settle() {
    if (this.backend === 'webgl') this.run.sync();
    else await this.run.whenDone();
  }

  /** Waits until the GPU has finished what was issued, without freezing the page. */
  async waitGpu() {
    // WebGPU: onSubmittedWorkDone, through the run (there is no blocking wait). The
    // CPU: whenDone runs the queued pass, its product on the Web Workers.
    if (this.backend !== 'webgl') { await this.run.whenDone(); return; }
    if (this.smallPass || !gl || gl.isContextLost()) { this.run.sync(); return; }
    const fence = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    gl.flush();
    const t0 = performance.now();
    try {
      for (;;) {
        const s = gl.clientWaitSync(fence, 0, 0);
        if (s === gl.ALREADY_SIGNALED || s === gl.CONDITION_SATISFIED) return;
        if (s === gl.WAIT_FAILED || gl.isContextLost()) { this.run.sync(); return; }
        if (this.cancelled) return;
        await sleep(Math.min(8, (performance.now() - t0) / 50));
      }
    } finally {
      if (!gl.isContextLost()) gl.deleteSync(fence);
    }
  }

  /** Runs one pass and shows what it produced. */
  async stepOnce() {
    const idx = this.run.passesDone;
    if (idx >= this.passCount) return;
    // 'running' for a stepped pass too: body[data-status] kept 'paused' under it.
    setStatus('running', `Pass ${idx + 1} of ${this.passCount} running on the ${this.dev}: ${this.labels[idx]}…`);
    views.out.setTitle(`Output: pass ${idx + 1} of ${this.passCount} running…`);
    await nextFrame();
    const t0 = performance.now();
    // In flight from step() until the device says it is done (Cancel's message reads it).
    this.passInFlight = true;
    this.run.step(this.timed);
    try {
      await this.waitGpu();
    } finally {
      this.passInFlight = false;
    }
    const wallMs = performance.now() - t0;
    if (this.cancelled) return;
    await nextFrame();
    if (this.cancelled) return;
    const stats = await this.run.statsAsync('latest');
    if (this.cancelled) return;
    const rec = { index: idx, label: this.labels[idx], wallMs, gpuMs: null, stats };
    this.passes.push(rec);
    const thumb = timeline.setPass(idx, rec);
    if (thumb) {
      const range = stats.maxAbs > 0 ? stats.maxAbs : 1;
      const canvas = thumb.prepare(this.n, this.n);
      thumb.drawn(await this.run.drawHeatmapAsync('latest', canvas, { range }), range, stats);
      if (this.cancelled) return;
    }
    await nextFrame();
    if (this.cancelled) return;
    await this.#draw(views.out, 'latest', stats);
    if (this.cancelled) return;
    const done = idx + 1 === this.passCount;
    views.out.setTitle(done ? `Result ${this.#resultName()} (${this.dev}, float32)` : `Output of pass ${idx + 1} of ${this.passCount}: ${this.labels[idx]}`);
    if (this.keepPasses) {
      this.gpuPass[idx] = await this.run.readAsync('latest');
      if (this.cancelled) return;
    }
    this.#hoverOut(idx);
    this.#passError(idx);
    this.#pollTimes();
    document.body.dataset.passesDone = String(idx + 1);
    this.#progress();
    this.#precision();
  }

  #resultName() {
    const c = this.config;
    if (c.op === 'multiply') return 'C = A·B';
    const last = this.labels[this.labels.length - 1];
    if (last) return last.split(' = ')[0];
    return c.op === 'power' && c.p === 0 ? 'M^0 = I' : c.op === 'power' ? 'M^1 = M' : 'M';
  }

  /** Hover text of the output picture after pass `idx` (or of the result). */
  #hoverOut(idx) {
    const n = this.n;
    const final = idx === this.passCount - 1 || this.passCount === 0;
    const g = final && this.result ? this.result : this.gpuPass[idx];
    const r = final && this.ref ? this.ref : this.refPass[idx];
    if (!g) {
      views.out.setValues(null, `At this size only the result is read back (when the run ends): the pictures of the passes come straight from the ${this.dev === 'CPU' ? 'CPU backend\'s memory' : 'GPU'}.`);
      return;
    }
    views.out.setValues((i, j) => {
      const v = g[i * n + j];
      let s = `(${i}, ${j}): ${this.dev} ${num(v)}`;
      if (r) {
        const x = r[i * n + j];
        s += ` · double ${num(x, 12)}`;
        if (Number.isFinite(v) && Number.isFinite(x)) {
          const d = v - x;
          s += ` · difference ${sci(d)}`;
          if (d !== 0 && x !== 0) s += ` (${num(Math.abs(d) / ulp32(x), 2)} float32 steps)`;
          if (Math.fround(x) === v) s += ' · correctly rounded';
        } else s += ` · ${unmeasured(v, x)}`;
      } else if (this.refState !== 'off') s += ' · double: not computed yet';
      return s;
    });
  }

  /** Error of pass `idx` against its float64 counterpart, once both are known. */
  #passError(idx) {
    const g = this.gpuPass[idx], r = this.refPass[idx];
    if (!g || !r) return;
    const m = compare(g, r);
    timeline.setError(idx, m);
    this.passes[idx].relFrobenius = m.relFrobenius;
    this.passes[idx].metrics = m;
  }

  #pollTimes() {
    if (!this.timed || !this.run) return 0;
    const times = this.run.gpuTimes();
    let missing = 0;
    times.forEach((t, idx) => {
      if (t === null || t === undefined) { missing++; return; }
      if (this.passes[idx] && this.passes[idx].gpuMs === null) {
        this.passes[idx].gpuMs = t;
        timeline.setGpuTime(idx, t);
      }
    });
    return missing;
  }

  #progress() {
    const done = this.run ? this.run.passesDone : this.passCount;
    $('gpu-progress').max = Math.max(1, this.passCount);
    $('gpu-progress').value = this.passCount ? done : 1;
    $('gpu-progress-text').textContent = this.passCount ? `${done} of ${this.passCount} pass${this.passCount === 1 ? '' : 'es'}` : 'no pass needed';
  }

  /** Starts the float64 reference in the worker (progress bar; per-pass results for small n). */
  startReference() {
    if (this.refState !== 'waiting') return this.refPromise;
    this.refState = 'running';
    const c = this.config;
    const keepPasses = this.keepPasses;
    const bar = $('ref-progress');
    bar.value = 0;
    $('ref-progress-text').textContent = 'running in a Web Worker…';
    const t0 = performance.now();
    this.refPromise = refClient.run(
      { op: c.op, n: c.n, a: this.a, b: this.b, p: c.p, labels: this.labels, keepPasses },
      {
        onProgress: (f) => {
          bar.value = f;
          $('ref-progress-text').textContent = `${(100 * f).toFixed(0)} % (${ms(performance.now() - t0)})`;
        },
        onPass: (idx, data) => {
          this.refPass[idx] = data;
          this.#passError(idx);
          // The latest pass's double came after the pass: its metrics are known now.
          if (idx === this.run?.passesDone - 1) { this.#hoverOut(idx); this.#precision(); }
        },
      },
    ).then((out) => {
      if (out.cancelled) { this.refState = 'cancelled'; $('ref-progress-text').textContent = 'cancelled'; return null; }
      this.ref = out.result;
      this.refMs = out.ms;
      this.refState = 'done';
      bar.value = 1;
      $('ref-progress-text').textContent = `done in ${ms(out.ms)}`;
      return out;
    }, (err) => {
      this.refState = 'error';
      this.refError = err;
      $('ref-progress-text').textContent = `failed: ${err.message}`;
      return null;
    });
    return this.refPromise;
  }

  /** After the last pass: the readback, the times, the comparison, the panels. */
  async finish() {
    const c = this.config;
    const n = c.n;
    // The last pass's "running" text would otherwise stay up through the readback.
    setStatus('running', `${this.dev} done; reading the result back (${this.#readbackKind()})…`);
    const t = performance.now();
    const result = await this.run.resultAsync();
    if (this.cancelled) return;
    this.result = result;
    this.readbackMs = performance.now() - t;
    if (this.passCount === 0) {
      // No pass ran: the answer (I or M) is drawn from the readback ('result' is not
      // a GPU texture of the run when p = 0).
      this.resultStats = statsOf(this.result);
      const range = this.resultStats.maxAbs > 0 ? this.resultStats.maxAbs : 1;
      const canvas = views.out.prepare(n, n);
      views.out.drawn(await page.gpu.drawHeatmapAsync(n, n, this.result, canvas, { range }), range, this.resultStats);
      views.out.setTitle(`Result ${this.#resultName()} (no pass needed)`);
    } else {
      this.resultStats = this.passes[this.passes.length - 1].stats;
    }
    await nextFrame();
    // Timer results come back a little after their pass: wait for them (at most 2 s).
    for (let waited = 0; this.timed && this.#pollTimes() > 0 && waited < 2000; waited += 20) await sleep(20);
    timeline.settle();
    this.run.free();
    this.run = null;
    this.#hoverOut(this.passCount - 1);
    if (this.refState === 'waiting') {
      setStatus('running', `${this.dev} done; the float64 reference is running in a Web Worker… (Cancel stops it and keeps the ${this.dev} result.)`);
      this.startReference();
    }
    if (this.refPromise) {
      if (this.refState === 'running') setStatus('running', `${this.dev} done; waiting for the float64 reference (Web Worker)… (Cancel stops it and keeps the ${this.dev} result.)`);
      await this.refPromise;
      if (this.cancelled) return;
    }
    if (this.ref) setStatus('running', `${this.dev} result read back; comparing it with the float64 reference…`);
    if (this.ref) this.metrics = compare(this.result, this.ref);
    this.#hoverOut(this.passCount - 1);
    await nextFrame();
    await this.#drawDiff();
    this.#precision();
    this.#summary();
  }

  async #drawDiff() {
    const n = this.n;
    if (!this.ref) {
      views.diff.setTitle({ off: 'No error picture: the float64 reference is off', cancelled: 'No error picture: the float64 reference was cancelled' }[this.refState]
        ?? 'No error picture: the reference did not finish');
      views.diff.clear();
      return;
    }
    let scale = 0;
    for (const x of this.ref) if (Number.isFinite(x)) scale = Math.max(scale, Math.abs(x));
    if (scale === 0) scale = 1;
    // Measured from the double rounded to float32: the best answer float32 can hold
    // shows pale (0), so dark means the GPU did worse than float32 rounding forces.
    const diff = new Float32Array(n * n);
    let max = 0, unmeasured = 0;
    for (let i = 0; i < diff.length; i++) {
      const g = this.result[i], x = this.ref[i], best = Math.fround(x);
      // NaN where there is no error to measure: one side NaN/±Inf, float32 overflowed
      // a finite double, or the double is ±Inf/NaN itself.
      const d = Number.isFinite(g) && Number.isFinite(best) ? Math.abs(g - best) / scale : NaN;
      diff[i] = d;
      if (d > max) max = d;
      if (Number.isNaN(d)) unmeasured++;
    }
    const range = max > 0 ? max : 1e-30;
    const canvas = views.diff.prepare(n, n);
    const drawn = await page.gpu.drawHeatmapAsync(n, n, diff, canvas, { range, sequential: true });
    views.diff.drawn(drawn, max, { nan: unmeasured, inf: 0, compared: n * n - unmeasured });
    views.diff.setTitle(`Error: |${this.dev} − double rounded to float32| / ${format.magnitude(scale)}`);
    views.diff.setValues((i, j) => {
      const g = this.result[i * n + j], x = this.ref[i * n + j], d = diff[i * n + j];
      const head = `(${i}, ${j}): ${this.dev} ${num(g)} · double ${num(x, 12)}`;
      if (Number.isNaN(d)) return `${head} · ${unmeasured(g, x)}`;
      if (d === 0) return `${head} · correctly rounded: the float32 nearest the double`;
      const steps = Math.round(Math.abs(g - Math.fround(x)) / format.ulp32(x));
      return `${head} · ${sci(d)} of the scale from the float32 nearest the double (${steps} float32 step${steps === 1 ? '' : 's'})`;
    });
  }

  #readbackKind() {
    return { webgpu: 'readback (copy, mapAsync)', cpu: 'copy out of wasm memory' }[this.backend] ?? 'readPixels';
  }

  #precision() {
    const c = this.config;
    renderPrecision($('precision'), {
      n: c.n,
      dev: this.dev,
      input: c.input,
      integerInput: !!INPUT_KINDS[c.input]?.integer && (c.op !== 'multiply' || !!INPUT_KINDS[c.bInput]?.integer),
      inputStats: this.inputStats,
      passes: this.passes,
      passCount: this.passCount,
      metrics: this.metrics || null,
      // Until the result is read back the table shows the latest pass, not the final result.
      latest: this.gpuFinished || !this.passes.length ? null : {
        ...this.passes[this.passes.length - 1], compared: this.keepPasses,
      },
      refState: this.refState === 'waiting' ? 'running' : this.refState,
      resultStats: this.resultStats || (this.passes.length ? this.passes[this.passes.length - 1].stats : this.inputStats),
    });
  }

  /** Totals: GPU time (timer where it has one), wall times, JS time, GFLOP/s. */
  totals() {
    const flops = productFlops(this.n) * this.passCount;
    const allTimed = this.timed && this.passes.length > 0 && this.passes.every((p) => p.gpuMs !== null);
    const wallSum = this.passes.reduce((s, p) => s + p.wallMs, 0);
    const gpuMs = allTimed ? this.passes.reduce((s, p) => s + p.gpuMs, 0) : wallSum;
    return {
      flops,
      gpuMs,
      gpuTimeKind: allTimed
        ? (this.backend === 'webgpu' ? 'GPU timestamp queries (timestamp-query) around each compute pass, sum of passes' : 'GPU timer query (EXT_disjoint_timer_query_webgl2), sum of passes')
        : this.backend === 'cpu' ? 'CPU: wall time around each pass (step, then whenDone running it on the Web Workers), sum of passes'
          : 'wall time around a synchronisation, sum of passes',
      gpuWallMs: this.uploadMs + wallSum + this.readbackMs,
      gpuGflops: gflops(flops, gpuMs),
      jsMs: this.refMs ?? null,
      jsGflops: this.refMs ? gflops(flops, this.refMs) : null,
    };
  }

  #summary() {
    const c = this.config;
    const t = this.totals();
    const m = this.metrics;
    // With NaN/±Inf on one side only, the errors cover the entries finite on both.
    const over = m && m.nonfiniteMismatch ? ` (over the ${format.int(m.compared)} entries finite on both sides)` : '';
    const rows = [
      ['operation', `${this.opText}; M is ${describeInput(c.input, c.seed, c.prob)}${c.op === 'multiply' ? `; B is ${describeInput(c.bInput, c.bSeed, c.bProb)}` : ''}`],
      ['kernel', `${this.kernel}${c.kernel === 'auto' ? ' (auto)' : ''}, ${this.passCount} pass${this.passCount === 1 ? '' : 'es'}`],
      ['backend', `${{ webgpu: 'WebGPU: compute shaders', cpu: 'CPU: a SIMD128 kernel in Web Workers (no GPU)' }[this.backend] ?? 'WebGL2: fragment shaders'}${c.backend === 'auto' ? ' (auto)' : ''}`],
      ['renderer', deviceName(page.info)],
      ['GPU time', this.passCount ? `${ms(t.gpuMs)} (${t.gpuTimeKind})` : '— (no pass)'],
      ['GPU wall time', `${ms(t.gpuWallMs)} (upload ${ms(this.uploadMs)} + passes + ${this.#readbackKind()} ${ms(this.readbackMs)}; ${this.backend === 'cpu' ? 'starting the workers' : 'compiling the shader'} took ${ms(this.compileMs)} before)`],
      ['JS float64 time', t.jsMs !== null ? `${clockMs(t.jsMs)} (Web Worker, i-k-j loop)` : this.refState === 'off' ? 'not run (reference off)' : '—'],
      ['GFLOP/s', this.passCount ? `${this.dev} ${rate(t.gpuGflops)} · JS ${rate(t.jsGflops)} (2n³ per pass)` : '—'],
      ['max abs error', m ? sci(m.maxAbs) + over : '—'],
      ['max relative error', m ? sci(m.maxRel) + over : '—'],
      ['relative Frobenius error', m ? sci(m.relFrobenius) + over : '—'],
      ['correctly rounded entries', m ? `${format.int(m.exact)} of ${format.int(m.total)} equal the double rounded to float32` : '—'],
    ];
    if (m && m.nonfiniteMismatch) rows.push(['NaN/Inf mismatches', `${format.int(m.nonfiniteMismatch)} entries are NaN or ±Inf on one side only (the errors above cover the entries finite on both sides)`]);
    const table = $('summary');
    // Rows keep their keys (data-key); their labels name what computed: GPU or CPU.
    const label = (k) => k.replace(/^GPU /, `${this.dev} `);
    table.tBodies[0].replaceChildren(...rows.map(([k, v]) => el('tr', { 'data-key': k }, el('th', { scope: 'row' }, label(k)), el('td', {}, v))));
    table.caption.textContent = `${this.dev} against JavaScript`;
    table.hidden = false;
  }

  /** The machine-readable record of this run. */
  record(status, error = null) {
    const t = this.passes.length || this.result ? this.totals() : null;
    return {
      status,
      config: this.config,
      query: toQuery(this.config),
      notes: page.notes || [],
      backend: this.backend ?? page.gpu?.backend ?? null,
      renderer: page.info ? deviceName(page.info) : null,
      kernel: this.kernel ?? null,
      n: this.n,
      passCount: this.passCount ?? null,
      passesDone: this.passes.length,
      passes: this.passes.map((p) => ({ label: p.label, gpuMs: p.gpuMs, wallMs: p.wallMs, maxAbs: p.stats.maxAbs, nan: p.stats.nan, inf: p.stats.inf, relFrobenius: p.relFrobenius ?? null })),
      timerQuery: !!page.info?.timerQuery,
      compileMs: this.compileMs ?? null,
      uploadMs: this.uploadMs ?? null,
      readbackMs: this.readbackMs ?? null,
      totals: t,
      reference: this.refState,
      metrics: this.metrics || null,
      warnings: [...document.querySelectorAll('#precision .warnings li')].map((li) => ({ kind: li.dataset.kind, level: li.className, text: li.textContent })),
      error,
    };
  }

  async cancel() {
    this.cancelled = true;
    refClient.cancel();
  }

  /** Whether every pass has run and the result is read back (only the reference may still run). */
  get gpuFinished() {
    return this.result !== undefined;
  }

  /** Stops the float64 reference alone: the run still ends with its GPU result. */
  skipReference() {
    if (this.refState === 'waiting') {
      this.refState = 'cancelled';
      $('ref-progress-text').textContent = 'cancelled';
    } else if (this.refState === 'running') {
      refClient.cancel(); // its promise resolves, and finish() goes on without it
    }
  }

  dispose() {
    try { this.run?.free(); } catch { /* a lost context: nothing to free */ }
    this.run = null;
  }
}

// ---------------------------------------------------------------------------------
// Driving sessions from the buttons

let busy = false;

/** The control that had focus when a run disabled it (focus then falls to <body>). */
let focusBeforeRun = null;

function buttons(state) {
  // state: idle | running | paused
  const active = document.activeElement;
  if (state === 'running' && active && active !== document.body) focusBeforeRun = active;
  $('run').disabled = state === 'running';
  $('step').disabled = state === 'running';
  $('finish').hidden = state !== 'paused';
  $('cancel').disabled = state === 'idle';
  // On the pictures only: the status line inside the run panel must still be read
  // out pass by pass, which aria-busy on the whole panel would hold back.
  $('heatmaps').setAttribute('aria-busy', String(state === 'running'));
  controls.setBusy(state === 'running');
  if (state !== 'running') {
    // Keyboard users keep their place: back to the control they used, or, if it is
    // gone (the finish button hides when done, Cancel is disabled), to Step or Run.
    // A control disabled or hidden under the focus holds it until the browser moves
    // it to <body>.
    const now = document.activeElement;
    const lost = now === null || now === document.body || now.disabled || now.hidden;
    if (lost && (focusBeforeRun || now !== document.body)) {
      const back = [focusBeforeRun, state === 'paused' ? $('step') : $('run')]
        .find((e) => e?.isConnected && !e.disabled && !e.hidden);
      back?.focus();
    }
    focusBeforeRun = null;
  }
}

/** The query string of the configuration the page shows (Back / Forward compare with it). */
let shownSearch = location.search;

/**
 * Reads the form and writes the URL. A field of this run that does not parse stops
 * it: the field is marked, the problem shown, and null returned (typing 2.5 for n
 * must not quietly run the default n = 128).
 */
function configFromForm(mode) {
  const { config, problems } = controls.get();
  const relevant = new Set(relevantKeys(config));
  const blocking = problems.filter((p) => relevant.has(p.param));
  controls.markInvalid(blocking.map((p) => p.param));
  if (blocking.length) {
    // As a run refused by the library did: the previous one ends and its results go.
    stopSession();
    clearResults();
    buttons('idle');
    showNotes(blocking, 'Not run: fix these settings first.');
    setStatus('error', `Not run: ${blocking.map((p) => `${p.param} ${p.why} (it is “${p.value}”)`).join('; ')}.`);
    $(blocking[0].param).focus();
    return null;
  }
  config.mode = mode;
  controls.mode = mode;
  showNotes([]);
  // The panels' controls (partitioned matrices, small problems, linear systems, devices) stay in the address.
  const q = withSectionParams(toQuery(config), location.search);
  // A new configuration is a new history entry, so Back returns to the previous run.
  // The panels' results stay, and their fields in the address: the parts that ran go with them.
  if (`?${q}` !== location.search) history.pushState(history.state, '', `${location.pathname}?${q}`);
  shownSearch = location.search;
  updatePermalink(config);
  return config;
}

function updatePermalink(config) {
  $('permalink').href = `${location.pathname}?${withSectionParams(toQuery(config), location.search)}`;
  // An open "Link for slides" box must not go on offering the previous configuration.
  slides?.refresh();
}

/**
 * The state of the panels with their own controls (partitioned matrices, many small
 * problems at once, linear systems, several devices) in the address: state() reads it (with
 * `given`, the parameters the address names), set(changes) writes it in place
 * (replaceState: stepping through Fox's algorithm is no new history entry), beside
 * the demo's parameters, and into the permalink.
 */
const sectionUrl = {
  state() {
    const q = new URLSearchParams(location.search);
    const { state, notes } = parseSectionQuery(location.search);
    const bad = new Set(notes.map((n) => n.param));
    return { ...state, given: Object.keys(SECTION_PARAMS).filter((k) => q.has(k) && !bad.has(k)), ran: ranHere() };
  },
  /**
   * `how`: { run: the part's id } for a part's Run (a new history entry when the fields
   * changed: www/section-history.js), with replay: true when Back / Forward runs it again.
   */
  set(changes, how = {}) {
    const state = { ...parseSectionQuery(location.search).state, ...changes };
    writeEntry(withSectionParams(demoQuery(location.search), '', state), how);
    shownSearch = location.search;
    sectionPermalink(state);
  },
  /** Back / Forward: `f` (a part's run again) once the demo's run it started is over, one at a time. */
  replay: (f) => replay(() => page.started, f),
};

/** The permalink keeps its demo parameters and takes the panels' `state`. */
function sectionPermalink(state) {
  const link = new URL($('permalink').href, location.href);
  $('permalink').href = `${link.pathname}?${withSectionParams(demoQuery(link.search), '', state)}`;
  slides?.refresh();
}

async function stopSession() {
  const s = page.session;
  if (!s) return;
  await s.cancel();
  s.dispose();
  page.session = null;
}

/**
 * The previous run's pictures and numbers go: a run that fails before its first
 * pass, or that the form refuses, must not leave them standing as if they were its own.
 */
function clearResults() {
  page.last = null;
  $('summary').hidden = true;
  $('heatmaps').replaceChildren();
  for (const k of Object.keys(views)) delete views[k];
  $('timeline').replaceChildren(el('p', { class: 'help' }, 'Run or step to see the passes.'));
  $('precision').replaceChildren(el('p', { class: 'help' }, 'The metrics appear when a run ends.'));
}

/** Starts a session; in 'run' mode runs every pass, in 'step' mode stops before the first. */
async function start(config) {
  setStatus('running', 'Starting…');
  await stopSession();
  clearBanner();
  const s = new Session(config);
  page.session = s;
  clearResults();
  $('gpu-progress').value = 0;
  $('gpu-progress-text').textContent = '';
  $('ref-progress').value = 0;
  $('ref-progress-text').textContent = s.refState === 'off' ? 'off for this run' : `waiting for the ${config.backend === 'cpu' ? 'CPU' : 'GPU'}`;
  buttons('running');
  try {
    // The backend of this run: made on first use (a WebGPU device, say), then shared.
    const gpu = await page.backends.get(config.backend);
    if (s.cancelled || s !== page.session) return;
    adopt(gpu);
    // A kernel of the other backend (a link from another machine, where auto picked
    // differently) becomes this backend's default.
    const note = fitKernel(config, gpu.backend, false);
    if (note) controls.set(config);
    if (!(await s.prepare()) || s.cancelled) return;
    // p = 0 or 1 needs no pass: there is nothing to step through.
    if (config.mode === 'step' && s.passCount > 0) {
      s.startReference(); // runs while the student steps
      paused(s);
      return;
    }
    await runRemaining(s);
  } catch (err) {
    fail(s, err);
  }
}

/** Whether the form now asks for another run than the paused step-through `s`. */
function formDiffers(s) {
  const wanted = controls.get().config;
  // ref=1 (a link's) and the form's ref=auto are the same run where auto turns it on.
  const run = (c) => toQuery({ ...c, mode: 'step', ref: referenceOn(c) ? '1' : '0' });
  return run(wanted) !== run(s.config);
}

function paused(s) {
  buttons('paused');
  const next = `${s.passes.length} of ${s.passCount} passes done`;
  if (formDiffers(s)) {
    setStatus('paused', `Step-through: ${next}. The settings have changed since it started: “Step one pass” starts a new step-through with them; “Run the remaining passes” finishes this one and puts its settings back.`, 'warn');
  } else {
    setStatus('paused', `Step-through: ${next}. Press “Step one pass” for the next (${s.labels[s.passes.length]}), or “Run the remaining passes”.`);
  }
  publish(s.record('paused'));
}

async function runRemaining(s) {
  buttons('running');
  // A naive pass at large n can hold a software GPU (and the page's repaint) for seconds.
  const slow = s.kernel === 'naive' && s.n >= 1024
    ? ` The naive kernel does ${sci(s.n ** 3)} multiply-adds a pass, one output entry per fragment: expect seconds per pass on a software GPU, during which the page may not repaint. kernel=auto picks the fastest kernel.`
    : '';
  setStatus('running', `Running ${s.passCount} pass${s.passCount === 1 ? '' : 'es'} on the ${s.dev}…${slow}`);
  try {
    while (!s.cancelled && s.run && s.run.passesDone < s.passCount) await s.stepOnce();
    if (s.cancelled) return;
    await complete(s);
  } catch (err) {
    fail(s, err);
  }
}

async function stepClicked() {
  if (busy) return;
  busy = true;
  let s = page.session;
  try {
    const changed = s && formDiffers(s);
    if (!s || !s.run || s.cancelled || changed) {
      // Nothing to continue, or the controls changed since: a new step-through run,
      // and, as the button says, its first pass (a mode=step link stops before it
      // instead, so the input can be looked at first).
      const config = configFromForm('step');
      if (!config) return;
      await start(config);
      s = page.session;
      if (!s || s.cancelled || !s.run || !s.passCount || document.body.dataset.status !== 'paused') return;
    }
    buttons('running');
    await s.stepOnce();
    if (s.cancelled) return;
    if (s.run.passesDone === s.passCount) await complete(s);
    else paused(s);
  } catch (err) {
    fail(s, err);
  } finally {
    busy = false;
  }
}

async function complete(s) {
  await s.finish();
  if (s.cancelled) return;
  page.last = { gpu: s.result, ref: s.ref };
  showShader(null, true);
  buttons('idle');
  const t = s.totals();
  const m = s.metrics;
  let text = `Done: ${s.opText} with the ${s.kernel} kernel, ${s.passCount} pass${s.passCount === 1 ? '' : 'es'}`;
  if (s.passCount) text += `, ${s.dev} ${ms(t.gpuMs)}`;
  if (t.jsMs !== null) text += `, JS float64 ${clockMs(t.jsMs)}`;
  const over = m && m.nonfiniteMismatch ? ` over the ${format.int(m.compared)} entries finite on both sides` : '';
  if (m && m.compared) text += `; relative Frobenius error ${sci(m.relFrobenius)}${over}, ${format.int(m.exact)} of ${format.count(m.total, 'entry', 'entries')} correctly rounded`;
  else if (m) text += `; no entry is finite on both sides, so there is no error to measure`;
  else if (s.refState === 'cancelled') text += '; float64 reference cancelled, so no error is measured';
  if (m && m.nonfiniteMismatch) text += `, ${format.int(m.nonfiniteMismatch)} NaN/±Inf where the double is finite (or the reverse): float32 overflowed, see the precision panel`;
  setStatus('done', `${text}.`, m && m.nonfiniteMismatch ? 'warn' : '');
  if (m && m.compared) document.body.dataset.relFrobenius = String(m.relFrobenius);
  publish(s.record('done'));
  for (const sec of SECTIONS) sec.onRun?.(window.__results, sectionContext());
}

function fail(s, err) {
  // A run that was cancelled (or replaced by a new one) can still be inside an await
  // when its run object is freed: what it throws then is not the page's error, and
  // must not paint over the state of the run that replaced it.
  if (s && (s.cancelled || s !== page.session)) {
    console.debug('gpgpu-matrix: ignored after cancel:', err);
    return;
  }
  const d = showError(err);
  // n over the device's limit is the form's n: mark it there too.
  if (d.code === 'SIZE_OVER_LIMIT') controls.markInvalid(['n']);
  if (s) { s.cancelled = true; refClient?.cancel(); s.dispose(); }
  buttons('idle');
  setStatus('error', `Stopped: ${d.title} (${d.code}).`);
  const record = s ? s.record('error', { code: d.code, message: d.message }) : { status: 'error', error: { code: d.code, message: d.message } };
  publish(record);
}

async function cancelClicked() {
  const s = page.session;
  if (!s) return;
  if (s.gpuFinished && !s.cancelled) {
    // The GPU's answer is in: Cancel stops the wait for the float64 reference and
    // keeps the result (it used to throw the finished result away).
    s.skipReference();
    return;
  }
  const inFlight = !!s.passInFlight;
  await s.cancel();
  s.dispose();
  buttons('idle');
  const passes = s.passes.length;
  if (views.out && passes < (s.passCount ?? 0)) {
    views.out.setTitle(passes ? `Output of pass ${passes} of ${s.passCount}: ${s.labels[passes - 1]} (pass ${passes + 1} cancelled)` : 'Output: cancelled before the first pass');
    // Nor does the error picture wait for a last pass that will not come.
    if (views.diff && s.refState !== 'off') views.diff.setTitle('No error picture: the run was cancelled before its last pass');
  }
  setStatus('cancelled', `Cancelled after ${passes} of ${s.passCount ?? '?'} passes.${inFlight ? ` A pass already sent to the ${s.dev === 'CPU' ? 'CPU\'s workers' : 'GPU'} finishes in the background.` : ''}`);
  $('ref-progress-text').textContent = s.refState === 'off' ? 'off for this run' : 'cancelled';
  publish(s.record('cancelled'));
  page.session = null;
}

// ---------------------------------------------------------------------------------
// The shader panel (www/ui/shader-panel.js)

// kernel: the one to select (null: keep the reader's choice). Before a run's last
// pass the panel says the run uses the kernel; after it, that it ran.
function showShader(kernel, finished = false) {
  const s = page.session;
  shaderPanel.show(kernel, s ? { kernel: s.kernel, backend: s.backend, idle: s.passCount === 0, n: s.n, finished } : null);
}

// ---------------------------------------------------------------------------------
// Start-up

function sectionContext() {
  return {
    // The instance of the backend the demo last ran on: a section reads it when it runs.
    get gpu() { return page.gpu; },
    get info() { return page.info; },
    backends: page.backends,
    Gpgpu, BlockSparse, Csr, Tridiagonal, reference, inputs, HeatmapView, format, describeError, showError,
    url: sectionUrl,
  };
}

/** The WebGL instances whose context the page watches. */
const watched = new Set();

/** Makes `gpu` the page's instance: the device line, the WebGL context to watch. */
function adopt(gpu) {
  if (page.gpu === gpu) return;
  page.gpu = gpu;
  page.info = gpu.info();
  const info = page.info;
  if (gpu.backend === 'webgl') {
    gl = gpu.canvas && gpu.canvas.getContext ? gpu.canvas.getContext('webgl2') : null;
    if (!watched.has(gpu)) { watched.add(gpu); watchContext(gpu, gpu.canvas); }
  }
  formDevice(gpu);
  $('device').textContent = deviceLine(info);
}

/** The form's device: limits and kernels of the backend chosen there. */
function formDevice(gpu) {
  const info = gpu.info();
  // The form's n is a step-through run's: the largest the library takes (on WebGPU
  // one buffer, not maxDimension, is the limit), found with checkRunSize.
  controls.setDevice({ ...info, maxDimension: largestRun(gpu, Math.min(info.maxDimension, N_CAP)) },
    (n) => { try { return gpu.defaultKernel(n); } catch { return '—'; } });
}

/** The largest n ≤ `hi` that gpu.checkRunSize accepts (a bisection: it only grows with n). */
function largestRun(gpu, hi) {
  const fits = (n) => { try { gpu.checkRunSize(n); return true; } catch { return false; } };
  if (fits(hi)) return hi;
  let lo = 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid; else hi = mid;
  }
  return lo;
}

function watchContext(gpu, canvas) {
  canvas.addEventListener('webglcontextlost', () => {
    // Only the demo's run is stopped, and only when it runs on this context.
    const s = page.gpu === gpu ? page.session : null;
    if (s) { s.cancelled = true; refClient.cancel(); }
    showBanner('context-lost', 'The WebGL context was lost (CONTEXT_LOST)',
      'The browser took the GPU away from the page: a driver reset, a pass that ran too long, too many GPU pages, or a test. Nothing is lost on the page; when the browser gives the GPU back, this message says so and Run works again.');
    if (page.gpu !== gpu) return;
    buttons('idle');
    setStatus('error', 'Stopped: the WebGL context was lost (CONTEXT_LOST).');
    publish({ ...(s ? s.record('error') : { status: 'error' }), error: { code: 'CONTEXT_LOST', message: 'the WebGL context was lost' } });
    if (s) { s.dispose(); page.session = null; }
  });
  canvas.addEventListener('webglcontextrestored', () => {
    showBanner('context-restored', 'The WebGL context is back',
      'The browser restored the GPU context; the library rebuilds its textures and shaders on the next call. Press Run.');
    if (page.gpu === gpu) setStatus('cancelled', 'The WebGL context was restored: press Run.');
  });
}

/**
 * A link to a part of the page (index.html?…#linear) lands on it: the browser scrolls to
 * the fragment as the page loads, then the panels, the first run's pictures and the parts
 * the link names fill in above it and push it far down. Until the reader scrolls, clicks or
 * types, the fragment is kept in view; the function returned stops that (when loading is over).
 */
function keepFragmentInView() {
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (!target) return () => {};
  const observer = new ResizeObserver(() => target.scrollIntoView());
  const inputs = ['wheel', 'touchstart', 'keydown', 'mousedown', 'hashchange'];
  const stop = () => {
    observer.disconnect();
    for (const e of inputs) window.removeEventListener(e, stop, true);
  };
  for (const e of inputs) window.addEventListener(e, stop, { capture: true, passive: true });
  observer.observe(document.body);
  return stop;
}

async function main() {
  applyEmbed();
  const landed = keepFragmentInView();
  // Save PNG/SVG and Copy as CSV/Markdown on every picture and table, now and later.
  mountFigureTools($('main'));
  const { config, notes } = parseQuery(location.search);
  controls = new Controls($('config'));
  controls.set(config);
  // Before the first run starts (the library loading): what the configuration runs on.
  nameDevice(config.backend === 'cpu' ? 'CPU' : 'GPU');
  timeline = new Timeline($('timeline'));
  const allNotes = [...notes];
  showNotes(allNotes);
  updatePermalink(config);
  slides = mountSlidesLink($('slides-link'), $('slides-box'), () => ({
    href: $('permalink').href,
    // The iframe's accessible name: what the slide shows, in words (not its query string).
    title: describeConfig(parseQuery($('permalink').search).config),
  }));

  await init();
  page.backends = new Backends(Gpgpu);
  const webgpu = await page.backends.probe();
  const webgl = page.backends.probeWebgl();
  const all = Gpgpu.kernels();
  const setBackends = () => controls.setBackends({ all, webgpu, webgl, resolve: (c) => page.backends.resolve(c), reason: page.backends.autoReason() });
  setBackends();
  // The compute-shader section makes its own instances when asked to measure.
  computeSection.mount($('compute-body'), sectionContext());
  let gpu;
  try {
    gpu = await page.backends.get(config.backend);
  } catch (err) {
    // A backend the browser cannot give (backend=webgpu without WebGPU, say): a note,
    // and the library's own choice.
    if (config.backend === 'auto') return noGpu(err);
    const d = describeError(err);
    allNotes.push({ param: 'backend', value: config.backend, why: `${err.code === 'NO_WEBGPU' ? webgpu.text : `${d.title} (${d.code})`}; the default backend=auto is used` });
    config.backend = 'auto';
    try { gpu = await page.backends.get('auto'); } catch (err2) { showNotes(allNotes); return noGpu(err2); }
  }
  adopt(gpu);
  const info = page.info;
  setBackends(); // auto may be known now
  // A kernel of the other backend: the URL asked for it (a note) or it is the default (none).
  const explicit = new URLSearchParams(location.search).has('kernel') && !allNotes.some((x) => x.param === 'kernel');
  const fitted = fitKernel(config, gpu.backend, explicit);
  if (fitted) allNotes.push(fitted);
  // An n=… that did not parse: its range is the device's, as the n field's help says.
  for (const x of allNotes) if (x.param === 'n') x.why = x.why.replace(`from 1 to ${N_CAP};`, `from 1 to ${controls.nMax} on this device;`);
  // A kernel=… that did not parse fell back to the default of the backend that runs.
  for (const x of allNotes) if (x.param === 'kernel') x.why = x.why.replace(`the default kernel=${DEFAULTS.kernel} `, `the default kernel=${DEFAULT_KERNEL[gpu.backend]} `);
  if (config.kernel !== 'auto' && !info.kernels.includes(config.kernel)) {
    allNotes.push({ param: 'kernel', value: config.kernel, why: `this device cannot run it (it runs ${info.kernels.join(', ')}); the default ${DEFAULT_KERNEL[gpu.backend]} is used` });
    config.kernel = DEFAULT_KERNEL[gpu.backend];
  }
  controls.set(config);
  showNotes(allNotes);
  updatePermalink(config);
  // Another backend chosen in the form: made now, so the form shows its kernels and limits.
  controls.onbackend = async (choice) => {
    try {
      const g = await page.backends.get(choice);
      setBackends();
      if (controls.get().config.backend === choice) formDevice(g);
    } catch (err) {
      showNotes([{ param: 'backend', value: choice, why: describeError(err).message }], 'This backend cannot be used here:');
    }
  };

  shaderPanel = new ShaderPanel({
    select: $('shader-kernel'), about: $('shader-about'), code: $('shader-code'), notes: $('shader-notes'),
    program: $('program-source'), summary: $('program-summary'),
  }, Gpgpu, {
    ready: (backend) => page.backends.ready(backend),
    // A WGSL kernel picked before any WebGPU run: its device is made to show it as compiled.
    make: webgpu.state === 'none' || webgpu.state === 'no-adapter' ? null : (backend) => page.backends.get(backend),
    missing: webgpu.state === 'none' || webgpu.state === 'no-adapter' ? webgpu.text : null,
    // The n in the form (a number where it is one the device can take).
    n: () => { const n = controls.get().config.n; return Number.isInteger(n) && n >= 1 && n <= info.maxDimension ? n : undefined; },
  });
  shaderPanel.mount();
  showShader(config.kernel === 'auto' ? gpu.defaultKernel(Math.min(config.n, info.maxDimension)) : config.kernel);

  refClient = new ReferenceClient();

  $('config').addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (busy) return;
    const config = configFromForm('run');
    if (config) start(config);
  });
  // Enter in a field submits the form, which means Run; while stepping, it starts a
  // new step-through of the edited configuration instead, keeping mode=step.
  $('config').addEventListener('keydown', (ev) => {
    if (ev.key !== 'Enter' || controls.mode !== 'step' || !ev.target.matches('input:not([type=checkbox])')) return;
    ev.preventDefault();
    stepClicked();
  });
  $('step').addEventListener('click', stepClicked);
  $('finish').addEventListener('click', () => {
    const s = page.session;
    if (!s || busy) return;
    // The remaining passes are the paused run's: its settings go back into the form
    // (and the link), so the form and the results describe the same run.
    if (formDiffers(s)) { controls.set(s.config); updatePermalink(s.config); }
    runRemaining(s);
  });
  $('cancel').addEventListener('click', cancelClicked);
  controls.onchange = () => {
    const { config: c } = controls.get();
    c.mode = controls.mode;
    updatePermalink(c);
    const s = page.session;
    if (s && document.body.dataset.status === 'paused') paused(s);
  };

  if (SECTIONS.length) {
    $('applications').hidden = false;
    mountSections($('application-sections'), sectionContext());
  }
  // The panels with their own controls: partitioned matrices, many small problems at
  // once, linear systems, several devices, each in the address (the sparse one has none).
  const panels = [[partitionedSection, 'partitioned-body'], [batchedSection, 'batched-body'], [linearSection, 'linear-body'], [sparseSection, 'sparse-body'], [devicesSection, 'devices-body']].map(([section, body]) => {
    const ctx = sectionContext();
    try {
      section.mount($(body), ctx);
      return { section, ctx };
    } catch (err) {
      $(body).textContent = `This section could not start: ${err.message}`;
      return null;
    }
  }).filter(Boolean);

  // Back / Forward to an entry of this page: that entry's configuration, run as a
  // load of its link would.
  window.addEventListener('popstate', () => {
    // An entry that differs only in its #fragment (an in-page link: "Skip to the results",
    // a section, a line of the shader) is the configuration already shown: Back from it
    // must not start the run again (a step-through would lose its passes).
    if (location.search === shownSearch) return;
    const demoChanged = demoQuery(location.search) !== demoQuery(shownSearch);
    shownSearch = location.search;
    // Only a panel's fields differ (Back from a part's Run): the demo's run stays.
    if (demoChanged) {
      const { config: c, notes: n } = parseQuery(location.search);
      controls.set(c);
      showNotes(n);
      updatePermalink(c);
      page.started = start(c);
    } else {
      sectionPermalink(parseSectionQuery(location.search).state);
    }
    // The panels' fields follow; the parts that ran in this entry run again (after the demo's run).
    for (const { section, ctx } of panels) section.onUrl?.(ctx);
  });

  page.started = start(config);
  await page.started;
  // The panels' parts that the address names run once the demo's first run is over;
  // not on a slide (embed=1), which hides the panels: there they would only take the
  // device (a split product, a mesh run…) from the result panel every time it loads.
  if (!embedded()) for (const { section, ctx } of panels) await section.restore?.(ctx);
  requestAnimationFrame(landed);
}

/** No GPU backend could be made: the error, and nothing to run. */
function noGpu(err) {
  fail(null, err);
  for (const body of ['partitioned-body', 'batched-body', 'linear-body', 'sparse-body', 'devices-body']) $(body).replaceChildren(el('p', { class: 'help' }, 'No GPU backend could be made in this browser, so nothing here can run (see the message at the top).'));
  $('device').textContent = err?.code === 'NO_WEBGL2' ? 'Device: no usable WebGL2 context.' : `Device: none usable (${describeError(err).code}).`;
  for (const b of ['run', 'step']) $(b).disabled = true;
}

main().catch((err) => fail(page.session, err));
