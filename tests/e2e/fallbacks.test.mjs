// Where a browser differs from the Chromium the other tests run: a hardware WebGPU
// adapter whose device cannot be had ('auto' falls back to WebGL2 and says why), and
// no wasm SIMD (the pages say at once which browsers work). Each made here by stubbing
// the browser before the page's scripts run.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

/**
 * In the page, before its scripts: navigator.gpu.requestAdapter gives the real adapter
 * dressed as a hardware one (so 'auto' asks it for a device), whose requestDevice
 * rejects ('reject') or gives a device already destroyed ('lost'); or ('unnamed') as
 * the software adapter Firefox gives, whose info names nothing.
 */
function stubAdapter(mode) {
  const gpu = navigator.gpu;
  const request = gpu.requestAdapter.bind(gpu);
  const info = mode === 'unnamed'
    ? { vendor: '', architecture: '', device: '', description: '', isFallbackAdapter: true }
    : { vendor: 'stub', architecture: 'stub-gpu', device: '', description: 'a stubbed hardware adapter', isFallbackAdapter: false };
  gpu.requestAdapter = async (options) => {
    const real = await request(options);
    return real && new Proxy(real, {
      get(target, key) {
        if (key === 'info') return info;
        if (key === 'requestDevice' && mode !== 'unnamed') {
          if (mode === 'reject') return () => Promise.reject(new DOMException('stubbed: no device today', 'OperationError'));
          return async (descriptor) => { const d = await target.requestDevice(descriptor); d.destroy(); return d; };
        }
        const v = Reflect.get(target, key);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  };
}

const FALLBACKS = [
  ['reject', /^requestDevice\(\) failed: stubbed: no device today$/],
  ['lost', /^the WebGPU device was lost before its first use: Destroyed: /],
];

for (const [mode, why] of FALLBACKS) {
  test(`'auto' on a hardware adapter whose device is ${mode === 'reject' ? 'refused' : 'lost at once'}: WebGL2, and why`, async () => {
    const page = await openPage(browser, `${server.origin}/index.html?n=8`, undefined, { init: stubAdapter, initArg: mode });
    assert.equal(await waitForStatus(page), 'done');
    // The library: info() names the reason.
    const made = await page.evaluate(async () => {
      const { default: init, Gpgpu } = await import('/www/pkg/gpgpu_matrix.js');
      await init();
      const g = await Gpgpu.create({ backend: 'auto' });
      const i = g.info();
      const r = await g.squareAsync(2, new Float32Array([1, 2, 3, 4]));
      const explicit = await Gpgpu.create({ backend: 'webgl' });
      const out = { backend: g.backend, fallback: i.fallback, square: [...r], plain: 'fallback' in explicit.info() };
      g.free();
      explicit.free();
      return out;
    });
    assert.equal(made.backend, 'webgl');
    assert.match(made.fallback, why);
    assert.deepEqual(made.square, [7, 10, 15, 22]);
    assert.equal(made.plain, false, 'a WebGL2 asked for by name has no fallback to tell');
    // The page: its note says WebGPU could not be used, and why.
    const notes = await page.$eval('#notes', (n) => ({ hidden: n.hidden, text: n.textContent }));
    assert.equal(notes.hidden, false);
    assert.match(notes.text, /backend=auto — WebGPU could not be used \(/);
    assert.match(notes.text, mode === 'reject' ? /requestDevice\(\) failed: stubbed: no device today/ : /lost before its first use/);
    assert.match(notes.text, /WebGL2 runs instead/);
    await page.screenshot({ path: join(ARTIFACTS, `fallback-${mode}.png`) });
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  });
}

test('a software adapter that gives no name (as Firefox\'s does) is said to give none', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8`, undefined, { init: stubAdapter, initArg: 'unnamed' });
  assert.equal(await waitForStatus(page), 'done');
  assert.match(await page.textContent('#backend-help'), /Here the browser's WebGPU adapter \(it gives no name\) is a software one, running on the CPU: auto → webgl\.$/);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test("'auto' on SwiftShader's software adapter falls back from nothing: no reason given", async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8`);
  assert.equal(await waitForStatus(page), 'done');
  const fallback = await page.evaluate(async () => {
    const { default: init, Gpgpu } = await import('/www/pkg/gpgpu_matrix.js');
    await init();
    const g = await Gpgpu.create({ backend: 'auto' });
    const out = [g.backend, 'fallback' in g.info()];
    g.free();
    return out;
  });
  assert.deepEqual(fallback, ['webgl', false]);
  assert.equal(await page.evaluate(() => window.gpgpuNoSimd), undefined);
  await page.context().close();
});

/**
 * In the page, before its scripts: WebAssembly.validate says no to any module (as a
 * browser without SIMD does to the probe); when body[data-status] first turns to
 * 'error' is kept in window.__errorAt (ms since navigation).
 */
function noSimd() {
  WebAssembly.validate = () => false;
  new MutationObserver(() => {
    if (window.__errorAt === undefined && document.body?.dataset.status === 'error') window.__errorAt = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-status'] });
}

const PAGES = [
  ['index.html', '#banner'],
  ['index.html?backend=cpu', '#banner'],
  ['www/bench/index.html', '#status'],
  ['www/bench/index.html?suite=lu', '#status'],
  ['www/lab.html', '#lab-notice'],
];

for (const [path, where] of PAGES) {
  test(`no wasm SIMD: ${path} says which browsers work within a second`, async () => {
    const wasm = [];
    const page = await openPage(browser, `${server.origin}/${path}`, undefined, {
      init: noSimd,
      setup: (c) => c.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(r.url()); }),
    });
    await page.waitForFunction(() => window.__errorAt !== undefined, null, { timeout: 5000 });
    const at = await page.evaluate(() => window.__errorAt);
    assert.ok(at < 1000, `the message came after ${at} ms`);
    const text = await page.$eval(where, (e) => e.textContent);
    assert.match(text, /no WebAssembly SIMD/);
    assert.match(text, /Chrome and Edge 91 or later, Firefox 89 or later, and Safari 16\.4 or later/);
    assert.match(text, /Update this browser, or open the page in one of those/);
    // And it stays so: nothing starts behind it.
    await page.waitForTimeout(1500);
    assert.equal(await page.evaluate(() => document.body.dataset.status), 'error');
    assert.match(await page.$eval(where, (e) => e.textContent), /no WebAssembly SIMD/);
    assert.deepEqual(wasm, [], 'the wasm is not fetched');
    if (where !== '#status') assert.equal(await page.$eval(where, (b) => b.hidden), false);
    if (where === '#banner') {
      assert.equal(await page.$eval('#banner', (b) => b.hidden), false);
      assert.match(await page.$eval('#status', (e) => e.textContent), /^Not started: this browser has no WebAssembly SIMD/);
      assert.equal(await page.isDisabled('#run'), true);
      if (path === 'index.html') await page.screenshot({ path: join(ARTIFACTS, 'no-simd.png') });
    }
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  });
}
