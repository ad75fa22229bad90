// The CPU backend's Web Workers: one per thread, each running its own instance of
// this library's WebAssembly module (sent compiled, so it is not fetched again) and
// computing a block of C's rows with the exported kernel, as OpenMP's parallel-for
// gives each thread a block of the loop. Data goes by message (A's rows transferred
// in, B shared or copied (shareInput), C's rows transferred back): works on pages
// that are not cross-origin isolated too.

let live = 0;

// The worker's own script (a Blob URL: the page needs no extra file, and the tests'
// runner serves none). The module's imports are the JS glue's; the kernel uses none
// of them, so each is a function that throws if it is ever called.
const WORKER_SOURCE = `
let wasm = null;
// The instance on its way: a job that arrives first waits for it. Chromium finished
// instantiating before it handled the next message; Firefox and WebKit handle the job
// first, which found no instance ("wasm is null").
let ready = null;
let bufs = { a: [0, 0], b: [0, 0], c: [0, 0] };
function room(name, floats) {
  const [ptr, cap] = bufs[name];
  if (cap >= floats) return ptr;
  if (cap > 0) wasm.gpgpu_cpu_free(ptr, cap);
  const p = wasm.gpgpu_cpu_alloc(floats) >>> 0;
  bufs[name] = [p, floats];
  return p;
}
function view(ptr, floats) { return new Float32Array(wasm.memory.buffer, ptr, floats); }
onmessage = async (event) => {
  const job = event.data;
  try {
    if (job.module) {
      const imports = {};
      for (const imp of WebAssembly.Module.imports(job.module)) {
        imports[imp.module] ??= {};
        imports[imp.module][imp.name] = () => { throw new Error(imp.name + ' is not available in a CPU worker'); };
      }
      ready = WebAssembly.instantiate(job.module, imports).then((instance) => { wasm = instance.exports; });
      await ready;
      postMessage({ ready: true });
      return;
    }
    await ready;
    const { id, semiring, rows, inner, cols, a, b } = job;
    const pa = room('a', Math.max(1, rows * inner));
    const pb = room('b', Math.max(1, inner * cols));
    const pc = room('c', Math.max(1, rows * cols));
    view(pa, a.length).set(a);
    view(pb, b.length).set(b);
    const t0 = performance.now();
    wasm.gpgpu_cpu_rows(semiring, rows, inner, cols, pa, a.length, pb, b.length, pc);
    const ms = performance.now() - t0;
    const c = view(pc, rows * cols).slice();
    postMessage({ id, c, ms }, [c.buffer]);
  } catch (e) {
    // A trap (a panic in the kernel) leaves the instance unusable: say so and stop.
    postMessage({ id: job.id, error: String(e && e.message || e) });
  }
};
`;

let workerUrl = null;

function spawn() {
  workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
  const w = new Worker(workerUrl);
  live += 1;
  return w;
}

export class CpuPool {
  constructor(module, threads) {
    this.module = module;
    this.threads = threads;
    this.workers = [];
    this.pending = new Map();
    this.nextId = 1;
    this.failure = null;
  }

  // Starts the workers if none run (at first use, and after a failure ended them).
  start() {
    if (this.workers.length) return;
    for (let i = 0; i < this.threads; i++) {
      const w = spawn();
      w.onmessage = (e) => this.answer(e.data);
      // A worker that cannot start gives no message: say the likely cause and the way out.
      w.onerror = (e) => { e.preventDefault(); this.fail('worker error: ' + (e.message || "the worker script failed to load (a Content-Security-Policy whose worker-src does not allow blob: URLs stops it; threads: 0 runs the products on the calling thread instead)")); };
      w.onmessageerror = () => this.fail('a message the worker could not read');
      w.postMessage({ module: this.module });
      this.workers.push(w);
    }
  }

  answer(msg) {
    if (msg.ready) return;
    const job = this.pending.get(msg.id);
    if (!job) return;
    this.pending.delete(msg.id);
    if (msg.error !== undefined) {
      job.reject(new Error(msg.error));
      this.fail(msg.error);
    } else {
      job.resolve({ c: msg.c, ms: msg.ms });
    }
  }

  // Ends every worker and rejects every job in flight: nothing is left running or
  // waiting after a failure or a free.
  fail(reason, freed = false) {
    this.stop();
    for (const job of this.pending.values()) job.reject(Object.assign(new Error(reason), { freed }));
    this.pending.clear();
  }

  stop() {
    for (const w of this.workers) { w.terminate(); live -= 1; }
    this.workers = [];
  }

  // C rows [start, end) of a product on worker `index`: resolves to { c, ms }.
  run(index, semiring, rows, inner, cols, a, b) {
    // A Worker that cannot be made (none in the global scope, as in Node; a policy that
    // refuses it) is this job's rejection, WORKER_ERROR: thrown, it went up through the
    // wasm into a task of its own, uncaught, and the call's promise never settled.
    try {
      this.start();
    } catch (e) {
      this.stop();
      return Promise.reject(new Error(`worker error: ${e && e.message || e} (threads: 0 runs the products on the calling thread instead)`));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.workers[index % this.workers.length].postMessage(
        { id, semiring, rows, inner, cols, a, b }, [a.buffer]);
    });
  }

  liveHere() { return this.workers.length; }

  free() { this.fail('the Gpgpu was freed', true); }
}

export function liveWorkers() { return live; }

// B goes whole to every worker. On a cross-origin-isolated page it is copied once into
// a SharedArrayBuffer that every message shares (the main thread no longer clones B
// once per worker, serially; each worker copies it into its own memory, in parallel);
// elsewhere one copy that each message clones, as before.
export function shareInput(view) {
  if (globalThis.crossOriginIsolated && typeof SharedArrayBuffer === 'function') {
    const shared = new Float32Array(new SharedArrayBuffer(view.byteLength));
    shared.set(view);
    return shared;
  }
  return view.slice();
}

export function nowMs() { return performance.now(); }

export function defaultThreads() {
  const n = globalThis.navigator && globalThis.navigator.hardwareConcurrency;
  return Number.isInteger(n) && n > 0 ? n : 4;
}

