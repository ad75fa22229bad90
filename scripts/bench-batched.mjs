#!/usr/bin/env node
// `make bench-batched`: the batched small-matrix bench (www/bench/index.html?suite=batched) in Debian's headless
// Chromium (the page tests' harness, WebGL2 and WebGPU on SwiftShader, as scripts/bench.mjs),
// then bench/results/<day>-<label>.{json,md,svg} (scripts/bench/write-results.mjs with the
// batched report and plot: www/bench/batched-report.js).
//
//   node scripts/bench-batched.mjs [--query 'k=v&...' (www/bench/batched-params.js)] [--label L]
//       [--timeout-min 15] [--out DIR]
//     e.g. --query 'parts=ransac,nullvec&backends=webgpu'; default profile=swiftshader, label batched-<renderer>
//   node scripts/bench-batched.mjs --from-json RESULT.json [--out DIR]   post-process a result (the GPU's)
//   node scripts/bench-batched.mjs --stage-gpu [--query ...] [--secs 540]
//       copies www/pkg and the page's own modules into .gpuchrome/extra/ (GPUCHROME_DIR=…/.gpuchrome
//       stages into another checkout's folder: the device tool sends the checkout the session
//       started in, not a helper's worktree) and prints the two device calls
//       (../shared/gpu-browser/README.md) for profile=gpu; the page starts no new
//       measurement after SECS - 150 s (?deadline=) and gives up on a call after 150 s
//       (?watchdog=), so it always posts
import { runPageBench } from './bench/page-bench.mjs';
import { readBatchedParams } from '../www/bench/batched-params.js';
import { batchedMarkdown, batchedPlot } from '../www/bench/batched-report.js';

runPageBench({
  name: 'bench-batched',
  script: import.meta.url,
  suite: 'batched',
  extraFiles: ['www/style.css'],
  timeoutMin: 15,
  readParams: readBatchedParams,
  render: { report: batchedMarkdown, plot: batchedPlot },
  measured: (result) => ['ransac', 'nullvec', 'svd', 'products'].some((k) => result?.[k]?.length),
});
