#!/usr/bin/env node
// `make bench-lab`: the kernel lab's bench (www/bench/index.html?suite=lab) in Debian's
// headless Chromium (the page tests' harness, WebGL2 and WebGPU on SwiftShader, as
// scripts/bench.mjs), then bench/results/<day>-<label>.{json,md} (scripts/bench/write-results.mjs
// with the lab's report: www/bench/lab-report.js).
//
//   node scripts/bench-lab.mjs [--query 'k=v&...' (www/bench/lab-params.js)] [--label L]
//       [--timeout-min 20] [--out DIR]
//   node scripts/bench-lab.mjs --from-json RESULT.json [--out DIR]   post-process a result (the GPU's)
//   node scripts/bench-lab.mjs --stage-gpu [--query ...] [--secs 540]
//       copies www/pkg and the page's own modules into .gpuchrome/extra/ and prints the two
//       device calls (../shared/gpu-browser/README.md)
import { runPageBench } from './bench/page-bench.mjs';
import { readLabParams } from '../www/bench/lab-params.js';
import { labMarkdown, labPlot } from '../www/bench/lab-report.js';

runPageBench({
  name: 'bench-lab',
  script: import.meta.url,
  suite: 'lab',
  extraFiles: ['www/style.css'],
  timeoutMin: 20,
  readParams: readLabParams,
  render: { report: labMarkdown, plot: labPlot },
  measured: (result) => result?.records?.some((r) => r.timing),
});
