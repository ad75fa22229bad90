// Where a browser differs from the Chromium the other tests run: a hardware WebGPU
// adapter whose device cannot be had ('auto' falls back to WebGL2 and says why). Made
// here by stubbing the browser before the page's scripts run.
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
 * rejects ('reject') or gives a device already destroyed ('lost').
 */
function stubAdapter(mode) {
  const gpu = navigator.gpu;
  const request = gpu.requestAdapter.bind(gpu);
  const info = { vendor: 'stub', architecture: 'stub-gpu', device: '', description: 'a stubbed hardware adapter', isFallbackAdapter: false };
  gpu.requestAdapter = async (options) => {
    const real = await request(options);
    return real && new Proxy(real, {
      get(target, key) {
        if (key === 'info') return info;
        if (key === 'requestDevice') {
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
  await page.context().close();
});
