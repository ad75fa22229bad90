// One run of the demo's configuration (a Session): the inputs built and uploaded, the
// passes run one at a time on the GPU (or the CPU backend) with the page yielding between
// them, every texture drawn as a heatmap, the pass timeline, each pass read back and
// compared with its float64 counterpart from the Web Worker, and at the end the result,
// its error picture and the precision panel. What a run reports (totals, the summary
// table, the machine-readable record) is www/app/results.js.
import { $, nextFrame, page, sleep, ui, views } from './state.js';
import { nameDevice, setStatus } from './status.js';
import { readbackKind, record, showPrecision, showSummary, totals } from './results.js';
import { compare } from '../reference.js';
import { makeInput } from '../inputs.js';
import { opText, referenceOn } from '../config.js';
import { productFlops } from '../chain.js';
import { HeatmapView } from '../ui/heatmap.js';
import * as format from '../ui/format.js';
import { clockMs, ms, num, sci, ulp32 } from '../ui/format.js';
import { t, tn } from '../i18n/index.js';

/** Passes of at most this many multiply-adds are waited for by a blocking one-texel readback. */
const SMALL_PASS = 256 ** 3;
/**
 * Every pass's output is read back (for hover values and per-pass errors) and the worker
 * sends every float64 pass while they take at most this many bytes (float64) in all.
 */
const KEEP_PASS_BYTES = 64 * 1024 * 1024;

/** Why GPU value `g` has no error against the double `x` (one of them is not finite). */
function unmeasured(g, x) {
  if (Number.isFinite(x)) return t('read.overflowed');
  if (g === x || (Number.isNaN(g) && Number.isNaN(x))) return t('read.bothNonFinite');
  return t('read.oneSide');
}

/** { maxAbs, nan, inf } of a JS array, as run.stats() gives them for GPU matrices. */
function statsOf(data) {
  let maxAbs = 0, nan = 0, inf = 0;
  for (const v of data) {
    if (Number.isNaN(v)) nan++;
    else if (!Number.isFinite(v)) inf++;
    else if (Math.abs(v) > maxAbs) maxAbs = Math.abs(v);
  }
  return { maxAbs, nan, inf };
}

export class Session {
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
    setStatus('running', t('status.building', { n: c.n }));
    await nextFrame();
    if (this.cancelled) return false;
    this.a = makeInput(c.input, c.n, c.seed, c.prob);
    if (c.op === 'multiply') this.b = makeInput(c.bInput, c.n, c.bSeed, c.bProb);
    await nextFrame();
    if (this.cancelled) return false;
    // Compile the kernel on a 1×1 product first, so no pass's time includes compiling it.
    let since = performance.now();
    await gpu.squareAsync(1, new Float32Array([1]), this.opts);
    this.compileMs = performance.now() - since;
    if (this.cancelled) return false;
    since = performance.now();
    const n = c.n;
    if (c.op === 'square') this.run = gpu.startSquare(n, this.a, this.opts);
    else if (c.op === 'multiply') this.run = gpu.startMultiply(n, n, n, this.a, this.b, this.opts);
    else if (c.op === 'repeat') this.run = gpu.startSquareRepeatedly(n, this.a, c.k, this.opts);
    else this.run = gpu.startPower(n, this.a, c.p, this.opts);
    await this.settle();
    this.uploadMs = performance.now() - since;
    if (this.cancelled) return false;
    this.labels = this.run.labels();
    this.passCount = this.run.passCount;
    this.timed = !!page.info.timerQuery;
    this.smallPass = n * n * n <= SMALL_PASS;
    this.keepPasses = n * n * 8 * Math.max(1, this.passCount) <= KEEP_PASS_BYTES;
    document.body.dataset.passCount = String(this.passCount);
    document.body.dataset.passesDone = '0';
    showShader(this.kernel);
    ui.timeline.reset(this.labels, { timer: this.timed, flopsPerPass: productFlops(n), n, backend: this.backend, reference: this.refState !== 'off' });
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
    const store = t(`heatmap.store.${this.backend}`);
    views.a = new HeatmapView({ title: t(product ? 'heatmap.inputA' : 'heatmap.input', { store }), label: t('heatmap.inputLabel') });
    views.b = product ? new HeatmapView({ title: t('heatmap.inputB', { store }), label: t('heatmap.bLabel') }) : null;
    views.out = new HeatmapView({ title: t('heatmap.output'), label: t('heatmap.outputLabel') });
    views.diff = new HeatmapView({ title: t('heatmap.error'), sequential: true, label: t('heatmap.errorLabel'), nanLabel: t('heatmap.errorNan') });
    area.replaceChildren(...[views.a, views.b, views.out, views.diff].filter(Boolean).map((v) => v.element));
    this.inputStats = await this.run.statsAsync('a');
    if (this.cancelled) return;
    await this.#draw(views.a, 'a', this.inputStats);
    views.a.setNumbers(this.a);
    views.a.setValues((i, j) => t('read.input', { i, j, value: num(this.a[i * n + j]) }));
    if (product) {
      await nextFrame();
      if (this.cancelled) return;
      const sb = await this.run.statsAsync('b');
      if (this.cancelled) return;
      await this.#draw(views.b, 'b', sb);
      views.b.setNumbers(this.b);
      views.b.setValues((i, j) => t('read.input', { i, j, value: num(this.b[i * n + j]) }));
    }
    views.out.setTitle(this.passCount ? t('heatmap.noPassYet', { count: this.passCount }) : t('heatmap.output'));
    views.diff.setTitle(t(this.refState === 'off' ? 'heatmap.noReference' : 'heatmap.errorLater'));
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
    if (this.smallPass || !ui.gl || ui.gl.isContextLost()) { this.run.sync(); return; }
    const fence = ui.gl.fenceSync(ui.gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    ui.gl.flush();
    const t0 = performance.now();
    try {
      for (;;) {
        const s = ui.gl.clientWaitSync(fence, 0, 0);
        if (s === ui.gl.ALREADY_SIGNALED || s === ui.gl.CONDITION_SATISFIED) return;
        if (s === ui.gl.WAIT_FAILED || ui.gl.isContextLost()) { this.run.sync(); return; }
        if (this.cancelled) return;
        await sleep(Math.min(8, (performance.now() - t0) / 50));
      }
    } finally {
      if (!ui.gl.isContextLost()) ui.gl.deleteSync(fence);
    }
  }

  /** Runs one pass and shows what it produced. */
  async stepOnce() {
    const idx = this.run.passesDone;
    if (idx >= this.passCount) return;
    // 'running' for a stepped pass too: body[data-status] kept 'paused' under it.
    setStatus('running', t('status.pass', { pass: idx + 1, count: this.passCount, dev: this.dev, label: this.labels[idx] }));
    views.out.setTitle(t('heatmap.passRunning', { pass: idx + 1, count: this.passCount }));
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
    const thumb = ui.timeline.setPass(idx, rec);
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
    views.out.setTitle(done ? t('heatmap.result', { name: this.#resultName(), dev: this.dev }) : t('heatmap.passOutput', { pass: idx + 1, count: this.passCount, label: this.labels[idx] }));
    if (this.keepPasses) {
      this.gpuPass[idx] = await this.run.readAsync('latest');
      if (this.cancelled) return;
    }
    this.#hoverOut(idx);
    this.#passError(idx);
    this.#pollTimes();
    document.body.dataset.passesDone = String(idx + 1);
    this.#progress();
    showPrecision(this);
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
    views.out.setNumbers(g ?? null);
    if (!g) {
      views.out.setValues(null, t(this.dev === 'CPU' ? 'read.onlyResultCpu' : 'read.onlyResult'));
      return;
    }
    views.out.setValues((i, j) => {
      const v = g[i * n + j];
      let s = t('read.output', { i, j, dev: this.dev, value: num(v) });
      if (r) {
        const x = r[i * n + j];
        s += t('read.double', { value: num(x, 12) });
        if (Number.isFinite(v) && Number.isFinite(x)) {
          const d = v - x;
          s += t('read.difference', { d: sci(d) });
          if (d !== 0 && x !== 0) s += t('read.steps', { steps: num(Math.abs(d) / ulp32(x), 2) });
          if (Math.fround(x) === v) s += t('read.rounded');
        } else s += ` · ${unmeasured(v, x)}`;
      } else if (this.refState !== 'off') s += t('read.notYet');
      return s;
    });
  }

  /** Error of pass `idx` against its float64 counterpart, once both are known. */
  #passError(idx) {
    const g = this.gpuPass[idx], r = this.refPass[idx];
    if (!g || !r) return;
    const m = compare(g, r);
    ui.timeline.setError(idx, m);
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
        ui.timeline.setGpuTime(idx, t);
      }
    });
    return missing;
  }

  #progress() {
    const done = this.run ? this.run.passesDone : this.passCount;
    $('gpu-progress').max = Math.max(1, this.passCount);
    $('gpu-progress').value = this.passCount ? done : 1;
    $('gpu-progress-text').textContent = this.passCount ? tn('progress.passes', this.passCount, { done }) : t('progress.none');
  }

  /** Starts the float64 reference in the worker (progress bar; per-pass results for small n). */
  startReference() {
    if (this.refState !== 'waiting') return this.refPromise;
    this.refState = 'running';
    const c = this.config;
    const keepPasses = this.keepPasses;
    const bar = $('ref-progress');
    bar.value = 0;
    $('ref-progress-text').textContent = t('progress.refRunning');
    const t0 = performance.now();
    this.refPromise = ui.refClient.run(
      { op: c.op, n: c.n, a: this.a, b: this.b, p: c.p, labels: this.labels, keepPasses },
      {
        onProgress: (f) => {
          bar.value = f;
          $('ref-progress-text').textContent = `${(100 * f).toFixed(0)} % (${clockMs(performance.now() - t0, { bare: true })})`;
        },
        onPass: (idx, data) => {
          this.refPass[idx] = data;
          this.#passError(idx);
          // The latest pass's double came after the pass: its metrics are known now.
          if (idx === this.run?.passesDone - 1) { this.#hoverOut(idx); showPrecision(this); }
        },
      },
    ).then((out) => {
      if (out.cancelled) { this.refState = 'cancelled'; $('ref-progress-text').textContent = t('progress.cancelled'); return null; }
      this.ref = out.result;
      this.refMs = out.ms;
      this.refState = 'done';
      bar.value = 1;
      $('ref-progress-text').textContent = t('progress.refDone', { time: clockMs(out.ms) });
      return out;
    }, (err) => {
      this.refState = 'error';
      this.refError = err;
      $('ref-progress-text').textContent = t('progress.refFailed', { message: err.message });
      return null;
    });
    return this.refPromise;
  }

  /** After the last pass: the readback, the times, the comparison, the panels. */
  async finish() {
    const c = this.config;
    const n = c.n;
    // The last pass's "running" text would otherwise stay up through the readback.
    setStatus('running', t('status.readingBack', { dev: this.dev, how: readbackKind(this.backend) }));
    const since = performance.now();
    const result = await this.run.resultAsync();
    if (this.cancelled) return;
    this.result = result;
    this.readbackMs = performance.now() - since;
    if (this.passCount === 0) {
      // No pass ran: the answer (I or M) is drawn from the readback ('result' is not
      // a GPU texture of the run when p = 0).
      this.resultStats = statsOf(this.result);
      const range = this.resultStats.maxAbs > 0 ? this.resultStats.maxAbs : 1;
      const canvas = views.out.prepare(n, n);
      views.out.drawn(await page.gpu.drawHeatmapAsync(n, n, this.result, canvas, { range }), range, this.resultStats);
      views.out.setTitle(t('heatmap.resultNoPass', { name: this.#resultName() }));
    } else {
      this.resultStats = this.passes[this.passes.length - 1].stats;
    }
    await nextFrame();
    // Timer results come back a little after their pass: wait for them (at most 2 s).
    for (let waited = 0; this.timed && this.#pollTimes() > 0 && waited < 2000; waited += 20) await sleep(20);
    ui.timeline.settle();
    this.run.free();
    this.run = null;
    this.#hoverOut(this.passCount - 1);
    if (this.refState === 'waiting') {
      setStatus('running', t('status.refRunning', { dev: this.dev }));
      this.startReference();
    }
    if (this.refPromise) {
      if (this.refState === 'running') setStatus('running', t('status.refWaiting', { dev: this.dev }));
      await this.refPromise;
      if (this.cancelled) return;
    }
    if (this.ref) setStatus('running', t('status.comparing', { dev: this.dev }));
    if (this.ref) this.metrics = compare(this.result, this.ref);
    this.#hoverOut(this.passCount - 1);
    await nextFrame();
    await this.#drawDiff();
    showPrecision(this);
    showSummary(this);
  }

  async #drawDiff() {
    const n = this.n;
    if (!this.ref) {
      views.diff.setTitle(t({ off: 'heatmap.noErrorOff', cancelled: 'heatmap.noErrorCancelled' }[this.refState] ?? 'heatmap.noErrorUnfinished'));
      views.diff.clear();
      return;
    }
    let scale = 0;
    for (const x of this.ref) if (Number.isFinite(x)) scale = Math.max(scale, Math.abs(x));
    if (scale === 0) scale = 1;
    // Measured from the double rounded to float32: the best answer float32 can hold
    // shows pale (0), so dark means the GPU did worse than float32 rounding forces.
    const diff = new Float32Array(n * n);
    let max = 0, uncompared = 0;
    for (let i = 0; i < diff.length; i++) {
      const g = this.result[i], x = this.ref[i], best = Math.fround(x);
      // NaN where there is no error to measure: one side NaN/±Inf, float32 overflowed
      // a finite double, or the double is ±Inf/NaN itself.
      const d = Number.isFinite(g) && Number.isFinite(best) ? Math.abs(g - best) / scale : NaN;
      diff[i] = d;
      if (d > max) max = d;
      if (Number.isNaN(d)) uncompared++;
    }
    const range = max > 0 ? max : 1e-30;
    const canvas = views.diff.prepare(n, n);
    const drawn = await page.gpu.drawHeatmapAsync(n, n, diff, canvas, { range, sequential: true });
    views.diff.drawn(drawn, max, { nan: uncompared, inf: 0, compared: n * n - uncompared });
    views.diff.setNumbers(diff, { error: true, format: sci });
    views.diff.setTitle(t('heatmap.errorScale', { dev: this.dev, scale: format.magnitude(scale) }));
    views.diff.setValues((i, j) => {
      const g = this.result[i * n + j], x = this.ref[i * n + j], d = diff[i * n + j];
      const head = `${t('read.output', { i, j, dev: this.dev, value: num(g) })}${t('read.double', { value: num(x, 12) })}`;
      if (Number.isNaN(d)) return `${head} · ${unmeasured(g, x)}`;
      if (d === 0) return `${head}${t('read.nearest')}`;
      const steps = Math.round(Math.abs(g - Math.fround(x)) / format.ulp32(x));
      return `${head}${tn('read.scaleSteps', steps, { d: sci(d) })}`;
    });
  }

  /** Totals: GPU time (timer where it has one), wall times, JS time, GFLOP/s (www/app/results.js). */
  totals() {
    return totals(this);
  }

  /** The machine-readable record of this run (www/app/results.js). */
  record(status, error = null) {
    return record(this, status, error);
  }

  async cancel() {
    this.cancelled = true;
    ui.refClient.cancel();
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
      ui.refClient.cancel(); // its promise resolves, and finish() goes on without it
    }
  }

  dispose() {
    try { this.run?.free(); } catch { /* a lost context: nothing to free */ }
    this.run = null;
  }
}

/**
 * The shader panel (www/ui/shader-panel.js) shows `kernel` (null: keeps the reader's
 * choice). Before a run's last pass the panel says the run uses the kernel; after it,
 * that it ran.
 */
export function showShader(kernel, finished = false) {
  const s = page.session;
  ui.shaderPanel.show(kernel, s ? { kernel: s.kernel, backend: s.backend, idle: s.passCount === 0, n: s.n, finished } : null);
}