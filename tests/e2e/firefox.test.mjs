// The page and the library in Firefox ESR (Debian's firefox-esr, driven by puppeteer-core
// over WebDriver BiDi; no browser download). Headless Firefox has no WebGL here and no
// WebGPU without preferences, so these tests run the CPU backend: its Web Workers failed
// in Firefox ("wasm is null": a job reached a worker before its instance was made).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startServer } from './harness.mjs';
import { multiply } from '../../www/reference.js';

const FIREFOX = '/usr/bin/firefox-esr';
const skip = existsSync(FIREFOX) ? false : `Firefox ESR is not installed (${FIREFOX}; scripts/setup.sh test installs it)`;

let server, browser;
before(async () => {
  if (skip) return;
  const { default: puppeteer } = await import('puppeteer-core');
  server = await startServer();
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, protocol: 'webDriverBiDi' });
});
after(async () => {
  await browser?.close();
  server?.stop();
});

async function page(url) {
  const p = await browser.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(e.message));
  await p.goto(url);
  return { p, errors };
}

test('the CPU backend multiplies on its Web Workers in Firefox, as the float64 reference does', { skip }, async () => {
  const { p, errors } = await page(`${server.origin}/index.html?backend=cpu&n=4`);
  const got = await p.evaluate(async () => {
    const m = await import('/www/pkg/gpgpu_matrix.js');
    await m.default();
    const g = await m.Gpgpu.create({ backend: 'cpu', threads: 2 });
    // Rows of C split between the two workers; small integers, so every entry is exact.
    const [rows, inner, cols] = [37, 19, 23];
    const a = Float32Array.from({ length: rows * inner }, (_, i) => (i * 7) % 5 - 2);
    const b = Float32Array.from({ length: inner * cols }, (_, i) => (i * 3) % 7 - 3);
    try {
      const c = await g.multiplyAsync(rows, inner, cols, a, b);
      return { a: Array.from(a), b: Array.from(b), c: Array.from(c), threads: g.info().threads };
    } catch (e) {
      return { error: `${e.code} ${e.message}` };
    } finally {
      g.free();
    }
  });
  assert.equal(got.error, undefined, got.error);
  assert.equal(got.threads, 2);
  assert.deepEqual(got.c, Array.from(multiply(37, 19, 23, got.a, got.b)));
  assert.deepEqual(errors, []);
  await p.close();
});

test('the teaching page runs its demo on the CPU backend in Firefox', { skip }, async () => {
  const { p, errors } = await page(`${server.origin}/index.html?backend=cpu&n=64`);
  await p.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.status), { timeout: 120_000 });
  const status = await p.evaluate(() => [document.body.dataset.status, document.querySelector('#status')?.textContent]);
  assert.equal(status[0], 'done', status[1]);
  assert.match(status[1], /correctly rounded/);
  assert.deepEqual(errors, []);
  await p.close();
});
