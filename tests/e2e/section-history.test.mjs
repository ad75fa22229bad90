// Back / Forward through the panels' own runs (www/section-history.js): a part's Run to
// other fields is a history entry, as a run of the demo is; Back returns to the fields
// before it and runs them again when that entry ran them, without running the demo again,
// and never leaves the page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); server?.stop(); });

const settled = (p, id) => p.waitForFunction((x) => !['idle', 'running'].includes(document.getElementById(x).dataset.status), id, { timeout: 60_000, polling: 50 })
  .then(() => p.getAttribute(`#${id}`, 'data-status'));
const param = (p, k) => new URL(p.url()).searchParams.get(k);

/** Runs sparse Jacobi with n = `n` from the fields, and waits for its result. */
async function jacobi(p, n) {
  await p.fill('#sjN', String(n));
  await p.click('#sparse-jacobi-run');
  assert.equal(await settled(p, 'sparse-jacobi'), 'done', await p.textContent('#sparse-jacobi-status'));
  assert.match(await p.textContent('#sparse-jacobi-output caption'), new RegExp(`n = ${n}:`));
}

/** Waits until the page is at `sjN` = `n` (null: none) and the part's status is `status`. */
async function at(p, n, status) {
  await p.waitForFunction((x) => new URLSearchParams(location.search).get('sjN') === x, n === null ? null : String(n), { timeout: 10_000 });
  await p.waitForFunction((s) => document.getElementById('sparse-jacobi').dataset.status === s, status, { timeout: 60_000, polling: 50 })
    .catch(() => {});
  return p.getAttribute('#sparse-jacobi', 'data-status');
}

test('Back and Forward through sparse Jacobi runs restore its fields and results, and never leave the page or rerun the demo', async () => {
  const p = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  assert.equal(await waitForStatus(p), 'done');
  const demo = await p.evaluate(() => { window.__demoBefore = window.__results; return location.pathname; });
  await jacobi(p, 50);
  assert.equal(param(p, 'sjN'), '50');
  await jacobi(p, 80);
  assert.equal(param(p, 'sjN'), '80');

  // Back: the n = 50 entry, which ran Jacobi: its field and its result again.
  await p.goBack();
  assert.equal(new URL(p.url()).pathname, demo, 'Back stays on the page');
  assert.equal(await at(p, 50, 'done'), 'done');
  assert.equal(await p.inputValue('#sjN'), '50');
  assert.match(await p.textContent('#sparse-jacobi-output caption'), /n = 50:/);
  // Back again: the page as loaded, where Jacobi had not run: the default field, no result.
  await p.goBack();
  assert.equal(await at(p, null, 'idle'), 'idle');
  assert.equal(await p.inputValue('#sjN'), '100000');
  assert.equal(await p.textContent('#sparse-jacobi-output'), '');
  // Forward twice: n = 80 and its result.
  await p.goForward();
  assert.equal(await at(p, 50, 'done'), 'done');
  await p.goForward();
  assert.equal(await at(p, 80, 'done'), 'done');
  assert.equal(await p.inputValue('#sjN'), '80');
  assert.match(await p.textContent('#sparse-jacobi-output caption'), /n = 80:/);
  // The demo's run is the one of the page's load: only the section's fields changed.
  assert.equal(await p.evaluate(() => window.__results === window.__demoBefore), true);
  assert.equal(param(p, 'n'), '4');
  assert.deepEqual(p.problems(), []);
  await p.context().close();
});

test('Back to a run of Fox\'s algorithm shows it again at the step it was left on', async () => {
  const p = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  assert.equal(await waitForStatus(p), 'done');
  await p.fill('#meshN', '4');
  await p.fill('#meshQ', '2');
  await p.click('#partitioned-mesh-run');
  assert.equal(await settled(p, 'partitioned-mesh'), 'done');
  await p.click('#partitioned-mesh-next');
  await p.click('#partitioned-mesh-next');
  assert.equal(param(p, 'meshStep'), '3');
  await p.fill('#meshQ', '4');
  await p.click('#partitioned-mesh-run');
  assert.equal(await settled(p, 'partitioned-mesh'), 'done');
  assert.equal(param(p, 'meshQ'), '4');
  await p.goBack();
  await p.waitForFunction(() => new URLSearchParams(location.search).get('meshQ') === '2');
  assert.equal(await settled(p, 'partitioned-mesh'), 'done');
  assert.equal(await p.inputValue('#meshQ'), '2');
  assert.match(await p.textContent('#partitioned-mesh-table caption'), /on a 2×2 mesh/);
  assert.match(await p.textContent('#partitioned-mesh-label'), /.+/);
  assert.equal(await p.evaluate(() => window.__partitioned?.mesh?.step), 3);
  assert.deepEqual(p.problems(), []);
  await p.context().close();
});

test('Back to an earlier share of the several-devices split runs that share again', async () => {
  const p = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  assert.equal(await waitForStatus(p), 'done');
  await p.selectOption('#devices-n', '128');
  const runAt = async (share) => {
    await p.$eval('#devices-ratio', (e, v) => { e.value = String(v); e.dispatchEvent(new Event('input')); }, share);
    await p.evaluate(() => { document.getElementById('devices-status').dataset.status = 'idle'; });
    await p.click('#devices-run');
    await p.waitForFunction(() => document.getElementById('devices-status').dataset.status === 'done', null, { timeout: 60_000, polling: 50 });
  };
  await runAt(30);
  await runAt(70);
  assert.equal(param(p, 'devShare'), '70');
  await p.goBack();
  await p.waitForFunction(() => new URLSearchParams(location.search).get('devShare') === '30');
  assert.equal(await p.inputValue('#devices-ratio'), '30');
  await p.waitForFunction(() => document.getElementById('devices-status').dataset.status === 'done' && window.__devices.run?.share === 0.3, null, { timeout: 60_000, polling: 50 });
  assert.equal(await p.textContent('#devices-bars text.caption'), "At the slider's share: 30 % of the rows on GPU (WebGL)");
  assert.deepEqual(p.problems(), []);
  await p.context().close();
});
