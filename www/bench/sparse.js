// The SpMV bench (www/bench/index.html?suite=sparse; issue 16, point 5): sparse matrix × vector in GB/s against nnz
// (10^4 up to what the device and memory allow) on WebGL2 and WebGPU, with the matrix
// resident on the GPU (`gpu.benchSpmvAsync`), beside a streaming ceiling measured on the
// same device in the same run (`gpu.benchStreamAsync`: p + q → out over the same bytes).
// uniform matrices (perRow nonzeros in each row) and skewed ones (Zipf rows: a few hubs,
// the case of the long-row variant, measured beside it on WebGPU: rows past `longRow`
// by a workgroup each). Parameters: www/bench/sparse-params.js.
// Progress lines and results as the other bench pages (www/bench/page.js). Driven by
// scripts/bench-sparse.mjs.
import init, { Csr, Gpgpu } from '../pkg/gpgpu_matrix.js';
import { deriveLabel, median, wallLog } from './systems-report.js';
import { errText, flush, guard, log, probeRenderer, runPage, setBench } from './page.js';
import { readSparseParams } from './sparse-params.js';
import { derive, sparseMarkdown, sparsePlot, spmvBytes, timeOf } from './sparse-report.js';
import { steps125 } from './blocks-report.js';

/** Median per-pass times of `call(repeats)` ({ wallMs, gpuMs? }), repeats chosen so one
 *  sample lasts about minSampleMs. */
async function measure(call, params, what) {
  const watch = params.watchdogS * 1000;
  const first = await guard(call(1), watch, what);
  // From the pass's GPU time where there is one: the first call's wall time is mostly
  // its readback's latency, which the repeats are there to amortise.
  const one = Number.isFinite(first.gpuMs) ? first.gpuMs : first.wallMs;
  const repeats = Math.max(1, Math.min(params.maxRepeats, Math.ceil(params.minSampleMs / Math.max(one, 1e-3))));
  const walls = [], gpus = [];
  for (let s = 0; s < params.samples; s++) {
    await flush();
    const t = await guard(call(repeats), watch, what);
    walls.push(t.wallMs);
    if (Number.isFinite(t.gpuMs)) gpus.push(t.gpuMs);
  }
  return { repeats, wallMs: median(walls), gpuMs: gpus.length ? median(gpus) : undefined, walls };
}

export async function runSparseBench(params) {
  setBench('bench-sparse', params.post);
  const started = performance.now();
  const late = () => (performance.now() - started) / 1000 > params.deadlineS;
  const renderer = probeRenderer();
  log(`renderer: ${renderer}`);
  const result = {
    schema: 'sparse-1', date: new Date().toISOString(), label: params.label || `sparse-${deriveLabel(renderer)}`,
    env: { renderer, userAgent: navigator.userAgent, hardwareConcurrency: navigator.hardwareConcurrency, page: location.href, browserFlags: params.browserFlags },
    params: { ...params, problems: undefined, autostart: undefined },
    records: [],
  };
  await init();
  log('wasm ready');
  const gpus = new Map();
  for (const be of params.backends) {
    try {
      const gpu = await Gpgpu.create({ backend: be });
      gpus.set(be, gpu);
      const i = gpu.info();
      if (be === 'webgpu') result.env.webgpu = { vendor: i.vendor, architecture: i.architecture, description: i.description, maxBufferSize: i.maxBufferSize, maxStorageBufferBindingSize: i.maxStorageBufferBindingSize, timestamps: i.timerQuery };
      else result.env.webgl = { renderer: i.renderer, maxTextureSize: i.maxTextureSize };
      log(`${be}: ready`);
    } catch (e) {
      result.env[be] = { reason: errText(e) };
      log(`${be}: unavailable (${errText(e)})`);
    }
  }
  const stopped = new Set(); // 'backend|kind' (or 'backend|stream') past its limit
  try {
    for (const nnz of steps125(params.nnzMin, params.nnzMax)) {
      if (late()) { log('deadline reached'); break; }
      for (const kind of params.kinds) {
        const rows = Math.max(1, Math.round(nnz / params.perRow));
        let csr;
        try {
          csr = kind === 'uniform' ? Csr.randomUniform(rows, rows, Math.min(params.perRow, rows), params.seed) : Csr.randomSkewed(rows, nnz, params.seed);
        } catch (e) {
          for (const be of gpus.keys()) result.records.push({ backend: be, kind, nnz, rows, status: 'error', reason: `making the matrix: ${errText(e)}` });
          continue;
        }
        const base = { kind, nnz: csr.nnz, rows, maxRow: csr.maxRow };
        try {
          for (const [be, gpu] of gpus) {
            const key = `${be}|${kind}`;
            if (stopped.has(key)) continue;
            const rec = { backend: be, ...base };
            try {
              Object.assign(rec, await measure((r) => gpu.benchSpmvAsync(csr, r), params, `${be} SpMV`), { status: 'ok' });
              rec.GBs = spmvBytes(rec.rows, rec.nnz) / timeOf(rec) / 1e6;
              rec.wallGBs = spmvBytes(rec.rows, rec.nnz) / rec.wallMs / 1e6;
              if (kind === 'uniform' && !stopped.has(`${be}|stream`)) {
                try {
                  const st = await measure((r) => gpu.benchStreamAsync(rec.nnz, r), params, `${be} stream`);
                  rec.streamMs = st.wallMs;
                  rec.streamGpuMs = st.gpuMs;
                  rec.streamGBs = (12 * rec.nnz) / timeOf(st) / 1e6;
                } catch (e) { stopped.add(`${be}|stream`); rec.streamError = errText(e); }
              }
            } catch (e) {
              Object.assign(rec, { status: 'error', reason: errText(e) });
              stopped.add(key);
            }
            result.records.push(rec);
            if (be === 'webgpu' && kind === 'skewed' && params.longRow > 0 && !stopped.has(`${be}|skewed-long`)) {
              const lr = { backend: be, ...base, kind: 'skewed-long', longRow: params.longRow };
              try {
                Object.assign(lr, await measure((r) => gpu.benchSpmvAsync(csr, r, params.longRow), params, `${be} SpMV, long rows`), { status: 'ok' });
                lr.GBs = spmvBytes(lr.rows, lr.nnz) / timeOf(lr) / 1e6;
                lr.wallGBs = spmvBytes(lr.rows, lr.nnz) / lr.wallMs / 1e6;
                log(`${be.padEnd(6)} skewed, rows past ${params.longRow} by a workgroup each: GPU ${lr.gpuMs?.toPrecision(3) ?? '–'} ms, wall ${wallLog(lr.wallMs, lr.repeats)} → ${lr.GBs.toPrecision(3)} GB/s`);
              } catch (e) {
                Object.assign(lr, { status: 'error', reason: errText(e) });
                stopped.add(`${be}|skewed-long`);
              }
              result.records.push(lr);
            }
            log(rec.status === 'ok'
              ? `${be.padEnd(6)} ${kind.padEnd(7)} nnz=${rec.nnz} rows=${rows} longest=${rec.maxRow}: wall ${wallLog(rec.wallMs, rec.repeats)}, GPU ${rec.gpuMs?.toPrecision(3) ?? '–'} ms → ${rec.GBs.toPrecision(3)} GB/s${rec.streamGBs ? `; ceiling ${rec.streamGBs.toPrecision(3)} GB/s` : ''}`
              : `${be.padEnd(6)} ${kind.padEnd(7)} nnz=${nnz}: ${rec.reason}`);
            await flush();
          }
        } finally {
          csr.free();
        }
      }
    }
  } catch (e) {
    result.error = errText(e);
    log(`FATAL: ${e?.stack || e}`);
  }
  result.totalS = (performance.now() - started) / 1000;
  result.derived = derive(result);
  log(`done in ${result.totalS.toFixed(1)} s`);
  return result;
}

/** The page's title and description, which www/bench/shell.js puts in before start(). */
export const about = {
  title: 'gpgpu-matrix benchmark: sparse matrix × vector',
  heading: 'gpgpu-matrix benchmark: sparse matrix × vector',
  html: `
<p>y = A·x with A in CSR resident on the GPU (<code>gpu.benchSpmvAsync</code>), one invocation or fragment
per row, on WebGL2 and WebGPU: GB/s against nnz, beside a streaming pass over the same bytes on the same device
(<code>gpu.benchStreamAsync</code>), for uniform and skewed (Zipf) rows. Runs with <code>?run=1</code>; parameters
(<code>profile=swiftshader|gpu</code>, <code>backends=</code>, <code>kinds=uniform,skewed</code>, <code>nnzMin=</code>,
<code>nnzMax=</code>, <code>perRow=</code>, <code>minSample=</code>, <code>samples=</code>, <code>deadline=</code>,
<code>post=1</code>): <code>www/bench/sparse-params.js</code>. From a shell: <code>make bench-sparse</code>.</p>
`,
};

/** Runs the page (www/bench/shell.js calls it once the page shows `about`). */
export function start() {
  runPage({
    readParams: readSparseParams,
    paramsFile: 'www/bench/sparse-params.js',
    run: runSparseBench,
    empty: (params) => ({ schema: 'sparse-1', date: new Date().toISOString(), params, records: [] }),
    markdown: sparseMarkdown,
    plot: sparsePlot,
  });
}
