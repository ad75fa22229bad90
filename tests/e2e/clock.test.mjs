// The timer's resolution: measured at start-up (www/ui/clock.js, the library's
// common/clock.rs), stated beside every wall-clock figure, and no figure finer than it.
// The browser's clock is coarsened here to 1 ms steps, as Firefox's is unless the page
// is cross-origin isolated, and the GPU timers are taken away, so that every time shown
// is a wall-clock one.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { ROOT, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const clock = await import(pathToFileURL(join(ROOT, 'www', 'ui', 'clock.js')).href);

/** A clock read every 1 µs of true time, coarsened to `step` ms, from `from`. */
const coarse = (step, from) => { let t = from; return () => { t += 0.001; return Math.floor(t / step) * step; }; };

test('the resolution is the smallest step of the clock; figures are rounded to it and no finer', () => {
  assert.equal(clock.measureResolution(coarse(1, 1000)), 1);
  assert.equal(clock.measureResolution(coarse(0.1, 5e5)), 0.1); // 0.0999… from large timestamps
  assert.equal(clock.measureResolution(coarse(0.005, 123)), 0.005);
  let wall = 0;
  assert.equal(clock.measureResolution(() => 42, () => (wall += 1)), 50); // a stuck clock: the cap
  const shown = (res) => [0, 0.4, 1.49, 12.34, 123.4].map((v) => clock.wallMs(v, { res }));
  assert.deepEqual(shown(1), ['< 1 ms', '< 1 ms', '1 ms', '12 ms', '123 ms']);
  assert.deepEqual(shown(0.1), ['< 0.1 ms', '0.4 ms', '1.5 ms', '12.3 ms', '123 ms']);
  assert.deepEqual(shown(0.005), ['< 0.005 ms', '0.400 ms', '1.5 ms', '12.3 ms', '123 ms']);
  // A batch of 100 timed as one: its mean per item has steps of 1 ms / 100.
  assert.equal(clock.wallMs(0.4567, { res: 1, over: 100 }), '0.46 ms');
  assert.equal(clock.resolutionText(0.1), '0.1 ms');
});

test('bench reports state the resolution a result recorded and round its wall times to it', async () => {
  const { clockLine, wallFmt } = await import(pathToFileURL(join(ROOT, 'www', 'bench', 'systems-report.js')).href);
  assert.match(clockLine({ timerResolutionMs: 1 }), /^Timer resolution: 1 ms \(performance\.now\(\)/);
  assert.match(clockLine({}), /not recorded/);
  const wall = wallFmt({ timerResolutionMs: 1 });
  assert.deepEqual([wall(0.4), wall(4.567), wall(4.567, 100), wall(23.4)], ['< 1 ms', '5 ms', '4.57 ms', '23 ms']);
  // A result from before the field: the digits it always had.
  assert.equal(wallFmt({})(4.567), '4.57 ms');
});

test('with a 1 ms clock a bench run\'s progress lines show whole ms, as its report does', async () => {
  // LU times one call per reading (no batch), so each of its wall-clock figures is a
  // whole number of the clock's steps; before, the lines printed "3.00 ms".
  const page = await openPage(browser, `${server.origin}/www/bench/index.html?suite=lu&run=1&sizes=16,32&backends=webgl&repeats=3`, undefined, { init: coarseClock });
  assert.equal(await waitForStatus(page, 120_000), 'done', await page.textContent('#status'));
  const lines = await page.evaluate(() => window.benchLog.filter((l) => /^webgl n=\d+: /.test(l)));
  assert.equal(lines.length, 2, lines.join('\n'));
  for (const line of lines) {
    assert.match(line, /^webgl n=\d+: (\d+|< 1) ms, /);
    assert.deepEqual(finer(line), [], line);
  }
  await page.context().close();
});

test('with a 1 ms clock the GPU-resident block-sparse report\'s lines show whole ms', async () => {
  // Its calls' times and phases (the library's own readings of the same clock) were
  // printed with two decimals.
  // WebGPU kept (the report needs it): SwiftShader's adapter grants no timestamps.
  const page = await openPage(browser, `${server.origin}/www/bench/index.html?suite=blocks&run=1&parts=report&backends=webgpu&reportMaxN=256`, undefined, { init: coarseNow });
  assert.equal(await waitForStatus(page, 120_000), 'done', await page.textContent('#status'));
  const lines = await page.evaluate(() => window.benchLog.filter((l) => /^report n=256 /.test(l)));
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.match(lines[1], /^report n=256 m=4 k=1000 dense: (\d+|< 1) ms \(symbolic (\d+|< 1) ms, /);
  for (const line of lines) assert.deepEqual(finer(line), [], line);
  await page.context().close();
});

/** In the page, before its scripts: performance.now() in whole ms, and no GPU timers. */
function coarseClock() {
  const real = performance.now.bind(performance);
  performance.now = () => Math.floor(real());
  const hide = (proto) => {
    const get = proto.getExtension;
    proto.getExtension = function (name) { return /disjoint_timer_query/i.test(name) ? null : get.call(this, name); };
  };
  hide(WebGL2RenderingContext.prototype);
  Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined });
}

/** In the page, before its scripts: performance.now() in whole ms. */
function coarseNow() {
  const real = performance.now.bind(performance);
  performance.now = () => Math.floor(real());
}

/** Every "<number> ms" in `text` with a fraction: what a 1 ms clock cannot give. */
const finer = (text) => text.match(/\d+[.,]\d+\s*(ms|µs|ns)\b|\d\s*(µs|ns)\b/g) || [];

test('with a 1 ms clock the demo and the sections say 1 ms, and show no time finer than it', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=64&backend=webgl`, undefined, { init: coarseClock });
  assert.equal(await waitForStatus(page), 'done');
  const record = await page.evaluate(() => window.__results);
  assert.equal(record.timerResolutionMs, 1);
  assert.equal(record.timerQuery, false);
  // The library measures it too, for a developer's own figures.
  assert.equal(await page.evaluate(async () => {
    const { Gpgpu } = await import('/www/pkg/gpgpu_matrix.js');
    const g = await Gpgpu.create({ backend: 'webgl' });
    const r = g.info().timerResolutionMs;
    g.free();
    return r;
  }), 1);
  // The line under the summary states it once; its figures and the status line's are whole ms.
  assert.match(await page.textContent('#summary-clock'), /timer resolution, 1 ms, measured at start-up/);
  const status = await page.textContent('#status');
  assert.match(status, /JS float64 (\d+|< 1) ms \(timer resolution 1 ms\)/);
  for (const id of ['#summary', '#summary-clock', '#status', '#timeline', '#ref-progress-text']) {
    const text = await page.textContent(id);
    assert.deepEqual(finer(text), [], `${id}: ${text}`);
  }
  assert.match(await page.textContent('#timeline .help'), /timer resolution, 1 ms/);
  // Sections: a results table (its caption states it) and key-value rows (each figure does).
  for (const id of ['reachability', 'inverse', 'fibonacci']) {
    await page.click(`#${id}-run`);
    await page.waitForFunction((id) => document.getElementById(id).dataset.status !== 'running', id, { timeout: 60_000, polling: 50 });
    assert.equal(await page.getAttribute(`#${id}`, 'data-status'), 'done', await page.textContent(`#${id}-status`));
    const text = await page.textContent(`#${id}`);
    assert.match(text, /timer resolution,? 1 ms/, id);
    assert.deepEqual(finer(text), [], `${id}: ${finer(text)}`);
  }
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('in Italian the resolution is stated in Italian', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=16&backend=webgl&locale=it`, undefined, { init: coarseClock });
  assert.equal(await waitForStatus(page), 'done');
  assert.match(await page.textContent('#summary-clock'), /risoluzione del timer di questo browser, 1 ms/);
  assert.match(await page.textContent('#status'), /\(risoluzione del timer 1 ms\)/);
  await page.context().close();
});

test('the lab timed by the wall clock says 1 ms and shows whole ms', async () => {
  // The lab's address carries the code deflated, in base64url (www/lab/url.js).
  const code = deflateRawSync(readFileSync(join(ROOT, 'www', 'lab', 'exercises', 'square.solution.glsl'))).toString('base64url');
  const page = await openPage(browser, `${server.origin}/www/lab.html?exercise=square&check=1&code=${code}`, undefined, { init: coarseClock });
  await page.waitForFunction(() => document.body.dataset.verdict, null, { timeout: 120_000 });
  const r = await page.evaluate(() => window.labResult);
  assert.equal(r.verdict, 'pass');
  assert.equal(r.timing.clock, 'wall');
  assert.equal(r.timing.timerResolutionMs, 1);
  const text = await page.textContent('#lab-timing');
  assert.match(text, /\(timer resolution 1 ms\)/);
  // "yours 3 ms", "the library's … kernel < 1 ms": no fraction of a ms.
  assert.deepEqual(finer(text), [], text);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});
