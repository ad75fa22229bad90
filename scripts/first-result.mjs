#!/usr/bin/env node
// The page's time to its first result: loads index.html (its default configuration, or
// QUERY) in headless Chromium `--runs` times, each in a fresh context (nothing cached:
// serve.py sends no-store), and prints the median time from navigation start to the
// moment the page reports `done`, and to the library's init() (the wasm compiled).
// Used to check that a smaller wasm (bench/NOTES.md, "wasm size") did not slow the page.
//
//   node scripts/first-result.mjs [QUERY] [--runs 7] [--pkg dirA,dirB]
// --pkg: candidate wasm-bindgen outputs (gpgpu_matrix.js + gpgpu_matrix_bg.wasm of the
// same source, built differently), copied in turn into www/pkg before each load, so that
// every candidate sees the same machine load (this machine is shared); www/pkg's own
// files are put back at the end. After each load the Rust side's heaviest CPU work is
// timed too (a block-sparse matrix built, its symbolic product plan, and back to dense),
// since a size-optimised build could slow it where the page's first result would not show it.
import { copyFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM_ARGS, launchBrowser, openPage, ROOT, startServer } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
let runs = 7;
let query = '';
let candidates = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--runs') runs = Number(args[++i]);
  else if (args[i] === '--pkg') candidates = args[++i].split(',');
  else if (args[i] === '-h' || args[i] === '--help') {
    console.log('node scripts/first-result.mjs [QUERY] [--runs 7] [--pkg dirA,dirB]');
    process.exit(0);
  } else query = args[i].replace(/^\?/, '');
}
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number from 1 up');

// Runs in the page before its scripts: stamps the first `done` (and `error`) status.
function stamp() {
  const seen = () => {
    const s = document.body?.dataset.status;
    if ((s === 'done' || s === 'error') && !window.__firstResult) window.__firstResult = { status: s, ms: performance.now() };
  };
  new MutationObserver(seen).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-status'] });
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const server = await startServer();
const browser = await launchBrowser(CHROMIUM_ARGS); // as a visitor's page composites
const FILES = ['gpgpu_matrix.js', 'gpgpu_matrix_bg.wasm'];
const target = (f) => join(ROOT, 'www', 'pkg', f);
const saved = (f) => `${target(f)}.first-result-saved`;
if (candidates.length) for (const f of FILES) copyFileSync(target(f), saved(f));
if (!candidates.length) candidates = [null];
const done = candidates.map(() => []);
const wasm = candidates.map(() => []);
const cpu = candidates.map(() => []);
try {
  for (let r = 0; r < runs; r++) for (const [c, file] of candidates.entries()) {
    if (file) for (const f of FILES) copyFileSync(join(file, f), target(f));
    const page = await openPage(browser, `${server.origin}/index.html${query ? `?${query}` : ''}`, undefined, { init: stamp });
    await page.waitForFunction(() => window.__firstResult, null, { timeout: 120_000, polling: 50 });
    const t = await page.evaluate(() => ({
      ...window.__firstResult,
      wasmMs: performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'))?.responseEnd ?? null,
    }));
    if (t.status !== 'done') throw new Error(`the page ended in ${t.status}: ${await page.textContent('#status')}`);
    // The Rust side's CPU work: the same module instance the page initialised.
    const probe = await page.evaluate(async () => {
      const { BlockSparse } = await import('./www/pkg/gpgpu_matrix.js');
      const n = 2048, m = 4, grid = n / m;
      const data = new Float32Array(n * n);
      let seed = 7;
      const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
      for (let bi = 0; bi < grid; bi++) for (let bj = 0; bj < grid; bj++) {
        if (rnd() < 0.05) for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) data[(bi * m + i) * n + bj * m + j] = 1 + i - j;
      }
      const t0 = performance.now();
      const a = BlockSparse.fromDense(n, n, data, m);
      const plan = BlockSparse.productPlan(a, a);
      const dense = a.toDense();
      const ms = performance.now() - t0;
      a.free();
      if (dense.length !== n * n || !plan.products) throw new Error('probe gave nothing');
      return ms;
    });
    cpu[c].push(probe);
    done[c].push(t.ms);
    wasm[c].push(t.wasmMs);
    console.log(`${file ?? 'www/pkg'} run ${r + 1}: first result at ${t.ms.toFixed(0)} ms (wasm fetched at ${t.wasmMs?.toFixed(0)} ms), CPU probe ${probe.toFixed(0)} ms`);
    await page.context().close();
  }
} finally {
  if (candidates[0]) for (const f of FILES) renameSync(saved(f), target(f));
  await browser.close();
  server.stop();
}
for (const [c, file] of candidates.entries()) {
  const d = done[c];
  console.log(`${file ?? 'www/pkg'}: median over ${runs}: first result ${median(d).toFixed(0)} ms, wasm fetched ${median(wasm[c]).toFixed(0)} ms, CPU probe ${median(cpu[c]).toFixed(0)} ms (first result min ${Math.min(...d).toFixed(0)}, max ${Math.max(...d).toFixed(0)})`);
}
