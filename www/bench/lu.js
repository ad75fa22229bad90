// The LU bench (www/bench/index.html?suite=lu; issue 16, point 5): on WebGL2 and on WebGPU, the LU factorization
// `await gpu.luAsync(n, A)` against n (GFLOP/s), with the float64 residual of a solve of
// the same matrix and ‖PA − LU‖/‖A‖. Parameters: www/bench/lu-params.js. Progress and
// the result as www/bench/page.js does it (the gpu-browser protocol with ?post=1).
// Driven by scripts/bench-lu.mjs.
import init, { Gpgpu } from '../pkg/gpgpu_matrix.js';
import { uniformMatrix } from '../reference.js';
import { deriveLabel, median, wallLog } from './systems-report.js';
import { errText, flush, guard, log, probeRenderer, runPage, setBench } from './page.js';
import { readLuParams } from './lu-params.js';
import { luFlops, luMarkdown, luPlot } from './lu-report.js';

/** A warm-up call, then `repeats` timed ones (one only when the warm-up is over the cap). */
async function measure(fn, params, what) {
  const watch = params.watchdogS * 1000;
  let t0 = performance.now();
  let last = await guard(fn(), watch, what);
  const m = { warmupMs: performance.now() - t0, timesMs: [] };
  if (m.warmupMs > params.capS * 1000) {
    m.status = 'single';
    m.timesMs.push(m.warmupMs);
  } else {
    m.status = 'ok';
    for (let r = 0; r < params.repeats; r++) {
      await flush();
      t0 = performance.now();
      last = await guard(fn(), watch, what);
      m.timesMs.push(performance.now() - t0);
    }
  }
  m.medianMs = median(m.timesMs);
  return { m, last };
}

/** ‖A·x − b‖/‖b‖ and ‖P·A − L·U‖/‖A‖ in float64. */
function residual(n, a, x, b) {
  let d = 0, s = 0;
  for (let i = 0; i < n; i++) {
    let ax = 0;
    for (let j = 0; j < n; j++) ax += a[i * n + j] * x[j];
    d += (ax - b[i]) ** 2;
    s += b[i] ** 2;
  }
  return Math.sqrt(d / s);
}

function factorError(n, a, lu, pivots) {
  const pa = Float64Array.from(a);
  for (let k = 0; k < n; k++) {
    const p = pivots[k];
    if (p !== k) for (let j = 0; j < n; j++) { const t = pa[k * n + j]; pa[k * n + j] = pa[p * n + j]; pa[p * n + j] = t; }
  }
  let d = 0, s = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let v = i <= j ? lu[i * n + j] : 0;
      for (let m = 0; m < Math.min(i, j + 1); m++) v += lu[i * n + m] * lu[m * n + j];
      d += (pa[i * n + j] - v) ** 2;
      s += pa[i * n + j] ** 2;
    }
  }
  return Math.sqrt(d / s);
}

export async function runLuBench(params) {
  setBench('bench-lu', params.post);
  const started = performance.now();
  const renderer = probeRenderer();
  log(`renderer: ${renderer}`);
  const result = {
    schema: 'lu-1', date: new Date().toISOString(), label: params.label || `lu-${deriveLabel(renderer)}`,
    env: { renderer, userAgent: navigator.userAgent, hardwareConcurrency: navigator.hardwareConcurrency, browserFlags: params.browserFlags },
    params: { ...params, problems: undefined, autostart: undefined },
    records: [],
  };
  await init();
  for (const be of params.backends) {
    let gpu;
    try {
      gpu = await Gpgpu.create({ backend: be });
      const i = gpu.info();
      if (be === 'webgpu') result.env.webgpu = { vendor: i.vendor, architecture: i.architecture, description: i.description, fallback: i.fallbackAdapter };
      else result.env.webgl = { renderer: i.renderer, maxTextureSize: i.maxTextureSize };
      log(`${be}: ready`);
    } catch (e) {
      result.env[be] = { reason: errText(e) };
      log(`${be}: unavailable (${errText(e)})`);
      continue;
    }
    let stop = null;
    for (const n of params.sizes) {
      const rec = { backend: be, n };
      if (stop) { result.records.push({ ...rec, status: 'skipped', reason: stop }); continue; }
      if ((performance.now() - started) / 1000 > params.deadlineS) { stop = 'the run\'s deadline'; result.records.push({ ...rec, status: 'skipped', reason: stop }); continue; }
      const a = uniformMatrix(params.seed + n, n * n);
      const b = uniformMatrix(params.seed + n + 7, n);
      try {
        const { m, last } = await measure(() => gpu.luAsync(n, a), params, `${be} luAsync n=${n}`);
        rec.lu = m;
        rec.status = m.status;
        rec.gflops = luFlops(n) / (m.medianMs * 1e6);
        rec.passes = last.passes;
        rec.singular = last.singular;
        if (n <= params.verifyMaxN) rec.factorError = factorError(n, a, last.lu, last.pivots);
        const t0 = performance.now();
        const s = await guard(gpu.solveAsync(n, a, b, 1), params.watchdogS * 1000, `${be} solveAsync n=${n}`);
        rec.solveMs = performance.now() - t0;
        rec.residual = s.residual;
        if (s.x) rec.residualJs = residual(n, a, s.x, b);
        if (m.status === 'single') stop = `n=${n} took ${wallLog(m.medianMs, m.batch)}, over the cap of ${params.capS} s`;
        log(`${be} n=${n}: ${wallLog(m.medianMs, m.batch)}, ${rec.gflops.toPrecision(3)} GFLOP/s, ${rec.passes} passes, residual ${rec.residual?.toExponential(2)}, factor error ${rec.factorError?.toExponential(2) ?? '–'}`);
      } catch (e) {
        rec.status = 'error';
        rec.reason = errText(e);
        if (e?.hung) stop = rec.reason;
        log(`${be} n=${n}: ${rec.reason}`);
      }
      result.records.push(rec);
      await flush();
    }
  }
  result.totalS = (performance.now() - started) / 1000;
  return result;
}

/** The page's title and description, which www/bench/shell.js puts in before start(). */
export const about = {
  title: 'gpgpu-matrix benchmark: LU factorization',
  heading: 'gpgpu-matrix benchmark: LU factorization',
  html: `
<p>Gaussian elimination with partial pivoting (issue 16) on WebGL2 and WebGPU:
<code>gpu.luAsync(n, A)</code> against n in GFLOP/s (2n³/3 flops), with the float64 residual
‖Ax − b‖/‖b‖ of <code>gpu.solveAsync(n, A, b)</code> and ‖PA − LU‖/‖A‖. Runs with <code>?run=1</code>;
parameters (<code>profile=swiftshader|gpu</code>, <code>backends=</code>, <code>sizes=</code>,
<code>repeats=</code>, <code>cap=</code>, <code>deadline=</code>, <code>verifyMaxN=</code>,
<code>seed=</code>, <code>post=1</code>): <code>www/bench/lu-params.js</code>.
From a shell: <code>make bench-lu</code>.</p>
`,
};

/** Runs the page (www/bench/shell.js calls it once the page shows `about`). */
export function start() {
  runPage({
    readParams: readLuParams,
    paramsFile: 'www/bench/lu-params.js',
    run: runLuBench,
    empty: (params) => ({ schema: 'lu-1', date: new Date().toISOString(), params, records: [] }),
    markdown: luMarkdown,
    plot: luPlot,
  });
}
