// The batched small-matrix bench (www/bench/index.html?suite=batched; issue 15, point 5): on WebGL2 and on WebGPU,
//   ransac    gpu.ransacHomographyAsync(src, dst, { iterations, threshold, seed }) on a
//             synthetic scene: the fit pass's and the scoring pass's GPU times (fitMs,
//             scoreMs: timestamps / timer queries, null without them) and the whole call
//   nullvec   the log's alternative to the exact 8×8 solve: svdBatchedAsync(iterations, 9, 9, …)
//             on random 9×9, on the hypotheses' own DLT systems, and on diagonal matrices
//             (no rotation: the call's floor, upload and readback included)
//   svd       SVDs per second against the batch, 3×3 and 9×9 (whole calls)
//   products  multiplyBatchedAsync(batch, k, k, k, …) GFLOP/s against k at ~`flops` per call,
//             and a chain of squarings (powerBatchedAsync, p = 2 and 2^s) for the compute alone
// Each timed result is checked against float64 (sampled): www/bench/batched-inputs.js.
// Progress lines go to the page, console.log, window.benchLog and, with ?post=1, POST /log;
// the result JSON is window.benchResult and, with ?post=1, POST /result (the gpu-browser
// protocol). Driven by scripts/bench-batched.mjs.
import init, { Gpgpu } from '../pkg/gpgpu_matrix.js';
import { uniformMatrix, mulberry32 } from '../reference.js';
import { deriveLabel, fmtMs, wallLog } from './systems-report.js';
import { errText, flush, guard, log, probeRenderer, runPage, setBench } from './page.js';
import { readBatchedParams } from './batched-params.js';
import { batchedMarkdown, batchedPlot, derive, median } from './batched-report.js';
import {
  checkPower, checkProducts, checkRansac, checkSvd, dltSystems, homographyScene, nullVectorResiduals,
  ransacSamples, signedPermutations,
} from './batched-inputs.js';

/** Times `fn` (async, returns its result): a warm-up call; over the cap, that one run is
 *  the sample; else `repeats` calls, one each. Returns { timesMs, medianMs, warmupMs, status, last }. */
async function measure(fn, repeats, params, what) {
  const capMs = params.capS * 1000, watch = params.watchdogS * 1000;
  const m = { timesMs: [] };
  let t0 = performance.now();
  let last = await guard(fn(), watch, what);
  m.warmupMs = performance.now() - t0;
  if (m.warmupMs > capMs) {
    m.status = 'single';
    m.timesMs.push(m.warmupMs);
  } else {
    m.status = 'ok';
    for (let r = 0; r < repeats; r++) {
      await flush();
      t0 = performance.now();
      last = await guard(fn(), watch, what);
      m.timesMs.push(performance.now() - t0);
    }
  }
  m.medianMs = median(m.timesMs);
  return { m, last };
}

const finite = (xs) => xs.filter((x) => Number.isFinite(x));
const medOrNull = (xs) => (finite(xs).length ? median(finite(xs)) : null);
const ok = (c) => (c ? (c.ok ? 'ok' : 'CHECK FAILED') : '');

class Run {
  constructor(params) {
    this.params = params;
    this.started = performance.now();
    this.gpus = new Map();
    this.broken = new Map();
  }

  late() { return (performance.now() - this.started) / 1000 > this.params.deadlineS; }

  usable(be) { return this.gpus.has(be) && !this.broken.has(be); }

  fail(rec, e, be) {
    rec.status = 'error';
    rec.reason = errText(e);
    if (e?.hung) this.broken.set(be, `an earlier call did not answer (${e.message})`);
  }

  skipped(rec, be) {
    if (this.late()) return { ...rec, status: 'skipped', reason: 'the run\'s deadline' };
    if (!this.usable(be)) return { ...rec, status: 'skipped', reason: this.broken.get(be) || 'backend unavailable' };
    return null;
  }

  /** Part 1: RANSAC on the scene, fit and score GPU times, the whole call. */
  async ransac(result) {
    const p = this.params;
    const scene = homographyScene(p.points, p.outliers, p.noise, p.seed);
    const o = { iterations: p.iterations, threshold: p.threshold, seed: p.seed };
    for (const be of p.backends) {
      let rec = { backend: be, points: p.points, iterations: p.iterations, outliers: p.outliers, noise: p.noise, threshold: p.threshold };
      const skip = this.skipped(rec, be);
      if (skip) { result.ransac.push(skip); log(`ransac ${be}: ${skip.status} (${skip.reason})`); continue; }
      const gpu = this.gpus.get(be);
      const fit = [], score = [];
      try {
        const { m, last } = await measure(async () => {
          const r = await gpu.ransacHomographyAsync(scene.src, scene.dst, o);
          fit.push(r.fitMs); score.push(r.scoreMs);
          return r;
        }, p.ransacRepeats, p, `${be} ransacHomographyAsync`);
        rec.whole = m;
        rec.status = m.status;
        // The warm-up's GPU times are left out (the first call compiles the shaders).
        const timed = (xs) => (m.status === 'single' ? xs : xs.slice(1));
        rec.fitMsAll = timed(fit); rec.scoreMsAll = timed(score);
        rec.fitMs = medOrNull(rec.fitMsAll); rec.scoreMs = medOrNull(rec.scoreMsAll);
        rec.bestCount = last.bestCount;
        rec.check = checkRansac(last, scene, o, 4 * p.checkSamples);
      } catch (e) { this.fail(rec, e, be); }
      result.ransac.push(rec);
      log(rec.status === 'error' ? `ransac ${be}: error (${rec.reason})`
        : `ransac ${be}: ${p.iterations} hypotheses × ${p.points} points: fit ${fmtMs(rec.fitMs)}, score ${fmtMs(rec.scoreMs)} (GPU), whole call ${wallLog(rec.whole.medianMs, rec.whole.batch)}; ` +
          `best ${rec.bestCount} inliers (true ${rec.check.trueInliers}), ${ok(rec.check)}`);
      await flush();
    }
  }

  /** One SVD timing: svdBatchedAsync(batch, side, side, a), checked. */
  async svdPoint(be, batch, rows, a, extra = {}) {
    const rec = { backend: be, batch, rows, cols: rows, ...extra };
    const skip = this.skipped(rec, be);
    if (skip) return skip;
    try {
      const { m, last } = await measure(() => this.gpus.get(be).svdBatchedAsync(batch, rows, rows, a), this.params.repeats, this.params, `${be} svdBatchedAsync`);
      rec.whole = m;
      rec.status = m.status;
      rec.perS = batch / (m.medianMs / 1000);
      rec.check = checkSvd(last, a, batch, rows, rows, this.params.checkSamples);
      rec.last = last; // dropped before the result is stored
    } catch (e) { this.fail(rec, e, be); }
    return rec;
  }

  /** Part 2: the null-vector alternative, 2000 (iterations) 9×9 SVDs. */
  async nullvec(result) {
    const p = this.params, n = p.iterations;
    const scene = homographyScene(p.points, p.outliers, p.noise, p.seed);
    const samples = ransacSamples(p.points, n, p.seed);
    const inputs = {
      random: uniformMatrix(p.seed + 11, 81 * n),
      dlt: dltSystems(scene, samples, n),
      diagonal: (() => {
        const next = mulberry32(p.seed + 12), a = new Float32Array(81 * n);
        for (let b = 0; b < n; b++) for (let i = 0; i < 9; i++) a[81 * b + 10 * i] = 1 + next();
        return a;
      })(),
    };
    for (const be of p.backends) {
      for (const [kind, a] of Object.entries(inputs)) {
        const rec = await this.svdPoint(be, n, 9, a, { kind });
        if (kind === 'dlt' && rec.last) rec.nullVector = nullVectorResiduals(rec.last, scene, samples, n, 4 * p.checkSamples);
        delete rec.last;
        result.nullvec.push(rec);
        log(rec.whole ? `nullvec ${be} ${kind.padEnd(8)}: ${n} 9×9 SVDs in ${wallLog(rec.whole.medianMs, rec.whole.batch)} (whole call), sweeps mean ${rec.check.meanSweeps.toFixed(2)} max ${rec.check.maxSweeps}` +
          `${rec.nullVector ? `, null-vector H at its 4 points: median ${rec.nullVector.median.toExponential(1)} px` : ''}, ${ok(rec.check)}`
          : `nullvec ${be} ${kind}: ${rec.status} (${rec.reason})`);
        await flush();
      }
    }
  }

  /** Part 3: SVD throughput against the batch. */
  async svd(result) {
    const p = this.params;
    for (const side of p.svdSides) {
      const prev = new Map(), stopped = new Map();
      for (const batch of p.svdBatches) {
        let a = null;
        for (const be of p.backends) {
          const base = { backend: be, batch, rows: side, cols: side };
          let rec;
          const pr = prev.get(be);
          const predicted = pr ? pr.ms * (batch / pr.batch) : 0;
          if (stopped.has(be)) rec = { ...base, status: 'skipped', reason: stopped.get(be) };
          else if (predicted > p.skipFactor * p.capS * 1000) rec = { ...base, status: 'skipped', reason: `predicted ${wallLog(predicted)}` };
          else {
            try { a = a || uniformMatrix((p.seed * 7919 + side * 31 + batch) >>> 0, batch * side * side); } catch (e) { rec = { ...base, status: 'error', reason: `making the input: ${errText(e)}` }; }
            if (!rec) rec = await this.svdPoint(be, batch, side, a);
            delete rec.last;
          }
          if (rec.whole) prev.set(be, { batch, ms: rec.whole.medianMs });
          if (rec.status === 'error' || (rec.status === 'skipped' && /predicted/.test(rec.reason))) stopped.set(be, `a smaller batch: ${String(rec.reason).slice(0, 120)}`);
          result.svd.push(rec);
          log(rec.whole ? `svd ${be} ${side}×${side} batch ${batch}: ${wallLog(rec.whole.medianMs, rec.whole.batch)}, ${rec.perS.toPrecision(3)} SVDs/s, sweeps mean ${rec.check.meanSweeps.toFixed(2)}, ${ok(rec.check)}`
            : `svd ${be} ${side}×${side} batch ${batch}: ${rec.status} (${String(rec.reason).slice(0, 200)})`);
          await flush();
        }
        a = null;
      }
    }
  }

  /** Part 4: batched k×k products, and the chain of squarings. */
  async products(result) {
    const p = this.params;
    for (const k of p.ks) {
      const batch = Math.max(1, Math.min(p.maxBatch, Math.round(p.flops / (2 * k ** 3))));
      const flops = 2 * k ** 3 * batch;
      const seed = (p.seed * 1009 + k) >>> 0;
      let a = uniformMatrix(seed, batch * k * k), b = uniformMatrix(seed + 1, batch * k * k);
      for (const be of p.backends) {
        const rec = { backend: be, k, batch, flops };
        const skip = this.skipped(rec, be);
        if (skip) { result.products.push(skip); log(`product ${be} k=${k}: ${skip.status} (${skip.reason})`); continue; }
        try {
          const { m, last } = await measure(() => this.gpus.get(be).multiplyBatchedAsync(batch, k, k, k, a, b), p.repeats, p, `${be} multiplyBatchedAsync`);
          rec.whole = m; rec.status = m.status;
          rec.gflops = flops / (m.medianMs * 1e6);
          rec.check = checkProducts(last, a, b, batch, k, p.checkSamples);
        } catch (e) { this.fail(rec, e, be); }
        result.products.push(rec);
        log(rec.whole ? `product ${be} k=${k} batch ${batch}: ${wallLog(rec.whole.medianMs, rec.whole.batch)}, ${rec.gflops.toPrecision(3)} GFLOP/s (whole call), rel.err ${rec.check.relErr.toExponential(1)}, ${ok(rec.check)}`
          : `product ${be} k=${k}: ${rec.status} (${rec.reason})`);
        await flush();
      }
      a = null; b = null;
      const s = p.chainSquarings;
      if (s < 2) continue;
      const m0 = signedPermutations(seed + 2, batch, k);
      for (const be of p.backends) {
        const rec = { backend: be, k, batch, squarings: s };
        const skip = this.skipped(rec, be);
        if (skip) { result.chains.push(skip); continue; }
        try {
          const one = await measure(() => this.gpus.get(be).powerBatchedAsync(batch, k, m0, 2), p.repeats, p, `${be} powerBatchedAsync`);
          const many = await measure(() => this.gpus.get(be).powerBatchedAsync(batch, k, m0, 2 ** s), p.repeats, p, `${be} powerBatchedAsync`);
          rec.one = one.m; rec.many = many.m; rec.status = many.m.status;
          rec.perPassMs = (many.m.medianMs - one.m.medianMs) / (s - 1);
          rec.gflops = rec.perPassMs > 0 ? (2 * k ** 3 * batch) / (rec.perPassMs * 1e6) : null;
          rec.checkOne = checkPower(one.last, m0, batch, k, 1, p.checkSamples);
          rec.check = checkPower(many.last, m0, batch, k, s, p.checkSamples);
          rec.check.ok = rec.check.ok && rec.checkOne.ok;
        } catch (e) { this.fail(rec, e, be); }
        result.chains.push(rec);
        log(rec.many ? `chain ${be} k=${k} batch ${batch}: M² ${wallLog(rec.one.medianMs, rec.one.batch)}, M^(2^${s}) ${wallLog(rec.many.medianMs, rec.many.batch)}: ${fmtMs(rec.perPassMs)} per squaring, ` +
          `${rec.gflops ? rec.gflops.toPrecision(3) : '–'} GFLOP/s compute, ${ok(rec.check)}`
          : `chain ${be} k=${k}: ${rec.status} (${rec.reason})`);
        await flush();
      }
    }
  }
}

export async function runBatchedBench(params) {
  setBench('bench-batched', params.post);
  log(`page loaded; crossOriginIsolated ${!!globalThis.crossOriginIsolated}`);
  await flush();
  const renderer = probeRenderer();
  log(`renderer: ${renderer}`);
  const result = {
    schema: 'batched-1', date: new Date().toISOString(), label: params.label || `batched-${deriveLabel(renderer)}`,
    env: { renderer, userAgent: navigator.userAgent, hardwareConcurrency: navigator.hardwareConcurrency, deviceMemory: navigator.deviceMemory, page: location.href, browserFlags: params.browserFlags },
    params: { ...params, problems: undefined, autostart: undefined },
    ransac: [], nullvec: [], svd: [], products: [], chains: [],
  };
  const run = new Run(params);
  await init();
  log('wasm ready');
  for (const be of params.backends) {
    try {
      const gpu = await Gpgpu.create({ backend: be });
      run.gpus.set(be, gpu);
      const i = gpu.info();
      if (be === 'webgpu') result.env.webgpu = { vendor: i.vendor, architecture: i.architecture, description: i.description, fallback: i.fallbackAdapter, maxDimension: i.maxDimension, maxBufferSize: i.maxBufferSize, maxStorageBufferBindingSize: i.maxStorageBufferBindingSize, maxMatrixBytes: i.maxMatrixBytes, timestamps: i.timerQuery };
      else result.env.webgl = { renderer: i.renderer, maxTextureSize: i.maxTextureSize, maxDimension: i.maxDimension, timerQuery: i.timerQuery };
      log(`${be}: ${be === 'webgpu' ? [i.vendor, i.architecture, i.description].filter(Boolean).join(' ') : i.renderer}, maxDimension ${i.maxDimension}`);
    } catch (e) {
      run.broken.set(be, `unavailable: ${errText(e)}`);
      result.env[be] = { reason: errText(e) };
      log(`${be}: unavailable (${errText(e)})`);
    }
  }
  log(`parts ${params.parts.join(',')}; ransac ${params.iterations}×${params.points}; svd ${params.svdSides.join(',')} at ${params.svdBatches.join(',')}; products k ${params.ks.join(',')} at ~${params.flops} flops, chain 2^${params.chainSquarings}; repeats ${params.repeats}, cap ${params.capS} s, deadline ${params.deadlineS} s`);
  try {
    for (const part of ['ransac', 'nullvec', 'svd', 'products']) if (params.parts.includes(part)) await run[part](result);
  } catch (e) {
    result.error = errText(e);
    log(`FATAL: ${e?.stack || e}`);
  }
  result.totalS = (performance.now() - run.started) / 1000;
  result.derived = derive(result);
  log(`done in ${result.totalS.toFixed(1)} s`);
  return result;
}

/** The page's title and description, which www/bench/shell.js puts in before start(). */
export const about = {
  title: 'gpgpu-matrix benchmark: batched small matrices',
  heading: 'gpgpu-matrix benchmark: batched small matrices',
  html: `
<p>Many small problems at once (issue 15) on WebGL2 and WebGPU: RANSAC homographies
(<code>gpu.ransacHomographyAsync</code>: the fit and scoring passes' GPU times and the whole call),
the batched SVD of 9×9 systems as the null-vector alternative to the exact 8×8 solve
(<code>gpu.svdBatchedAsync</code>), SVDs per second against the batch, and batched k×k products
(<code>gpu.multiplyBatchedAsync</code>, <code>gpu.powerBatchedAsync</code>), each result checked
against float64. Runs with <code>?run=1</code>; parameters (<code>profile=swiftshader|gpu</code>,
<code>parts=ransac,nullvec,svd,products</code>, <code>backends=</code>, <code>points=</code>,
<code>iterations=</code>, <code>svdSides=</code>, <code>svdBatches=</code>, <code>ks=</code>,
<code>flops=</code>, <code>chainSquarings=</code>, <code>repeats=</code>, <code>cap=</code>,
<code>deadline=</code>, <code>seed=</code>, <code>post=1</code>): <code>www/bench/batched-params.js</code>.
From a shell: <code>make bench-batched</code>.</p>
`,
};

/** Runs the page (www/bench/shell.js calls it once the page shows `about`). */
export function start() {
  runPage({
    readParams: readBatchedParams,
    paramsFile: 'www/bench/batched-params.js',
    run: runBatchedBench,
    empty: (params) => ({ schema: 'batched-1', date: new Date().toISOString(), params, ransac: [], nullvec: [], svd: [], products: [], chains: [] }),
    markdown: batchedMarkdown,
    plot: batchedPlot,
  });
}
