#!/usr/bin/env node
// `make bench-sparse`: the SpMV bench (www/bench/index.html?suite=sparse: GB/s against nnz beside the same device's streaming ceiling) in Debian's headless
// Chromium (the page tests' harness, WebGL2 and WebGPU on SwiftShader, as scripts/bench.mjs),
// then bench/results/<day>-<label>.{json,md,svg} (scripts/bench/write-results.mjs with the
// SpMV report and plot: www/bench/sparse-report.js).
//
//   node scripts/bench-sparse.mjs [--query 'k=v&...' (www/bench/sparse-params.js)] [--label L]
//       [--timeout-min 60] [--out DIR]
//     e.g. --query 'nnzMax=1e6&kinds=uniform'; default profile=swiftshader, label sparse-<renderer>
//   node scripts/bench-sparse.mjs --from-json RESULT.json [--out DIR]   post-process a result (the GPU's)
//   node scripts/bench-sparse.mjs --stage-gpu [--query ...] [--secs 540]
//       copies www/pkg and the page's own modules into .gpuchrome/extra/ (GPUCHROME_DIR=…/.gpuchrome
//       stages into another checkout's folder: the device tool sends the checkout the session
//       started in, not a helper's worktree) and prints the two device calls
//       (../shared/gpu-browser/README.md) for profile=gpu; the page starts no new
//       measurement after SECS - 150 s (?deadline=) and gives up on a call after 150 s
//       (?watchdog=), so it always posts
import { runPageBench } from './bench/page-bench.mjs';
import { readSparseParams } from '../www/bench/sparse-params.js';
import { sparseMarkdown, sparsePlot } from '../www/bench/sparse-report.js';

runPageBench({
  name: 'bench-sparse',
  script: import.meta.url,
  suite: 'sparse',
  extraFiles: ['www/style.css'],
  timeoutMin: 60,
  readParams: readSparseParams,
  render: { report: sparseMarkdown, plot: sparsePlot },
  measured: (result) => result?.records?.some((r) => r.status === 'ok'),
});
