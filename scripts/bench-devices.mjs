#!/usr/bin/env node
// `make bench-devices`: the several-devices bench (www/bench/index.html?suite=devices) in Debian's
// headless Chromium (the page tests' harness; scripts/serve.py sends COOP/COEP, so the page
// is cross-origin isolated and TF.js WASM runs its threads), then
// bench/results/<day>-<label>.{json,md,svg} (www/bench/devices-report.js).
//
//   node scripts/bench-devices.mjs [--query 'k=v&...' (www/bench/devices-report.js)] [--label L]
//     e.g. --query 'parts=cpu&sizes=1024'; default profile=swiftshader, label devices-<renderer>
//   node scripts/bench-devices.mjs --from-json RESULT.json [--out DIR]   post-process a result
//   node scripts/bench-devices.mjs --stage-gpu [--query ...] [--secs 540]
//       stages www/pkg, the page and TF.js's core and WASM files in .gpuchrome/extra/ and
//       prints the two device calls (../shared/gpu-browser/README.md) for profile=gpu
import { runPageBench } from './bench/page-bench.mjs';
import { readDevicesParams, devicesMarkdown, devicesPlot } from '../www/bench/devices-report.js';

const TF = 'node_modules/@tensorflow/tfjs-backend-wasm/dist/';
runPageBench({
  name: 'bench-devices',
  script: import.meta.url,
  suite: 'devices',
  extraFiles: [
    'www/style.css',
    'node_modules/@tensorflow/tfjs-core/dist/tf-core.min.js',
    `${TF}tf-backend-wasm.min.js`,
    `${TF}tfjs-backend-wasm.wasm`,
    `${TF}tfjs-backend-wasm-simd.wasm`,
    `${TF}tfjs-backend-wasm-threaded-simd.wasm`,
  ],
  timeoutMin: 30,
  readParams: readDevicesParams,
  render: { report: devicesMarkdown, plot: devicesPlot },
  measured: (result) => result?.cpu?.length > 0 || result?.sweep?.points?.length > 0 || !!result?.all,
});
