// The systems the benchmark page measures, each behind one small adapter:
//   { id, label, kind, ours, async, maxN, maxNReason,
//     setup()            once; throws → the system is recorded as unavailable
//     before(mode, n)    untimed, before a config's warm-up (backend switch, kernel build)
//     run(mode, n, a)    TIMED: upload + product(s) + readback; returns the result
//     after()            untimed, after a config (free what before() made)
//     env()              what to record about it }
//     chainExtras(n, a, ctx)  optional, untimed by the main loop: the chain's compute-only
//                        numbers (WebGPU systems and WebGL blocked8; see CHAIN_EXTRAS) }
// mode 'single' is A·A with readback; mode 'chain' is `passes` squarings, one readback.
// Every system starts from the same row-major Float32Array and ends with its numbers
// back on the CPU, so upload and readback are counted for all of them alike.
//
// Peers come from node_modules through classic <script> tags (systems.js loads them when a
// run starts; globals `tf` and `GPU`): TF.js 4.22 WebGL, WebGPU and WASM backends, gpu.js.
// No CDN. TF.js WebGPU and this project's WebGPU engine share navigator.gpu but each
// makes its own GPUDevice; TF.js WebGPU is read with `await data()` only (dataSync() on
// SwiftShader returns zeros and takes the page's WebGPU down).
import { square as refSquare, repeatedSquare as refRepeatedSquare } from '../reference.js';

/** www/, which the peers' node_modules/ paths are relative to (this module is in www/bench/). */
const WWW = new URL('../', import.meta.url);

/** Resolves on the next macrotask: lets queued fetches/logs go out between runs. */
export const nextTick = () => new Promise((r) => setTimeout(r, 0));

/** What the chain's extra numbers mean (recorded in the result and printed in the report). */
export const CHAIN_EXTRAS = {
  wall: 'compute only, wall clock: the input is uploaded and the GPU idle before the clock starts (untimed: ' +
    'start + whenDone); timed: the P passes submitted back to back (this project: a submit after passes 1, 3, 7 ' +
    'and 15 of the idle queue, then every 16; TF.js: every 15) ' +
    'and one onSubmittedWorkDone (WebGL: a fence) at the end; no readback. Per pass = time / P; runs shorter ' +
    'than minSample are timed B at a time (B independent chains, one wait at the end) and divided by B·P; ' +
    'median of up to `repeats` runs. Before each timed sample the GPU is kept busy, untimed, for about `heat` ms ' +
    '(one uploaded matrix squared back to back, when a pass is shorter than that; one untimed chain first tells ' +
    'how long a pass takes): an idle GPU runs its next short burst at low clocks. B is at most what 1 GiB of ' +
    'the chains\' buffers allows',
  gpu: 'GPU timestamps: separate runs with timestamp queries at the start and end of each compute pass ' +
    '(this project: Run.step(true) then Run.gpuTimes(); WebGL: EXT_disjoint_timer_query_webgl2; TF.js: tf.time() ' +
    'kernelMs, the sum over its programs); per pass = a run\'s summed pass times / P, median of up to `repeats` runs. ' +
    'Both measurements together take about one cap at most: fewer runs for long chains (1 run: marked), and no ' +
    'wall-clock one for a chain over half the cap; none for a chain whose main run was over the cap',
};

/** The most passes one heat() runs (at the 0.03 ms a dispatch costs the page on the H100, 250 ms). */
const HEAT_MAX_PASSES = 8192;
/**
 * The most bytes of buffers the wall clock's B chains may hold together (3 n² floats
 * each). At 2^28 (until 2026-11-24, night) n = 4096 got B = 1: a 15 ms sample, of which the
 * ~1.5 ms of submit and onSubmittedWorkDone latency was a tenth.
 */
const WALL_BATCH_BYTES = 2 ** 30;

/** Polls `f` (returns null while pending) from the event loop, up to `ms`. */
async function poll(f, ms = 10_000) {
  const t0 = performance.now();
  for (;;) {
    const v = f();
    if (v != null) return v;
    if (performance.now() - t0 > ms) return null;
    await new Promise((r) => setTimeout(r, 2));
  }
}

/**
 * The chain's compute-only numbers of a Run API (either backend of this project):
 * GPU timestamps of each pass, then the wall clock of the passes alone (see CHAIN_EXTRAS).
 * `ctx`: { passes, repeats, capMs, minSampleMs, maxBatch, check(out) → error record }.
 */
export async function runChainExtras(g, kernel, n, a, ctx) {
  const P = ctx.passes;
  const opts = { kernel };
  const out = { wallStatus: 'ok', wallTimesMs: [], gpuStatus: 'ok', gpuRunsMs: [] };
  const start = async () => {
    const run = g.startSquareRepeatedly(n, a, P, opts);
    await run.whenDone(); // the upload is done and the queue idle
    return run;
  };
  // Keeps the GPU busy for about ctx.heatMs, untimed: an uploaded matrix squared K
  // times back to back (an upload per chain would leave the GPU idle most of the time),
  // none when one chain takes longer. The timed work that follows at once then runs at
  // sustained clocks. (The values overflow to Inf: a GPU's speed does not depend on them.)
  // A Run holds at most 64 squarings (MAX_SQUARINGS), so K goes in runs of 64, each
  // started (its upload) while the one before is still on the GPU. (Until 2026-11-24 K
  // was capped at 64: at n ≤ 1024 that heated for 10 ms, not 250.)
  let chainMs = null;
  const heat = async () => {
    const perPass = chainMs === null ? null : chainMs / P;
    const K = perPass === null ? 0 : Math.min(HEAT_MAX_PASSES, Math.floor((ctx.heatMs || 0) / Math.max(perPass, 0.01)));
    if (K < 1) return;
    const runs = [];
    try {
      for (let left = K; left > 0; left -= 64) {
        const run = g.startSquareRepeatedly(n, a, Math.min(64, left), opts);
        runs.push(run);
        while (run.step(false)) { /* untimed */ }
        if (runs.length > 1) { const before = runs.shift(); await before.whenDone(); before.free(); }
      }
      await runs[runs.length - 1].whenDone();
    } finally {
      for (const run of runs) run.free();
    }
  };

  // 0. One untimed chain, so that heat() knows how long a pass takes before the
  // first timed run too (until 2026-11-24 the first timestamp run went unheated).
  let estimateMs = null;
  {
    const run = await start();
    try {
      const t0 = performance.now();
      while (run.step(false)) { /* untimed passes */ }
      await run.whenDone();
      estimateMs = performance.now() - t0;
    } finally { run.free(); }
  }
  chainMs = estimateMs;
  // 1. GPU timestamps (where the device grants them), one run of P passes at a time.
  if (g.info().timerQuery) {
    for (let r = 0; r < ctx.repeats; r++) {
      const run = await start();
      try {
        await heat();
        const t0 = performance.now();
        while (run.step(true)) { /* one timed pass a call */ }
        await run.whenDone();
        const wall = performance.now() - t0;
        estimateMs = estimateMs === null ? wall : Math.min(estimateMs, wall);
        chainMs = estimateMs;
        const times = await poll(() => { const t = run.gpuTimes(); return t.every((x) => x !== null) ? t : null; });
        if (!times) { out.gpuStatus = 'error'; out.gpuReason = 'gpuTimes() still pending after 10 s'; break; }
        if (times.some((x) => !Number.isFinite(x))) { out.gpuStatus = 'error'; out.gpuReason = `gpuTimes() ${times.join(', ')}`; break; }
        out.gpuRunsMs.push(times);
        if (r === 0) Object.assign(out, prefix('gpu', ctx.check(await run.resultAsync())));
      } finally {
        run.free();
      }
      if (r + 1 >= Math.max(1, extraRuns(estimateMs, ctx))) break;
    }
    if (out.gpuRunsMs.length) {
      out.gpuMsPerPass = median(out.gpuRunsMs.map((t) => t.reduce((s, x) => s + x, 0) / P));
      if (out.gpuStatus === 'ok' && out.gpuRunsMs.length === 1 && ctx.repeats > 1) out.gpuStatus = 'single';
    }
  } else {
    out.gpuStatus = 'unavailable';
    out.gpuReason = 'no GPU timer on this device (timestamp-query / EXT_disjoint_timer_query_webgl2)';
  }
  // 2. The wall clock of the passes alone: B chains started (untimed), then timed.
  chainMs = estimateMs;
  const repeats = extraRuns(estimateMs, ctx);
  if (repeats === 0) {
    out.wallStatus = 'skipped';
    out.wallReason = `one chain took ${Math.round(estimateMs)} ms, over half the cap`;
    return out;
  }
  if (repeats === 1 && ctx.repeats > 1) out.wallStatus = 'single';
  const bytes = 3 * 4 * n * n; // input and two ping-pong buffers a chain
  let batch = 1;
  if (estimateMs < ctx.minSampleMs) {
    batch = Math.min(ctx.maxBatch, Math.ceil(ctx.minSampleMs / Math.max(estimateMs, 0.05)), Math.max(1, Math.floor(WALL_BATCH_BYTES / bytes)));
  }
  out.wallBatch = batch;
  for (let r = 0; r < repeats; r++) {
    const runs = [];
    try {
      for (let b = 0; b < batch; b++) runs.push(g.startSquareRepeatedly(n, a, P, opts));
      await runs[runs.length - 1].whenDone();
      await nextTick();
      await heat();
      const t0 = performance.now();
      for (const run of runs) while (run.step(false)) { /* untimed passes */ }
      await runs[runs.length - 1].whenDone();
      out.wallTimesMs.push((performance.now() - t0) / (batch * P));
      if (r === repeats - 1) Object.assign(out, prefix('wall', ctx.check(await runs[0].resultAsync())));
    } finally {
      for (const run of runs) run.free();
    }
  }
  out.wallMsPerPass = median(out.wallTimesMs);
  return out;
}

/**
 * Runs each of the two secondary measurements may take when one chain takes `ms`: up to
 * `repeats`, as many as keep both together within one cap (0: over half the cap, the
 * wall-clock one is skipped and the timestamp one takes the single run it already has).
 */
function extraRuns(ms, ctx) {
  return Math.min(ctx.repeats, Math.floor(ctx.capMs / (2 * ms)));
}

function prefix(p, err) {
  return { [`${p}RelFrobenius`]: err.relFrobenius, [`${p}MaxAbs`]: err.maxAbs };
}

function median(xs) {
  const s = [...xs].sort((x, y) => x - y);
  const h = s.length >> 1;
  return s.length ? (s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2) : NaN;
}

/** gpu.js returns rows (Float32Array[]); everything else a flat array. */
export function toFlat(out, n) {
  if (!Array.isArray(out)) return out;
  const flat = new Float32Array(n * n);
  for (let i = 0; i < n; i++) flat.set(out[i], i * n);
  return flat;
}

// --- this project --------------------------------------------------------------

/** One system per kernel of info().kernels, plus its async twin when the API has one. */
export function gpgpuSystems(g, params) {
  const info = g.info();
  const names = (info.kernels || []).map((k) => (typeof k === 'string' ? k : k.name)).filter(Boolean);
  const maxN = info.maxDimension || Math.min(info.maxTextureSize || Infinity, ...(info.maxViewportDims || [Infinity]));
  const hasAsync = typeof g.squareAsync === 'function';
  const chainAsync = typeof g.squareRepeatedlyAsync === 'function' ? 'squareRepeatedlyAsync'
    : typeof g.powerAsync === 'function' ? 'powerAsync' : null;
  const P = params.passes;
  const systems = [];
  for (const kernel of names) {
    const opts = { kernel };
    const common = { kind: 'gpgpu', ours: true, kernel, maxN, maxNReason: `n > maxDimension ${maxN}` };
    systems.push({
      ...common, id: `gpgpu:${kernel}`, label: `gpgpu ${kernel}`, async: false,
      async run(mode, n, a) {
        return mode === 'single' ? g.square(n, a, opts) : g.squareRepeatedly(n, a, P, opts);
      },
    });
    if (hasAsync && !params.noAsync) {
      systems.push({
        ...common, id: `gpgpu:${kernel}:async`, label: `gpgpu ${kernel} async`, async: true,
        chainCall: chainAsync,
        async before(mode) {
          if (mode === 'chain' && !chainAsync) throw Object.assign(new Error('no async chain call'), { skip: true });
        },
        async run(mode, n, a) {
          if (mode === 'single') return g.squareAsync(n, a, opts);
          // M^(2^P) is P squarings: squareRepeatedlyAsync when present, else powerAsync.
          return chainAsync === 'squareRepeatedlyAsync' ? g.squareRepeatedlyAsync(n, a, P, opts) : g.powerAsync(n, a, 2 ** P, opts);
        },
      });
    }
  }
  // WebGL blocked8 also gives the chain's compute-only numbers, as the WebGPU kernels' contrast.
  for (const sys of systems) {
    if (sys.kernel === 'blocked8' && !sys.async && params.compute) {
      sys.chainExtras = (n, a, ctx) => runChainExtras(g, 'blocked8', n, a, ctx);
    }
  }
  return { systems, env: { info, kernels: names, async: hasAsync, asyncChainCall: chainAsync } };
}

/**
 * This project's WebGPU kernels (`await Gpgpu.create({ backend: 'webgpu' })`): the
 * Promise forms only (the blocking ones throw NEEDS_ASYNC on WebGPU). single =
 * squareAsync (upload, one pass, mapAsync readback); chain = squareRepeatedlyAsync
 * (upload, P passes, one readback): the same calls and definitions as the WebGL kernels'
 * async twins. `gw` is null when no WebGPU device could be made: the systems are listed
 * as unavailable with `reason`.
 */
export function gpgpuWebgpuSystems(gw, params, reason) {
  const P = params.passes;
  const info = gw ? gw.info() : null;
  const names = info ? (info.kernels || []).map((k) => (typeof k === 'string' ? k : k.name)) : ['global', 'tiled16', 'register'];
  const maxN = info?.maxDimension || Infinity;
  // On a software adapter (SwiftShader: 0.3–0.5 GFLOP/s) the two teaching kernels stop at
  // fallbackMax, which keeps a full default run under ~25 minutes; register runs on.
  const slow = (kernel) => info?.fallbackAdapter && (kernel === 'global' || kernel === 'tiled16') && params.fallbackMax < maxN;
  const systems = names.map((kernel) => {
    const opts = { kernel };
    const sys = {
      id: `gpgpu-webgpu:${kernel}`, label: `gpgpu WebGPU ${kernel}`, kind: 'gpgpu-webgpu', ours: true, async: true,
      backend: 'webgpu', kernel,
      maxN: slow(kernel) ? params.fallbackMax : maxN,
      maxNReason: slow(kernel) ? `n > fallbackMax ${params.fallbackMax} on a software adapter` : `n > maxDimension ${maxN}`,
      setup() { if (!gw) throw new Error(reason || 'no WebGPU device'); },
      run(mode, n, a) {
        return mode === 'single' ? gw.squareAsync(n, a, opts) : gw.squareRepeatedlyAsync(n, a, P, opts);
      },
      after() { gw?.trim(); }, // pooled buffers of this n go back now, not at the next size
    };
    if (params.compute) sys.chainExtras = (n, a, ctx) => runChainExtras(gw, kernel, n, a, ctx);
    return sys;
  });
  const env = info ? {
    kernels: names, vendor: info.vendor, architecture: info.architecture, device: info.device,
    description: info.description, fallbackAdapter: info.fallbackAdapter, timestampQuery: info.timerQuery,
    features: info.features, registerKernel: info.registerKernel, maxDimension: info.maxDimension,
    maxStorageBufferBindingSize: info.maxStorageBufferBindingSize, maxBufferSize: info.maxBufferSize,
    maxComputeWorkgroupStorageSize: info.maxComputeWorkgroupStorageSize,
    maxComputeInvocationsPerWorkgroup: info.maxComputeInvocationsPerWorkgroup,
  } : { unavailable: reason };
  return { systems, env };
}

// --- TF.js -----------------------------------------------------------------------

/** The TF.js flags worth recording for the WebGL backend (evaluated if registered). */
const TF_WEBGL_FLAGS = ['WEBGL_VERSION', 'WEBGL_PACK', 'WEBGL_RENDER_FLOAT32_CAPABLE', 'WEBGL_RENDER_FLOAT32_ENABLED',
  'WEBGL_DOWNLOAD_FLOAT_ENABLED', 'WEBGL_FORCE_F16_TEXTURES', 'WEBGL_USE_SHAPES_UNIFORMS', 'WEBGL_CPU_FORWARD',
  'WEBGL_PACK_BINARY_OPERATIONS', 'WEBGL_LAZILY_UNPACK', 'WEBGL_FLUSH_THRESHOLD', 'WEBGL_MAX_TEXTURE_SIZE',
  'WEBGL_MAX_TEXTURES_IN_SHADER', 'WEBGL_BUFFER_SUPPORTED', 'WEBGL_FENCE_API_ENABLED', 'WEBGL_SIZE_UPLOAD_UNIFORM',
  'WEBGL_EXP_CONV', 'CPU_HANDOFF_SIZE_THRESHOLD', 'WEBGL_DISJOINT_QUERY_TIMER_EXTENSION_VERSION'];
const TF_WASM_FLAGS = ['WASM_HAS_SIMD_SUPPORT', 'WASM_HAS_MULTITHREAD_SUPPORT'];

async function tfFlags(names) {
  const tf = globalThis.tf;
  const out = {};
  for (const k of names) {
    try { out[k] = await tf.env().getAsync(k); } catch { /* not registered in this version */ }
  }
  return out;
}

function tfProduct(tf, mode, n, a, passes) {
  // tensor2d from the Float32Array (upload happens at first GPU use), matMul(s), readback.
  const x = tf.tensor2d(a, [n, n]);
  let y = tf.matMul(x, x);
  if (mode === 'chain') {
    for (let p = 1; p < passes; p++) { const z = tf.matMul(y, y); y.dispose(); y = z; }
  }
  x.dispose();
  return y;
}

/** TF.js WebGL (sync readback with dataSync, and the async data() twin) and TF.js WASM. */
export function tfjsSystems(params) {
  const P = params.passes;
  const tf = globalThis.tf;
  const env = {};
  const missing = !tf ? 'TF.js scripts did not load (node_modules/@tensorflow/*/dist)' : null;
  const ensureBackend = async (name) => {
    if (tf.getBackend() !== name) {
      if (!(await tf.setBackend(name))) throw new Error(`tf.setBackend('${name}') failed`);
    }
    await tf.ready();
  };
  const webglSetup = async () => {
    if (missing) throw new Error(missing);
    if (!env.webglFlags) {
      await ensureBackend('webgl');
      env.version = tf.version_core || tf.version?.['tfjs-core'];
      env.versionWebgl = tf.version_webgl;
      env.webglFlags = await tfFlags(TF_WEBGL_FLAGS);
    }
  };
  const webgl = (async) => ({
    id: async ? 'tfjs-webgl:async' : 'tfjs-webgl', label: async ? 'TF.js WebGL data()' : 'TF.js WebGL',
    kind: 'tfjs-webgl', ours: false, async, maxN: Infinity,
    setup: webglSetup,
    before: () => ensureBackend('webgl'),
    async run(mode, n, a) {
      const y = tfProduct(tf, mode, n, a, P);
      try { return async ? await y.data() : y.dataSync(); } finally { y.dispose(); }
    },
    after() { env.webglFlagsAll = { ...tf.env().getFlags() }; },
  });
  const wasm = {
    id: 'tfjs-wasm', label: 'TF.js WASM', kind: 'tfjs-wasm', ours: false, async: false, maxN: Infinity,
    async setup() {
      if (missing) throw new Error(missing);
      if (!tf.wasm?.setWasmPaths) throw new Error('tf-backend-wasm did not load');
      // The .wasm files are served by our own server from node_modules: no CDN.
      tf.wasm.setWasmPaths(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', WWW).href);
      if (params.wasmThreads !== undefined && tf.wasm.setThreadsCount) tf.wasm.setThreadsCount(params.wasmThreads);
      await ensureBackend('wasm');
      const f = await tfFlags(TF_WASM_FLAGS);
      env.versionWasm = tf.version_wasm;
      env.wasm = { simd: f.WASM_HAS_SIMD_SUPPORT, threads: f.WASM_HAS_MULTITHREAD_SUPPORT,
        threadsCount: tf.wasm.getThreadsCount ? tf.wasm.getThreadsCount() : undefined };
    },
    before: () => ensureBackend('wasm'),
    async run(mode, n, a) {
      const y = tfProduct(tf, mode, n, a, P);
      try { return y.dataSync(); } finally { y.dispose(); }
    },
  };
  // TF.js WebGPU: read with `await data()` only (see the head of this file). Its own
  // GPUDevice, from its own requestAdapter (powerPreference high-performance).
  const webgpuBackend = () => tf.engine().findBackend('webgpu');
  const webgpu = {
    id: 'tfjs-webgpu', label: 'TF.js WebGPU data()', kind: 'tfjs-webgpu', ours: false, async: true, maxN: Infinity,
    async setup() {
      if (missing) throw new Error(missing);
      if (!tf.WebGPUBackend) throw new Error('tf-backend-webgpu did not load (node_modules/@tensorflow/tfjs-backend-webgpu/dist)');
      if (!navigator.gpu) throw new Error('no navigator.gpu in this browser');
      await ensureBackend('webgpu');
      const be = webgpuBackend();
      const info = be.adapterInfo || {};
      env.webgpu = {
        version: await fetch(new URL('../node_modules/@tensorflow/tfjs-backend-webgpu/package.json', WWW))
          .then((r) => r.json()).then((j) => j.version).catch(() => '?'),
        timestampQuery: !!be.supportTimestampQuery,
        adapter: { vendor: info.vendor, architecture: info.architecture },
        features: [...be.device.features],
        flags: await tfFlags(TF_WEBGPU_FLAGS),
      };
    },
    before: () => ensureBackend('webgpu'),
    async run(mode, n, a) {
      const y = tfProduct(tf, mode, n, a, P);
      try { return await y.data(); } finally { y.dispose(); }
    },
  };
  if (params.compute) webgpu.chainExtras = (n, a, ctx) => tfWebgpuChainExtras(tf, webgpuBackend(), n, a, ctx);
  const systems = [webgl(false)];
  if (!params.noAsync) systems.push(webgl(true));
  systems.push(webgpu, wasm);
  return { systems, env };
}

const TF_WEBGPU_FLAGS = ['WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE', 'WEBGPU_CPU_FORWARD', 'WEBGPU_MATMUL_PROGRAM_TYPE',
  'WEBGPU_CPU_HANDOFF_SIZE_THRESHOLD', 'WEBGPU_USE_LOW_POWER_GPU', 'WEBGPU_THRESHOLD_TO_INCREASE_WORKGROUPS_FOR_MATMUL'];

/** Ends TF.js WebGPU's open compute pass and submits what it has recorded (its read path does the same). */
function tfFlush(be) {
  be.ensureCommandEncoderReady();
  be.endComputePassEncoder();
  be.submitQueue();
}

/** A tensor of `a` whose upload has been recorded (flushed by the caller). */
function tfUploaded(tf, be, n, a) {
  const x = tf.tensor2d(a, [n, n]);
  be.uploadToGPU(x.dataId);
  return x;
}

/** `passes` squarings of x (x kept, intermediates disposed). */
function tfChain(tf, x, passes) {
  let y = tf.matMul(x, x);
  for (let p = 1; p < passes; p++) { const z = tf.matMul(y, y); y.dispose(); y = z; }
  return y;
}

/** TF.js WebGPU's counterpart of runChainExtras (see CHAIN_EXTRAS). */
async function tfWebgpuChainExtras(tf, be, n, a, ctx) {
  const P = ctx.passes;
  const out = { wallStatus: 'ok', wallTimesMs: [], gpuStatus: 'ok', gpuRunsMs: [] };
  const idle = () => be.device.queue.onSubmittedWorkDone();
  let estimateMs = null;
  // As runChainExtras's step 0: one untimed chain, so the first timed run is heated too.
  const estimate = async () => {
    const x = tfUploaded(tf, be, n, a);
    tfFlush(be);
    await idle();
    const t0 = performance.now();
    const y = tfChain(tf, x, P);
    tfFlush(be);
    await idle();
    estimateMs = performance.now() - t0;
    x.dispose();
    y.dispose();
  };
  // As runChainExtras's heat(): one upload squared K times back to back, untimed.
  const heat = async () => {
    const perPass = estimateMs === null ? null : estimateMs / P;
    const K = perPass === null ? 0 : Math.min(HEAT_MAX_PASSES, Math.floor((ctx.heatMs || 0) / Math.max(perPass, 0.01)));
    if (K < 1) return;
    const x = tfUploaded(tf, be, n, a);
    let y = null;
    try {
      y = tfChain(tf, x, K);
      tfFlush(be);
      await idle();
    } finally {
      x.dispose();
      y?.dispose();
    }
  };

  await estimate();
  if (be.supportTimestampQuery) {
    for (let r = 0; r < ctx.repeats; r++) {
      const x = tfUploaded(tf, be, n, a);
      tfFlush(be);
      await idle();
      let y = null;
      try {
        await heat();
        const t0 = performance.now();
        // tf.time: every program in its own compute pass between two timestamp writes.
        const info = await tf.time(() => { y = tfChain(tf, x, P); });
        await idle();
        const wall = performance.now() - t0;
        estimateMs = estimateMs === null ? wall : Math.min(estimateMs, wall);
        if (!Number.isFinite(info.kernelMs)) { out.gpuStatus = 'error'; out.gpuReason = `kernelMs ${JSON.stringify(info.kernelMs)}`; break; }
        out.gpuRunsMs.push([info.kernelMs]);
        if (r === 0) {
          out.gpuPrograms = info.getExtraProfileInfo?.();
          Object.assign(out, prefix('gpu', ctx.check(await y.data())));
        }
      } finally {
        x.dispose();
        y?.dispose();
      }
      if (r + 1 >= Math.max(1, extraRuns(estimateMs, ctx))) break;
    }
    if (out.gpuRunsMs.length) {
      out.gpuMsPerPass = median(out.gpuRunsMs.map((t) => t[0] / P));
      if (out.gpuStatus === 'ok' && out.gpuRunsMs.length === 1 && ctx.repeats > 1) out.gpuStatus = 'single';
    }
  } else {
    out.gpuStatus = 'unavailable';
    out.gpuReason = 'TF.js WebGPU has no timestamp-query on this device';
  }
  const repeats = extraRuns(estimateMs, ctx);
  if (repeats === 0) {
    out.wallStatus = 'skipped';
    out.wallReason = `one chain took ${Math.round(estimateMs)} ms, over half the cap`;
    return out;
  }
  if (repeats === 1 && ctx.repeats > 1) out.wallStatus = 'single';
  let batch = 1;
  if (estimateMs < ctx.minSampleMs) {
    batch = Math.min(ctx.maxBatch, Math.ceil(ctx.minSampleMs / Math.max(estimateMs, 0.05)), Math.max(1, Math.floor(WALL_BATCH_BYTES / (3 * 4 * n * n))));
  }
  out.wallBatch = batch;
  for (let r = 0; r < repeats; r++) {
    const xs = [], ys = [];
    try {
      for (let b = 0; b < batch; b++) xs.push(tfUploaded(tf, be, n, a));
      tfFlush(be);
      await idle();
      await nextTick();
      await heat();
      const t0 = performance.now();
      for (const x of xs) ys.push(tfChain(tf, x, P));
      tfFlush(be);
      await idle();
      out.wallTimesMs.push((performance.now() - t0) / (batch * P));
      if (r === repeats - 1) Object.assign(out, prefix('wall', ctx.check(await ys[0].data())));
    } finally {
      for (const t of [...xs, ...ys]) t.dispose();
    }
  }
  out.wallMsPerPass = median(out.wallTimesMs);
  return out;
}

// --- gpu.js ------------------------------------------------------------------------

// The matrix product in gpu.js's own style (its README's example), the loop bound a
// kernel constant so one program is compiled per n.
function gpujsMatMul(a, b) {
  let sum = 0;
  for (let k = 0; k < this.constants.n; k++) {
    sum += a[this.thread.y][k] * b[k][this.thread.x];
  }
  return sum;
}

export function gpujsSystem(params) {
  const P = params.passes;
  // Chromium's WebGPU interface is also a global `GPU`: only gpu.js's class makes kernels.
  const GPU = typeof globalThis.GPU?.prototype?.createKernel === 'function' ? globalThis.GPU : null;
  const env = {};
  let gpu = null, kernels = [];
  const settings = (n, extra) => ({
    output: [n, n], constants: { n }, loopMaxIterations: n, precision: 'single', tactic: params.gpujsTactic, ...extra,
  });
  let single = null, first = null, next = null;
  return {
    systems: [{
      id: 'gpujs', label: 'gpu.js', kind: 'gpujs', ours: false, async: false, maxN: Infinity,
      async setup() {
        if (!GPU) throw new Error('gpu.js script did not load (node_modules/gpu.js/dist)');
        gpu = new GPU({ mode: params.gpujsMode });
        // The browser bundle carries no version property: read the package's own file.
        env.version = GPU.version || await fetch(new URL('../node_modules/gpu.js/package.json', WWW))
          .then((r) => r.json()).then((j) => j.version).catch(() => '?');
        env.mode = gpu.mode;
        env.precision = 'single';
        env.tactic = params.gpujsTactic;
        env.webgl2 = GPU.isWebGL2Supported;
        env.singlePrecision = GPU.isSinglePrecisionSupported;
      },
      before(mode, n) {
        if (mode === 'single') {
          single = gpu.createKernel(gpujsMatMul, settings(n, {}));
          kernels.push(single);
        } else {
          // Pipeline: textures pass between kernels, one readback (toArray) at the end.
          first = gpu.createKernel(gpujsMatMul, settings(n, { pipeline: true, immutable: true }));
          next = gpu.createKernel(gpujsMatMul, settings(n, { pipeline: true, immutable: true }));
          kernels.push(first, next);
        }
      },
      run(mode, n, a) {
        const inp = GPU.input(a, [n, n]);
        if (mode === 'single') return single(inp, inp);
        let t = first(inp, inp);
        for (let p = 1; p < P; p++) { const u = next(t, t); t.delete(); t = u; }
        const out = t.toArray();
        t.delete();
        return out;
      },
      after() {
        for (const k of kernels) { try { k.destroy(); } catch { /* already gone */ } }
        kernels = [];
        env.kernelMode = gpu?.mode;
      },
    }],
    env,
  };
}

// --- the CPU: JavaScript float64 triple loop ------------------------------------------------

export function jsSystem(params) {
  const P = params.passes;
  return {
    systems: [{
      id: 'js-f64', label: 'JS float64 loop', kind: 'js-f64', ours: false, async: false,
      maxN: params.jsMax, maxNReason: `n > ${params.jsMax}`,
      run(mode, n, a) {
        return mode === 'single' ? refSquare(n, a) : refRepeatedSquare(n, a, P);
      },
    }],
    env: {},
  };
}
