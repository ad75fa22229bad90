// The "Several devices" panel (issue 17, point 3): the rows of C split between WebGL and
// the CPU backend at the slider's share (0 %, 30 %, 100 %) give the exact product of
// integer inputs with rows as the share says and one bar per device; the sweep fills
// the course report's table (11 shares and the balanced one) and marks the balanced
// split; no console errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';

let server, browser, page;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
});
after(async () => { await browser?.close(); server?.stop(); });

async function settled(timeout = 60_000) {
  await page.waitForFunction(() => !['running', 'idle'].includes(document.getElementById('devices-status')?.dataset.status), null, { timeout, polling: 50 });
  return page.getAttribute('#devices-status', 'data-status');
}

async function runAt(share) {
  await page.evaluate(() => { document.getElementById('devices-status').dataset.status = 'idle'; });
  await page.$eval('#devices-ratio', (e, v) => { e.value = String(v); e.dispatchEvent(new Event('input')); }, share);
  await page.click('#devices-run');
  assert.equal(await settled(), 'done', await page.textContent('#devices-status'));
  return page.evaluate(() => window.__devices.run);
}

test('a split at 0 %, 30 % and 100 % gives the exact product, rows as the share says, one bar per device', async () => {
  await page.selectOption('#devices-first', 'webgl');
  await page.selectOption('#devices-second', 'cpu');
  await page.selectOption('#devices-n', '128');
  for (const [share, rows] of [[30, [38, 90]], [0, [0, 128]], [100, [128, 0]]]) {
    const r = await runAt(share);
    assert.equal(r.maxError, 0, `share ${share}`);
    assert.deepEqual(r.rows, rows, `share ${share}`);
    assert.ok(r.totalMs > 0 && r.ms.every((ms) => ms >= 0 && ms <= r.totalMs), JSON.stringify(r));
    // One bar per device and one for the total.
    assert.equal(await page.$$eval('#devices-bars rect.bar', (x) => x.length), 3);
  }
});

test('the sweep fills the report\'s table and marks the balanced split', async () => {
  await page.evaluate(() => { document.getElementById('devices-status').dataset.status = 'idle'; });
  await page.click('#devices-sweep-run');
  assert.equal(await settled(), 'done', await page.textContent('#devices-status'));
  const s = await page.evaluate(() => window.__devices.sweep);
  assert.equal(s.points.length, 11);
  for (const p of s.points) assert.equal(p.rows[0] + p.rows[1], 128);
  assert.ok(s.balanced.share >= 0 && s.balanced.share <= 1, String(s.balanced.share));
  assert.equal(await page.$$eval('#devices-table tbody tr', (x) => x.length), 12);
  assert.match(await page.textContent('#devices-table tr[data-key="balanced"] td'), /^balanced \(\d+ %\)$/);
  assert.equal(await page.$$eval('#devices-sweep line.balanced', (x) => x.length), 1);
  assert.equal(await page.$$eval('#devices-sweep rect.bar', (x) => x.length), 22);
  assert.deepEqual(page.problems(), []);
});
