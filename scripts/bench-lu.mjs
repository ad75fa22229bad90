#!/usr/bin/env node
// `make bench-lu`: the LU bench (www/bench/index.html?suite=lu) in Debian's headless
// Chromium (the page tests' harness, WebGL2 and WebGPU on SwiftShader, as scripts/bench.mjs),
// then bench/results/<day>-<label>.{json,md,svg} (scripts/bench/write-results.mjs with the
// LU report and plot: www/bench/lu-report.js).
//
//   node scripts/bench-lu.mjs [--query 'k=v&...' (www/bench/lu-params.js)] [--label L]
//       [--timeout-min 30] [--out DIR]
//     e.g. --query 'sizes=64,256&backends=webgpu'; default profile=swiftshader, label lu-<renderer>
//   node scripts/bench-lu.mjs --from-json RESULT.json [--out DIR]   post-process a result (the GPU's)
//   node scripts/bench-lu.mjs --stage-gpu [--query ...] [--secs 540]
//       copies www/pkg and the page's own modules into .gpuchrome/extra/ (GPUCHROME_DIR=…/.gpuchrome
//       stages into another checkout's folder: the device tool sends the checkout the session
//       started in, not a helper's worktree) and prints the two device calls
//       (../shared/gpu-browser/README.md) for profile=gpu; the page starts no new
//       measurement after SECS - 150 s (?deadline=) and gives up on a call after 150 s
//       (?watchdog=), so it always posts
import { runPageBench } from './bench/page-bench.mjs';
import { readLuParams } from '../www/bench/lu-params.js';
import { luMarkdown, luPlot } from '../www/bench/lu-report.js';

runPageBench({
  name: 'bench-lu',
  script: import.meta.url,
  suite: 'lu',
  extraFiles: ['www/style.css'],
  timeoutMin: 30,
  readParams: readLuParams,
  render: { report: luMarkdown, plot: luPlot },
  measured: (result) => result?.records?.some((r) => r.lu),
});
