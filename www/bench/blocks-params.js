// Parameters of the block-sparse bench (www/bench/index.html?suite=blocks), read from a
// URL query: used by the page and, to refuse a bad command line before a browser starts,
// by scripts/bench-blocks.mjs. Plain data in, plain data out: node imports it too.
//
// Two profiles set the defaults: `profile=swiftshader` (the CI machine's software
// adapters, 2 cores) and `profile=gpu` (a real GPU: the H100 through gpu-browser).

import { queryReader, whole, oneOf } from './query.js';

/** The CUDA report's table (BRIEF.md section 3): n, block side m, nonzero blocks k in
 *  each of A and B (random positions), the K40's seconds. */
export const CUDA_ROWS = [
  { n: 256, m: 4, k: 1000, k40S: 0.193 },
  { n: 2048, m: 8, k: 1e4, k40S: 0.546 },
  { n: 4096, m: 4, k: 1e5, k40S: 3.913 },
  { n: 16384, m: 8, k: 1e6, k40S: 44.841 },
  { n: 16384, m: 4, k: 1e7, k40S: 321.053 },
];

const PROFILES = {
  swiftshader: {
    n: 2048, blocks: [4, 8], pmin: 1e3, pmax: 1e6,
    crossN: 1024, crossBlocks: [4, 8, 16, 32],
    cudaMaxN: 4096, reportMaxN: 4096, capS: 20, deadlineS: Infinity, heatMs: 0,
  },
  gpu: {
    n: 16384, blocks: [8, 16], pmin: 1e3, pmax: 2e6,
    crossN: 4096, crossBlocks: [4, 8, 16, 32],
    cudaMaxN: 16384, reportMaxN: 16384, capS: 10, deadlineS: Infinity, heatMs: 1000,
  },
};

/** Densities of the crossover sweep (each of A and B), ascending; it stops at the first
 *  density where the block-sparse call is slower than the dense one. */
export const CROSS_DENSITIES = [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1];

export function readBlocksParams(search) {
  const { q, problems, profile: profileName, base, num, list } = queryReader(search, PROFILES);
  const backends = list('backends', ['webgl', 'webgpu'], oneOf(['webgl', 'webgpu', 'resident']));
  const parts = list('parts', ['fit', 'cross', 'cuda', 'report'], oneOf(['fit', 'cross', 'cuda', 'report']));
  const p = {
    profile: profileName,
    backends,
    parts,
    n: num('n', base.n, { min: 16, max: 65536, whole: true }),                // part 1: fixed n
    blocks: list('blocks', base.blocks, whole(1, 64)).map(Number),              // part 1: block sides
    pmin: num('pmin', base.pmin, { min: 1 }),                                   // part 1: P from …
    pmax: num('pmax', base.pmax, { min: 1 }),                                   // … to (1-2-5 steps)
    crossN: num('crossN', base.crossN, { min: 16, max: 65536, whole: true }),   // part 2: n
    crossBlocks: list('crossBlocks', base.crossBlocks, whole(1, 64)).map(Number),
    cudaMaxN: num('cudaMaxN', base.cudaMaxN, { min: 0, whole: true }),          // part 3: rows up to this n
    reportMaxN: num('reportMaxN', base.reportMaxN, { min: 0, whole: true }),    // part 4 (GPU-resident, WebGPU): rows up to this n
    reportSamples: num('reportSamples', 8, { min: 1, max: 1000, whole: true }), // part 4: blocks of C checked in float64
    reportPaths: list('reportPaths', ['auto'], oneOf(['auto', 'sparse', 'dense'])), // part 4: numeric phases run (each row once per path)
    repeats: num('repeats', 3, { min: 1, max: 100, whole: true }),              // timed calls after a warm-up (median)
    capS: num('cap', base.capS, { min: 0 }),                                    // a warm-up longer than this: no repeats
    skipFactor: num('skipFactor', 4, { min: 0 }),                               // predicted call > this × cap: not run
    minSampleMs: num('minSample', 20, { min: 0 }),                              // shorter calls are timed in batches
    heatMs: num('heat', base.heatMs, { min: 0 }),                               // untimed back-to-back calls before the samples
    deadlineS: num('deadline', base.deadlineS, { min: 0 }),                     // no new measurement after this
    watchdogS: num('watchdog', 300, { min: 1 }),                                // a call with no answer after this: error, backend dropped
    verifyMaxN: num('verifyMaxN', 4096, { min: 0, whole: true }),               // sampled check of C up to this n
    seed: num('seed', 1, { min: 0, max: 2 ** 32 - 1, whole: true }),
    post: q.get('post') === '1',
    label: q.get('label') || null,
    browserFlags: (q.get('browserFlags') || '').split(',').filter(Boolean),
    autostart: q.has('post') || q.has('run'),
    problems,
  };
  if (p.pmin > p.pmax) problems.push(`pmin=${p.pmin} > pmax=${p.pmax}`);
  return p;
}
