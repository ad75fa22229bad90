// The benchmark (www/bench/index.html?suite=systems, the suite the page shows when none
// is named): this project's kernels (WebGL2: sync, and async where the API has
// it; WebGPU: async) side by side with TF.js WebGL, TF.js WebGPU, TF.js WASM, gpu.js and
// the JS float64 loop, for A·A with readback and for a chain of squarings with one
// readback (plus, for the WebGPU systems and WebGL blocked8, the chain's compute-only
// time by wall clock and by GPU timestamps: CHAIN_EXTRAS). See `about` at the end for the
// URL parameters. Progress lines go to the page, to console.log, to window.benchLog
// (scripts/bench.mjs polls it) and, with ?post=1, to POST /log; the result JSON is
// window.benchResult and, with ?post=1, POST /result (the gpu-browser server protocol).
import init, { Gpgpu } from '../pkg/gpgpu_matrix.js';
import { uniformMatrix, compare, mulberry32 } from '../reference.js';
import { BASELINE, WEBGPU_BASELINE, deriveLabel, fmtErr, fmtMs, fmtNum, gflops, markdownReport, median, wallLog } from './systems-report.js';
import { renderPlot } from './systems-plot.js';
import { mountFigureTools } from '../ui/figures.js';
import { timerResolutionMs } from '../ui/clock.js';
import { PEER_SCRIPTS, readParams } from './systems-params.js';
import {
  CHAIN_EXTRAS, gpgpuSystems, gpgpuWebgpuSystems, gpujsSystem, jsSystem, nextTick, tfjsSystems, toFlat,
} from './systems-adapters.js';

// --- logging -------------------------------------------------------------------------------

window.benchLog = [];
let postQueue = Promise.resolve();
let postEnabled = false;
const logEl = () => document.getElementById('log');
const statusEl = () => document.getElementById('status');

function log(line) {
  window.benchLog.push(line);
  console.log(`[bench] ${line}`);
  const el = logEl();
  if (el) { el.textContent += `${line}\n`; el.scrollTop = el.scrollHeight; }
  if (postEnabled) {
    postQueue = postQueue.then(() => fetch('/log', { method: 'POST', body: line }).catch(() => {}));
  }
}

function setStatus(text, state) {
  const el = statusEl();
  if (el) el.textContent = text;
  if (state) document.body.dataset.status = state;
}

// --- reference (float64) for the error column ------------------------------------------------

/**
 * The float64 A·A once per n: every row when n <= fullRefMax, else `sampleRows` rows
 * drawn with a seeded generator (a 2048² float64 product takes ~15 s of this CPU; 64
 * rows take n/64 of that). Computed on the main thread between timed runs, never during
 * them: a Web Worker would compete with SwiftShader for the same 2 cores.
 */
/** `want` distinct rows of n, sorted, from a generator seeded by the run's seed and n. */
function seededRows(n, want, params) {
  const next = mulberry32(params.seed * 7919 + n);
  const set = new Set();
  while (set.size < want) set.add(Math.floor(next() * n));
  return Int32Array.from([...set].sort((x, y) => x - y));
}

function buildReference(n, a, params) {
  const t0 = performance.now();
  const rows = n <= params.fullRefMax ? null : seededRows(n, Math.min(params.sampleRows, n), params);
  const R = rows ? rows.length : n;
  const A = Float64Array.from(a);
  const values = new Float64Array(R * n);
  for (let r = 0; r < R; r++) {
    const i = rows ? rows[r] : r;
    const out = r * n;
    for (let k = 0; k < n; k++) {
      const aik = A[i * n + k];
      const bk = k * n;
      for (let j = 0; j < n; j++) values[out + j] += aik * A[bk + j];
    }
  }
  const method = rows ? `${R} seeded random rows of ${n}` : 'all rows';
  return { n, rows, values, method, ms: performance.now() - t0 };
}

/**
 * Rows of M^(2^passes) in float64, for checking a chain: row i is e_i·M·M·…·M, 2^passes
 * vector–matrix products, so a few rows cost far less than the squarings themselves.
 * As many rows as about 2·10⁹ multiply-adds allow (at least 8, at most sampleRows).
 */
function buildChainReference(n, a, params) {
  const t0 = performance.now();
  const steps = 2 ** params.passes;
  const want = Math.min(n, params.sampleRows, Math.max(8, Math.floor(2e9 / (steps * n * n))));
  const rows = want === n ? null : seededRows(n, want, params);
  const A = Float64Array.from(a);
  const values = new Float64Array(want * n);
  let v = new Float64Array(n), w = new Float64Array(n);
  for (let r = 0; r < want; r++) {
    v.fill(0);
    v[rows ? rows[r] : r] = 1;
    for (let s = 0; s < steps; s++) {
      w.fill(0);
      for (let k = 0; k < n; k++) {
        const vk = v[k];
        if (vk === 0) continue;
        const bk = k * n;
        for (let j = 0; j < n; j++) w[j] += vk * A[bk + j];
      }
      [v, w] = [w, v];
    }
    values.set(v, r * n);
  }
  const what = `M^${steps}`;
  const method = rows ? `${want} seeded random rows of ${what}` : `all rows of ${what}`;
  return { n, rows, values, method, ms: performance.now() - t0 };
}

function errorAgainst(out, ref) {
  const flat = toFlat(out, ref.n);
  if (!flat || flat.length !== ref.n * ref.n) return { relFrobenius: NaN, maxAbs: NaN };
  let sub = flat;
  if (ref.rows) {
    sub = new Float64Array(ref.values.length);
    ref.rows.forEach((i, r) => sub.set(flat.subarray(i * ref.n, (i + 1) * ref.n), r * ref.n));
  }
  const c = compare(sub, ref.values);
  return { relFrobenius: c.relFrobenius, maxAbs: c.maxAbs, nonfinite: c.nonfiniteMismatch };
}

// --- one configuration ---------------------------------------------------------------------------

async function runConfig(sys, mode, n, a, refs, params, last) {
  const ref = refs[mode];
  const passes = mode === 'chain' ? params.passes : 1;
  const rec = { system: sys.id, mode, n, passes, status: 'ok', timesMs: [] };
  const capMs = params.capS * 1000;
  const key = `${sys.id}|${mode}`;
  if (n > sys.maxN) return { ...rec, status: 'skipped', reason: sys.maxNReason || `n > ${sys.maxN}` };
  const prev = last.get(key);
  if (prev) {
    const predicted = prev.ms * (n / prev.n) ** 3;
    if (predicted > params.skipFactor * capMs) {
      return { ...rec, status: 'skipped', reason: `too slow: predicted ≈${fmtMs(predicted)} a run` };
    }
  }
  let out;
  try {
    await sys.before?.(mode, n);
    let t0 = performance.now();
    out = await sys.run(mode, n, a);
    rec.warmupMs = performance.now() - t0;
    if (rec.warmupMs > capMs) {
      rec.status = 'single';
      rec.reason = `one run took ${fmtMs(rec.warmupMs)} > cap ${params.capS} s: no repeats`;
      rec.timesMs.push(rec.warmupMs);
    } else {
      // Short runs: each sample is the mean of `batch` back-to-back calls, so the
      // timer's resolution (100 µs on a page that is not cross-origin isolated) and
      // one-off hiccups matter less. The batch size comes from one calibration call.
      // The warm-up includes compiling shaders, so it cannot say whether a run is
      // short: up to three warm calls do (the fastest counts, one-off hiccups aside).
      let batch = 1;
      if (rec.warmupMs < Math.max(params.minSampleMs, 1000)) {
        let t = Infinity;
        for (let c = 0; c < 3; c++) {
          t0 = performance.now();
          out = await sys.run(mode, n, a);
          t = Math.min(t, performance.now() - t0);
          if (t >= params.minSampleMs) break;
        }
        if (t < params.minSampleMs) batch = Math.min(params.maxBatch, Math.max(1, Math.ceil(params.minSampleMs / Math.max(t, 0.05))));
        rec.calibrationMs = t;
      }
      rec.batch = batch;
      for (let r = 0; r < params.repeats; r++) {
        out = null;
        await nextTick();
        t0 = performance.now();
        for (let b = 0; b < batch; b++) out = await sys.run(mode, n, a);
        rec.timesMs.push((performance.now() - t0) / batch);
      }
    }
    rec.medianMs = median(rec.timesMs);
    rec.perPassMs = rec.medianMs / passes;
    rec.gflops = gflops(n, rec.perPassMs);
    last.set(key, { n, ms: rec.medianMs });
    if (ref) {
      Object.assign(rec, errorAgainst(out, ref));
      rec.errorMethod = ref.method;
    }
    out = null;
    if (mode === 'chain' && sys.chainExtras) {
      // Untimed by the loop above: the chain's passes alone (CHAIN_EXTRAS), each result checked.
      if (rec.status === 'single') {
        rec.compute = { wallStatus: 'skipped', gpuStatus: 'skipped', reason: 'the chain was over the cap' };
      } else {
        const ctx = {
          passes, repeats: params.repeats, capMs, maxBatch: params.maxBatch, heatMs: params.heatMs,
          // Timed windows of at least heatMs of back-to-back work (see systems-params.js).
          minSampleMs: Math.max(params.minSampleMs, params.heatMs),
          check: (o) => (ref ? errorAgainst(o, ref) : {}),
        };
        try {
          await nextTick();
          rec.compute = await sys.chainExtras(n, a, ctx);
        } catch (e) {
          rec.compute = { wallStatus: 'error', gpuStatus: 'error', reason: `${e?.name || 'Error'}${e?.code ? ` ${e.code}` : ''}: ${e?.message || e}` };
        }
      }
    }
  } catch (e) {
    if (e?.skip) return { ...rec, status: 'skipped', reason: e.message };
    rec.status = 'error';
    rec.reason = `${e?.name || 'Error'}${e?.code ? ` ${e.code}` : ''}: ${e?.message || e}`;
  } finally {
    out = null;
    try { await sys.after?.(); } catch { /* cleanup only */ }
  }
  return rec;
}

function describe(rec, sys) {
  const head = `n=${rec.n} ${rec.mode.padEnd(6)} ${sys.label.padEnd(26)}`;
  if (rec.status === 'skipped') return `${head} skipped (${rec.reason})`;
  if (rec.status === 'error') return `${head} ERROR ${rec.reason.split('\n')[0].slice(0, 300)}`;
  // Wall-clock figures rounded as the report rounds them: a sample is the mean of `batch`
  // calls, a chain's pass one of `passes`.
  const batch = rec.batch || 1;
  const t = rec.mode === 'chain' ? `${wallLog(rec.perPassMs, batch * (rec.passes || 1))}/pass` : wallLog(rec.medianMs, batch);
  const runs = rec.status === 'single' ? '1 run (over cap)'
    : `median of ${rec.timesMs.length}${rec.batch > 1 ? ` means of ${rec.batch}` : ''}, warm-up ${wallLog(rec.warmupMs)}`;
  const err = rec.relFrobenius !== undefined ? `, rel.err ${fmtErr(rec.relFrobenius)}` : '';
  return `${head} ${t.padStart(11)}  ${fmtNum(rec.gflops).padStart(6)} GFLOP/s  (${runs}${err})${describeCompute(rec)}`;
}

/** The chain's compute-only numbers for the progress line. */
function describeCompute(rec) {
  const c = rec.compute;
  if (!c) return '';
  const part = (ms, status, why, err, fmt) => (Number.isFinite(ms)
    ? `${fmt(ms)}/pass (${fmtNum(gflops(rec.n, ms))} GFLOP/s${status === 'single' ? ', 1 run' : ''}${Number.isFinite(err) ? `, rel.err ${fmtErr(err)}` : ''})`
    : `${status}${why ? ` (${String(why).slice(0, 80)})` : ''}`);
  return `; compute only: wall ${part(c.wallMsPerPass, c.wallStatus, c.wallReason || c.reason, c.wallRelFrobenius, (ms) => wallLog(ms, (c.wallBatch || 1) * (rec.passes || 1)))}, ` +
    `GPU timestamps ${part(c.gpuMsPerPass, c.gpuStatus, c.gpuReason || c.reason, c.gpuRelFrobenius, fmtMs)}`;
}

// --- environment ------------------------------------------------------------------------------------

function probeRenderer() {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return { renderer: 'no WebGL2' };
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const r = {
      renderer: ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER),
      vendor: ext ? gl.getParameter(ext.UNMASKED_VENDOR_WEBGL) : gl.getParameter(gl.VENDOR),
    };
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return r;
  } catch (e) {
    return { renderer: `probe failed: ${e.message}` };
  }
}

/** Greatest common divisor of BigInts. */
function gcd(x, y) {
  while (y) [x, y] = [y, x % y];
  return x;
}

/**
 * Whether this browser quantises WebGPU timestamp queries: a device of its own writes
 * timestamps around 8 small compute passes and looks at the raw values. Chromium's Dawn
 * masks them to multiples of 65 536 ns (the "100 µs" of Chrome's notes) unless WebGPU
 * runs at an unsafe or developer safety level (--enable-unsafe-webgpu or
 * --enable-webgpu-developer-features); unquantised values share no such factor.
 */
async function probeTimestamps() {
  const r = {};
  try {
    if (!navigator.gpu) return { reason: 'no navigator.gpu' };
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) return { reason: 'requestAdapter() gave null' };
    const i = adapter.info || {};
    // description is empty unless developer features are on (or the browser shows it anyway)
    r.adapter = { vendor: i.vendor, architecture: i.architecture, device: i.device, description: i.description };
    r.timestampQuery = adapter.features.has('timestamp-query');
    if (!r.timestampQuery) return r;
    const device = await adapter.requestDevice({ requiredFeatures: ['timestamp-query'] });
    try {
      const N = 8;
      const set = device.createQuerySet({ type: 'timestamp', count: 2 * N });
      const module = device.createShaderModule({ code: `@group(0) @binding(0) var<storage, read_write> b: array<f32>;
        @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
          var x = b[g.x]; for (var k = 0u; k < 256u; k++) { x = x * 1.0001 + 0.5; } b[g.x] = x; }` });
      const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
      const data = device.createBuffer({ size: 4 * 64 * 256, usage: GPUBufferUsage.STORAGE });
      const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: data } }] });
      const resolved = device.createBuffer({ size: 16 * N, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
      const read = device.createBuffer({ size: 16 * N, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const enc = device.createCommandEncoder();
      for (let k = 0; k < N; k++) {
        const pass = enc.beginComputePass({ timestampWrites: { querySet: set, beginningOfPassWriteIndex: 2 * k, endOfPassWriteIndex: 2 * k + 1 } });
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, group);
        pass.dispatchWorkgroups(256);
        pass.end();
      }
      enc.resolveQuerySet(set, 0, 2 * N, resolved, 0);
      enc.copyBufferToBuffer(resolved, 0, read, 0, 16 * N);
      device.queue.submit([enc.finish()]);
      await read.mapAsync(GPUMapMode.READ);
      const t = [...new BigUint64Array(read.getMappedRange().slice(0))];
      read.unmap();
      const q = t.reduce((x, y) => gcd(x, y), 0n);
      r.quantumNs = Number(q); // the largest common factor of the raw values
      if (q === 0n) r.reason = 'every timestamp read 0';
      else r.quantised = q >= 65536n || t.every((x) => x % 100000n === 0n);
      r.passNs = t.filter((_, k) => k % 2 === 0).map((b, k) => Number(t[2 * k + 1] - b));
    } finally {
      device.destroy();
    }
  } catch (e) {
    r.reason = `probe failed: ${e?.message || e}`;
  }
  return r;
}

// --- the run -------------------------------------------------------------------------------------------

export async function runBench(params) {
  postEnabled = params.post;
  const started = performance.now();
  const probe = probeRenderer();
  const env = {
    renderer: probe.renderer, vendor: probe.vendor, userAgent: navigator.userAgent,
    hardwareConcurrency: navigator.hardwareConcurrency, crossOriginIsolated: !!globalThis.crossOriginIsolated,
    deviceMemory: navigator.deviceMemory, page: location.href,
  };
  const result = {
    schema: 1, date: new Date().toISOString(), label: params.label || deriveLabel(probe.renderer),
    env, params: { ...params, autostart: undefined, show: undefined, problems: undefined }, systems: [], references: [], records: [],
  };
  window.benchResult = null;
  log(`gpgpu-matrix bench: sizes ${params.sizes.join(',')}, modes ${params.modes.join(',')}, ` +
    `repeats ${params.repeats}, cap ${params.capS} s, chain ${params.passes} passes`);
  log(`renderer: ${probe.renderer}`);
  if (params.browserFlags.length) env.browserFlags = params.browserFlags;
  const keep = (id) => (!params.systems.length || params.systems.some((s) => id.includes(s))) &&
    !params.skip.some((s) => id.includes(s));

  // Every system; one that fails to start is recorded and left out.
  const groups = [];
  try {
    await init();
    const g = new Gpgpu();
    const ours = gpgpuSystems(g, params);
    env.gpgpu = ours.env;
    groups.push(ours);
    log(`gpgpu-matrix kernels: ${ours.env.kernels.join(', ')}; async API: ${ours.env.async ? 'yes' : 'no'}`);
  } catch (e) {
    log(`gpgpu-matrix unavailable: ${e.message}`);
    result.systems.push({ id: 'gpgpu', label: 'gpgpu-matrix', ours: true, available: false, reason: e.message });
  }
  // The WebGPU engine: a second Gpgpu, made only when one of its systems is kept.
  if (['global', 'tiled16', 'register'].some((k) => keep(`gpgpu-webgpu:${k}`))) {
    let gw = null, why = null;
    try {
      if (typeof Gpgpu.create !== 'function') throw new Error('this build has no Gpgpu.create (no WebGPU backend)');
      gw = await Gpgpu.create({ backend: 'webgpu' });
    } catch (e) {
      why = `${e?.code ? `${e.code}: ` : ''}${e?.message || e}`;
      log(`gpgpu-matrix WebGPU unavailable: ${why}`);
    }
    const ours = gpgpuWebgpuSystems(gw, params, why);
    env.gpgpuWebgpu = ours.env;
    groups.push(ours);
    if (gw) {
      log(`gpgpu-matrix WebGPU: ${[ours.env.vendor, ours.env.architecture, ours.env.description].filter(Boolean).join(' ')}` +
        `${ours.env.fallbackAdapter ? ' (fallback adapter)' : ''}, timestamp-query ${ours.env.timestampQuery ? 'yes' : 'no'}; ` +
        `register kernel: ${ours.env.registerKernel}`);
    }
  }
  if (['gpgpu-webgpu:global', 'gpgpu-webgpu:tiled16', 'gpgpu-webgpu:register', 'tfjs-webgpu'].some(keep)) {
    env.webgpuTimestamps = await probeTimestamps();
    const t = env.webgpuTimestamps;
    log(`WebGPU timestamps: ${t.timestampQuery === undefined ? t.reason : !t.timestampQuery ? 'no timestamp-query'
      : t.quantised ? `QUANTISED (common factor ${t.quantumNs} ns)` : `not quantised (common factor ${t.quantumNs} ns)`}` +
      `${params.browserFlags.length ? `; browser flags: ${params.browserFlags.join(' ')}` : ''}`);
  }
  env.chainExtras = params.compute ? CHAIN_EXTRAS : undefined;
  const tfg = tfjsSystems(params);
  env.tfjs = tfg.env;
  const gj = gpujsSystem(params);
  env.gpujs = gj.env;
  groups.push(tfg, gj, jsSystem(params));
  const systems = [];
  for (const sys of groups.flatMap((gr) => gr.systems)) {
    if (!keep(sys.id)) continue;
    const entry = { id: sys.id, label: sys.label, kind: sys.kind, ours: sys.ours, async: sys.async, available: true };
    try {
      await sys.setup?.();
      systems.push(sys);
    } catch (e) {
      entry.available = false;
      entry.reason = e.message;
      log(`${sys.label}: unavailable (${e.message})`);
    }
    result.systems.push(entry);
  }
  // The ratios' denominators run first at each n (TF.js WebGL, then TF.js WebGPU), so a
  // run cut short by its deadline (the GPU machine's) still has them beside whatever it
  // measured of the rest.
  const rank = (id) => (id === BASELINE ? 0 : id === WEBGPU_BASELINE ? 1 : 2);
  systems.sort((x, y) => rank(x.id) - rank(y.id));
  if (!result.systems.length) {
    const ids = groups.flatMap((gr) => gr.systems.map((sys) => sys.id)).join(', ');
    throw new Error(`no system matches systems=${params.systems.join(',')} skip=${params.skip.join(',')}; the ids are: ${ids}`);
  }
  if (env.tfjs.webglFlags) {
    const f = env.tfjs.webglFlags;
    log(`TF.js ${env.tfjs.version}: WEBGL_VERSION=${f.WEBGL_VERSION} WEBGL_PACK=${f.WEBGL_PACK} ` +
      `WEBGL_RENDER_FLOAT32_ENABLED=${f.WEBGL_RENDER_FLOAT32_ENABLED} WEBGL_FORCE_F16_TEXTURES=${f.WEBGL_FORCE_F16_TEXTURES}`);
  }
  if (env.tfjs.wasm) log(`TF.js WASM: simd ${env.tfjs.wasm.simd}, threads ${env.tfjs.wasm.threads} (${env.tfjs.wasm.threadsCount})`);
  if (env.tfjs.webgpu) log(`TF.js WebGPU ${env.tfjs.webgpu.version}: timestamp-query ${env.tfjs.webgpu.timestampQuery ? 'yes' : 'no'}`);
  if (env.gpujs.mode) log(`gpu.js ${env.gpujs.version}: mode ${env.gpujs.mode}`);

  const last = new Map();
  for (const n of params.sizes) {
    const a = uniformMatrix(params.seed, n * n);
    const refs = {};
    for (const mode of params.modes) {
      const ref = mode === 'single' ? buildReference(n, a, params) : buildChainReference(n, a, params);
      refs[mode] = ref;
      result.references.push({ n, mode, method: ref.method, ms: ref.ms });
      log(`n=${n}: float64 reference for ${mode} (${ref.method}) in ${wallLog(ref.ms)}`);
    }
    for (const sys of systems) {
      for (const mode of params.modes) {
        // A bounded run (the GPU machine's) posts what it has rather than nothing.
        const rec = (performance.now() - started) / 1000 > params.deadlineS
          ? { system: sys.id, mode, n, status: 'skipped', timesMs: [], reason: `the run's time bound (${params.deadlineS} s) was reached` }
          : await runConfig(sys, mode, n, a, refs, params, last);
        result.records.push(rec);
        log(describe(rec, sys));
        await nextTick();
      }
    }
  }
  result.totalS = (performance.now() - started) / 1000;
  log(`done in ${result.totalS.toFixed(1)} s`);
  return result;
}

// --- the page ----------------------------------------------------------------------------------------

function showResult(result) {
  const table = document.getElementById('table');
  const plot = document.getElementById('plot');
  if (table) table.textContent = markdownReport(result);
  if (plot) plot.innerHTML = renderPlot(result);
  document.getElementById('results')?.removeAttribute('hidden');
}

async function finish(result) {
  // Every result says the clock its wall times were read by (the report states it).
  result.timerResolutionMs ??= timerResolutionMs();
  window.benchResult = result;
  showResult(result);
  if (postEnabled) {
    await postQueue;
    await fetch('/result', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(result) });
  }
}

/** www/, which PEER_SCRIPTS are relative to (this module is in www/bench/). */
const WWW = new URL('../', import.meta.url);

// The peers, served from node_modules by our own server (no CDN); classic scripts
// that set the globals tf and GPU, loaded in this order (the backends need tf-core).
/** Loads the peers' scripts; one that is missing is logged, and its systems fail to start (recorded). */
async function loadPeers() {
  for (const src of PEER_SCRIPTS) {
    const ok = await new Promise((resolve) => {
      const script = document.createElement('script');
      script.src = new URL(src, WWW).href;
      script.onload = () => resolve(true);
      script.onerror = () => resolve(false);
      document.head.append(script);
    });
    if (!ok) log(`${src} did not load: \`make bench\` installs the peers (npm ci)`);
  }
}

async function run(params) {
  if (params.problems.length) {
    for (const p of params.problems) log(`bad parameter: ${p}`);
    setStatus(`Not started: ${params.problems.join('; ')}.`, 'error');
    document.getElementById('form')?.removeAttribute('hidden');
    return;
  }
  setStatus('Running…', 'running');
  document.getElementById('form')?.setAttribute('hidden', '');
  let result;
  try {
    await loadPeers();
    result = await runBench(params);
    await finish(result);
    setStatus(`Done in ${result.totalS.toFixed(0)} s.`, 'done');
  } catch (e) {
    console.error(e);
    log(`FATAL: ${e?.stack || e}`);
    const partial = result || { schema: 1, date: new Date().toISOString(), params, records: [] };
    partial.error = String(e?.message || e);
    try { await finish(partial); } catch { /* nothing more to do */ }
    setStatus(`Error: ${e?.message || e}`, 'error');
  }
}

/** Draws a stored result: `name` is a label of bench/results/latest.json or a file stem. */
async function show(name) {
  const dir = '../../bench/results';
  const index = await fetch(`${dir}/latest.json`).then((r) => (r.ok ? r.json() : {}));
  const url = `${dir}/${encodeURIComponent(index[name] || name)}.json`;
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  const result = await res.json();
  showResult(result);
  setStatus(`Showing ${url} (${result.date}).`, 'done');
}

/** Runs the page (www/bench/shell.js calls it once the page shows `about`). */
export function start() {
  // Save PNG/SVG on the plot, Copy as CSV/Markdown on the tables.
  mountFigureTools(document.body);
  timerResolutionMs(); // measured before the bench gets busy
  const params = readParams(location.search);
  if (params.show) {
    show(params.show).catch((e) => setStatus(`Error: ${e.message}`, 'error'));
    return;
  }
  if (params.autostart) { run(params); return; }
  const form = document.getElementById('form');
  form.hidden = false;
  setStatus('Choose sizes and press Run (on a laptop GPU the default set takes a minute or two; on SwiftShader about 25).', 'idle');
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const fd = new FormData(form);
    const q = new URLSearchParams();
    for (const [k, v] of fd) if (String(v).trim()) q.set(k, String(v).trim());
    q.set('run', '1');
    history.replaceState(null, '', `?suite=systems&${q}`);
    run(readParams(`?${q}`));
  });
}

/** The page's title and description, which www/bench/shell.js puts in before start(). */
export const about = {
  title: 'gpgpu-matrix benchmark: WebGL2 and WebGPU kernels vs TF.js, gpu.js and JS',
  heading: 'gpgpu-matrix benchmark',
  html: `
<p>This project's WebGL2 kernels and WebGPU kernels (global, tiled16, register) side by side with
TF.js WebGL (<code>tf.matMul</code>, packed float32), TF.js WebGPU (read with <code>await data()</code>),
TF.js WASM (XNNPACK), gpu.js and a JavaScript float64 loop: A·A with upload and
readback, and a chain of squarings with one readback (time per pass). For the WebGPU systems and
WebGL blocked8 the chain is also timed without upload and readback, by wall clock (passes submitted
back to back, one <code>onSubmittedWorkDone</code>) and by GPU timestamp queries. GFLOP/s = 2n³/t, median of
timed runs after a warm-up; error = relative Frobenius norm against float64.</p>
<p>URL parameters: <code>sizes=64,128,…</code> <code>repeats=5</code> <code>cap=20</code> (seconds a run may take
before repeats are dropped) <code>modes=single,chain</code> <code>passes=4</code> <code>systems=…</code> /
<code>skip=…</code> (substrings of system ids) <code>async=0</code> <code>post=1</code> (POST progress to
<code>/log</code>, the JSON to <code>/result</code>) <code>show=LABEL</code> (draw the newest
<code>bench/results/*-LABEL.json</code>, as <code>bench/results/latest.json</code> names it, or
<code>show=2026-11-22-h100-first</code> for one file, without running). Without <code>systems</code> and
<code>skip</code> the async twins of naive, packed and blocked4 are left out (<code>skip=</code> keeps them);
<code>systems=webgpu</code> runs only the WebGPU systems; <code>compute=0</code> leaves out the chain's
compute-only numbers; <code>browserFlags=</code> (recorded only: the runner's Chromium flags). Finer: <code>seed=1</code>
<code>minSample=25</code> (ms; warm runs shorter than this are timed in back-to-back batches of at most
<code>maxBatch=50</code>) <code>skipFactor=3</code> (skip a size predicted over this many caps)
<code>deadline=</code> (seconds after which no configuration starts) <code>jsMax=1024</code> (largest n of
the JS float64 loop) <code>fallbackMax=512</code> (largest n of WebGPU global and tiled16 on a software adapter) <code>fullRef=1024</code> / <code>sampleRows=64</code> (largest n with a full float64
reference; above it, that many sampled rows) <code>gpujsMode=webgl2</code> <code>gpujsTactic=precision</code>
<code>wasmThreads=</code> <code>label=</code>. A value that does not parse stops the run before it starts.</p>
<form id="form" hidden>
  <label>sizes <input name="sizes" value="64,128,256,512,1024"></label>
  <label>repeats <input name="repeats" value="5" style="width:3rem"></label>
  <label>cap (s) <input name="cap" value="20" style="width:3rem"></label>
  <button type="submit">Run</button>
</form>
`,
};
