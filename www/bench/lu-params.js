// Parameters of the LU bench (www/bench/index.html?suite=lu), read from a URL query:
// used by the page and, to refuse a bad command line before a browser starts, by
// scripts/bench-lu.mjs. Plain data in, plain data out: node imports it too.
//
// Two profiles set the defaults: `profile=swiftshader` (the CI machine's software
// adapters, 2 cores: n up to 512) and `profile=gpu` (a real GPU: the H100 through
// gpu-browser, n up to 4096).

import { queryReader, whole, oneOf } from './query.js';

const PROFILES = {
  swiftshader: { sizes: [16, 32, 64, 128, 256, 512], capS: 20, deadlineS: Infinity },
  gpu: { sizes: [16, 32, 64, 128, 256, 512, 1024, 2048, 4096], capS: 20, deadlineS: Infinity },
};

export function readLuParams(search) {
  const { q, problems, profile: profileName, base, num, list } = queryReader(search, PROFILES);
  return {
    profile: profileName,
    backends: list('backends', ['webgl', 'webgpu'], oneOf(['webgl', 'webgpu'])),
    sizes: list('sizes', base.sizes, whole(1, 8192)).map(Number),
    repeats: num('repeats', 3, { min: 1, max: 100, whole: true }),     // timed calls after a warm-up (median)
    capS: num('cap', base.capS, { min: 0 }),                           // a warm-up longer than this: no repeats, and no larger n
    deadlineS: num('deadline', base.deadlineS, { min: 0 }),            // no new measurement after this
    watchdogS: num('watchdog', 300, { min: 1 }),                       // a call with no answer after this: error, backend dropped
    verifyMaxN: num('verifyMaxN', 1024, { min: 0, whole: true }),      // ‖PA − LU‖/‖A‖ in float64 up to this n
    seed: num('seed', 1, { min: 0, max: 2 ** 32 - 1, whole: true }),
    post: q.get('post') === '1',
    label: q.get('label') || null,
    browserFlags: (q.get('browserFlags') || '').split(',').filter(Boolean),
    autostart: q.has('post') || q.has('run'),
    problems,
  };
}
