// The page on the CPU backend: backend=cpu runs the same demo with no GPU at all,
// the library's SIMD128 kernel in Web Workers computing each product, so a visitor
// can set it beside a GPU run: the same heatmaps, timeline and precision panel,
// passes timed from step() until whenDone() has run them on the workers, and the
// Rust kernel in the shader panel.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, drawnOn, launchBrowser, openBlankPage, openPage, startServer, waitForStatus } from './harness.mjs';
import { applicationChecks } from './sections.mjs';
import { compare } from '../../www/reference.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

test('backend=cpu: passes on the Web Workers, heatmaps, the Rust kernel and a small error', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=48&op=repeat&k=2&backend=cpu`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  await page.screenshot({ path: join(ARTIFACTS, 'cpu-1280x720.png') });
  const r = await page.evaluate(() => window.__results);
  assert.deepEqual([r.backend, r.config.backend, r.kernel, r.passCount, r.reference], ['cpu', 'cpu', 'simd', 2, 'done']);
  assert.match(r.renderer, /^the CPU: \d+ Web Workers \(wasm SIMD128/);
  assert.ok(r.metrics.relFrobenius > 0 && r.metrics.relFrobenius <= 1e-5, String(r.metrics.relFrobenius));
  assert.deepEqual(await page.$$eval('#notes li', (l) => l.length), 0);
  assert.match(await page.textContent('#device'), /^Device: the CPU: \d+ Web Workers .* kernels: simd$/);

  // Heatmaps of the input, the result and the error, each coloured on the CPU.
  const titles = await page.$$eval('#heatmaps figure figcaption', (f) => f.map((x) => x.textContent));
  assert.equal(titles.length, 3, titles.join(' | '));
  assert.match(titles[0], /input array in wasm memory/);
  assert.match(titles[1], /^Result M\^4 \(CPU, float32\)/);
  assert.match(titles[2], /^Error: \|CPU − double/);
  for (const i of [1, 2, 3]) assert.ok(await drawnOn(page, `#heatmaps figure:nth-child(${i}) canvas`), `picture ${i} drawn`);
  const box = await page.locator('#heatmaps figure:nth-child(2) canvas').boundingBox();
  await page.mouse.move(box.x + 3, box.y + 3);
  assert.match(await page.textContent('#heatmaps figure:nth-child(2) .hm-readout'), /^\(0, 0\): CPU −?\d.* · double −?\d/);
  assert.match(await page.textContent('#status'), /with the simd kernel, 2 passes, CPU \d/);
  assert.equal(await page.textContent('label[for="gpu-progress"]'), 'CPU passes');
  assert.equal(await page.textContent('#precision-h'), 'Precision: float32 on the CPU, float64 in JavaScript');

  // The timeline: two CPU passes, wall times (no GPU timer), each pass run by whenDone.
  assert.equal(await page.locator('#timeline tbody tr.ran').count(), 2);
  assert.match(await page.textContent('#timeline caption'), /^2 CPU passes/);
  assert.doesNotMatch(await page.textContent('#timeline thead'), /GPU time/);
  assert.match(await page.textContent('#timeline .help'), /run\.whenDone\(\) resolved/);
  for (const p of r.passes) assert.ok(p.wallMs > 0 && p.gpuMs === null && p.relFrobenius <= 1e-5, JSON.stringify(p));
  assert.match(r.totals.gpuTimeKind, /^CPU: wall time/);
  const table = await page.$$eval('#summary tr', (rows) => Object.fromEntries(rows.map((tr) => [tr.dataset.key, tr.querySelector('td').textContent])));
  assert.equal(table.backend, 'CPU: a SIMD128 kernel in Web Workers (no GPU)');
  assert.equal(await page.textContent('#summary caption'), 'CPU against JavaScript');
  assert.deepEqual(await page.$$eval('#summary tr[data-key^="GPU"] th', (t) => t.map((x) => x.textContent)), ['CPU time', 'CPU wall time']);
  assert.match(await page.textContent('#metrics caption'), /^CPU \(float32\) against JavaScript/);
  assert.match(table['GPU wall time'], /copy out of wasm memory .*starting the workers took/);

  // The shader panel: no shader, the Rust kernel with its key lines.
  assert.equal(await page.inputValue('#shader-kernel'), 'simd');
  assert.match(await page.textContent('#shader-about'), /^plan\/src\/cpu\/kernel\.rs — .*This is the kernel that ran\. No shader/);
  const notes = await page.$$eval('#shader-notes li', (li) => li.map((x) => x.textContent));
  assert.ok(notes.length >= 8, notes.join('\n'));
  assert.ok(notes.some((t) => /OpenMP parallel-for/.test(t)));
  assert.match(await page.getAttribute('#shader-code pre', 'aria-label'), /^Rust source of the simd kernel/);

  // The form lists the CPU's kernel; an exact integer power on the CPU, from the form.
  assert.deepEqual(await page.$$eval('#kernel option', (o) => o.map((x) => x.value)), ['simd', 'auto']);
  assert.match(await page.textContent('#backend-help'), /^CPU: no GPU at all/);
  await page.selectOption('#op', 'power');
  await page.selectOption('#input', 'integers');
  await page.click('#run');
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.equal(new URL(page.url()).searchParams.get('backend'), 'cpu');
  const again = await page.evaluate(() => window.__results);
  assert.deepEqual([again.backend, again.config.op, again.config.input, again.reference], ['cpu', 'power', 'integers', 'done']);
  // Checked here too, against the page's float64 reference.
  const got = Float32Array.from(await page.evaluate(() => Array.from(window.__page.last.gpu)));
  const ref = Float64Array.from(await page.evaluate(() => Array.from(window.__page.last.ref)));
  assert.ok(compare(got, ref).relFrobenius <= 1e-6, String(compare(got, ref).relFrobenius));
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(page.origins(), [server.origin]);
  await page.context().close();
});

test('a kernel of a GPU backend asked with backend=cpu becomes the CPU kernel, with a note', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&backend=cpu&kernel=tiled16`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const notes = await page.$$eval('#notes li', (l) => l.map((x) => x.textContent));
  assert.ok(notes.some((t) => /tiled16 is a WebGPU kernel \(a compute shader\) and this run uses the CPU \(kernels simd, auto\); the default simd is used/.test(t)), notes.join('\n'));
  assert.equal((await page.evaluate(() => window.__results)).kernel, 'simd');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('the application sections run on the CPU, R drawn by the CPU\'s heatmap', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&backend=cpu`);
  assert.equal(await waitForStatus(page), 'done');
  await applicationChecks(page, 'cpu', 'the CPU');
  // Their tables name the CPU as the float32 side.
  assert.match(await page.textContent('#fibonacci'), /CPU against BigInt/);
  assert.match(await page.textContent('#reachability'), /CPU against breadth-first search/);
  assert.doesNotMatch(await page.textContent('#fibonacci'), /GPU float32/);
  await page.context().close();
});

test('backend=cpu: while the library loads, before the first run, the precision heading already names the CPU', async () => {
  // The library's .wasm held back: the page stays at "Loading the library…".
  let release;
  const held = new Promise((r) => { release = r; });
  const page = await openPage(browser, `${server.origin}/index.html?n=8&backend=cpu`, undefined, {
    setup: (ctx) => ctx.route('**/www/pkg/gpgpu_matrix_bg.wasm', async (route) => { await held; await route.continue(); }),
  });
  await page.waitForSelector('#status');
  assert.equal(await page.textContent('#status'), 'Loading the library…');
  assert.equal(await page.textContent('#precision-h'), 'Precision: float32 on the CPU, float64 in JavaScript');
  assert.equal(await page.textContent('label[for="gpu-progress"]'), 'CPU passes');
  release();
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.equal(await page.textContent('#precision-h'), 'Precision: float32 on the CPU, float64 in JavaScript');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('Cancel in a paused step-through says no pass is still running', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=16&op=repeat&k=3&backend=cpu&mode=step`);
  await page.waitForFunction(() => document.body.dataset.passCount === '3', null, { timeout: 60_000 });
  await page.click('#step');
  await page.waitForFunction(() => document.body.dataset.passesDone === '1', null, { timeout: 60_000 });
  await page.click('#cancel');
  assert.equal(await waitForStatus(page, 30_000, ['cancelled']), 'cancelled');
  const status = await page.textContent('#status');
  assert.match(status, /^Cancelled after 1 of 3 passes\.$/, status);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('beside the CPU, WebGL on SwiftShader says its GPU times are CPU time', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&backend=webgl`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.match(await page.textContent('#backend-help'), /Here WebGL runs on SwiftShader, a software renderer: every “GPU” time is CPU time\./);
  assert.equal(await page.textContent('#precision-h'), 'Precision: float32 on the GPU, float64 in JavaScript');
  // A run on the CPU from the form, then Back to this one: the heading follows the run.
  await page.selectOption('#backend', 'cpu');
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.status === 'done' && window.__results?.backend === 'cpu', null, { timeout: 60_000 });
  assert.equal(await page.textContent('#precision-h'), 'Precision: float32 on the CPU, float64 in JavaScript');
  await page.goBack();
  await page.waitForFunction(() => document.body.dataset.status === 'done' && window.__results?.backend === 'webgl', null, { timeout: 60_000 });
  assert.equal(await page.textContent('#precision-h'), 'Precision: float32 on the GPU, float64 in JavaScript');
  await page.context().close();
});

test('a power Run on the CPU holds no more wasm memory than it took to start, whatever is read', async () => {
  // The size check counts a square or power Run's input and result twice (its
  // input as passed and copied, its passes' matrices): four matrices. A power Run
  // starts with exactly that (the input passed, and slots for M, M^2 and M^3); a
  // read, statistics or heatmap that copied the matrix in wasm memory, or a product
  // that made its C beside its output, took a fifth, so at n = 15,800 (the check
  // allows 15,863) readAsync('a') ran out of memory (RuntimeError: unreachable).
  const page = await openBlankPage(browser, server.origin);
  const grown = await page.evaluate(async () => {
    const { default: init, Gpgpu } = await import('/www/pkg/gpgpu_matrix.js');
    const wasm = await init();
    const n = 1500;
    const bytes = () => wasm.memory.buffer.byteLength;
    const gpu = await Gpgpu.create({ backend: 'cpu', threads: 2 });
    const m = new Float32Array(n * n).fill(1);
    const run = gpu.startPower(n, m, 3);
    const start = bytes();
    const canvas = Object.assign(document.createElement('canvas'), { width: 32, height: 32 });
    const after = {};
    const note = (what, value) => { after[what] = { matrices: (bytes() - start) / (n * n * 4), value }; };
    note('readAsync a', (await run.readAsync('a'))[7]);
    note('statsAsync a', (await run.statsAsync('a')).sumAbs);
    await run.drawHeatmapAsync('a', canvas); note('drawHeatmapAsync a');
    while (run.step()) { await run.whenDone(); note(`pass ${run.passesDone}`); }
    note('resultAsync', (await run.resultAsync())[7]);
    note('read a', run.read('a')[7]);
    note('result', run.result()[7]);
    run.sync(); note('sync');
    note('stats', run.stats('result').max);
    run.drawHeatmap('result', canvas); note('drawHeatmap');
    run.free();
    note('powerAsync', (await gpu.powerAsync(n, m, 3))[7]);
    note('power', gpu.power(n, m, 3)[7]);
    return after;
  });
  const n2 = 1500 * 1500;
  const values = { 'readAsync a': 1, 'statsAsync a': n2, resultAsync: n2, 'read a': 1, result: n2, stats: n2, powerAsync: n2, power: n2 };
  for (const [what, { matrices, value }] of Object.entries(grown)) {
    assert.ok(matrices < 0.25, `${what} grew wasm memory by ${matrices.toFixed(2)} matrices`);
    if (what in values) assert.equal(value, values[what], what);
  }
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});
