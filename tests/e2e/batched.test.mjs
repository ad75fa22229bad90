// The "Many small problems at once" panel (issue 15, point 4): RANSAC at 30 %
// wrong matches finds a homography within 2 px of the true one, with both passes'
// GPU times (or "not timed"); batched 3×3 products and powers agree with float64;
// batched SVDs reconstruct A to 1e-5 with orthogonal U and V; the same on WebGPU;
// the panel's controls round-trip through the address; phone width; no console errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, launchBrowser, openPage, startServer, waitForStatus, pageWithHistory } from './harness.mjs';

let server, browser, page;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // A tiny main demo without the float64 worker: the panel has the GPU to itself.
  page = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
});
after(async () => { await browser?.close(); server?.stop(); });

/** Waits until part `id` (an element with data-status) is no longer running; returns its status. */
async function settled(p, id, timeout = 30_000) {
  await p.waitForFunction((id) => !['running', 'idle'].includes(document.getElementById(id)?.dataset.status), id, { timeout, polling: 50 });
  return p.getAttribute(`#${id}`, 'data-status');
}
const record = (p, part) => p.evaluate((part) => window.__batched?.[part], part);
const row = (p, table, key) => p.textContent(`#${table} tr[data-key="${key}"] td`);

async function ransacChecks(p, outliers, dev = 'GPU') {
  const r = await record(p, 'ransac');
  assert.equal(r.status, 'done');
  assert.equal(r.n, 300);
  assert.equal(r.outliers, Math.round(300 * outliers / 100));
  assert.equal(r.iterations, 2000);
  assert.ok(r.h && r.h.length === 9 && r.h[8] === 1, String(r.h));
  assert.ok(r.trueMapError < 2, `the found map is ${r.trueMapError} px from the true one`);
  assert.ok(r.cornerError < 2, `corners ${r.cornerError} px`);
  assert.ok(r.trueFound >= 0.9 * r.trueInliers, `${r.trueFound} of ${r.trueInliers} true inliers found`);
  assert.ok(r.countDiff <= 3, `GPU and float64 counts differ by ${r.countDiff}`);
  assert.ok(r.bestCount >= r.trueFound - 3 && r.bestCount <= r.n);
  for (const [key, ms] of [[`${dev} time, fit pass`, r.fitMs], [`${dev} time, scoring pass`, r.scoreMs]]) {
    const text = await row(p, 'batched-ransac-table', key);
    if (ms === null) assert.equal(text, 'not timed', key);
    else {
      assert.ok(ms > 0, `${key}: ${ms}`);
      assert.match(text, / ms$/, key);
    }
  }
  assert.match(await row(p, 'batched-ransac-table', 'the developer\'s log'), /3\.5–4 ms.*140 µs/);
  // The pictures: every correspondence drawn in both images, the two outlines in the view.
  assert.equal(await p.$$eval('#batched-ransac-src .pt', (x) => x.length), 300);
  assert.equal(await p.$$eval('#batched-ransac-dst .pt', (x) => x.length), 300);
  assert.equal(await p.$$eval('#batched-ransac-dst .pt.in, #batched-ransac-dst .pt.false', (x) => x.length), r.inliers);
  assert.ok(await p.$$eval('#batched-ransac-dst polyline.line-true', (x) => x.length) > 0);
  assert.ok(await p.$$eval('#batched-ransac-dst polyline.line-found', (x) => x.length) > 0);
  assert.equal(await p.$$eval('#batched-ransac-hist .bar.marked', (x) => x.length), 1);
  return r;
}

test('RANSAC at 30 % wrong matches: h within 2 px of the true H, both passes timed or "not timed"', async () => {
  await page.locator('#batched-ransac').scrollIntoViewIfNeeded(); // it may start on its own there
  await page.fill('#ransacOutliers', '30');
  await page.fill('#ransacNoise', '0.5');
  await page.fill('#ransacSeed', '7');
  await page.waitForFunction(() => document.getElementById('batched-ransac').dataset.status !== 'running', null, { timeout: 30_000 });
  await page.click('#batched-ransac-run');
  assert.equal(await settled(page, 'batched-ransac'), 'done', await page.textContent('#batched-ransac-status'));
  const r = await ransacChecks(page, 30);
  assert.deepEqual([r.noise, r.seed, r.backend], [0.5, 7, 'webgl']);
  // A rejected wrong match is a grey × in the pictures, and its key shows the same ×
  // (it showed a square, a mark the pictures do not use).
  assert.ok(await page.$$eval('#batched-ransac-dst .pt.out', (x) => x.length > 0 && x.every((p) => p.tagName === 'path')));
  assert.equal(await page.$eval('#batched-ransac-dst .key.out', (e) => e.tagName), 'path');
  // The status gives the map's error as the table does (it said "within 8.88e−1 px").
  const error = await row(page, 'batched-ransac-table', 'max error of the true inliers under h, against the true H');
  assert.match(error, /^\d\.\d{3} px$/, error);
  assert.match(await page.textContent('#batched-ransac-status'), new RegExp(`^Done on WebGL2: 2\u202F000 hypotheses, .* the found map within ${error} of the true one; `));
  const q = new URL(page.url()).searchParams;
  assert.deepEqual([q.get('ransacOutliers'), q.get('ransacNoise'), q.get('ransacSeed'), q.get('ransacIters')], [null, '0.5', '7', null], '30 % and 2000 are the defaults');
  await page.locator('#batched-ransac').screenshot({ path: join(ARTIFACTS, 'batched-ransac.png') });
});

test('a part pressed while RANSAC runs on its own waits for it: the products\' time holds no RANSAC work', async () => {
  const p = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`);
  assert.equal(await waitForStatus(p), 'done');
  // Every status line of the two parts, in order, as the page sets them.
  await p.evaluate(() => {
    window.__seen = [];
    const watch = (id) => new MutationObserver(() => window.__seen.push(`${id}: ${document.getElementById(`${id}-status`).textContent}`))
      .observe(document.getElementById(`${id}-status`), { childList: true, characterData: true, subtree: true });
    watch('batched-ransac');
    watch('batched-products');
  });
  await p.locator('#batched-ransac').scrollIntoViewIfNeeded(); // RANSAC starts on its own
  // The check that RANSAC runs, the press and the read of the products' status happen in
  // one task of the page: RANSAC cannot finish between them (it did, between a
  // waitForFunction and a click, in one slow run).
  const pressed = await p.evaluate(() => new Promise((resolve) => {
    const ransac = document.getElementById('batched-ransac');
    const tick = () => {
      if (ransac.dataset.status !== 'running') return setTimeout(tick, 5);
      document.getElementById('batched-products-run').click();
      resolve({
        ransac: ransac.dataset.status,
        status: document.getElementById('batched-products-status').textContent,
        state: document.getElementById('batched-products').dataset.status,
      });
    };
    tick();
  }));
  assert.deepEqual(pressed, { ransac: 'running', status: 'Waiting for RANSAC to finish…', state: 'running' });
  assert.equal(await p.isDisabled('#batched-products-run'), true, 'a second press does not queue a second run');
  assert.equal(await settled(p, 'batched-products', 60_000), 'done', await p.textContent('#batched-products-status'));
  assert.equal(await p.getAttribute('#batched-ransac', 'data-status'), 'done');
  const seen = await p.evaluate(() => window.__seen);
  const ransacDone = seen.findIndex((s) => s.startsWith('batched-ransac: Done'));
  const productsRun = seen.findIndex((s) => s.startsWith('batched-products: Running'));
  assert.ok(ransacDone >= 0 && ransacDone < productsRun, `the products ran after RANSAC was done: ${seen.join(' | ')}`);
  assert.deepEqual(p.problems(), []);
  await p.context().close();
});

test('batched 3×3 products and powers agree with float64', async () => {
  await page.fill('#prodBatch', '2000');
  await page.fill('#prodSeed', '5');
  await page.click('#batched-products-run');
  assert.equal(await settled(page, 'batched-products', 60_000), 'done', await page.textContent('#batched-products-status'));
  const r = await record(page, 'products');
  assert.deepEqual([r.batch, r.bigBatch, r.power, r.seed, r.perRow], [2000, 100000, 8, 5, 1365]);
  assert.ok(r.maxRelError < 1e-5, String(r.maxRelError));
  assert.ok(r.bigRelError < 1e-5, String(r.bigRelError));
  assert.ok(r.powerRelError < 1e-4, String(r.powerRelError));
  assert.ok(r.ms > 0 && r.bigMs > 0);
  assert.equal(await page.$$eval('#batched-products-output [data-product]', (x) => x.length), 3);
  assert.equal(await page.$$eval('#batched-c0 td', (x) => x.length), 9);
  assert.match(await row(page, 'batched-products-table', 'big'), /ms \(.+ per product; timer resolution [\d.]+ ms\)/);
  assert.equal(await page.$$eval('#batched-products-table td.bad', (x) => x.length), 0);
  assert.equal(new URL(page.url()).searchParams.get('prodSeed'), '5');
});

test('batched powers at p = 64: float32 rounding is "ok", an M^p that vanishes below float32 is no error of 1', async () => {
  // Each M has a largest entry of 1, but some have a small spectral radius: M^64 cancels
  // far below its factors, or below float32's 1.4e−45 (4 of 20 000 here). Measured
  // against the largest |M^p| that was an error of 1 (0 against 1e−46) marked "bad",
  // though the GPU's rounding was as small as float32's (bounded by |M|^p, 2e−6 here).
  const pp = await openPage(browser, `${server.origin}/index.html?n=4&ref=0&prodPower=64&prodBatch=20000`);
  assert.equal(await waitForStatus(pp), 'done', await pp.textContent('#status'));
  assert.equal(await settled(pp, 'batched-products', 90_000), 'done', await pp.textContent('#batched-products-status'));
  const r = await record(pp, 'products');
  assert.deepEqual([r.batch, r.power], [20000, 64]);
  assert.ok(r.powerRelError < 1e-5, String(r.powerRelError));
  assert.match(await row(pp, 'batched-products-table', 'power'), /relative to \|M\|\^64$/);
  assert.equal(await pp.$$eval('#batched-products-table td.bad', (x) => x.length), 0);
  assert.deepEqual(pp.problems(), []);
  await pp.context().close();
});

test('a small batch of products: its time per product in ms, not "1.36e+4 µs", and one product is "1 product"', async () => {
  await page.fill('#prodBatch', '1');
  await page.click('#batched-products-run');
  assert.equal(await settled(page, 'batched-products', 60_000), 'done', await page.textContent('#batched-products-status'));
  const r = await record(page, 'products');
  assert.equal(r.batch, 1);
  assert.ok(r.ms >= 1, `one call takes a millisecond or more here (${r.ms} ms)`);
  const batch = await row(page, 'batched-products-table', 'batch');
  assert.match(batch, /^[\d.]+ ms \([\d.]+ ms per product; timer resolution [\d.]+ ms\)$/, batch);
  assert.doesNotMatch(batch, /e\+/, batch);
  assert.match(await page.textContent('#batched-products-table tr[data-key="batch"] th'), /^1 productone pass, 9 fragments;/);
  assert.match(await page.textContent('#batched-products-status'), /^Done on WebGL2: 1 product in /);
  assert.match(await page.textContent('#batched-products-output'), /The first 1 of 1 product, entries/);
});

test('a batch of one SVD is "1 SVD" of "1×1", not "1 SVDs" of matrices', async () => {
  await page.fill('#svdBatch', '1');
  await page.fill('#svdRows', '1');
  await page.fill('#svdCols', '1');
  await page.click('#batched-svd-run');
  assert.equal(await settled(page, 'batched-svd', 60_000), 'done', await page.textContent('#batched-svd-status'));
  assert.match(await page.textContent('#batched-svd-status'), /^Done on WebGL2: 1 SVD of 1×1 in /);
  assert.match(await page.textContent('#batched-svd-table caption'), /^1 SVD of 1×1 matrix \(/);
  assert.match(await page.textContent('#batched-svd-output'), /how many of the 1 matrix needed/);
  assert.doesNotMatch(await page.textContent('#batched-svd-output'), /1 SVDs|1 matrices/);
  // Back to the fields the next test expects.
  await page.fill('#svdBatch', '2000');
  await page.fill('#svdRows', '9');
  await page.fill('#svdCols', '9');
});

test('batched SVD: A = UΣVᵀ to 1e-5, U and V orthogonal, σ decreasing, sweeps per matrix', async () => {
  await page.fill('#svdBatch', '300');
  await page.click('#batched-svd-run');
  assert.equal(await settled(page, 'batched-svd', 60_000), 'done', await page.textContent('#batched-svd-status'));
  const r = await record(page, 'svd');
  assert.deepEqual([r.batch, r.rows, r.cols], [300, 9, 9]);
  assert.ok(r.reconstruction < 1e-5, String(r.reconstruction));
  assert.ok(r.orthoV < 1e-5 && r.orthoU < 1e-4, `${r.orthoV} ${r.orthoU}`);
  assert.ok(r.sigmaError < 1e-5, String(r.sigmaError));
  assert.equal(r.decreasing, true);
  assert.equal(r.sweeps.capped, 0);
  assert.equal(r.sweeps.histogram.reduce((a, b) => a + b, 0), 300);
  assert.ok(r.sweeps.max >= 2 && r.sweeps.max < 30, String(r.sweeps.max));
  assert.ok(await page.$$eval('#batched-svd-sweeps .bar', (x) => x.length) >= r.sweeps.max);
  assert.equal(await page.$$eval('#batched-svd-table td.bad', (x) => x.length), 0);
  // Columns above rows: refused before the GPU is asked.
  await page.fill('#svdCols', '12');
  await page.click('#batched-svd-run');
  assert.equal(await settled(page, 'batched-svd'), 'error');
  assert.match(await page.textContent('#batched-svd-status'), /columns must not exceed rows \(12 > 9\)/);
  await page.fill('#svdCols', '9');
  assert.deepEqual(page.problems(), []);
});

test('a long batched SVD (20 000 of 32×16) goes in calls with a time estimate, and Stop by keyboard ends it between two calls', async () => {
  const p = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  assert.equal(await waitForStatus(p), 'done');
  await p.fill('#svdRows', '32');
  await p.fill('#svdCols', '16');
  await p.fill('#svdBatch', '20000');
  await p.focus('#batched-svd-run');
  await p.keyboard.press('Enter');
  // After the first call, the status says how far it is and about how long is left.
  await p.waitForFunction(() => / of 20 000 SVDs done and checked in \d+ s; about \d+ (s|min) left/.test(document.getElementById('batched-svd-status').textContent), null, { timeout: 60_000, polling: 50 });
  assert.equal(await p.evaluate(() => document.activeElement.id), 'batched-svd-stop', 'Run is disabled: the focus is on Stop');
  await p.keyboard.press('Enter');
  assert.match(await p.textContent('#batched-svd-status'), /^Stopping: the call under way \(SVDs [\d ]+–[\d ]+\) finishes first…$/);
  assert.equal(await p.getAttribute('#batched-svd', 'data-status'), 'running');
  await p.keyboard.press('Enter'); // a second press changes nothing
  assert.equal(await settled(p, 'batched-svd', 60_000), 'cancelled', await p.textContent('#batched-svd-status'));
  const r = await record(p, 'svd');
  assert.equal(r.status, 'cancelled');
  assert.ok(r.batch >= 1 && r.batch < 20000 && r.calls >= 2, JSON.stringify([r.batch, r.calls]));
  assert.equal(r.sweeps.histogram.reduce((x, y) => x + y, 0), r.batch, 'the sweeps are of the SVDs done');
  assert.ok(r.reconstruction < 1e-5 && r.orthoV < 1e-5 && r.orthoU < 1e-4, JSON.stringify(r));
  const done = r.batch.toLocaleString('en').replaceAll(',', ' ');
  assert.match(await p.textContent('#batched-svd-status'), new RegExp(`^Stopped on WebGL2 after ${done} of 20 000 SVDs; the results are of those: ${done} SVDs of 32×16 in .* \\(${r.calls} calls\\)`));
  assert.match(await p.textContent('#batched-svd-table caption'), new RegExp(`stopped, the first ${done} of 20 000$`));
  assert.match(await p.textContent('#batched-svd-table tr[data-key="time"] th'), new RegExp(`${r.calls} calls of await gpu\\.svdBatchedAsync`));
  assert.equal(await p.evaluate(() => document.activeElement.id), 'batched-svd-run', 'then back on Run');
  assert.equal(await p.isDisabled('#batched-svd-stop'), true);
  assert.deepEqual(p.problems(), []);
  await p.context().close();
});

test('the panel\'s controls round-trip through the address; a link runs the parts it names', async () => {
  const url = page.url();
  const q = new URL(url).searchParams;
  assert.deepEqual([q.get('ransacNoise'), q.get('ransacSeed'), q.get('prodSeed'), q.get('svdBatch'), q.get('n')], ['0.5', '7', '5', '300', '8']);
  const link = new URL(await page.getAttribute('#permalink', 'href'), url).searchParams;
  for (const key of ['ransacNoise', 'ransacSeed', 'prodSeed', 'svdBatch']) assert.equal(link.get(key), q.get(key), key);
  const again = await openPage(browser, url);
  assert.equal(await waitForStatus(again), 'done', await again.textContent('#status'));
  for (const part of ['ransac', 'products', 'svd']) assert.equal(await settled(again, `batched-${part}`, 60_000), 'done', part);
  assert.deepEqual(await again.evaluate(() => ['ransacNoise', 'ransacOutliers', 'ransacSeed', 'prodSeed', 'svdBatch', 'svdRows'].map((id) => document.getElementById(id).value)),
    ['0.5', '30', '7', '5', '300', '9']);
  const [r1, r2] = [await record(page, 'ransac'), await record(again, 'ransac')];
  assert.deepEqual(r2.h, r1.h, 'the same seed, the same homography');
  assert.equal((await record(again, 'svd')).batch, 300);
  assert.equal(again.url(), url, 'restoring wrote nothing new');
  assert.deepEqual(again.problems(), []);
  await again.context().close();

  // Parameters that do not parse: a note each, and the defaults.
  const bad = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&ransacOutliers=95&svdCols=40&prodBatch=x`);
  assert.equal(await waitForStatus(bad), 'done');
  const notes = await bad.$$eval('#notes li', (l) => Object.fromEntries(l.map((x) => [x.dataset.param, x.textContent])));
  assert.match(notes.ransacOutliers, /must be a percentage from 0 to 80; the default ransacOutliers=30 is used/);
  assert.match(notes.svdCols, /must be a whole number from 1 to 16; the default svdCols=9 is used/);
  assert.match(notes.prodBatch, /must be a whole number from 1 to 200000; the default prodBatch=2000 is used/);
  assert.deepEqual([await bad.inputValue('#ransacOutliers'), await bad.inputValue('#svdCols'), await bad.inputValue('#prodBatch')], ['30', '9', '2000']);
  assert.deepEqual(bad.problems(), []);
  await bad.context().close();
});

test('Back to an address with other fields: the results of the fields left behind go', async () => {
  const p = await pageWithHistory(browser, server.origin);
  await p.fill('#prodBatch', '7');
  await p.click('#batched-products-run');
  assert.equal(await settled(p, 'batched-products', 60_000), 'done');
  assert.match(await p.textContent('#batched-products-status'), /^Done on WebGL2: 7 products/);
  // Back: the entry before that Run (n = 5, no prodBatch), where the part had not run: the
  // field says 2000, and the 7 products' results must not stay.
  await p.goBack();
  await p.waitForFunction(() => { const q = new URLSearchParams(location.search); return q.get('n') === '5' && !q.has('prodBatch') && document.body.dataset.status === 'done'; });
  assert.equal(await p.inputValue('#prodBatch'), '2000');
  assert.equal(await p.textContent('#batched-products-output'), '');
  assert.equal(await p.getAttribute('#batched-products', 'data-status'), 'idle');
  assert.match(await p.textContent('#batched-products-status'), /^The fields changed \(Back or Forward\)/);
  // Forward: the 7 products ran in that entry, and run again.
  await p.goForward();
  await p.waitForFunction(() => new URLSearchParams(location.search).get('prodBatch') === '7');
  assert.equal(await settled(p, 'batched-products', 60_000), 'done');
  assert.match(await p.textContent('#batched-products-status'), /^Done on WebGL2: 7 products/);
  // Back while a run is still going: when it ends, its results (3 000 products) must not
  // stand under the field that Back set (7): the 7 products run again.
  await p.fill('#prodBatch', '3000');
  await p.click('#batched-products-run');
  await p.goBack();
  assert.equal(await p.getAttribute('#batched-products', 'data-status'), 'running', 'Back came during the run');
  await p.waitForFunction(() => /^Done on WebGL2: 7 products/.test(document.getElementById('batched-products-status').textContent), null, { timeout: 60_000 });
  assert.equal(await p.inputValue('#prodBatch'), '7');
  assert.equal(new URL(p.url()).searchParams.get('prodBatch'), '7');
  assert.deepEqual(p.problems(), []);
  await p.context().close();
});

test('on WebGPU too: RANSAC at 30 % and a small batched SVD', async () => {
  const gp = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&backend=webgpu&ransacSeed=3&svdBatch=100&svdRows=12&svdCols=5`);
  assert.equal(await waitForStatus(gp), 'done', await gp.textContent('#status'));
  assert.equal(await settled(gp, 'batched-ransac', 60_000), 'done', await gp.textContent('#batched-ransac-status'));
  const r = await ransacChecks(gp, 30);
  assert.equal(r.backend, 'webgpu');
  assert.equal(await settled(gp, 'batched-svd', 60_000), 'done', await gp.textContent('#batched-svd-status'));
  const s = await record(gp, 'svd');
  assert.deepEqual([s.backend, s.batch, s.rows, s.cols], ['webgpu', 100, 12, 5]);
  assert.ok(s.reconstruction < 1e-5 && s.orthoV < 1e-5 && s.orthoU < 1e-4, JSON.stringify(s));
  assert.deepEqual(gp.problems(), []);
  await gp.context().close();
});

test('on the CPU too: RANSAC at 30 % and a small batched SVD', async () => {
  const cp = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&backend=cpu&ransacSeed=3&svdBatch=100&svdRows=12&svdCols=5`);
  assert.equal(await waitForStatus(cp), 'done', await cp.textContent('#status'));
  assert.equal(await settled(cp, 'batched-ransac', 60_000), 'done', await cp.textContent('#batched-ransac-status'));
  const r = await ransacChecks(cp, 30, 'CPU');
  assert.equal(r.backend, 'cpu');
  assert.match(await cp.textContent('#batched-ransac-table'), /not timed: the CPU backend has no GPU timer/);
  assert.equal(await settled(cp, 'batched-svd', 60_000), 'done', await cp.textContent('#batched-svd-status'));
  const s = await record(cp, 'svd');
  assert.deepEqual([s.backend, s.batch, s.rows, s.cols], ['cpu', 100, 12, 5]);
  assert.ok(s.reconstruction < 1e-5 && s.orthoV < 1e-5 && s.orthoU < 1e-4, JSON.stringify(s));
  assert.match(await cp.textContent('#batched-svd-status'), /Done on the CPU/);
  assert.deepEqual(cp.problems(), []);
  await cp.context().close();
});

test('the panel at phone width: nothing wider than the screen', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no horizontal scroll at 390 px');
  await page.locator('#batched').screenshot({ path: join(ARTIFACTS, 'batched-390.png') });
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(page.origins(), [server.origin]);
});
