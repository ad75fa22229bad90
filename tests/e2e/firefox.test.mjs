// The page and the library in Firefox ESR (Debian's firefox-esr, driven by puppeteer-core
// over WebDriver BiDi; no browser download). Headless Firefox has no WebGL here and no
// WebGPU without preferences, so these tests run the CPU backend: its Web Workers failed
// in Firefox ("wasm is null": a job reached a worker before its instance was made).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startServer } from './harness.mjs';
import { checkProduct, DIMS, inPage } from './cpu-product.mjs';

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
  checkProduct(await p.evaluate(inPage, DIMS));
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
