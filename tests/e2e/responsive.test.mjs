// Never frozen: while a long GPU pass runs the page keeps painting and Cancel works;
// the float64 reference runs in a Web Worker and reports its progress.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

test('the page keeps painting during a long pass, and Cancel stops the chain', async () => {
  // n = 1024 with the packed kernel: about a second per pass on SwiftShader.
  const page = await openPage(browser, `${server.origin}/index.html?n=1024&kernel=packed&op=repeat&k=3&ref=0`);
  await page.waitForFunction(() => /Pass 1 of 3 running/.test(document.getElementById('status').textContent), null, { timeout: 60_000, polling: 20 });
  // Ten animation frames while the GPU works on the pass.
  const frames = await page.evaluate(() => new Promise((resolve) => {
    const t0 = performance.now();
    let count = 0;
    const tick = () => { if (++count === 10) resolve(performance.now() - t0); else requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  }));
  const stillRunning = await page.evaluate(() => document.body.dataset.passesDone);
  assert.ok(frames < 1500, `10 frames took ${frames} ms`);
  assert.equal(await page.isEnabled('#cancel'), true);
  await page.focus('#cancel'); // from the keyboard: the focus must not fall to <body> with it
  await page.keyboard.press('Enter');
  assert.equal(await waitForStatus(page, 10_000, ['cancelled', 'done', 'error']), 'cancelled');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'run', 'Cancel, now disabled, hands the focus to Run');
  const r = await page.evaluate(() => window.__results);
  assert.equal(r.status, 'cancelled');
  assert.ok(r.passesDone < 3, `cancelled after ${r.passesDone} passes (${stillRunning} when the frames were counted)`);
  assert.match(await page.textContent('#status'), /Cancelled after \d of 3 passes/);
  // The output picture no longer claims a pass is running.
  assert.doesNotMatch(await page.textContent('#heatmaps figure:nth-child(2) figcaption'), /running/);
  assert.equal(await page.isEnabled('#run'), true);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('the float64 reference runs in a Web Worker with a progress bar', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=512&kernel=blocked8`, undefined, {
    init: () => {
      window.__refProgress = [];
      new MutationObserver(() => {
        const bar = document.getElementById('ref-progress');
        if (bar) window.__refProgress.push(bar.value);
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['value'] });
    },
  });
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const seen = await page.evaluate(() => window.__refProgress);
  assert.ok(seen.some((v) => v > 0 && v < 1), `intermediate progress values: ${seen.join(', ')}`);
  assert.equal(seen[seen.length - 1], 1);
  const r = await page.evaluate(() => window.__results);
  assert.equal(r.reference, 'done');
  assert.ok(r.totals.jsMs > 0);
  assert.ok(r.metrics.relFrobenius <= 1e-5, String(r.metrics.relFrobenius));
  assert.match(await page.textContent('#heatmaps figure:nth-child(1) .hm-sampling'), /Downsampled: 512×512 entries on 384×384 pixels/);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('Run and Cancel clicked in quick succession never end in an error', async () => {
  // A cancelled run can be inside an await when its GPU run is freed; what it throws
  // then must not show up as the page's error (a new-user trial got PAGE_ERROR ~1 in 15).
  const page = await openPage(browser, `${server.origin}/index.html?n=128&op=repeat&k=4&kernel=blocked8&ref=0`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  let seed = 7;
  const delay = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % 60; };
  for (let i = 0; i < 30; i++) {
    await page.evaluate(() => document.getElementById('run').click());
    await page.waitForTimeout(delay());
    await page.evaluate(() => { const c = document.getElementById('cancel'); if (!c.disabled) c.click(); });
    await page.waitForTimeout(delay());
    const status = await page.evaluate(() => document.body.dataset.status);
    assert.notEqual(status, 'error', `round ${i}: ${await page.textContent('#status')} ${await page.textContent('#banner')}`);
  }
  await page.waitForFunction(() => document.body.dataset.status !== 'running', null, { timeout: 30_000, polling: 50 });
  assert.notEqual(await page.evaluate(() => document.body.dataset.status), 'error', await page.textContent('#banner'));
  assert.equal(await page.isHidden('#banner'), true, await page.textContent('#banner'));
  // And the page still works.
  await page.click('#run');
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('Cancel while only the float64 reference is left keeps the GPU result', async () => {
  // n = 1024: the GPU is done long before the JS float64 loop (≈ 2 s in the worker).
  const page = await openPage(browser, `${server.origin}/index.html?n=1024&kernel=blocked8&op=square`);
  await page.waitForFunction(() => /GPU done; .*float64 reference/.test(document.getElementById('status').textContent), null, { timeout: 60_000, polling: 20 });
  await page.click('#cancel');
  assert.equal(await waitForStatus(page, 30_000, ['cancelled', 'done', 'error']), 'done', await page.textContent('#status'));
  const r = await page.evaluate(() => window.__results);
  assert.equal(r.reference, 'cancelled');
  assert.equal(r.passesDone, 1);
  assert.match(await page.textContent('#status'), /^Done: R = M·M, n = 1024 .*float64 reference cancelled/);
  assert.match(await page.textContent('#heatmaps figure:nth-child(2) figcaption'), /^Result/);
  assert.match(await page.textContent('#heatmaps figure:nth-child(3) figcaption'), /reference was cancelled/);
  assert.equal(await page.isEnabled('#run'), true);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});
