#!/usr/bin/env node
// `make bench-blocks`: the block-sparse bench (www/bench/index.html?suite=blocks) in Debian's headless
// Chromium (the page tests' harness, WebGL2 and WebGPU on SwiftShader, as scripts/bench.mjs),
// then bench/results/<day>-<label>.{json,md,svg} (scripts/bench/write-results.mjs with the
// block-sparse report and plot: www/bench/blocks-report.js).
//
//   node scripts/bench-blocks.mjs [--query 'k=v&...' (www/bench/blocks-params.js)] [--label L]
//       [--timeout-min 60] [--out DIR]
//     e.g. --query 'parts=fit&blocks=8&pmax=1e5'; default profile=swiftshader, label blocks-<renderer>
//   node scripts/bench-blocks.mjs --from-json RESULT.json [--out DIR]   post-process a result (the GPU's)
//   With part `report` (the CUDA report's table through GPU-resident matrices, WebGPU) the
//   result's table also goes to bench/results/<day>-cuda-report-<label>.{json,md} (<label>
//   without its blocks- prefix: --label h100 gives blocks-h100 (the page puts the prefix on a
//   label without it) and cuda-report-h100), e.g. on SwiftShader
//     node scripts/bench-blocks.mjs --query 'parts=report&backends=webgpu' --label swiftshader
//   node scripts/bench-blocks.mjs --stage-gpu [--query ...] [--secs 540]
//       copies www/pkg and the page's own modules into .gpuchrome/extra/ (GPUCHROME_DIR=…/.gpuchrome
//       stages into another checkout's folder: the device tool sends the checkout the session
//       started in, not a helper's worktree) and prints the two device calls
//       (../shared/gpu-browser/README.md) for profile=gpu; the page starts no new
//       measurement after SECS - 150 s (?deadline=) and gives up on a call after 150 s
//       (?watchdog=), so it always posts
import { runPageBench } from './bench/page-bench.mjs';
import { readBlocksParams } from '../www/bench/blocks-params.js';
import { blocksMarkdown, blocksPlot, cudaReportMarkdown } from '../www/bench/blocks-report.js';
import { labelOf, writeResults } from './bench/write-results.mjs';

/** The CUDA report's table on its own: { rows, … } with the run's environment. */
function writeCudaReport(result, args) {
  if (!result?.cudaReport) return;
  const { rows, leftOut, seconds, gpuBytes, error } = result.cudaReport;
  const label = `cuda-report-${labelOf(result).replace(/^blocks-/, '')}`;
  const table = { label, date: result.date, rows, leftOut, seconds, gpuBytes, error, env: result.env, params: result.params };
  writeResults(table, { outDir: args.out, report: cudaReportMarkdown, plot: () => null });
}

runPageBench({
  name: 'bench-blocks',
  script: import.meta.url,
  suite: 'blocks',
  extraFiles: ['www/style.css'],
  timeoutMin: 60,
  readParams: readBlocksParams,
  render: { report: blocksMarkdown, plot: blocksPlot },
  measured: (result) => result?.records?.length > 0 || result?.cudaReport?.rows?.length > 0,
  after: writeCudaReport,
});
