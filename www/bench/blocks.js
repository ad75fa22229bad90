// The block-sparse bench (www/bench/index.html?suite=blocks; issue 14, point 4): on WebGL2 and on WebGPU,
//   fit    t against P (block products) at a fixed n, densities spanning decades of P
//   cross  the density where the dense product gets faster, per block size
//   cuda   the CUDA report's table (n, m, k) run again
//   report the whole table through GPU-resident matrices (WebGPU; www/bench/blocks-gpu.js)
// Backends: webgl, webgpu (multiplyBlockSparseAsync) and resident (WebGPU, GpuBlockSparse
// operands, multiplyGpuBlockSparseAsync with the sparse numeric pass).
// Each point: the whole `await gpu.multiplyBlockSparseAsync(a, b)` and, apart, the
// symbolic phase alone (`BlockSparse.productPlan(a, b)`); median of `repeats` timed
// calls after a warm-up. Parameters: www/bench/blocks-params.js. Progress lines go to the
// page, console.log, window.benchLog and, with ?post=1, POST /log; the result JSON is
// window.benchResult and, with ?post=1, POST /result (the gpu-browser protocol, as
// www/bench/systems.js). Driven by scripts/bench-blocks.mjs.
import init, { BlockSparse, Gpgpu } from '../pkg/gpgpu_matrix.js';
import { cudaReport } from './blocks-gpu.js';
import { uniformMatrix } from '../reference.js';
import { deriveLabel, fmtMs, wallLog } from './systems-report.js';
import { errText, flush, guard, log, probeRenderer, runPage, setBench } from './page.js';
import { CROSS_DENSITIES, CUDA_ROWS, readBlocksParams } from './blocks-params.js';
import { blocksMarkdown, blocksPlot, derive, median, steps125 } from './blocks-report.js';
import { checkProduct, makeOperand, randomPattern } from './blocks-inputs.js';

/**
 * Times `fn` (sync or async): a warm-up call; over the cap, that one run is the sample;
 * else back-to-back calls for heatMs (untimed: an idle GPU's clock is low, the H100's
 * 345 MHz against 1,980 MHz busy, and a short call after the bench's CPU work between
 * points ran up to 4× slower, bench/NOTES.md), then `repeats` samples, each the mean of
 * a batch of back-to-back calls when one call is shorter than minSampleMs (the page's
 * timer has 0.1 ms steps).
 */
async function measure(fn, params, what) {
  const capMs = params.capS * 1000, watch = params.watchdogS * 1000;
  const m = { timesMs: [], batch: 1 };
  let t0 = performance.now();
  await guard(fn(), watch, what);
  m.warmupMs = performance.now() - t0;
  if (m.warmupMs > capMs) {
    m.status = 'single';
    m.timesMs.push(m.warmupMs);
  } else {
    m.status = 'ok';
    const heat = performance.now();
    while (performance.now() - heat < params.heatMs) await guard(fn(), watch, what);
    if (m.warmupMs < Math.max(params.minSampleMs, 200)) {
      t0 = performance.now();
      await guard(fn(), watch, what);
      const t = performance.now() - t0;
      m.calibrationMs = t;
      if (t < params.minSampleMs) m.batch = Math.min(50, Math.max(1, Math.ceil(params.minSampleMs / Math.max(t, 0.05))));
    }
    for (let r = 0; r < params.repeats; r++) {
      await flush();
      t0 = performance.now();
      for (let b = 0; b < m.batch; b++) await guard(fn(), watch, what);
      m.timesMs.push((performance.now() - t0) / m.batch);
    }
  }
  m.medianMs = median(m.timesMs);
  return m;
}

/** Bytes wasm memory holds at the peak of one product (A's and B's blocks, C's atlas read
 *  back, unpacked and filtered: three copies), for random patterns of k blocks each. */
function peakBytes(n, m, k) {
  const T = Math.ceil(n / m);
  const cBlocks = T * T * (1 - Math.exp(-(k * k) / (T * T * T)));
  return 4 * m * m * (2 * k + 3 * cBlocks);
}

/** The run: { gpus (backend → Gpgpu), params, result, started }. */
class Run {
  constructor(params) {
    this.params = params;
    this.started = performance.now();
    this.gpus = new Map();
    this.broken = new Map(); // backend → why it is no longer used (a call that hung)
  }

  late() { return (performance.now() - this.started) / 1000 > this.params.deadlineS; }

  /** Two operands with k blocks each at random places (independent patterns), their plan and its timing. */
  async operands(n, m, k, salt, timePlan = true) {
    const T = Math.ceil(n / m);
    const s = (this.params.seed * 1000003 + salt * 7919 + n * 31 + m) >>> 0;
    log(`  operands n=${n} m=${m} k=${k}`);
    await flush();
    const t0 = performance.now();
    const a = makeOperand(BlockSparse, s, n, m, randomPattern(s, T, k));
    const b = makeOperand(BlockSparse, s + 1, n, m, randomPattern(s + 1, T, k));
    const genMs = performance.now() - t0;
    const plan = BlockSparse.productPlan(a.sparse, b.sparse);
    const info = { n, m, T, kA: a.k, kB: b.k, density: a.k / (T * T), P: plan.products, cBlocks: plan.storedBlocks, denseProducts: plan.denseProducts, genMs };
    if (timePlan) info.plan = await measure(() => BlockSparse.productPlan(a.sparse, b.sparse).products, this.params, 'productPlan');
    return { a, b, info };
  }

  /** One backend's whole-call timing of A·B, with a sampled check of C when `verify`. */
  async product(backend, a, b, base, verify) {
    const rec = { backend, ...base };
    if (this.broken.has(backend)) return { ...rec, status: 'skipped', reason: this.broken.get(backend) };
    const gpu = this.gpus.get(backend);
    let last = null;
    const gpuTimes = [];
    // 'resident': A and B copied into GpuBlockSparse first (not timed), the product's
    // both phases on the GPU with the sparse numeric pass (t against P, not the dense path).
    const resident = backend === 'resident' ? [] : null;
    try {
      if (resident) resident.push(gpu.uploadBlockSparse(a.sparse), gpu.uploadBlockSparse(b.sparse));
      rec.whole = await measure(async () => {
        const c = resident
          ? await gpu.multiplyGpuBlockSparseAsync(resident[0], resident[1], { numeric: 'sparse' })
          : await gpu.multiplyBlockSparseAsync(a.sparse, b.sparse);
        if (c.gpuMs !== undefined) gpuTimes.push(c.gpuMs);
        last?.free();
        last = c;
      }, this.params, `${backend} ${resident ? 'multiplyGpuBlockSparseAsync' : 'multiplyBlockSparseAsync'}`);
      rec.status = rec.whole.status;
      // The numeric pass alone, from GPU timestamps (timer queries on WebGL) where the device has them.
      if (gpuTimes.length) rec.gpuMs = gpuTimes.sort((x, y) => x - y)[gpuTimes.length >> 1];
      rec.blockProducts = last.blockProducts;
      rec.cNonzero = resident ? last.storedBlocks : last.nonzeroBlocks;
      if (verify && !resident) rec.relErr = checkProduct(last, a, b, { seed: this.params.seed, maxN: this.params.verifyMaxN });
    } catch (e) {
      rec.status = 'error';
      rec.reason = errText(e);
      if (e?.hung) this.broken.set(backend, `an earlier call did not answer (${e.message})`);
    } finally {
      for (const x of [last, ...(resident || [])]) { try { x?.free(); } catch { /* freed */ } }
    }
    return rec;
  }

  line(rec) {
    const head = `${rec.part} ${rec.backend.padEnd(6)} n=${rec.n} m=${rec.m} d=${+rec.density.toPrecision(3)} P=${rec.P}`;
    if (rec.status === 'error' || rec.status === 'skipped') return `${head}: ${rec.status} (${String(rec.reason).slice(0, 200)})`;
    return `${head}: ${wallLog(rec.whole.medianMs, rec.whole.batch)} (plan ${wallLog(rec.plan?.medianMs, rec.plan?.batch)}, ${rec.whole.status === 'single' ? '1 run' : `${rec.whole.timesMs.length}×${rec.whole.batch}`}` +
      `${rec.relErr != null ? `, rel.err ${rec.relErr.toExponential(1)}` : ''}, t/P ${((1000 * rec.whole.medianMs) / rec.P).toPrecision(3)} µs` +
      `${rec.gpuMs != null ? `; GPU ${fmtMs(rec.gpuMs)}, ${((1000 * rec.gpuMs) / rec.P).toPrecision(3)} µs/P` : ''})`;
  }

  /** Part 1: t against P at fixed n, for each block side. */
  async fit(result) {
    const { n, blocks, pmin, pmax, backends } = this.params;
    for (const m of blocks) {
      const T = Math.ceil(n / m);
      const prev = new Map();
      let first = true;
      for (const P of steps125(pmin, pmax)) {
        const d = Math.sqrt(P / T ** 3);
        const k = Math.round(d * T * T);
        if (d > 1 || k < 1) continue;
        const base = { part: 'fit', n, m, density: k / (T * T), Ptarget: P };
        if (this.late()) { for (const be of backends) result.records.push({ ...base, backend: be, status: 'skipped', reason: 'the run\'s deadline' }); continue; }
        const { a, b, info } = await this.operands(n, m, k, P);
        try {
          for (const be of backends) {
            const p = prev.get(be);
            const predicted = p ? p.ms * (info.P / p.P) : 0;
            let rec;
            if (predicted > this.params.skipFactor * this.params.capS * 1000) rec = { backend: be, ...base, ...info, status: 'skipped', reason: `predicted ${wallLog(predicted)}` };
            else rec = await this.product(be, a, b, { ...base, ...info }, first && n <= this.params.verifyMaxN);
            if (rec.whole) prev.set(be, { P: info.P, ms: rec.whole.medianMs });
            result.records.push(rec);
            log(this.line(rec));
            await flush();
          }
        } finally {
          a.sparse.free(); b.sparse.free();
        }
        first = false;
        await flush();
      }
    }
  }

  /** Part 2: the dense product's time, then block-sparse densities upwards until slower. */
  async cross(result) {
    const { crossN: n, crossBlocks, backends } = this.params;
    const dense = new Map();
    {
      const A = uniformMatrix(this.params.seed, n * n), B = uniformMatrix(this.params.seed + 1, n * n);
      for (const be of backends) {
        const rec = { backend: be, n };
        if (this.broken.has(be)) Object.assign(rec, { status: 'skipped', reason: this.broken.get(be) });
        else {
          try {
            Object.assign(rec, await measure(() => this.gpus.get(be).multiplyAsync(n, n, n, A, B), this.params, `${be} multiplyAsync`));
            dense.set(be, rec.medianMs);
          } catch (e) { Object.assign(rec, { status: 'error', reason: errText(e) }); }
        }
        result.dense.push(rec);
        log(`dense  ${be.padEnd(6)} n=${n}: ${rec.medianMs ? wallLog(rec.medianMs) : `${rec.status} (${rec.reason})`}`);
      }
    }
    for (const m of crossBlocks) {
      const T = Math.ceil(n / m);
      const active = new Set(backends.filter((be) => dense.has(be)));
      const prev = new Map();
      for (const d of CROSS_DENSITIES) {
        if (!active.size) break;
        const k = Math.round(d * T * T);
        if (k < 1) continue;
        const base = { part: 'cross', n, m, density: d };
        if (this.late()) { for (const be of active) result.records.push({ ...base, backend: be, status: 'skipped', reason: 'the run\'s deadline' }); break; }
        const { a, b, info } = await this.operands(n, m, k, Math.round(d * 1e4) + 77);
        info.density = d;
        try {
          for (const be of [...active]) {
            const p = prev.get(be);
            const predicted = p ? p.ms * (d / p.d) ** 2 : 0;
            let rec;
            if (predicted > this.params.skipFactor * this.params.capS * 1000) {
              rec = { backend: be, ...base, ...info, status: 'skipped', reason: `predicted ${wallLog(predicted)}` };
              active.delete(be);
            } else rec = await this.product(be, a, b, { ...base, ...info }, false);
            if (rec.whole) {
              prev.set(be, { d, ms: rec.whole.medianMs });
              if (rec.whole.medianMs >= dense.get(be)) active.delete(be);
            } else active.delete(be);
            result.records.push(rec);
            log(`${this.line(rec)}; dense ${wallLog(dense.get(be))}`);
          }
        } finally {
          a.sparse.free(); b.sparse.free();
        }
        await flush();
      }
    }
  }

  /** Part 3: the CUDA report's rows up to cudaMaxN (the largest last: it may exhaust memory). */
  async cuda(result) {
    const { backends, cudaMaxN } = this.params;
    for (const row of CUDA_ROWS) {
      const { n, m, k, k40S } = row;
      if (n > cudaMaxN) { result.cudaLeftOut.push({ ...row, reason: `n > ${cudaMaxN}, this machine's largest n` }); continue; }
      const bytes = peakBytes(n, m, k);
      if (bytes > 2 ** 32) {
        result.cudaLeftOut.push({ ...row, reason: `WebAssembly's 4 GiB memory: A's and B's blocks (${(8 * m * m * k / 2 ** 30).toFixed(2)} GiB) and C's atlas read back, unpacked and filtered (3 × ${(4 * m * m * (n / m) ** 2 / 2 ** 30).toFixed(2)} GiB) need ≈ ${(bytes / 2 ** 30).toFixed(1)} GiB` });
        log(`cuda   n=${n} m=${m} k=${k}: left out (${result.cudaLeftOut.at(-1).reason})`);
        continue;
      }
      const base = { part: 'cuda', n, m, kTarget: k, k40S };
      if (this.late()) { for (const be of backends) result.records.push({ ...base, backend: be, density: k / (n / m) ** 2, status: 'skipped', reason: 'the run\'s deadline' }); continue; }
      let ops;
      try {
        ops = await this.operands(n, m, k, 5, n <= 4096);
      } catch (e) {
        for (const be of backends) result.records.push({ ...base, backend: be, density: k / (n / m) ** 2, status: 'error', reason: `making the operands: ${errText(e)}` });
        log(`cuda   n=${n} m=${m} k=${k}: making the operands failed: ${errText(e)}`);
        continue;
      }
      const { a, b, info } = ops;
      if (!info.plan) {
        const t0 = performance.now();
        BlockSparse.productPlan(a.sparse, b.sparse);
        info.plan = { status: 'single', timesMs: [performance.now() - t0], medianMs: performance.now() - t0 };
      }
      log(`cuda   n=${n} m=${m} k=${k}: operands in ${wallLog(info.genMs)}, P=${info.P}, C blocks ${info.cBlocks}`);
      try {
        for (const be of backends) {
          const rec = await this.product(be, a, b, { ...base, ...info }, n <= this.params.verifyMaxN);
          result.records.push(rec);
          log(`${this.line(rec)}; K40 ${k40S} s`);
        }
      } finally {
        a.sparse.free(); b.sparse.free();
      }
    }
  }
}

export async function runBlocksBench(params) {
  setBench('bench-blocks', params.post);
  log(`page loaded; crossOriginIsolated ${!!globalThis.crossOriginIsolated}`);
  await flush();
  const renderer = probeRenderer();
  log(`renderer: ${renderer}`);
  await flush();
  const result = {
    schema: 'blocks-1', date: new Date().toISOString(),
    // A block-sparse result's label starts with blocks-: a bare `h100` or `swiftshader`
    // took the systems bench's entry in bench/results/latest.json (the page's footer links).
    label: params.label ? params.label.replace(/^(?!blocks-)/, 'blocks-') : `blocks-${deriveLabel(renderer)}`,
    env: { renderer, userAgent: navigator.userAgent, hardwareConcurrency: navigator.hardwareConcurrency, deviceMemory: navigator.deviceMemory, page: location.href, browserFlags: params.browserFlags },
    params: { ...params, problems: undefined, autostart: undefined, crossDensities: CROSS_DENSITIES },
    records: [], dense: [], cudaLeftOut: [],
  };
  const run = new Run(params);
  const wasm = await init();
  log('wasm ready');
  await flush();
  for (const be of params.backends) {
    try {
      log(`${be}: creating`);
      await flush();
      const gpu = await Gpgpu.create({ backend: be === 'resident' ? 'webgpu' : be });
      run.gpus.set(be, gpu);
      const i = gpu.info();
      if (be === 'webgpu') result.env.webgpu = { vendor: i.vendor, architecture: i.architecture, description: i.description, fallback: i.fallbackAdapter, maxDimension: i.maxDimension, maxBufferSize: i.maxBufferSize, maxStorageBufferBindingSize: i.maxStorageBufferBindingSize };
      else result.env.webgl = { renderer: i.renderer, maxTextureSize: i.maxTextureSize, maxDimension: i.maxDimension };
      log(`${be}: ${be === 'webgpu' ? [i.vendor, i.architecture, i.description].filter(Boolean).join(' ') : i.renderer}, maxDimension ${i.maxDimension}`);
    } catch (e) {
      run.broken.set(be, `unavailable: ${errText(e)}`);
      result.env[be] = { reason: errText(e) };
      log(`${be}: unavailable (${errText(e)})`);
    }
  }
  log(`parts ${params.parts.join(',')}; fit n=${params.n} m=${params.blocks.join(',')} P ${params.pmin}..${params.pmax}; cross n=${params.crossN} m=${params.crossBlocks.join(',')}; cuda up to n=${params.cudaMaxN}; repeats ${params.repeats}, cap ${params.capS} s, deadline ${params.deadlineS} s`);
  try {
    // The report first: its rows state WebAssembly memory's peak, which the other parts'
    // CPU operands would raise (a fit at n = 16384 grew it to 1125 MiB).
    if (params.parts.includes('report')) await cudaReport(run, result, wasm.memory);
    for (const part of ['fit', 'cross', 'cuda']) if (params.parts.includes(part)) await run[part](result);
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
  title: 'gpgpu-matrix benchmark: block-sparse products',
  heading: 'gpgpu-matrix benchmark: block-sparse products',
  html: `
<p>Block-sparse A·B (<code>gpu.multiplyBlockSparseAsync</code>) on WebGL2 and WebGPU: time against
the block products P at a fixed n, the density where the dense product (<code>gpu.multiplyAsync</code>)
becomes faster, and the CUDA report's table. Runs with <code>?run=1</code>; parameters
(<code>profile=swiftshader|gpu</code>, <code>parts=fit,cross,cuda,report</code>, <code>backends=webgl,webgpu,resident</code>, <code>n=</code>,
<code>blocks=</code>, <code>pmin=</code>, <code>pmax=</code>, <code>crossN=</code>, <code>crossBlocks=</code>,
<code>cudaMaxN=</code>, <code>reportMaxN=</code>, <code>reportSamples=</code>, <code>reportPaths=</code>, <code>repeats=</code>, <code>heat=</code>, <code>cap=</code>, <code>deadline=</code>, <code>seed=</code>,
<code>post=1</code>): <code>www/bench/blocks-params.js</code>. From a shell: <code>make bench-blocks</code>.</p>
`,
};

/** Runs the page (www/bench/shell.js calls it once the page shows `about`). */
export function start() {
  runPage({
    readParams: readBlocksParams,
    paramsFile: 'www/bench/blocks-params.js',
    run: runBlocksBench,
    empty: (params) => ({ schema: 'blocks-1', date: new Date().toISOString(), params, records: [] }),
    markdown: blocksMarkdown,
    plot: blocksPlot,
  });
}
