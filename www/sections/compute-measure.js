// Timing one kernel at one n on the visitor's device, honestly on both backends:
// one warm-up product (compiling the kernel, allocating at this size), one product
// timed alone to choose a batch size, then a batch of chained squarings issued back
// to back and closed by one `await run.whenDone()`: the time per product is the
// batch's wall time divided by its size. The GPU's own times per pass (WebGPU
// timestamp queries, WebGL EXT_disjoint_timer_query_webgl2) come from
// run.gpuTimes(), where the device has them. The result is checked exactly.
//
// The input is a random signed permutation matrix: its powers stay signed
// permutations (entries 0 and ±1), so no pass overflows or underflows however
// long the chain, every float32 result is exact, and the answer is known. Every
// kernel still does all n³ multiply-adds: none of them skips zeros.

import { mulberry32 } from '../reference.js';

/** The course report's K40 times (µs) of the global- and shared-memory CUDA kernels (BRIEF.md §5). */
export const K40 = {
  32: [15, 5], 64: [31, 8], 128: [107, 26], 320: [871, 196],
  1024: [62909, 13459], 3072: [1329000, 609000], 5120: [5152880, 1833200],
};

/** The kernels measured: WebGPU's three, then WebGL's fastest and its simplest. */
export const KERNELS = [
  { name: 'global', backend: 'webgpu', what: 'one invocation per element, global memory' },
  { name: 'tiled16', backend: 'webgpu', what: '16×16 tiles in workgroup (shared) memory' },
  { name: 'register', backend: 'webgpu', what: 'a block of outputs per invocation, in registers' },
  { name: 'blocked8', backend: 'webgl', what: '8×4 outputs per fragment, 8 render targets' },
  { name: 'naive', backend: 'webgl', what: 'one fragment per element' },
];

/** A batch aims at this much wall time… */
export const TARGET_MS = 250;
/** …with at most this many products. */
export const MAX_BATCH = 8;

const sleep = (t) => new Promise((r) => setTimeout(r, t));

/** A seeded random signed permutation: row i has its one nonzero, sign[i], at column col[i]. */
export function signedPermutation(n, seed) {
  const rand = mulberry32(seed);
  const col = Int32Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [col[i], col[j]] = [col[j], col[i]];
  }
  const sign = Int8Array.from({ length: n }, () => (rand() < 0.5 ? -1 : 1));
  const matrix = new Float32Array(n * n);
  for (let i = 0; i < n; i++) matrix[i * n + col[i]] = sign[i];
  return { col, sign, matrix };
}

/** The signed permutation squared `times` times (exact, in JavaScript). */
export function squaredTimes({ col, sign }, times) {
  let c = col, s = sign;
  for (let t = 0; t < times; t++) {
    const c2 = new Int32Array(c.length), s2 = new Int8Array(c.length);
    for (let i = 0; i < c.length; i++) { c2[i] = c[c[i]]; s2[i] = s[i] * s[c[i]]; }
    c = c2; s = s2;
  }
  return { col: c, sign: s };
}

/** Entries of `data` (n×n) that differ from the signed permutation `p`. */
export function mismatches(data, p, n) {
  let bad = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const want = j === p.col[i] ? p.sign[i] : 0;
      if (data[i * n + j] !== want) bad++;
    }
  }
  return bad;
}

const median = (xs) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Measures `kernel` on `gpu` at `n` with the permutation `perm`. Returns
 * { ms (wall time per product), count (products in the batch), gpuMs (median GPU
 * time per pass, or null), probeMs, gflops, wrong (entries that differ from the
 * exact answer) }.
 */
export async function measure(gpu, kernel, n, perm) {
  const run = gpu.startSquareRepeatedly(n, perm.matrix, 2 + MAX_BATCH, { kernel });
  try {
    await run.whenDone(); // the upload
    run.step(true); // warm-up: the first pass at this size holds one-time work
    await run.whenDone();
    let t0 = performance.now();
    run.step(true);
    await run.whenDone();
    const probeMs = performance.now() - t0;
    const count = Math.max(1, Math.min(MAX_BATCH, Math.round(TARGET_MS / Math.max(probeMs, 1e-3))));
    t0 = performance.now();
    for (let i = 0; i < count; i++) run.step(true);
    await run.whenDone();
    const ms = (performance.now() - t0) / count;
    // GPU times arrive a little after their pass: wait for them (at most 2 s).
    let times = run.gpuTimes();
    for (let waited = 0; times.slice(2).some((t) => t === null) && waited < 2000; waited += 20) {
      await sleep(20);
      times = run.gpuTimes();
    }
    const gpuMs = median(times.slice(2, 2 + count).filter((t) => Number.isFinite(t)));
    const got = await run.readAsync('latest');
    const wrong = mismatches(got, squaredTimes(perm, 2 + count), n);
    return { ms, count, gpuMs, probeMs, gflops: (2 * n ** 3) / (ms * 1e6), wrong };
  } finally {
    run.free();
  }
}
