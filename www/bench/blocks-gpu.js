// The CUDA report's whole table through GPU-resident block-sparse matrices (part
// `report` of the block-sparse bench, www/bench/blocks.js): for each row (n, m, k), A
// and B made on the GPU by the seeded generator (gpu.generateBlockSparseAsync, exactly
// k blocks each, not timed), then the whole `await gpu.multiplyGpuBlockSparseAsync(a, b)`
// timed (symbolic and numeric phases on the GPU, resolved once the GPU has finished),
// then sampled blocks of C read back and checked against float64 products that the CPU
// computes from the generator (GpuBlockSparse.generatedProductBlock), without reading A
// or B back. Writes result.cudaReport = { rows: [{ n, m, k, products, seconds,
// k40Seconds, maxRelError, wasmPeakBytes, gpuBytes, … }] }; scripts/bench-blocks.mjs
// writes it as bench/results/<date>-cuda-report-<label>.{json,md}.
import { GpuBlockSparse } from '../pkg/gpgpu_matrix.js';
import { mulberry32 } from '../reference.js';
import { wallLog } from './systems-report.js';
import { errText, flush, guard, log } from './page.js';
import { CUDA_ROWS } from './blocks-params.js';
import { median } from './blocks-report.js';

/** Relative Frobenius error of a float32 block against its float64 reference. */
function relError(got, want) {
  let num = 0, den = 0;
  for (let i = 0; i < want.length; i++) {
    const d = got[i] - want[i];
    num += d * d;
    den += want[i] * want[i];
  }
  return den > 0 ? Math.sqrt(num / den) : Math.sqrt(num);
}

/** One row: generate, multiply (timed) by `numeric` ('auto', 'sparse' or 'dense'), check sampled blocks, free. */
async function reportRow(gpu, row, numeric, params, memory) {
  const { n, m, k, k40S } = row;
  const seedA = (params.seed * 2654435761 + n + m) >>> 0, seedB = (seedA + 1) >>> 0;
  const out = { n, m, k, k40Seconds: k40S, numericAsked: numeric, seedA, seedB };
  const watch = params.watchdogS * 1000;
  const held = [];
  try {
    let t0 = performance.now();
    const a = await guard(gpu.generateBlockSparseAsync(n, m, k, seedA), watch, 'generate A');
    held.push(a);
    const b = await guard(gpu.generateBlockSparseAsync(n, m, k, seedB), watch, 'generate B');
    held.push(b);
    out.generateSeconds = (performance.now() - t0) / 1000;
    log(`report n=${n} m=${m} k=${k}: A and B made on the GPU in ${wallLog(out.generateSeconds * 1000)}`);
    await flush();
    // The first call (pipelines compiled then) is timed apart; more calls while short.
    const times = [], phases = [];
    let c = null;
    for (let r = 0; r <= params.repeats; r++) {
      c?.free();
      c = null;
      t0 = performance.now();
      c = await guard(gpu.multiplyGpuBlockSparseAsync(a, b, { numeric }), watch, 'multiplyGpuBlockSparseAsync');
      const ms = performance.now() - t0;
      if (r === 0) out.firstSeconds = ms / 1000;
      else times.push(ms);
      phases.push(c.phaseMs);
      if (r === 0 && ms > params.capS * 1000) { times.push(ms); out.single = true; break; }
      // Untimed calls before the samples: an idle GPU's clock is low (as the fit's measure).
      for (const heat = performance.now(); r === 0 && performance.now() - heat < params.heatMs;) {
        c.free();
        c = null;
        c = await guard(gpu.multiplyGpuBlockSparseAsync(a, b, { numeric }), watch, 'multiplyGpuBlockSparseAsync');
      }
    }
    held.push(c);
    out.seconds = median(times) / 1000;
    out.times = times.map((t) => t / 1000);
    const last = phases.at(-1);
    out.symbolicSeconds = last[0] / 1000;
    out.numericSeconds = last[1] / 1000;
    out.products = c.blockProducts;
    out.cBlocks = c.storedBlocks;
    out.numericPath = c.numericPath;
    // Held during the call: A, B, C and the call's temporaries (the symbolic phase's, the dense forms).
    out.gpuBytes = a.gpuBytes + b.gpuBytes + c.gpuBytes + c.scratchBytes;
    out.gpuHeldBytes = a.gpuBytes + b.gpuBytes + c.gpuBytes;
    // Sampled blocks of C against float64 products of the generator's blocks.
    const next = mulberry32(params.seed + 29);
    let worst = 0;
    for (let s = 0; s < params.reportSamples && c.storedBlocks > 0; s++) {
      const slot = Math.floor(next() * c.storedBlocks);
      const part = await guard(c.readBlocksAsync(slot, 1), watch, 'readBlocksAsync');
      const want = GpuBlockSparse.generatedProductBlock(n, m, k, seedA, k, seedB, part.rows[0], part.cols[0]);
      worst = Math.max(worst, relError(part.data, want));
    }
    out.maxRelError = worst;
    out.samples = params.reportSamples;
    out.wasmPeakBytes = memory.buffer.byteLength;
    out.status = 'ok';
    log(`report n=${n} m=${m} k=${k} ${out.numericPath}: ${wallLog(out.seconds * 1000)} (symbolic ${wallLog(last[0])}, numeric ${wallLog(last[1])}; first call ${wallLog(out.firstSeconds * 1000)}), P=${out.products}, C blocks ${out.cBlocks}, max rel. err ${worst.toExponential(1)}, GPU ${(out.gpuBytes / 2 ** 20).toFixed(0)} MiB, wasm ${(out.wasmPeakBytes / 2 ** 20).toFixed(0)} MiB; K40 ${k40S} s`);
  } catch (e) {
    out.status = 'error';
    out.reason = errText(e);
    out.wasmPeakBytes = memory.buffer.byteLength;
    log(`report n=${n} m=${m} k=${k}: error (${out.reason})`);
  } finally {
    for (const x of held) { try { x.free(); } catch { /* freed */ } }
  }
  return out;
}

/** Part `report`: the table's rows up to reportMaxN on WebGPU, into result.cudaReport. */
export async function cudaReport(run, result, memory) {
  const gpu = run.gpus.get('webgpu') || run.gpus.get('resident');
  const report = {
    rows: [], leftOut: [],
    seconds: 'the whole multiplyGpuBlockSparseAsync call (generating A and B excluded); median of the calls after the first' +
      (run.params.heatMs ? ` and ${run.params.heatMs} ms of untimed calls (the GPU's clock up)` : ''),
    gpuBytes: 'GPU buffers held during the call: A, B, C and the call\'s temporaries',
  };
  result.cudaReport = report;
  if (!gpu || run.broken.has('webgpu')) {
    report.error = `no WebGPU: ${run.broken.get('webgpu') || 'not among the backends'}`;
    log(`report: ${report.error}`);
    return;
  }
  for (const row of CUDA_ROWS) {
    if (row.n > run.params.reportMaxN) { report.leftOut.push({ ...row, reason: `n > reportMaxN = ${run.params.reportMaxN}` }); continue; }
    if (run.late()) { report.leftOut.push({ ...row, reason: 'the run\'s deadline' }); continue; }
    for (const numeric of run.params.reportPaths) {
      report.rows.push(await reportRow(gpu, row, numeric, run.params, memory));
      await flush();
    }
  }
}
