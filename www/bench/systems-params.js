// The benchmark's parameters, read from a URL query: used by the page (www/bench/systems.js)
// and, to refuse a bad command line before a browser starts, by scripts/bench.mjs.
// Plain data in, plain data out: no DOM, so node can import it.

import { queryReader } from './query.js';

export const DEFAULT_SIZES = [64, 128, 256, 512, 1024, 2048];

/** The peers' scripts, relative to www/: the page loads them when a run starts, and
 *  `scripts/bench.mjs --stage-gpu` copies them for the GPU machine (which has no npm). */
export const PEER_SCRIPTS = [
  '../node_modules/@tensorflow/tfjs-core/dist/tf-core.min.js',
  '../node_modules/@tensorflow/tfjs-backend-webgl/dist/tf-backend-webgl.min.js',
  '../node_modules/@tensorflow/tfjs-backend-webgpu/dist/tf-backend-webgpu.min.js',
  '../node_modules/@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.min.js',
  '../node_modules/gpu.js/dist/gpu-browser.min.js',
];
/** Files the page reads besides the scripts (versions of bundles that carry none). */
export const PEER_FILES = [
  '../node_modules/gpu.js/package.json',
  '../node_modules/@tensorflow/tfjs-backend-webgpu/package.json',
];

/**
 * Systems left out when neither `systems` nor `skip` is given, to keep a full SwiftShader
 * run of the default sizes under ~25 minutes: the async twins of the three slower WebGL
 * kernels (they measured within noise of their sync forms on 2026-11-23 and took ~10 of
 * that run's 25 minutes). blocked8's async twin stays, beside the WebGPU systems (all async).
 * `skip=` (empty) or `--all-systems` runs everything.
 */
export const DEFAULT_SKIP = ['gpgpu:naive:async', 'gpgpu:packed:async', 'gpgpu:blocked4:async'];
export const MIN_REPEATS = 5; // the median of at least five timed runs
const MAX_SIZE = 65536;

/**
 * The parameters of `search`, with `problems`: one line per value that does not parse
 * or is out of range (a run with problems must not start: it used to fall back to
 * the defaults silently, e.g. `sizes=64;128` ran the whole 20-minute default set).
 */
export function readParams(search) {
  const { q, problems, num } = queryReader(search);
  const list = (k) => (q.get(k) || '').split(',').map((s) => s.trim()).filter(Boolean);
  const sizes = list('sizes').map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1 || n > MAX_SIZE) problems.push(`sizes: "${s}" is not a whole number from 1 to ${MAX_SIZE} (sizes are separated by commas)`);
    return n;
  });
  const modes = list('modes');
  for (const m of modes) if (m !== 'single' && m !== 'chain') problems.push(`modes: "${m}" is neither single nor chain`);
  return {
    sizes: sizes.length ? sizes : DEFAULT_SIZES,
    modes: modes.length ? modes : ['single', 'chain'],
    repeats: num('repeats', MIN_REPEATS, { min: MIN_REPEATS, max: 1000, whole: true }),
    capS: num('cap', 20, { min: 0 }),                       // a run longer than this: no repeats
    minSampleMs: num('minSample', 25, { min: 0 }),          // runs shorter than this are timed in back-to-back batches
    maxBatch: num('maxBatch', 50, { min: 1, max: 10000, whole: true }),
    // The chain's compute-only numbers keep the GPU busy at least this long, untimed, just
    // before each timed sample, and time at least this much back-to-back work: a GPU idle
    // for a while (float64 references take seconds) runs its next short burst at low
    // clocks (H100: the 4-pass chain at n = 4096 measured 2.5x slower than sustained).
    heatMs: num('heat', 250, { min: 0, max: 10000 }),
    skipFactor: num('skipFactor', 3, { min: 0 }),           // predicted run > skipFactor × cap: not run
    deadlineS: num('deadline', Infinity, { min: 0 }),       // no new configuration starts after this many seconds
    passes: num('passes', 4, { min: 1, max: 64, whole: true }),
    seed: num('seed', 1, { min: 0, max: 2 ** 32 - 1, whole: true }),
    jsMax: num('jsMax', 1024, { min: 0 }),                  // JS float64 loop only up to this n
    fallbackMax: num('fallbackMax', 512, { min: 0 }),       // WebGPU global and tiled16 on a software adapter only up to this n
    fullRefMax: num('fullRef', 1024, { min: 0 }),           // full float64 reference up to this n, sampled rows above
    sampleRows: num('sampleRows', 64, { min: 1, whole: true }),
    systems: list('systems'),                               // keep systems whose id contains one of these
    // drop systems whose id contains one of these (DEFAULT_SKIP when neither is given)
    skip: q.has('skip') || q.has('systems') ? list('skip') : DEFAULT_SKIP,
    // the chain's extra WebGPU numbers (compute only, GPU timestamps); compute=0 leaves them out
    compute: q.get('compute') !== '0',
    noAsync: q.get('async') === '0',
    gpujsMode: q.get('gpujsMode') || 'webgl2',
    gpujsTactic: q.get('gpujsTactic') || 'precision',
    wasmThreads: q.has('wasmThreads') ? num('wasmThreads', undefined, { min: 0, max: 64, whole: true }) : undefined,
    post: q.get('post') === '1',
    label: q.get('label') || null,
    // informational: the browser flags the runner started Chromium with (recorded in the result)
    browserFlags: list('browserFlags'),
    autostart: q.has('post') || q.has('sizes') || q.has('run'),
    show: q.get('show'),
    problems,
  };
}
