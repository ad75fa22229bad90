// The kernel lab's bench (www/bench/index.html?suite=lab): each exercise's reference
// solution (www/lab/exercises/) checked and timed by `gpu.checkKernelAsync` beside the
// library's own kernel for it, as a learner's best would be, on this device: the figures
// the lab's goals are stated in. Parameters: www/bench/lab-params.js. Progress and the
// result as www/bench/page.js does it (the gpu-browser protocol with ?post=1). Driven by
// scripts/bench-lab.mjs.
import init, { Gpgpu } from '../pkg/gpgpu_matrix.js';
import { EXERCISES, fileOf } from '../lab/exercises.js';
import { deriveLabel, fmtMs, median, wallLog } from './systems-report.js';
import { errText, guard, log, probeRenderer, runPage, setBench } from './page.js';
import { readLabParams } from './lab-params.js';
import { labMarkdown, labPlot } from './lab-report.js';

const BACKEND = { glsl: 'webgl', wgsl: 'webgpu' };

export async function runLabBench(params) {
  setBench('bench-lab', params.post);
  const started = performance.now();
  const renderer = probeRenderer();
  log(`renderer: ${renderer}`);
  const result = {
    schema: 'lab-1', date: new Date().toISOString(), label: params.label || `lab-${deriveLabel(renderer)}`,
    env: { renderer, userAgent: navigator.userAgent, browserFlags: params.browserFlags },
    params: { ...params, problems: undefined, autostart: undefined },
    records: [],
  };
  await init();
  const chosen = EXERCISES.filter((ex) => BACKEND[ex.language] && (!params.exercises || params.exercises.includes(ex.id)));
  const gpus = {};
  for (const ex of chosen) {
    const backend = BACKEND[ex.language];
    const record = { exercise: ex.id, backend };
    result.records.push(record);
    try {
      gpus[backend] ??= await Gpgpu.create({ backend });
      const source = await (await fetch(fileOf(ex, 'solution'))).text();
      const runs = [];
      for (let r = 0; r < params.repeats; r++) {
        runs.push(await guard(gpus[backend].checkKernelAsync(ex.id, source), params.watchdogS * 1000, ex.id));
      }
      const last = runs.at(-1);
      record.verdict = last.verdict;
      if (runs.every((x) => x.timing)) {
        const ms = median(runs.map((x) => x.timing.ms)), refMs = median(runs.map((x) => x.timing.reference.ms));
        const flops = last.timing.gflops * last.timing.ms;
        record.timing = {
          n: last.timing.n, clock: last.timing.clock, ms, gflops: flops / ms,
          reference: { kernel: last.timing.reference.kernel, ms: refMs, gflops: (last.timing.reference.gflops * last.timing.reference.ms) / refMs },
          runs: runs.map((x) => x.timing),
        };
      }
      // GPU-clock times keep their digits; wall-clock ones are rounded to the clock's step.
      const shown = (v) => (record.timing?.clock === 'wall' ? wallLog(v) : fmtMs(v));
      log(`${ex.id}: ${record.verdict}${record.timing ? `, ${shown(record.timing.ms)} against ${record.timing.reference.kernel}'s ${shown(record.timing.reference.ms)}` : ''}`);
    } catch (e) {
      record.error = errText(e);
      log(`${ex.id}: ${record.error}`);
    }
  }
  for (const g of Object.values(gpus)) g.free();
  result.totalS = (performance.now() - started) / 1000;
  return result;
}

/** The page's title and description, which www/bench/shell.js puts in before start(). */
export const about = {
  title: 'gpgpu-matrix benchmark: the kernel lab',
  heading: 'gpgpu-matrix benchmark: the kernel lab',
  html: `
<p>Each exercise of the kernel lab (<code>www/lab.html</code>) checked with its reference
solution by <code>gpu.checkKernelAsync(exercise, source)</code>, and timed beside the
library's own kernel for it at the size the check picks for this device: the figures a
learner's kernel is measured against. Runs with <code>?run=1</code>; parameters
(<code>exercises=</code>, <code>repeats=</code>, <code>post=1</code>):
<code>www/bench/lab-params.js</code>. From a shell: <code>make bench-lab</code>.</p>
`,
};

/** Runs the page (www/bench/shell.js calls it once the page shows `about`). */
export function start() {
  runPage({
    readParams: readLabParams,
    paramsFile: 'www/bench/lab-params.js',
    run: runLabBench,
    empty: (params) => ({ schema: 'lab-1', date: new Date().toISOString(), params, records: [] }),
    markdown: labMarkdown,
    plot: labPlot,
  });
}
