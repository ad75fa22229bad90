// The benchmark's command-line checks and result files, without a browser.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SIZES, DEFAULT_SKIP, PEER_FILES, PEER_SCRIPTS, readParams } from '../../www/bench/systems-params.js';
import { markdownReport } from '../../www/bench/systems-report.js';
import { renderPlot } from '../../www/bench/systems-plot.js';
import { gpuQuery, withDeveloperFeatures } from '../../scripts/bench/gpu-script.mjs';
import { untrackedPageFiles } from '../../scripts/bench/page-files.mjs';
import { RESULTS, ROOT, writeResults } from '../../scripts/bench/write-results.mjs';

test('parameters that do not parse are problems, not silent defaults', () => {
  assert.deepEqual(readParams('?sizes=64,128&repeats=7').problems, []);
  assert.deepEqual(readParams('?sizes=64,128').sizes, [64, 128]);
  assert.deepEqual(readParams('').sizes, DEFAULT_SIZES);
  for (const [query, problem] of [
    ['?sizes=abc', /sizes: "abc"/], ['?sizes=64;128', /sizes: "64;128"/], ['?sizes=0', /sizes: "0"/],
    ['?sizes=1.5', /sizes: "1.5"/], ['?modes=singel', /modes: "singel"/], ['?repeats=0', /repeats=0/],
    ['?repeats=3', /repeats=3: expected a whole number from 5/], ['?cap=soon', /cap=soon/], ['?passes=0', /passes=0/],
  ]) {
    const { problems } = readParams(query);
    assert.equal(problems.length, 1, `${query}: ${problems.join('; ')}`);
    assert.match(problems[0], problem);
  }
});

test('a second result of the same day and label gets new files; the same result keeps its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-results-'));
  try {
    const result = JSON.parse(readFileSync(join(RESULTS, '2026-11-23-swiftshader.json'), 'utf8'));
    const first = writeResults(result, { outDir: dir, quiet: true });
    const quick = writeResults({ ...result, params: { ...result.params, sizes: [64] } }, { outDir: dir, quiet: true });
    const again = writeResults(result, { outDir: dir, quiet: true });
    assert.equal(first.stem, '2026-11-23-swiftshader');
    assert.equal(quick.stem, '2026-11-23-swiftshader-2');
    assert.equal(again.stem, first.stem);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, `${first.stem}.json`), 'utf8')).params.sizes, result.params.sizes);
    assert.equal(readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'latest.json').length, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--stage-gpu sends every peer script the page loads (the GPU machine has no npm)', () => {
  const files = untrackedPageFiles();
  for (const src of [...PEER_SCRIPTS, ...PEER_FILES]) {
    const path = src.replace(/^\.\.\//, '');
    assert.ok(files.includes(path), `${path} is staged`);
    assert.ok(existsSync(join(ROOT, path)), `${path} exists (npm ci)`);
  }
  assert.ok(files.some((f) => f.endsWith('.wasm') && f.includes('tfjs-backend-wasm')), 'TF.js WASM binaries');
  // TF.js WebGPU: the script after tf-core (it needs the global tf), and the package.json the page reads its version from.
  const webgpu = 'node_modules/@tensorflow/tfjs-backend-webgpu/dist/tf-backend-webgpu.min.js';
  assert.ok(files.includes(webgpu), 'TF.js WebGPU is staged');
  assert.ok(files.indexOf(webgpu) > files.indexOf('node_modules/@tensorflow/tfjs-core/dist/tf-core.min.js'));
  assert.ok(files.includes('node_modules/@tensorflow/tfjs-backend-webgpu/package.json'));
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.devDependencies['@tensorflow/tfjs-backend-webgpu'], '4.22.0', 'pinned exactly, like the other TF.js packages');
  assert.equal(pkg.devDependencies['@tensorflow/tfjs-backend-webgpu'], pkg.devDependencies['@tensorflow/tfjs-core']);
});

test('the GPU run script gets --enable-webgpu-developer-features, and the result is told which flags it had', () => {
  const line = '  --disable-renderer-backgrounding --enable-unsafe-webgpu --use-angle=vulkan --enable-features=Vulkan \\';
  const { script, added, browserFlags } = withDeveloperFeatures(`#!/bin/bash\n# ANGLE on GL/EGL too: --use-angle=gl-egl).\n${line}\n`);
  assert.equal(added, true);
  assert.match(script, /--enable-unsafe-webgpu --enable-webgpu-developer-features --use-angle=vulkan/);
  assert.deepEqual(browserFlags, ['--enable-unsafe-webgpu', '--enable-webgpu-developer-features', '--use-angle=vulkan', '--enable-features=Vulkan']);
  assert.equal(withDeveloperFeatures(script).script, script, 'added once');
  assert.equal(withDeveloperFeatures('chromium --headless').added, false);
  const shared = join(ROOT, '..', 'shared', 'gpu-browser', 'run-on-gpu.sh');
  if (existsSync(shared)) assert.equal(withDeveloperFeatures(readFileSync(shared, 'utf8')).added, true, 'the real script has the flag to extend');
  assert.deepEqual(readParams(`?browserFlags=${browserFlags.join(',')}`).browserFlags, browserFlags);
  // The page's query: 1.5 s of heat (the clock governor), a deadline before the bound; the caller's values win.
  const q = gpuQuery('sizes=1024', browserFlags, 300);
  assert.equal(readParams(`?${q}`).heatMs, 1500);
  assert.equal(q.get('deadline'), '210');
  assert.deepEqual(readParams(`?${q}`).browserFlags, browserFlags);
  assert.equal(readParams(`?${gpuQuery('heat=250', browserFlags, 300)}`).heatMs, 250);
  assert.deepEqual(readParams(`?${q}`).problems, []);
});

test('default systems: everything but the slow WebGL kernels\' async twins; --systems webgpu picks the WebGPU ones', () => {
  assert.deepEqual(readParams('').skip, DEFAULT_SKIP);
  assert.deepEqual(DEFAULT_SKIP, ['gpgpu:naive:async', 'gpgpu:packed:async', 'gpgpu:blocked4:async']);
  assert.deepEqual(readParams('?skip=').skip, [], 'skip= (--all-systems) keeps every system');
  assert.deepEqual(readParams('?systems=webgpu').skip, [], 'an explicit system list is not thinned');
  assert.deepEqual(readParams('?skip=gpujs').skip, ['gpujs']);
  const ids = ['gpgpu:blocked8', 'gpgpu:blocked8:async', 'gpgpu-webgpu:global', 'gpgpu-webgpu:tiled16', 'gpgpu-webgpu:register',
    'tfjs-webgl', 'tfjs-webgl:async', 'tfjs-webgpu', 'tfjs-wasm'];
  const { systems } = readParams('?systems=webgpu');
  assert.deepEqual(ids.filter((id) => systems.some((s) => id.includes(s))),
    ['gpgpu-webgpu:global', 'gpgpu-webgpu:tiled16', 'gpgpu-webgpu:register', 'tfjs-webgpu']);
  assert.equal(readParams('').compute, true);
  assert.equal(readParams('?compute=0').compute, false);
});

/** A small result with the WebGPU systems, as the page writes it (numbers made up). */
function webgpuResult() {
  const systems = [['gpgpu:blocked8', 'gpgpu blocked8', true], ['gpgpu-webgpu:global', 'gpgpu WebGPU global', true],
    ['gpgpu-webgpu:tiled16', 'gpgpu WebGPU tiled16', true], ['gpgpu-webgpu:register', 'gpgpu WebGPU register', true],
    ['tfjs-webgl', 'TF.js WebGL', false], ['tfjs-webgpu', 'TF.js WebGPU data()', false]]
    .map(([id, label, ours]) => ({ id, label, ours, available: true }));
  const rate = { 'gpgpu:blocked8': 500, 'gpgpu-webgpu:global': 1000, 'gpgpu-webgpu:tiled16': 4000, 'gpgpu-webgpu:register': 20000, 'tfjs-webgl': 200, 'tfjs-webgpu': 10000 };
  const records = [];
  for (const n of [1024, 2048]) {
    for (const { id } of systems) {
      for (const mode of ['single', 'chain']) {
        const g = rate[id] * (mode === 'chain' ? 1 : 0.5) * (n / 2048);
        const perPassMs = (2 * n ** 3) / (g * 1e6);
        const passes = mode === 'chain' ? 4 : 1;
        const r = { system: id, mode, n, passes, status: 'ok', timesMs: [perPassMs * passes], medianMs: perPassMs * passes, perPassMs, gflops: g, relFrobenius: 3e-7 };
        if (mode === 'chain' && id !== 'tfjs-webgl') {
          r.compute = { wallStatus: 'ok', wallMsPerPass: perPassMs / 2, wallTimesMs: [perPassMs / 2], wallBatch: 1, wallRelFrobenius: 3e-7,
            gpuStatus: 'ok', gpuMsPerPass: perPassMs / 4, gpuRunsMs: [[perPassMs]], gpuRelFrobenius: 3e-7 };
        }
        records.push(r);
      }
    }
  }
  return {
    schema: 1, date: '2026-11-24T00:00:00Z', label: 'h100', params: { sizes: [1024, 2048], passes: 4, repeats: 5, capS: 20, minSampleMs: 25, skipFactor: 3, seed: 1, heatMs: 1500 }, systems, records,
    env: { renderer: 'ANGLE (NVIDIA, Vulkan 1.4.312 (NVIDIA H100 80GB HBM3))', browserFlags: ['--enable-unsafe-webgpu', '--enable-webgpu-developer-features'],
      webgpuTimestamps: { timestampQuery: true, quantised: false, quantumNs: 32 },
      chainExtras: { wall: 'compute only, wall clock: …', gpu: 'GPU timestamps: …' } },
  };
}

test('the report compares the WebGPU kernels with TF.js WebGPU and WebGL blocked8; the plot draws them', () => {
  const result = webgpuResult();
  const md = markdownReport(result);
  assert.match(md, /### WebGPU side by side/);
  // n = 2048, chain per pass with transfers: global 1000, tiled16 4000, register 20000, best register, TF.js WebGPU 10000 → 2.00×, blocked8 500 → 40.00×
  assert.match(md, /\| 2048 \| 1000 \| 4000 \| 20000 \| 20000 \(register\) \| 10000 \| \*\*2\.00×\*\* \| 500 \| 40\.00× \|/);
  // the compute-only tables: wall (2× the chain rate) and GPU timestamps (4×)
  assert.match(md, /chain, compute only, wall clock[^\n]*\n\n[^\n]*\n[^\n]*\n\| 1024 \| 1000 \| 4000 \| 20000 \| 20000 \(register\) \| 10000 \| \*\*2\.00×\*\*/);
  assert.match(md, /chain, compute only, GPU timestamps[^\n]*\n\n[^\n]*\n[^\n]*\n\| 1024 \| 2000 \| 8000 \| 40000 \| 40000 \(register\) \| 20000 \| \*\*2\.00×\*\* \| 1000 \| 40\.00× \|/);
  assert.match(md, /\| 2048 \| gpgpu WebGPU register \| [^|]+ \| [^|]+ \| [^|]+ \| 3\.00e-7 \/ 3\.00e-7 \|/);
  assert.match(md, /WebGPU timestamp queries: not quantised/);
  assert.match(md, /browser flags: --enable-unsafe-webgpu --enable-webgpu-developer-features/);
  assert.match(md, /chain, compute only, wall clock:[^\n]*\(this run: heat = 1500 ms\)/, 'the heat a run used is in its report');
  assert.doesNotMatch(md, /undefined|NaN/);
  const svg = renderPlot(result);
  for (const label of ['gpgpu WebGPU global', 'gpgpu WebGPU tiled16', 'gpgpu WebGPU register', 'TF.js WebGPU data()']) {
    assert.ok(svg.includes(`>${label}</text>`), `${label} in the legend`);
  }
  assert.match(svg, /chain, compute only: GPU timestamps/);
  // A result from before the WebGPU systems renders as it did: no WebGPU section, two panels.
  const old = JSON.parse(readFileSync(join(RESULTS, '2026-11-23-swiftshader.json'), 'utf8'));
  assert.doesNotMatch(markdownReport(old), /WebGPU side by side/);
  assert.doesNotMatch(renderPlot(old), /compute only/);
});

test('the CUDA report\'s table (GPU-resident part of the blocks bench) shows each row beside the K40 and what was left out', async () => {
  const { cudaReportMarkdown } = await import('../../www/bench/blocks-report.js');
  const table = JSON.parse(readFileSync(join(RESULTS, '2026-12-06-cuda-report-swiftshader.json'), 'utf8'));
  assert.deepEqual(table.rows.map((r) => [r.n, r.m, r.k]), [[256, 4, 1000], [2048, 8, 10000], [4096, 4, 100000]]);
  for (const r of table.rows) {
    for (const key of ['products', 'seconds', 'k40Seconds', 'maxRelError', 'wasmPeakBytes', 'gpuBytes']) assert.ok(Number.isFinite(r[key]), `${r.n}: ${key}`);
    assert.ok(r.maxRelError < 1e-5, `${r.n}: ${r.maxRelError}`);
  }
  const md = cudaReportMarkdown(table);
  assert.match(md, /\| 4096 \| 4 \| 100000 \| 9767836 \| sparse \(auto\) \| 60\.3 \| 3\.913 \|/);
  assert.match(md, /\| 16384 \| 4 \| 10000000 \| – \| \| left out: n > reportMaxN = 4096 \| 321\.053 \|/);
});
