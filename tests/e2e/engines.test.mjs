// The library and the teaching page in the engines beside Chromium (tests/e2e/engines.mjs:
// Firefox ESR and WebKitGTK), on each backend the engine has here. The CPU backend's Web
// Workers failed in both ("wasm is null": a job reached a worker before its instance was
// made); these tests would have caught it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { ROOT, startServer } from './harness.mjs';
import { ENGINES } from './engines.mjs';
import { checkProduct, DIMS, inPage } from './product.mjs';
import { AXE_PAGES, assertAxeClean } from './a11y.mjs';
import { loseOnCue } from './lose.mjs';
import { LAB_CHECKS, PAGE_CHECKS } from './engine-pages.mjs';

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
    // Figures and copy, errors and notes, the lab's exercises (engine-pages.mjs), each on
    // the backend it needs; skipped with the engine's reason where it has none.
    for (const check of [...PAGE_CHECKS, ...LAB_CHECKS]) {
      test(check.name, { skip: engine.backends[check.needs] || false }, async () => {
        const tab = await engine.open(`${server.origin}${check.url}`);
        await check.run(tab, (line) => console.log(`${line} (${engine.name})`), engine);
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
    // Firefox fails a lost device's work before `device.lost` resolves (Gpu::settle waits
    // for it): a loss in the middle of a lab check is still DEVICE_LOST, and the page
    // recovers. The device is destroyed at the check's third submission (lab-lost.test.mjs).
    test('the lab: a device lost during a check is DEVICE_LOST, and the next check passes', { skip: engine.backends.webgpu || false }, async () => {
      const code = deflateRawSync(readFileSync(join(ROOT, 'www', 'lab', 'exercises', 'global.solution.wgsl'))).toString('base64url');
      const tab = await engine.open(`${server.origin}/www/lab.html?exercise=global&code=${code}`);
      const check = (loseAfter) => tab.evaluate(async (k) => {
        window.loseAfter = k;
        delete document.body.dataset.status;
        document.getElementById('lab-check').click();
        const until = Date.now() + 150_000;
        while (!['done', 'error'].includes(document.body.dataset.status) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
        return { status: document.body.dataset.status, lost: window.lost, result: window.labResult, notice: document.getElementById('lab-notice').textContent };
      }, loseAfter);
      await tab.evaluate(async () => {
        while (document.body.dataset.status !== 'ready') await new Promise((r) => setTimeout(r, 100));
      });
      await tab.evaluate(loseOnCue);
      const lost = await check(3);
      assert.deepEqual([lost.status, lost.lost, lost.result.error.code, lost.result.error.recovered], ['error', true, 'DEVICE_LOST', true], JSON.stringify(lost));
      assert.match(lost.notice, /stop responding \(DEVICE_LOST\).*The page has recovered/);
      const next = await check(0);
      assert.deepEqual([next.status, next.result.verdict, next.result.error], ['done', 'pass', undefined], JSON.stringify(next.result));
      assert.deepEqual(tab.errors, []);
      await tab.close();
    });
  });
}
