// Step-through: mode=step prepares the run and waits; each "Step one pass" runs one
// render-to-texture pass and updates the timeline, the output heatmap and the
// precision panel; "Run the remaining passes" finishes the chain.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const state = (page) => page.evaluate(() => ({
  status: document.body.dataset.status,
  done: Number(document.body.dataset.passesDone),
  count: Number(document.body.dataset.passCount),
  ran: document.querySelectorAll('#timeline tbody tr.ran').length,
  pending: document.querySelectorAll('#timeline tbody tr.pending').length,
  out: document.querySelector('#heatmaps figure:nth-child(2) figcaption').textContent,
  gpuBar: document.getElementById('gpu-progress').value,
}));

async function stepAndWait(page, expectDone, how = 'click') {
  if (how === 'click') await page.click('#step');
  else { await page.focus('#step'); await page.keyboard.press('Enter'); }
  await page.waitForFunction((d) => Number(document.body.dataset.passesDone) === d
    && ['paused', 'done'].includes(document.body.dataset.status), expectDone, { timeout: 30_000, polling: 50 });
}

test('step-through advances one pass per click', async () => {
  // Small integers (−4…4) at n = 12: M^5 stays far below 2^24, so float32 is exact.
  // ref=1, as a link may say it, is what the form's automatic reference does at n = 12:
  // the settings have not changed since the step-through started.
  const page = await openPage(browser, `${server.origin}/index.html?n=12&input=integers&seed=3&op=power&p=5&mode=step&ref=1`);
  assert.equal(await waitForStatus(page, 60_000, ['paused', 'error']), 'paused', await page.textContent('#status'));
  let s = await state(page);
  assert.deepEqual([s.done, s.count, s.ran, s.pending], [0, 3, 0, 3]);
  assert.match(s.out, /no pass has run yet/);
  assert.match(await page.textContent('#status'), /M\^2 = M\^1 · M\^1/, 'the status names the next pass');
  assert.equal(await page.isVisible('#finish'), true);

  await stepAndWait(page, 1);
  s = await state(page);
  assert.deepEqual([s.status, s.done, s.ran, s.pending, s.gpuBar], ['paused', 1, 1, 2, 1]);
  assert.match(s.out, /pass 1 of 3: M\^2 = M\^1 · M\^1/);
  // The first row of the timeline has its numbers and a thumbnail of the pass's output.
  const row1 = await page.$eval('#timeline tbody tr:nth-child(1)', (tr) => ({
    cells: [...tr.querySelectorAll('td')].map((td) => td.textContent), thumb: tr.querySelector('canvas').width }));
  assert.equal(row1.cells[0], 'M^2 = M^1 · M^1');
  assert.match(row1.cells[2], /ms/);
  assert.ok(row1.thumb > 0);
  await page.screenshot({ path: join(ARTIFACTS, 'step-1-of-3.png'), fullPage: false });

  await stepAndWait(page, 2, 'keyboard'); // keyboard-operable: Enter on the focused button
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'step', 'focus comes back to the button');
  s = await state(page);
  assert.deepEqual([s.status, s.done, s.ran, s.pending], ['paused', 2, 2, 1]);
  assert.match(s.out, /pass 2 of 3: M\^4 = M\^2 · M\^2/);
  // Integer input: the GPU's pass output is exact while below 2^24 (read back and hovered).
  const box = await page.locator('#heatmaps figure:nth-child(2) canvas').boundingBox();
  await page.mouse.move(box.x + 2, box.y + 2);
  assert.match(await page.textContent('#heatmaps figure:nth-child(2) .hm-readout'), /^\(0, 0\): GPU −?\d+ · double −?\d+ · difference 0 · correctly rounded/);

  await page.click('#finish');
  assert.equal(await waitForStatus(page, 30_000), 'done', await page.textContent('#status'));
  s = await state(page);
  assert.deepEqual([s.done, s.ran, s.pending], [3, 3, 0]);
  assert.match(s.out, /Result M\^5/);
  const r = await page.evaluate(() => window.__results);
  assert.deepEqual(r.passes.map((p) => p.label), ['M^2 = M^1 · M^1', 'M^4 = M^2 · M^2', 'M^5 = M^4 · M^1']);
  // Every pass was compared with its own float64 pass.
  for (const p of r.passes) assert.ok(p.relFrobenius !== null && p.relFrobenius <= 1e-6, JSON.stringify(p));
  assert.equal(r.metrics.exact, 144, 'small integers stay exact in float32');

  // Editing n and pressing Enter while stepping starts a new step-through of n = 9 and
  // runs its first pass, as "Step one pass" does; focus stays in the field.
  await page.fill('#n', '9');
  await page.press('#n', 'Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('n') === '9'
    && document.body.dataset.status === 'paused' && document.body.dataset.passesDone === '1', null, { timeout: 30_000, polling: 50 });
  s = await state(page);
  assert.deepEqual([s.done, s.count], [1, 3]);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'n');
  assert.equal(new URLSearchParams(await page.evaluate(() => location.search)).get('mode'), 'step');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a chain that overflows names the first pass past 2^24 and the first with ±Inf', async () => {
  // i·1000 + j at n = 8: M^2 already passes 2^24; M^16 overflows float32.
  const page = await openPage(browser, `${server.origin}/index.html?n=8&input=pattern&op=repeat&k=5`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const r = await page.evaluate(() => window.__results);
  const kinds = Object.fromEntries(r.warnings.map((w) => [w.kind, w.text]));
  assert.match(kinds['over-2^24'], /first in pass 1 \(M\^2 = M\^1 · M\^1\)/);
  const infPass = r.passes.findIndex((p) => p.inf > 0);
  assert.ok(infPass >= 0, 'some pass overflows');
  assert.match(kinds.inf, new RegExp(`first in pass ${infPass + 1} `));
  assert.ok(r.metrics.nonfiniteMismatch > 0, 'the double does not overflow');
  // Every entry overflowed: no error to measure (not "error 0"), no entry "exact", and
  // the finished status is a warning, not a plain success.
  assert.deepEqual([r.metrics.compared, r.metrics.relFrobenius, r.metrics.exact], [0, null, 0]);
  assert.match(await page.textContent('#status'), /no entry is finite on both sides/);
  assert.match(await page.getAttribute('#status', 'class'), /\bwarn\b/);
  assert.equal(await page.locator('#precision .warnings li.bad').count() >= 1, true);
  // The timeline says over how many entries a pass's error was measured, and the
  // readout of an overflowed entry says so instead of "difference NaN".
  const errCells = await page.$$eval('#timeline tbody tr', (trs) => trs.map((tr) => tr.querySelectorAll('td')[6].textContent));
  assert.match(errCells[infPass], /finite\)|no finite entry/, errCells.join(' | '));
  assert.match(errCells.at(-1), /no finite entry/);
  const box = await page.locator('#heatmaps figure:nth-child(2) canvas').boundingBox();
  await page.mouse.move(box.x + 2, box.y + 2);
  const readout = await page.textContent('#heatmaps figure:nth-child(2) .hm-readout');
  assert.match(readout, /float32 overflowed/);
  assert.doesNotMatch(readout, /NaN ·|difference NaN|· correctly rounded/);
  await page.screenshot({ path: join(ARTIFACTS, 'overflow-precision.png'), fullPage: true });
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('p = 1 needs no pass and is M itself; p = 0 in step mode finishes at once', async () => {
  let page = await openPage(browser, `${server.origin}/index.html?n=3&op=power&p=1&input=integers`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  let r = await page.evaluate(() => window.__results);
  assert.equal(r.passes.length, 0);
  // The float64 reference is M too: no error, every entry exact.
  assert.deepEqual([r.metrics.relFrobenius, r.metrics.exact, r.metrics.total], [0, 9, 9]);
  assert.match(await page.textContent('#heatmaps figure:nth-child(2) figcaption'), /Result M\^1 = M \(no pass needed\)/);
  await page.context().close();

  page = await openPage(browser, `${server.origin}/index.html?n=8&op=power&p=0&mode=step`);
  assert.equal(await waitForStatus(page, 60_000, ['done', 'paused', 'error']), 'done', await page.textContent('#status'));
  assert.doesNotMatch(await page.textContent('#status'), /undefined/);
  r = await page.evaluate(() => window.__results);
  assert.deepEqual([r.metrics.relFrobenius, r.metrics.exact], [0, 64]);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('NaN on both sides is not counted as exact', async () => {
  // Uniform (−1, 1) entries squared 64 times: both the GPU and the double end in NaN.
  const page = await openPage(browser, `${server.origin}/index.html?n=4&op=repeat&k=64`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const r = await page.evaluate(() => window.__results);
  const last = Float64Array.from(await page.evaluate(() => Array.from(window.__page.last.ref)));
  assert.ok(last.some((v) => Number.isNaN(v)), 'the double ends in NaN');
  assert.equal(r.metrics.exact, 0);
  await page.context().close();
});

test('a run refused for its size leaves no picture of the previous run', async () => {
  // The n field's limit is what the library can run here (gpu.checkRunSize), so the
  // form refuses an n past it before the library would say SIZE_OVER_LIMIT.
  const page = await openPage(browser, `${server.origin}/index.html?n=16&op=power&p=13`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.ok(await page.locator('#heatmaps figure').count() >= 3);
  const max = Number(await page.textContent('#n-max'));
  await page.fill('#n', String(max + 1));
  await page.click('#run');
  await page.waitForFunction(() => /Not run/.test(document.querySelector('#status').textContent), null, { timeout: 30_000, polling: 50 });
  assert.match(await page.textContent('#status'), new RegExp(`from 1 to ${max}`));
  assert.equal(await page.getAttribute('#n', 'aria-invalid'), 'true', 'the field is marked too');
  assert.equal(await page.locator('#heatmaps figure').count(), 0);
  assert.equal(await page.isHidden('#summary'), true);
  assert.equal(await page.locator('#timeline tbody tr').count(), 0);
  await page.context().close();
});

test('settings edited during a step-through: the status says so, and finishing puts the run\'s settings back', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=16&op=power&p=13&mode=step&kernel=packed`);
  assert.equal(await waitForStatus(page, 60_000, ['paused', 'error']), 'paused', await page.textContent('#status'));
  await stepAndWait(page, 1);
  await page.fill('#n', '8');
  await page.selectOption('#kernel', 'blocked4');
  assert.match(await page.textContent('#status'), /settings have changed since it started/);
  assert.match(await page.getAttribute('#status', 'class'), /\bwarn\b/);
  await page.click('#finish');
  assert.equal(await waitForStatus(page, 30_000), 'done', await page.textContent('#status'));
  const r = await page.evaluate(() => window.__results);
  assert.deepEqual([r.config.n, r.kernel], [16, 'packed']);
  // The form, the address and the link all describe the run that finished.
  assert.equal(await page.inputValue('#n'), '16');
  assert.equal(await page.inputValue('#kernel'), 'packed');
  assert.equal(new URL(await page.evaluate(() => location.href)).searchParams.get('n'), '16');
  assert.equal(new URL(await page.getAttribute('#permalink', 'href'), 'http://x').searchParams.get('kernel'), 'packed');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('Cancel during a step-through: neither picture promises what will not come', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=6&op=power&p=13&mode=step`);
  assert.equal(await waitForStatus(page, 60_000, ['paused', 'error']), 'paused');
  const error = () => page.textContent('#heatmaps figure:nth-child(3) figcaption');
  assert.equal(await error(), 'Error: drawn after the last pass, against the float64 reference');
  await page.click('#step');
  await page.waitForFunction(() => document.body.dataset.status === 'paused' && document.body.dataset.passesDone === '1');
  await page.click('#cancel');
  assert.equal(await waitForStatus(page, 10_000, ['cancelled']), 'cancelled');
  assert.equal(await page.textContent('#status'), 'Cancelled after 1 of 5 passes.');
  assert.match(await page.textContent('#heatmaps figure:nth-child(2) figcaption'), /\(pass 2 cancelled\)$/);
  assert.equal(await error(), 'No error picture: the run was cancelled before its last pass');
  // The next step starts a new step-through, whose error picture waits for its last pass again.
  await page.click('#step');
  await page.waitForFunction(() => document.body.dataset.status === 'paused' && document.body.dataset.passesDone === '1');
  assert.equal(await error(), 'Error: drawn after the last pass, against the float64 reference');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('after the last step the status follows the finish: readback, comparison, summary', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=64&backend=webgpu&op=repeat&k=2&mode=step&kernel=global`);
  assert.equal(await waitForStatus(page, 60_000, ['paused', 'error']), 'paused', await page.textContent('#status'));
  // Every text the status line shows, in order (the finish is too quick to poll).
  await page.evaluate(() => {
    window.__statusLog = [];
    const status = document.getElementById('status');
    new MutationObserver(() => window.__statusLog.push(status.textContent))
      .observe(status, { childList: true, characterData: true, subtree: true });
  });
  await stepAndWait(page, 1);
  await page.click('#step');
  assert.equal(await waitForStatus(page, 60_000), 'done', await page.textContent('#status'));
  const log = await page.evaluate(() => window.__statusLog);
  const after = log.slice(log.findIndex((t) => t.startsWith('Pass 2 of 2 running')) + 1);
  assert.match(after[0] ?? '', /^GPU done; reading the result back/, log.join('\n'));
  assert.match(after.at(-1), /^Done: /);
  // The reference ran while the student stepped: what follows the readback is the comparison.
  assert.ok(after.slice(1, -1).some((t) => /comparing it with the float64 reference/.test(t)), log.join('\n'));
  assert.ok(after.every((t) => !/running on the GPU/.test(t)), log.join('\n'));
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('each step shows its pass\'s metrics in the precision panel; the end, the final result\'s', async () => {
  for (const backend of ['webgpu', 'webgl']) {
    const page = await openPage(browser, `${server.origin}/index.html?n=8&backend=${backend}&op=repeat&k=3&mode=step`);
    assert.equal(await waitForStatus(page, 60_000, ['paused', 'error']), 'paused', await page.textContent('#status'));
    const panel = () => page.$eval('#metrics', (t) => ({
      caption: t.caption.textContent,
      cells: Object.fromEntries([...t.tBodies[0].rows].map((r) => [r.cells[0].firstChild.textContent, r.cells[1].textContent])),
    }));
    for (const [done, label] of [[1, 'M^2 = M^1 · M^1'], [2, 'M^4 = M^2 · M^2']]) {
      await stepAndWait(page, done);
      // The double of the pass may come a moment after the pass itself.
      await page.waitForFunction((i) => /e|^0$/.test(document.querySelectorAll(`#timeline tbody tr:nth-child(${i}) td`)[6]?.textContent ?? ''), done);
      const timelineError = await page.$eval(`#timeline tbody tr:nth-child(${done})`, (tr) => tr.querySelectorAll('td')[6].textContent);
      const p = await panel();
      assert.equal(p.caption, `GPU (float32) against JavaScript (float64), pass ${done} of 3 (${label})`, backend);
      assert.equal(p.cells['relative Frobenius error'], timelineError, backend);
      assert.match(p.cells['correctly rounded entries'], /^\d+ of 64 /, backend);
    }
    await page.click('#finish');
    assert.equal(await waitForStatus(page, 30_000), 'done', await page.textContent('#status'));
    const p = await panel();
    assert.equal(p.caption, 'GPU (float32) against JavaScript (float64), final result');
    const r = await page.evaluate(() => window.__results);
    assert.equal(p.cells['correctly rounded entries'].split(' ')[0], String(r.metrics.exact), backend);
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  }
});
