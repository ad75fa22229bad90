// The "Several devices" panel (issue 17, point 3): the rows of C split between WebGL and
// the CPU backend at the slider's share (0 %, 30 %, 100 %) give the exact product of
// integer inputs with rows as the share says and one bar per device; the sweep fills
// the course report's table (11 shares and the balanced one) and marks the balanced
// split; results of other devices or another n are cleared, not left under a new
// run; the controls round-trip through the address; no console errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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

/** Presses a button of the panel and waits for it to be done; returns window.__devices[record]. */
async function press(button, record) {
  await page.evaluate(() => { document.getElementById('devices-status').dataset.status = 'idle'; });
  await page.click(button);
  assert.equal(await settled(), 'done', await page.textContent('#devices-status'));
  return page.evaluate((k) => window.__devices[k], record);
}

async function runAt(share) {
  await page.$eval('#devices-ratio', (e, v) => { e.value = String(v); e.dispatchEvent(new Event('input')); }, share);
  return press('#devices-run', 'run');
}

/** Sweeps with the controls as they are; returns the sweep's record. */
const sweep = () => press('#devices-sweep-run', 'sweep');

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
  // The slider at 0 %, where a software GPU's balanced split usually ends too.
  await page.$eval('#devices-ratio', (e) => { e.value = '0'; e.dispatchEvent(new Event('input')); });
  const s = await sweep();
  assert.equal(s.points.length, 11);
  for (const p of s.points) assert.equal(p.rows[0] + p.rows[1], 128);
  // One call a share was mostly noise on a shared CPU: each time is the median of five,
  // the table says so, and each row carries the five totals it is the median of.
  assert.match(await page.textContent('#devices-table caption'), /each time the median of 5 timed calls after a warm-up/);
  const rowsShown = await page.$$eval('#devices-table tbody tr', (trs) => trs.map((tr) => ({ samples: tr.dataset.samplesMs, total: tr.cells[5].textContent })));
  for (const { samples, total } of rowsShown) {
    const xs = (samples ?? '').split(' ').map(Number).sort((x, y) => x - y);
    assert.equal(xs.length, 5, `samples “${samples}”`);
    assert.ok(xs.every((x) => x > 0), samples);
    assert.ok(Math.abs(xs[2] - Number(total)) <= 0.05 + 0.01 * xs[2], `total ${total} is the median of ${samples}`);
  }
  assert.ok(s.balanced.share >= 0 && s.balanced.share <= 1, String(s.balanced.share));
  assert.equal(await page.$$eval('#devices-table tbody tr', (x) => x.length), 12);
  assert.match(await page.textContent('#devices-table tr[data-key="balanced"] th'), /^balanced \(\d+ %\)$/);
  // Headers say what they head, for a screen reader's "share 10 %, total ms: …".
  assert.deepEqual(await page.$$eval('#devices-table thead th', (x) => [...new Set(x.map((th) => th.scope))]), ['col']);
  assert.deepEqual(await page.$$eval('#devices-table tbody tr', (x) => x.map((tr) => `${tr.cells[0].tagName} ${tr.cells[0].scope}`)), Array(12).fill('TH row'));
  assert.equal(await page.$$eval('#devices-sweep line.balanced', (x) => x.length), 1);
  assert.equal(await page.$$eval('#devices-sweep rect.bar', (x) => x.length), 22);
  // The bars show the balanced run and say so; the slider keeps its own share.
  const caption = await page.textContent('#devices-bars text.caption');
  // "not the slider's 0 %" only where the balanced share is another.
  const share = (s.balanced.share * 100).toFixed(0);
  const other = share === '0' ? '' : ", not the slider's 0 %";
  assert.equal(caption, `Balanced ('auto'): ${share} % of the rows on GPU (WebGL)${other}`);
  assert.match(await page.textContent('#devices-bars'), new RegExp(`GPU \\(WebGL\\): ${s.balanced.rows[0]} rows`));
  // Which colour is which device: a key inside the picture, so a saved SVG or PNG has it.
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#devices-sweep + .figure-tools [data-action=svg]')]);
  const saved = readFileSync(await dl.path(), 'utf8').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  for (const t of ['GPU (WebGL): its ms', 'CPU (Web Workers): its ms', 'total (C assembled)', "balanced ('auto')"]) assert.ok(saved.includes(t.replace(/'/g, '&apos;')) || saved.includes(t), `“${t}” in the saved SVG`);
  const keyFills = await page.$$eval('#devices-sweep .svg-legend rect', (r) => r.map((x) => x.getAttribute('fill')));
  const barFills = await page.$$eval('#devices-sweep rect.bar', (r) => r.slice(0, 4).map((x) => x.getAttribute('fill')));
  assert.deepEqual(keyFills, [...new Set(barFills.slice(2))], 'the key\'s swatches are the first and second device\'s bars');
  // The table copies as CSV a spreadsheet reads: every share and time a number.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  await page.click('.scroll-x:has(> #devices-table) + .figure-tools [data-action=csv]');
  await page.waitForFunction(() => document.querySelector('.scroll-x:has(> #devices-table) + .figure-tools [data-action=csv]').dataset.done === 'Copied');
  const [head, ...rows] = (await page.evaluate(() => navigator.clipboard.readText())).trim().split('\r\n').map((l) => l.split(','));
  assert.deepEqual(head, ['run', 'share of GPU (WebGL) (%)', 'rows on GPU (WebGL)', 'rows on CPU (Web Workers)', 'GPU (WebGL) (ms)', 'CPU (Web Workers) (ms)', 'total (ms)']);
  assert.equal(rows.length, 12);
  for (const r of rows) for (const c of r.slice(1)) assert.ok(c !== '' && Number.isFinite(Number(c)), `“${c}” in ${r.join(',')} is a number`);
  assert.deepEqual(rows.slice(0, 11).map((r) => Number(r[1])), [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  assert.equal(rows[11][0], 'balanced (auto)');
  assert.equal(Number(rows[11][2]), s.balanced.rows[0]);
  assert.ok(Math.abs(Number(rows[11][6]) - s.balanced.totalMs) <= 0.005 * s.balanced.totalMs, `${rows[11][6]} against ${s.balanced.totalMs}`);
  await runAt(30);
  assert.equal(await page.textContent('#devices-bars text.caption'), "At the slider's share: 30 % of the rows on GPU (WebGL)");
  assert.deepEqual(page.problems(), []);
});

test('the slider moved by the keyboard during a run: the share it ends at is run, shown and linked', async () => {
  // Each arrow key is a change; those made while a run was going were dropped, so the
  // bars and the address kept the first step's share under a slider showing another.
  await runAt(30);
  await page.focus('#devices-ratio');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  assert.equal(await page.inputValue('#devices-ratio'), '45');
  await page.waitForFunction(() => document.getElementById('devices-status').dataset.status === 'done' && window.__devices.run?.share === 0.45, null, { timeout: 60_000, polling: 50 });
  assert.equal(await page.textContent('#devices-bars text.caption'), "At the slider's share: 45 % of the rows on GPU (WebGL)");
  assert.equal(new URL(page.url()).searchParams.get('devShare'), '45');
  assert.deepEqual(page.problems(), []);
});

test('results of other devices do not stay under a run of new ones', async () => {
  await page.selectOption('#devices-first', 'webgl');
  await page.selectOption('#devices-second', 'cpu');
  await page.selectOption('#devices-n', '128');
  await sweep();
  assert.match(await page.textContent('#devices-table'), /share of GPU \(WebGL\)/);
  // Another first device chosen: the WebGL sweep goes at once, and a run shows only its own bars.
  await page.selectOption('#devices-first', 'webgpu');
  assert.equal(await page.$$eval('#devices-table tr, #devices-sweep *, #devices-bars *', (x) => x.length), 0);
  assert.match(await page.textContent('#devices-status'), /changed/);
  const r = await runAt(50);
  assert.deepEqual(r.names, ['webgpu', 'cpu']);
  assert.equal(await page.$$eval('#devices-table tr', (x) => x.length), 0, 'no sweep table of WebGL under the WebGPU run');
  assert.equal(await page.evaluate(() => window.__devices.sweep), null);
  assert.match(await page.textContent('#devices-bars'), /WebGPU/);
  // Controls set without a change event (a link, Back): the run still drops a sweep of other devices.
  await page.selectOption('#devices-first', 'webgl');
  await sweep();
  await page.$eval('#devices-n', (e) => { e.value = '256'; });
  await runAt(50);
  assert.equal(await page.$$eval('#devices-table tr', (x) => x.length), 0, 'no sweep of n = 128 under a run of n = 256');
  assert.deepEqual(page.problems(), []);
});

test('the controls round-trip through the address, and a link runs the split it names', async () => {
  await page.selectOption('#devices-first', 'webgpu');
  await page.selectOption('#devices-second', 'cpu');
  await page.selectOption('#devices-n', '128');
  await runAt(30);
  const url = page.url();
  const q = new URL(url).searchParams;
  // devSecond=cpu is the default, so it is left out.
  assert.deepEqual(['devFirst', 'devSecond', 'devN', 'devShare', 'n'].map((k) => q.get(k)), ['webgpu', null, '128', '30', '8']);
  const again = await openPage(browser, url);
  assert.equal(await waitForStatus(again), 'done', await again.textContent('#status'));
  assert.deepEqual(await again.evaluate(() => ['devices-first', 'devices-second', 'devices-n', 'devices-ratio'].map((id) => document.getElementById(id).value)),
    ['webgpu', 'cpu', '128', '30']);
  assert.equal(await again.textContent('#devices-share'), '30 %');
  await again.waitForFunction(() => document.getElementById('devices-status').dataset.status === 'done', null, { timeout: 60_000 });
  const r = await again.evaluate(() => window.__devices.run);
  assert.deepEqual([r.names, r.rows, r.maxError], [['webgpu', 'cpu'], [38, 90], 0]);
  assert.equal(again.url(), url, 'restoring wrote nothing new');
  assert.deepEqual(again.problems(), []);
  await again.context().close();

  const bad = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&devFirst=opengl&devN=300&devShare=33`);
  assert.equal(await waitForStatus(bad), 'done');
  const notes = await bad.$$eval('#notes li', (l) => Object.fromEntries(l.map((x) => [x.dataset.param, x.textContent])));
  assert.match(notes.devFirst, /must be one of webgl, webgpu, webgpu-low-power, cpu; the default devFirst=webgl is used/);
  assert.match(notes.devN, /must be one of 128, 256, 512, 1024; the default devN=256 is used/);
  assert.match(notes.devShare, /must be a multiple of 5 from 0 to 100; the default devShare=50 is used/);
  assert.deepEqual(await bad.evaluate(() => ['devices-first', 'devices-n', 'devices-ratio'].map((id) => document.getElementById(id).value)), ['webgl', '256', '50']);
  assert.deepEqual(bad.problems(), []);
  await bad.context().close();
});

test('the sweep picture\'s labels keep clear of the balanced line, at either end', async () => {
  // At 0 % the top of the scale, written from the left edge, ran into the dashed line
  // (and sat against the title); at 100 % the line's label ran off the picture's right edge.
  // Times of n = 1024 on a software GPU: four digits.
  const points = Array.from({ length: 11 }, (_, k) => ({ share: k / 10, ms: [1000 + k, 1900 - k], totalMs: 1234 }));
  for (const share of [0, 1]) {
    const boxes = await page.evaluate(async ({ points, share }) => {
      const { default: section } = await import('/www/sections/devices.js');
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.setAttribute('width', '600');
      document.body.append(svg);
      section.drawSweep.call({ chart: svg }, ['webgl', 'cpu'], 128, points, { share, totalMs: 0.4 });
      const box = (e) => { const b = e.getBBox(); return { x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height }; };
      const out = { title: box(svg.querySelector('text')), line: box(svg.querySelector('line.balanced')), label: box(svg.querySelector('text.balanced')), scale: [...svg.querySelectorAll('text.scale')].map(box), width: svg.viewBox.baseVal.width };
      svg.remove();
      return out;
    }, { points, share });
    // Apart by `gap` units at least: touching reads as one mark.
    const apart = (a, b, gap = 0) => a.right + gap <= b.x || b.right + gap <= a.x || a.bottom + gap <= b.y || b.bottom + gap <= a.y;
    assert.equal(boxes.scale.length, 2);
    // The line is 2 wide: its box is a point wide, so widen it by its stroke.
    const line = { ...boxes.line, x: boxes.line.x - 1, right: boxes.line.right + 1 };
    for (const s of boxes.scale) {
      assert.ok(apart(s, line, 4), `share ${share}: scale label ${JSON.stringify(s)} against the line ${JSON.stringify(line)}`);
      assert.ok(s.x >= 0 && apart(s, boxes.title), `share ${share}: scale label ${JSON.stringify(s)} inside the picture, below the title ${JSON.stringify(boxes.title)}`);
    }
    assert.ok(apart(boxes.label, line), `share ${share}: the line's label ${JSON.stringify(boxes.label)}`);
    assert.ok(boxes.label.x >= 0 && boxes.label.right <= boxes.width, `share ${share}: the line's label inside the picture ${JSON.stringify(boxes.label)}`);
  }
  assert.deepEqual(page.problems(), []);
});

test('the balanced line\'s label is clear of every bar, the total line and the title', async () => {
  // A sweep whose tallest bars stand beside a balanced line at 0 %: the label, drawn
  // inside the plot at the height of the tallest bar, was covered by the bar at 20 %.
  const points = Array.from({ length: 11 }, (_, k) => ({ share: k / 10, ms: [k === 2 ? 11.7 : 5 + k / 10, 3 + k / 10], totalMs: k === 2 ? 11.7 : 6 }));
  for (const share of [0, 0.5, 1]) {
    const boxes = await page.evaluate(async ({ points, share }) => {
      const { default: section } = await import('/www/sections/devices.js');
      const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
      svg.setAttribute('width', '600');
      document.body.append(svg);
      section.drawSweep.call({ chart: svg }, ['webgl', 'cpu'], 256, points, { share, totalMs: 1.5 });
      const box = (e) => { const b = e.getBBox(); return { x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height }; };
      const out = { title: box(svg.querySelector('text')), label: box(svg.querySelector('text.balanced')), bars: [...svg.querySelectorAll('rect.bar')].map(box), total: box(svg.querySelector('polyline')) };
      svg.remove();
      return out;
    }, { points, share });
    const apart = (a, b) => a.right <= b.x || b.right <= a.x || a.bottom <= b.y || b.bottom <= a.y;
    for (const bar of boxes.bars) assert.ok(apart(boxes.label, bar), `share ${share}: the label ${JSON.stringify(boxes.label)} over a bar ${JSON.stringify(bar)}`);
    assert.ok(boxes.label.bottom <= boxes.total.y, `share ${share}: the label ${JSON.stringify(boxes.label)} above the total line ${JSON.stringify(boxes.total)}`);
    assert.ok(apart(boxes.label, boxes.title), `share ${share}: the label ${JSON.stringify(boxes.label)} under the title ${JSON.stringify(boxes.title)}`);
  }
  assert.deepEqual(page.problems(), []);
});

test('a device the browser cannot give is marked, and the default pair does not fail on it', async () => {
  // No WebGL2 (but WebGPU): the panel's default first device, WebGL, made Run fail with
  // NO_WEBGL2 at its first press.
  const noWebgl2 = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`, undefined, {
    init: () => {
      const get = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function getContext(kind, ...rest) {
        return kind === 'webgl2' ? null : get.call(this, kind, ...rest);
      };
    },
  });
  try {
    assert.equal(await waitForStatus(noWebgl2), 'done', await noWebgl2.textContent('#status'));
    const webgl = await noWebgl2.$eval('#devices-first option[value="webgl"]', (o) => ({ disabled: o.disabled, text: o.textContent }));
    assert.deepEqual(webgl, { disabled: true, text: 'GPU (WebGL) (not in this browser)' });
    // The demo's backend menu marks it alike (it offered WebGL as if it were there).
    const menu = await noWebgl2.$eval('#backend option[value="webgl"]', (o) => ({ disabled: o.disabled, text: o.textContent }));
    assert.deepEqual(menu, { disabled: true, text: 'webgl (fragment) (not in this browser)' });
    assert.deepEqual(await noWebgl2.$eval('#devices-second option[value="webgl"]', (o) => o.disabled), true);
    assert.equal(await noWebgl2.$eval('#devices-first', (s) => s.value), 'webgpu');
    assert.match(await noWebgl2.textContent('#devices-status'), /GPU \(WebGL\) cannot be used here .*: the first device is GPU \(WebGPU, high-performance\) instead/);
    await noWebgl2.evaluate(() => { document.getElementById('devices-status').dataset.status = 'idle'; });
    await noWebgl2.click('#devices-run');
    await noWebgl2.waitForFunction(() => !['running', 'idle'].includes(document.getElementById('devices-status').dataset.status), null, { timeout: 60_000, polling: 50 });
    assert.equal(await noWebgl2.getAttribute('#devices-status', 'data-status'), 'done', await noWebgl2.textContent('#devices-status'));
    const r = await noWebgl2.evaluate(() => window.__devices.run);
    assert.deepEqual([r.names, r.maxError], [['webgpu', 'cpu'], 0]);
    assert.deepEqual(noWebgl2.problems(), []);
  } finally {
    await noWebgl2.context().close();
  }

  // No WebGPU: its two entries are marked; WebGL and the CPU stay as they were.
  const noWebgpu = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`, undefined, {
    init: () => { delete Navigator.prototype.gpu; },
  });
  try {
    assert.equal(await waitForStatus(noWebgpu), 'done', await noWebgpu.textContent('#status'));
    const options = await noWebgpu.$$eval('#devices-first option', (os) => os.map((o) => [o.value, o.disabled]));
    assert.deepEqual(options, [['webgl', false], ['webgpu', true], ['webgpu-low-power', true], ['cpu', false]]);
    assert.equal(await noWebgpu.$eval('#backend option[value="webgl"]', (o) => o.disabled), false);
    assert.deepEqual([await noWebgpu.$eval('#devices-first', (s) => s.value), await noWebgpu.$eval('#devices-second', (s) => s.value)], ['webgl', 'cpu']);
    assert.deepEqual(noWebgpu.problems(), []);
  } finally {
    await noWebgpu.context().close();
  }
});
