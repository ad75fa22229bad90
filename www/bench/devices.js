// The several-devices bench (www/bench/index.html?suite=devices; issue 17, points 3 and 4): the CPU backend against
// TF.js WASM (XNNPACK) at the same thread count, the course report's ratio sweep between
// two devices with 'auto' against the best ratio, and 'auto' over every device against the
// best one alone. Parameters and report: www/bench/devices-report.js. Progress and result
// as the other bench pages (www/bench/page.js); driven by scripts/bench-devices.mjs.
import init, { Devices, Gpgpu } from '../pkg/gpgpu_matrix.js';
import { uniformMatrix } from '../reference.js';
import { deriveLabel } from './systems-report.js';
import { errText, flush, log, probeRenderer, runPage, setBench } from './page.js';
import { deriveDevices, devicesMarkdown, devicesPlot, median, readDevicesParams } from './devices-report.js';
import { splitSummary, timedSplits } from '../split-timing.js';
import { timerResolutionMs, wallNumber } from '../ui/clock.js';

/** A wall-clock time for a progress line, in ms, rounded as the report rounds it. */
const ms = (x) => wallNumber(x, { res: timerResolutionMs() });

/** www/, which TF_SCRIPTS and node_modules/ are relative to (this module is in www/bench/). */
const WWW = new URL('../', import.meta.url);

const TF_SCRIPTS = [
  '../node_modules/@tensorflow/tfjs-core/dist/tf-core.min.js',
  '../node_modules/@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.min.js',
];

async function loadTf() {
  for (const src of TF_SCRIPTS) {
    await new Promise((resolve) => {
      const s = document.createElement('script');
      s.src = new URL(src, WWW).href;
      s.onload = resolve;
      s.onerror = () => { log(`${src} did not load`); resolve(); };
      document.head.append(s);
    });
  }
  return globalThis.tf;
}

/** A warm-up call, then the median of `repeats` timed ones (ms). */
async function timeIt(fn, repeats) {
  await fn();
  const times = [];
  for (let r = 0; r < repeats; r++) {
    await flush();
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** A Gpgpu for a device name of the params (null where there is none). */
async function makeDevice(name, threads, env) {
  try {
    let g;
    if (name === 'cpu') g = await Gpgpu.create({ backend: 'cpu', threads });
    else if (name === 'webgl') g = await Gpgpu.create({ backend: 'webgl' });
    else g = await Gpgpu.create({ backend: 'webgpu', powerPreference: name === 'webgpu-low-power' ? 'low-power' : 'high-performance' });
    const i = g.info();
    env.devices[name] = name === 'cpu' ? `${i.threads} Web Workers, ${i.simd}` : name === 'webgl' ? i.renderer : [i.vendor, i.architecture, i.description].filter(Boolean).join(' ');
    return g;
  } catch (e) {
    env.devices[name] = `unavailable: ${errText(e)}`;
    return null;
  }
}

async function cpuPart(params, result, threads) {
  const tf = await loadTf();
  if (tf?.wasm?.setWasmPaths) {
    tf.wasm.setWasmPaths(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', WWW).href);
    tf.wasm.setThreadsCount?.(threads);
    await tf.setBackend('wasm');
    await tf.ready();
    result.tfWasm = { simd: await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT'), threads: await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT'), threadsCount: tf.wasm.getThreadsCount?.() };
    log(`TF.js WASM: ${JSON.stringify(result.tfWasm)}`);
  } else {
    log('TF.js WASM did not load: its column stays empty');
  }
  // TF.js's XNNPACK pool may hold fewer threads than asked (its build caps the pthread
  // pool at min(4, cores / 2)): ours is timed at that count too, the fair comparison.
  const tfThreads = result.tfWasm?.threadsCount;
  const ok = (t) => Number.isInteger(t) && t > 0;
  const counts = [...new Set([tfThreads, threads].filter(ok))];
  // The threads sweep (gpu profile): how ours scales, at n = threadSweepN only.
  const sweepCounts = [...new Set([...counts, ...params.threadSweep.map((t) => t || threads)].filter(ok))].sort((x, y) => x - y);
  const cpus = new Map();
  for (const t of sweepCounts) cpus.set(t, await Gpgpu.create({ backend: 'cpu', threads: t }));
  const g = (n, ms) => 2 * n ** 3 / ms / 1e6;
  try {
    for (const n of params.sizes) {
      const a = uniformMatrix(params.seed, n * n), b = uniformMatrix(params.seed + 1, n * n);
      let tfMs = NaN;
      if (result.tfWasm) {
        log(`cpu n=${n}: TF.js WASM (${tfThreads} thread(s))`);
        await flush();
        tfMs = await timeIt(async () => {
          const x = tf.tensor2d(a, [n, n]), y = tf.tensor2d(b, [n, n]);
          const z = tf.matMul(x, y);
          z.dataSync();
          x.dispose(); y.dispose(); z.dispose();
        }, params.repeats);
      }
      for (const t of (n === params.threadSweepN && params.threadSweep.length ? sweepCounts : counts)) {
        const cpu = cpus.get(t);
        log(`cpu n=${n}: ours, ${t} thread(s)`);
        await flush();
        // Where each call's time went (the engine's own timing of its last product).
        const timings = [];
        const oursMs = await timeIt(async () => {
          await cpu.multiplyAsync(n, n, n, a, b);
          timings.push(cpu.lastCpuTiming());
        }, params.repeats);
        const timed = timings.slice(1).filter(Boolean);
        const med = (k) => median(timed.map((x) => x[k]));
        const same = t === tfThreads;
        const row = {
          n, threads: t, oursMs, oursGflops: g(n, oursMs), tfThreads, tfMs: same ? tfMs : NaN, tfGflops: same ? g(n, tfMs) : NaN,
          wallMs: med('wallMs'), kernelMaxMs: med('kernelMaxMs'), kernelSumMs: med('kernelSumMs'), overheadMs: med('overheadMs'),
          workers: timed.length ? timed[timed.length - 1].workerMs.length : NaN,
        };
        result.cpu.push(row);
        log(`cpu n=${n}: ours ${t} thread(s) ${ms(oursMs)} ms (${g(n, oursMs).toFixed(2)} GFLOP/s; kernel max ${ms(row.kernelMaxMs)} ms, overhead ${ms(row.overheadMs)} ms); TF.js WASM ${tfThreads} thread(s) ${ms(tfMs)} ms (${g(n, tfMs).toFixed(2)} GFLOP/s)`);
      }
    }
  } finally {
    for (const cpu of cpus.values()) cpu.free();
  }
}

/** `repeats` split runs at `ratios` after one warm-up: medians of the total and of each part. */
async function splitPoint(devices, n, a, b, ratios, repeats) {
  await flush();
  return splitSummary(await timedSplits(devices, n, a, b, ratios, repeats));
}

/** 'auto' after `autoRuns` learning runs. */
async function autoPoint(devices, n, a, b, params) {
  for (let r = 0; r < params.autoRuns; r++) await devices.multiplySplitAsync(n, n, n, a, b, { ratios: 'auto' });
  return splitPoint(devices, n, a, b, 'auto', params.repeats);
}

async function sweepPart(params, result, gpus) {
  const pair = params.pair.map((name) => gpus.get(name));
  if (pair.some((g) => !g)) { log(`sweep: a device of ${params.pair} is unavailable`); return; }
  const n = params.sweepN;
  const a = uniformMatrix(params.seed + 2, n * n), b = uniformMatrix(params.seed + 3, n * n);
  const devices = new Devices(pair);
  const sweep = { n, devices: params.pair, points: [] };
  result.sweep = sweep;
  for (let s = params.steps; s >= 0; s--) {
    const ratio = s / params.steps;
    log(`sweep n=${n}: ${params.pair[0]} share ${ratio.toFixed(2)}`);
    await flush();
    const p = await splitPoint(devices, n, a, b, [ratio, 1 - ratio], params.repeats);
    sweep.points.push({ ratio, ...p });
    log(`  rows ${p.rows.join('/')}, ms ${p.ms.map((x) => ms(x)).join('/')}, total ${ms(p.totalMs)}`);
  }
  sweep.points.sort((x, y) => x.ratio - y.ratio);
  log('sweep: auto');
  await flush();
  // 'auto' after its learning runs, then timed alternately with the sweep's best ratio:
  // a loaded machine's drift (other processes on the same cores) hits both alike.
  const autoDevices = new Devices(pair);
  for (let r = 0; r < params.autoRuns; r++) await autoDevices.multiplySplitAsync(n, n, n, a, b, { ratios: 'auto' });
  const best = sweep.points.reduce((x, y) => (y.totalMs < x.totalMs ? y : x));
  const autoRuns = [], bestRuns = [];
  for (let r = 0; r < params.repeats; r++) {
    await flush();
    autoRuns.push(await autoDevices.multiplySplitAsync(n, n, n, a, b, { ratios: 'auto' }));
    await flush();
    bestRuns.push(await devices.multiplySplitAsync(n, n, n, a, b, { ratios: [best.ratio, 1 - best.ratio] }));
  }
  sweep.auto = splitSummary(autoRuns);
  sweep.bestAgain = { ratio: best.ratio, ...splitSummary(bestRuns) };
  log(`  auto ratios ${sweep.auto.ratios.map((x) => x.toFixed(3)).join('/')}, total ${ms(sweep.auto.totalMs)} ms; best ratio ${best.ratio} again ${ms(sweep.bestAgain.totalMs)} ms`);
}

async function allPart(params, result, gpus) {
  const names = [...gpus.keys()];
  const n = params.sweepN;
  const a = uniformMatrix(params.seed + 4, n * n), b = uniformMatrix(params.seed + 5, n * n);
  const aloneMs = [];
  for (const name of names) {
    log(`all n=${n}: ${name} alone`);
    await flush();
    const g = gpus.get(name);
    aloneMs.push(await timeIt(() => g.multiplyAsync(n, n, n, a, b), params.repeats));
  }
  log(`all n=${n}: auto over ${names.join(', ')}`);
  await flush();
  const auto = await autoPoint(new Devices(names.map((k) => gpus.get(k))), n, a, b, params);
  result.all = { n, devices: names, aloneMs, auto };
  log(`  rows ${auto.rows.join('/')}, total ${ms(auto.totalMs)} ms; alone ${aloneMs.map((x) => ms(x)).join('/')}`);
}

export async function runDevicesBench(params) {
  setBench('bench-devices', params.post);
  const started = performance.now();
  const renderer = probeRenderer();
  const threads = params.threads || navigator.hardwareConcurrency || 4;
  const result = {
    schema: 'devices-1', date: new Date().toISOString(), label: params.label || `devices-${deriveLabel(renderer)}`,
    env: { renderer, userAgent: navigator.userAgent, hardwareConcurrency: navigator.hardwareConcurrency, crossOriginIsolated: !!globalThis.crossOriginIsolated, page: location.href, browserFlags: params.browserFlags, devices: {} },
    params: { ...params, problems: undefined, autostart: undefined },
    cpu: [],
  };
  log(`page loaded; crossOriginIsolated ${result.env.crossOriginIsolated}; ${navigator.hardwareConcurrency} cores; threads ${threads}`);
  await init();
  const gpus = new Map();
  try {
    if (params.parts.includes('cpu')) await cpuPart(params, result, threads);
    const wanted = new Set([...params.pair, ...(params.parts.includes('all') ? ['webgl', 'webgpu', 'webgpu-low-power', 'cpu'] : [])]);
    for (const name of wanted) {
      const g = await makeDevice(name, threads, result.env);
      log(`${name}: ${result.env.devices[name]}`);
      if (g) gpus.set(name, g);
    }
    // One adapter for both preferences (a single-GPU machine): the low-power one is the
    // same device again, not a second one.
    if (gpus.has('webgpu-low-power') && result.env.devices['webgpu-low-power'] === result.env.devices.webgpu) {
      gpus.get('webgpu-low-power').free();
      gpus.delete('webgpu-low-power');
      result.env.devices['webgpu-low-power'] += ' (the same adapter as high-performance: left out)';
    }
    if (params.parts.includes('sweep')) await sweepPart(params, result, gpus);
    if (params.parts.includes('all')) await allPart(params, result, gpus);
  } catch (e) {
    result.error = errText(e);
    log(`FATAL: ${e?.stack || e}`);
  } finally {
    for (const g of gpus.values()) g.free();
  }
  result.totalS = (performance.now() - started) / 1000;
  result.derived = deriveDevices(result);
  log(`done in ${result.totalS.toFixed(1)} s`);
  return result;
}

/** The page's title and description, which www/bench/shell.js puts in before start(). */
export const about = {
  title: 'gpgpu-matrix benchmark: several devices',
  heading: 'gpgpu-matrix benchmark: several devices',
  html: `
<p>The CPU backend (wasm SIMD128 in Web Workers) against TF.js WASM with the same threads;
the course report's split of C's rows between two devices at ratios 0…1 and <code>'auto'</code>;
<code>'auto'</code> over every device. Runs with <code>?run=1</code>; parameters
(<code>profile=swiftshader|gpu</code>, <code>parts=cpu,sweep,all</code>, <code>sizes=</code>, <code>pair=</code>,
<code>sweepN=</code>, <code>steps=</code>, <code>threads=</code>, <code>repeats=</code>, <code>autoRuns=</code>, <code>post=1</code>):
<code>www/bench/devices-report.js</code>. From a shell: <code>make bench-devices</code>.</p>
`,
};

/** Runs the page (www/bench/shell.js calls it once the page shows `about`). */
export function start() {
  runPage({
    readParams: readDevicesParams,
    paramsFile: 'www/bench/devices-report.js',
    run: runDevicesBench,
    empty: (params) => ({ schema: 'devices-1', date: new Date().toISOString(), params, cpu: [] }),
    markdown: devicesMarkdown,
    plot: devicesPlot,
  });
}
