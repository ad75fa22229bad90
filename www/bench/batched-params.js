// Parameters of the batched small-matrix bench (www/bench/index.html?suite=batched),
// read from a URL query: used by the page and, to refuse a bad command line before a
// browser starts, by scripts/bench-batched.mjs. Plain data in, plain data out: node imports it too.
//
// Two profiles set the defaults: `profile=swiftshader` (the CI machine's software
// adapters, 2 cores: small batches, the whole run in a few minutes) and `profile=gpu`
// (a real GPU: the H100 through gpu-browser).

import { queryReader, whole, oneOf } from './query.js';

export const PARTS = ['ransac', 'nullvec', 'svd', 'products'];

const PROFILES = {
  swiftshader: {
    ransacRepeats: 5, svdBatches: [1e3, 1e4, 1e5], flops: 1e7, chainSquarings: 6,
    capS: 8, deadlineS: Infinity,
  },
  gpu: {
    ransacRepeats: 15, svdBatches: [1e3, 1e4, 1e5, 1e6], flops: 1e8, chainSquarings: 24,
    capS: 5, deadlineS: Infinity,
  },
};

export function readBatchedParams(search) {
  const { q, problems, profile: profileName, base, num, list } = queryReader(search, PROFILES);
  const p = {
    profile: profileName,
    backends: list('backends', ['webgl', 'webgpu'], oneOf(['webgl', 'webgpu'])),
    parts: list('parts', PARTS, oneOf(PARTS)),
    // 1. RANSAC: synthetic correspondences under a known homography
    points: num('points', 1000, { min: 4, max: 1e6, whole: true }),
    iterations: num('iterations', 2000, { min: 1, max: 2 ** 20, whole: true }),
    outliers: num('outliers', 0.5, { min: 0, max: 1 }),
    noise: num('noise', 0.5, { min: 0 }),                                           // ± this, uniform, in x and y (pixels of a 1000² image)
    threshold: num('threshold', 3, { min: 0 }),
    ransacRepeats: num('ransacRepeats', base.ransacRepeats, { min: 1, max: 200, whole: true }),
    // 2. the null-vector alternative: svdBatchedAsync(iterations, 9, 9, …); 3. SVD throughput
    svdSides: list('svdSides', ['3', '9'], whole(1, 16)).map(Number),
    svdBatches: list('svdBatches', base.svdBatches, (s) => (Number.isInteger(Number(s)) && Number(s) >= 1 ? null : 'is not a whole number ≥ 1')).map(Number),
    // 4. batched k×k products: batch = flops / (2k³) (at most maxBatch), and a chain of squarings
    ks: list('ks', ['2', '3', '4', '8', '16', '32'], whole(1, 32)).map(Number),
    flops: num('flops', base.flops, { min: 1 }),
    maxBatch: num('maxBatch', 2 ** 23, { min: 1, whole: true }),
    chainSquarings: num('chainSquarings', base.chainSquarings, { min: 0, max: 52, whole: true }), // 0: no chain
    repeats: num('repeats', 3, { min: 1, max: 100, whole: true }),              // timed calls after a warm-up (median), parts 2-4
    capS: num('cap', base.capS, { min: 0 }),                                    // a warm-up longer than this: no repeats
    skipFactor: num('skipFactor', 3, { min: 0 }),                               // predicted call > this × cap: not run
    deadlineS: num('deadline', base.deadlineS, { min: 0 }),                     // no new measurement after this
    watchdogS: num('watchdog', 300, { min: 1 }),                                // a call with no answer after this: error, backend dropped
    checkSamples: num('checkSamples', 16, { min: 1, whole: true }),             // matrices / hypotheses checked in float64 per point
    seed: num('seed', 1, { min: 0, max: 2 ** 32 - 1, whole: true }),
    post: q.get('post') === '1',
    label: q.get('label') || null,
    browserFlags: (q.get('browserFlags') || '').split(',').filter(Boolean),
    autostart: q.has('post') || q.has('run'),
    problems,
  };
  return p;
}
