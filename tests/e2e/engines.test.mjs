// The library and the teaching page in the engines beside Chromium (tests/e2e/engines.mjs:
// Firefox ESR and WebKitGTK), on each backend the engine has here. The CPU backend's Web
// Workers failed in both ("wasm is null": a job reached a worker before its instance was
// made); these tests would have caught it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer } from './harness.mjs';
import { ENGINES } from './engines.mjs';
import { checkProduct, DIMS, inPage } from './product.mjs';
import { AXE_PAGES, assertAxeClean } from './a11y.mjs';

/** The demo's outcome: data-status, the status line, the backend that ran and the clock's step. */
async function demo() {
  const until = Date.now() + 150_000;
  while (!['done', 'error'].includes(document.body.dataset.status) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    status: document.body.dataset.status,
    text: document.querySelector('#status')?.textContent,
    backend: window.__results?.backend,
    resolution: window.__results?.timerResolutionMs,
    clockNote: document.querySelector('#summary-clock')?.textContent,
  };
}

let server;
before(async () => { server = await startServer(); });
after(() => server?.stop());

for (const engine of ENGINES) {
  describe(engine.name, { skip: engine.skip }, () => {
    before(() => engine.start());
    after(() => engine.stop());
    // Axe-core's pages and states are the Chromium test's (a11y.mjs); the teaching page's
    // first state runs every part, which is this engine's check of the sections too.
    for (const { page: what, url, states } of AXE_PAGES) {
      const parts = url.startsWith('/index.html') ? "every section's parts run to their end, none with an error (the backend 'auto' picks); " : '';
      test(`${parts}axe-core: no serious or critical violation on ${what}`, async () => {
        const tab = await engine.open(`${server.origin}${url}`);
        const seen = await assertAxeClean(tab, `${what} (${engine.name})`, states);
        if (seen.parts) {
          assert.ok(seen.parts.ran.length >= 15, seen.parts.ran.join(', '));
          assert.deepEqual(seen.parts.failed, []);
        }
        assert.deepEqual(tab.errors, []);
        await tab.close();
      });
    }
    for (const [backend, absent] of Object.entries(engine.backends)) {
      const skip = absent || false;
      if (absent) {
        // The skip's reason holds: when the engine gains the backend, this says so.
        test(`${backend} is absent here, as the skipped tests say`, async () => {
          const tab = await engine.open(`${server.origin}/index.html?backend=cpu&n=4`);
          const has = await tab.evaluate(async (b) => (b === 'webgpu' ? 'gpu' in navigator : true), backend);
          assert.equal(has, false, `${engine.name} has ${backend} now: run its tests (tests/e2e/engines.mjs)`);
          await tab.close();
        });
      }
      test(`a product on ${backend} equals the float64 reference`, { skip }, async () => {
        const tab = await engine.open(`${server.origin}/index.html?backend=${backend}&n=4`);
        checkProduct(await tab.evaluate(inPage, [DIMS, backend]), backend);
        assert.deepEqual(tab.errors, []);
        await tab.close();
      });
      test(`the teaching page's demo runs on ${backend}, checked against float64, and states the timer's resolution`, { skip }, async (t) => {
        const tab = await engine.open(`${server.origin}/index.html?backend=${backend}&n=64`);
        const r = await tab.evaluate(demo);
        assert.equal(r.status, 'done', r.text);
        assert.equal(r.backend, backend, r.text);
        assert.match(r.text, /of 4[,\u202f ]?096 entries correctly rounded/);
        // This engine's own clock (www/ui/clock.js), stated under the summary; the JS
        // float64 time in the status line has no digit finer than it.
        t.diagnostic(`${engine.name}: performance.now() resolution ${r.resolution} ms (cross-origin isolated page)`);
        assert.ok(r.resolution > 0 && r.resolution <= 50, String(r.resolution));
        assert.ok(r.clockNote.includes(`resolution, ${Number(r.resolution.toPrecision(2))} ms`), r.clockNote);
        const js = r.text.match(/JS float64 (?:< )?([\d.]+) ms/)[1];
        assert.ok((js.split('.')[1] ?? '').length <= Math.max(0, Math.ceil(-Math.log10(r.resolution) - 1e-9)), `${js} ms with a ${r.resolution} ms clock`);
        assert.deepEqual(tab.errors, []);
        await tab.close();
      });
    }
  });
}
