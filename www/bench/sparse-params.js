// Parameters of the SpMV bench (www/bench/index.html?suite=sparse), read from a URL
// query: used by the page and, to refuse a bad command line before a browser starts, by
// scripts/bench-sparse.mjs. Plain data in, plain data out: node imports it too.
//
// Two profiles set the defaults: `profile=swiftshader` (the CI machine's software
// adapters, 2 cores) and `profile=gpu` (a real GPU: the H100 through gpu-browser).

import { queryReader, oneOf } from './query.js';

const PROFILES = {
  swiftshader: { nnzMin: 1e4, nnzMax: 2e6, minSampleMs: 100, deadlineS: Infinity },
  // 2^27 nonzeros is the bench matrices' cap (WebAssembly memory); the sweep stops
  // earlier where the device refuses a buffer (its binding limit) or runs out.
  gpu: { nnzMin: 1e4, nnzMax: 1e8, minSampleMs: 200, deadlineS: Infinity },
};

export function readSparseParams(search) {
  const { q, problems, profile: profileName, base, num, list } = queryReader(search, PROFILES);
  const p = {
    profile: profileName,
    backends: list('backends', ['webgl', 'webgpu'], oneOf(['webgl', 'webgpu'])),
    kinds: list('kinds', ['uniform', 'skewed'], oneOf(['uniform', 'skewed'])),       // matrices: perRow per row, or Zipf rows
    nnzMin: num('nnzMin', base.nnzMin, { min: 1 }),
    nnzMax: num('nnzMax', base.nnzMax, { min: 1, max: 2 ** 27 }),
    perRow: num('perRow', 16, { min: 1, max: 4096, whole: true }),            // uniform: nonzeros per row (rows = nnz / perRow)
    longRow: num('longRow', 1024, { min: 0, whole: true }),                    // WebGPU, skewed: also with rows past this by a workgroup each (0: not)
    minSampleMs: num('minSample', base.minSampleMs, { min: 1 }),               // repeats chosen so a sample lasts this long
    maxRepeats: num('maxRepeats', 1000, { min: 1, max: 1e5, whole: true }),
    samples: num('samples', 3, { min: 1, max: 50, whole: true }),              // median of this many samples
    deadlineS: num('deadline', base.deadlineS, { min: 0 }),                    // no new measurement after this
    watchdogS: num('watchdog', 300, { min: 1 }),
    seed: num('seed', 1, { min: 0, max: 2 ** 32 - 1, whole: true }),
    post: q.get('post') === '1',
    label: q.get('label') || null,
    browserFlags: (q.get('browserFlags') || '').split(',').filter(Boolean),
    autostart: q.has('post') || q.has('run'),
    problems,
  };
  if (p.nnzMin > p.nnzMax) problems.push(`nnzMin=${p.nnzMin} > nnzMax=${p.nnzMax}`);
  return p;
}
