// The page runs its demo end to end in a real Chromium: the GPU answer matches the
// float64 reference, nothing goes to another origin, nothing logs an error.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

test('the demo squares a 128x128 matrix and matches the float64 reference', async () => {
  const page = await openPage(browser, `${server.origin}/index.html`);
  const status = await waitForStatus(page);
  await page.screenshot({ path: join(ARTIFACTS, 'demo.png'), fullPage: true });
  assert.equal(status, 'done', await page.textContent('#status'));
  const rel = Number(await page.evaluate(() => document.body.dataset.relFrobenius));
  assert.ok(rel <= 1e-5, `relative Frobenius error ${rel}`);
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(page.origins(), [server.origin], 'requests only to the local server');
});
