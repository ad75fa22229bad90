// The systems the benchmark page measures, each behind one small adapter:
//   { id, label, kind, ours, async, maxN, maxNReason,
//     setup()            once; throws → the system is recorded as unavailable
//     before(mode, n)    untimed, before a config's warm-up (backend switch, kernel build)
//     run(mode, n, a)    TIMED: upload + product(s) + readback; returns the result
//     after()            untimed, after a config (free what before() made)
//     env()              what to record about it }
// mode 'single' is A·A with readback; mode 'chain' is `passes` squarings, one readback.
// Every system starts from the same row-major Float32Array and ends with its numbers
// back on the CPU, so upload and readback are counted for all of them alike.
//
// Peers come from node_modules through classic <script> tags in bench.html (globals
// `tf` and `GPU`): TF.js 4.22 WebGL and WASM backends, gpu.js. No CDN.
import { square as refSquare, repeatedSquare as refRepeatedSquare } from './reference.js';

/** Resolves on the next macrotask: lets queued fetches/logs go out between runs. */
export const nextTick = () => new Promise((r) => setTimeout(r, 0));

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
  return { systems, env: { info, kernels: names, async: hasAsync, asyncChainCall: chainAsync } };
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
      tf.wasm.setWasmPaths(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url).href);
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
  const systems = [webgl(false)];
  if (!params.noAsync) systems.push(webgl(true));
  systems.push(wasm);
  return { systems, env };
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
        env.version = GPU.version || await fetch(new URL('../node_modules/gpu.js/package.json', import.meta.url))
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
