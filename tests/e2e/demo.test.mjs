// The page with no query runs the default demo on load: a 128×128 random matrix
// (seed 1) squared on the GPU, checked against the float64 reference, with a table
// of both times and the error metrics. Checked here against a float64 product
// computed independently in Node, at desktop and at phone width.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';
import { compare, square, uniformMatrix } from '../../www/reference.js';
import { count, magnitude } from '../../www/ui/format.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const sci = (v) => (v === 0 ? '0' : v.toExponential(2).replace('-', '−'));

test('the default demo squares a 128×128 random matrix and matches the float64 reference', async () => {
  const page = await openPage(browser, `${server.origin}/index.html`);
  const status = await waitForStatus(page);
  await page.screenshot({ path: join(ARTIFACTS, 'page-1280x720.png') });
  await page.screenshot({ path: join(ARTIFACTS, 'page-1280-full.png'), fullPage: true });
  assert.equal(status, 'done', await page.textContent('#status'));

  const r = await page.evaluate(() => window.__results);
  assert.equal(r.config.n, 128);
  assert.equal(r.config.input, 'uniform');
  assert.equal(r.config.seed, 1);
  assert.equal(r.config.op, 'square');
  assert.equal(r.passCount, 1);
  assert.deepEqual(r.passes.map((p) => p.label), ['M^2 = M^1 · M^1']);
  assert.ok(r.totals.gpuMs > 0 && r.totals.jsMs > 0, JSON.stringify(r.totals));
  assert.equal(r.reference, 'done');
  // The JSON blob in the page says the same.
  const blob = JSON.parse(await page.textContent('#results'));
  assert.equal(blob.status, 'done');
  assert.equal(blob.metrics.exact, r.metrics.exact);

  // Independent check: the GPU's answer against a float64 square computed here.
  const gpu = Float32Array.from(await page.evaluate(() => Array.from(window.__page.last.gpu)));
  const ref = square(128, uniformMatrix(1, 128 * 128));
  const mine = compare(gpu, ref);
  assert.ok(mine.relFrobenius <= 1e-5, `relative Frobenius error ${mine.relFrobenius}`);
  assert.ok(mine.exact > 0);
  // ... and the page's metrics are those of that comparison.
  assert.ok(Math.abs(r.metrics.relFrobenius - mine.relFrobenius) <= 1e-12, `${r.metrics.relFrobenius} vs ${mine.relFrobenius}`);
  assert.equal(r.metrics.exact, mine.exact);
  assert.ok(Math.abs(r.metrics.maxAbs - mine.maxAbs) <= 1e-15);

  // The table shows both times and the error metrics.
  const table = await page.$$eval('#summary tr', (rows) => Object.fromEntries(rows.map((tr) => [tr.dataset.key, tr.querySelector('td').textContent])));
  for (const key of ['GPU time', 'JS float64 time', 'max abs error', 'max relative error', 'relative Frobenius error', 'correctly rounded entries', 'renderer']) {
    assert.ok(table[key] && table[key] !== '—', `summary row ${key}: ${table[key]}`);
  }
  assert.equal(table['relative Frobenius error'], sci(mine.relFrobenius));
  assert.equal(table['max abs error'], sci(mine.maxAbs));
  assert.match(table['GPU time'], /ms/);
  assert.match(table['correctly rounded entries'], new RegExp(`^${String(mine.exact).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202F')} of`));

  // Pictures: input, output and error heatmaps, drawn at whole pixels per entry.
  const figures = await page.$$eval('#heatmaps figure', (fs) => fs.map((f) => ({
    title: f.querySelector('figcaption').textContent, w: f.querySelector('canvas').width,
    sampling: f.querySelector('.hm-sampling').textContent })));
  assert.equal(figures.length, 3, JSON.stringify(figures));
  assert.match(figures[1].title, /Result M\^2/);
  assert.match(figures[2].title, /Error/);
  for (const f of figures) { assert.equal(f.w % 128, 0); assert.match(f.sampling, /Every entry drawn/); }

  // Hovering the result shows (i, j), the GPU value, the double value and the difference.
  const box = await page.locator('#heatmaps figure:nth-child(2) canvas').boundingBox();
  await page.mouse.move(box.x + box.width * (5.5 / 128), box.y + box.height * (3.5 / 128));
  const readout = await page.textContent('#heatmaps figure:nth-child(2) .hm-readout');
  assert.match(readout, /^\(3, 5\): GPU −?\d.* · double −?\d.* · difference/);
  const g35 = gpu[3 * 128 + 5];
  assert.ok(readout.includes(`GPU ${g35.toPrecision(7).replace('-', '−')}`), `${readout} / ${g35}`);
  // ... and the keyboard moves a cursor over the cells.
  await page.focus('#heatmaps figure:nth-child(2) canvas');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent('#heatmaps figure:nth-child(2) .hm-readout'), /^\(0, 1\): GPU/);

  // The shader panel shows the naive kernel with its key lines annotated.
  const notes = await page.$$eval('#shader-notes li', (li) => li.map((x) => x.textContent));
  assert.ok(notes.length >= 5, notes.join('\n'));
  assert.ok(notes.some((t) => /floor\(cols · s\) = j/.test(t)), 'how j comes from the texture coordinate');
  assert.ok(notes.some((t) => /loop over k/i.test(t)), 'the loop over k');
  assert.ok(notes.some((t) => /one fragment per element/i.test(t)), 'one fragment per element');
  const marked = await page.$$eval('#shader-code .src-line.hl', (l) => l.map((x) => x.textContent));
  assert.ok(marked.some((t) => t.includes('floor(') && t.includes('v_texcoord.s')));
  assert.ok(marked.some((t) => t.includes('for (int k')));

  // The precision panel: metrics, the 2^24 limit, and no warning for this input.
  const precision = await page.textContent('#precision');
  assert.match(precision, /2\^24 = 16\u202F777\u202F216/);
  assert.match(precision, /No value passed 2\^24/);
  // The timeline has its pass with a GPU time.
  assert.equal(await page.locator('#timeline tbody tr.ran').count(), 1);
  assert.match(await page.textContent('#timeline caption'), /^1 render-to-texture pass, an n×n×n product \(4\.194 MFLOP at n = 128\)\./);

  // The backend: auto, the library's rule, which picks WebGL2 here (SwiftShader's WebGPU
  // adapter is a software one); the page says so.
  assert.equal(await page.inputValue('#backend'), 'auto');
  assert.equal(r.backend, 'webgl');
  assert.equal(table.backend, 'WebGL2: fragment shaders (auto)');
  assert.match(await page.textContent('#backend-help'), /auto → webgl/);

  assert.equal(new URL(page.url()).search, '', 'the default page keeps its plain address');
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(page.origins(), [server.origin], 'requests only to the local server');
  await page.context().close();
});

test('at tablet widths the pass timeline scrolls in its box, not the page sideways', async () => {
  for (const width of [901, 820, 768, 610]) {
    const page = await openPage(browser, `${server.origin}/index.html?n=16&op=repeat&k=2`, { width, height: 900 });
    assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
    const doc = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(doc <= width, `${width} px: the page is ${doc} px wide`);
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  }
});

test('the page is readable at phone width (390×844): one column, nothing wider than the screen', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=16&op=power&p=5`, { width: 390, height: 844 });
  const status = await waitForStatus(page);
  await page.screenshot({ path: join(ARTIFACTS, 'page-390x844.png') });
  await page.screenshot({ path: join(ARTIFACTS, 'page-390-full.png'), fullPage: true });
  assert.equal(status, 'done', await page.textContent('#status'));
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: innerWidth }));
  assert.ok(widths.doc <= widths.view, `page is ${widths.doc}px wide in a ${widths.view}px screen`);
  // Controls and the run panel are stacked, each as wide as the screen allows.
  const [form, run] = await Promise.all(['#config', '#run-panel'].map((s) => page.locator(s).boundingBox()));
  assert.ok(run.y > form.y + form.height - 1, 'run panel below the controls');
  assert.ok(form.width > 300 && run.width > 300);
  // Touch targets of at least 24×24 CSS px (WCAG 2.2 target size): the n presets were 23 px wide.
  const small = await page.$$eval('.presets button', (bs) => bs.map((b) => [b.textContent, b.getBoundingClientRect()])
    .filter(([, r]) => r.width < 24 || r.height < 24).map(([t, r]) => `${t}: ${r.width}×${r.height}`));
  assert.deepEqual(small, []);
  // The CUDA/WGSL table's title wraps above its scroll box, inside the screen: as the
  // table's caption, inside the box, it was cut off.
  const title = await page.$eval('.cuda-wgsl > .table-title', (p) => {
    const r = p.getBoundingClientRect();
    return { inBox: p.closest('.scroll-x') !== null, right: r.right, text: p.textContent };
  });
  assert.equal(title.inBox, false);
  assert.ok(title.right <= 390, `the title ends at ${title.right} px`);
  assert.match(title.text, /^The shared-memory kernel in CUDA .* line for line$/);
  assert.equal(await page.$eval('#cuda-wgsl caption', (c) => c.textContent), title.text, 'the caption stays for screen readers and Copy');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a heatmap legend gives the largest |value| itself, not a rounding of it', async () => {
  // pattern: i·1000 + j, so at n = 4 the largest entry of M is 3003.
  const page = await openPage(browser, `${server.origin}/index.html?n=4&input=pattern&op=square`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const legend = await page.textContent('#heatmaps figure:nth-child(1) .hm-legend');
  assert.match(legend, /\+3003/, legend);
  assert.doesNotMatch(legend, /3000\b/, legend);
  await page.context().close();
});

test('the timeline gives each pass\'s largest |value| unrounded; a picture with no finite entry claims no colour scale', async () => {
  // Small integers to the 13th power: whole-number maxima in the thousands (9596, not 9600).
  let page = await openPage(browser, `${server.origin}/index.html?n=3&input=integers&op=power&p=13`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const passes = await page.evaluate(() => window.__results.passes);
  const cells = await page.$$eval('#timeline tbody td[data-label="max |value|"]', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(cells, passes.map((p) => magnitude(p.maxAbs)));
  assert.equal(cells[2], String(passes[2].maxAbs), 'whole numbers below 10^7 in full');
  assert.ok(passes.some((p) => p.maxAbs >= 1000 && p.maxAbs % 100 !== 0), 'a maximum that 3 digits would round');
  assert.match(await page.textContent('#timeline caption'), /Error vs double: ‖GPU − double‖_F \/ ‖double‖_F/);
  // Values past 2^24: the precision panel names the pass, with the same maximum.
  const over = passes.findIndex((p) => p.maxAbs > 2 ** 24);
  assert.ok(over > 0);
  assert.match(await page.textContent('#precision'), new RegExp(`Values passed 2\\^24 = .* first in pass ${over + 1} \\(.*\\) \\(max \\|value\\| ${magnitude(passes[over].maxAbs)}\\)\\.`));
  await page.context().close();
  // Below 2^24, the precision panel and the error picture's title name the same largest
  // |value| as the timeline, not a rounding of it (they said 24300 where it said 24319).
  page = await openPage(browser, `${server.origin}/index.html?n=8&input=integers&op=power&p=5`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const max = (await page.evaluate(() => window.__results.passes)).at(-1).maxAbs;
  assert.ok(Number.isInteger(max) && max >= 1000 && max % 100 !== 0 && max < 2 ** 24, `a maximum that 3 digits would round: ${max}`);
  assert.match(await page.textContent('#precision'), new RegExp(`No value passed 2\\^24 .* \\(largest \\|value\\| ${max}\\)\\.`));
  assert.equal(await page.textContent('#heatmaps figure:nth-child(3) figcaption'), `Error: |GPU − double rounded to float32| / ${max}`);
  await page.context().close();
  // i·1000 + j to the 16th power overflows float32 everywhere.
  page = await openPage(browser, `${server.origin}/index.html?n=8&input=pattern&op=power&p=16`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const legend = await page.textContent('#heatmaps figure:nth-child(2) .hm-legend');
  assert.match(legend, /no finite entry/, legend);
  assert.doesNotMatch(legend, /[−+]1\b/, legend);
  // +Inf has a hue of its own (Okabe–Ito orange), not a dark red read as "large".
  const rgb = await page.evaluate(() => {
    const c = document.querySelector('#heatmaps figure:nth-child(2) canvas');
    return [...c.getContext('2d').getImageData(c.width >> 1, c.height >> 1, 1, 1).data.slice(0, 3)];
  });
  assert.ok(Math.abs(rgb[0] - 230) <= 2 && Math.abs(rgb[1] - 159) <= 2 && rgb[2] <= 2, `+Inf drawn as rgb(${rgb})`);
  await page.context().close();
});

test('with the float64 reference off the timeline explains no error against it: the caption says it is not measured', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4&ref=0&op=power&p=5`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const caption = await page.textContent('#timeline caption');
  assert.doesNotMatch(caption, /‖GPU − double‖/);
  assert.match(caption, /Error vs double: not measured, the float64 reference is off for this run\.$/);
  const cells = await page.$$eval('#timeline tbody td[data-label="error vs double"]', (tds) => tds.map((td) => td.textContent));
  assert.ok(cells.length > 1 && cells.every((t) => t === 'off'), cells.join(', '));
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('counts of one are said in the singular: n = 1 is "1 of 1 entry", not "1 entries"', async () => {
  assert.equal(count(1, 'step'), '1 step');
  assert.equal(count(0, 'step'), '0 steps');
  assert.equal(count(12345, 'entry', 'entries'), '12\u202F345 entries');
  const page = await openPage(browser, `${server.origin}/index.html?n=1`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const text = await page.textContent('#status');
  assert.match(text, /of 1 entry correctly rounded/, text);
  // ("rows + 1 entries", a formula in the sparse section, is not a count of one)
  assert.doesNotMatch(await page.textContent('body'), /(?<!\+ )\b1 entries\b/);
});

test('hovering an entry of the error heatmap that could not be compared says why, without a page error', async () => {
  // (i·1000 + j)^20 overflows float32: every entry is +Infinity on the GPU, finite in double.
  const page = await openPage(browser, `${server.origin}/index.html?n=4&input=pattern&op=power&p=20`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const canvas = page.locator('#heatmaps figure:nth-child(3) canvas');
  await canvas.scrollIntoViewIfNeeded(); // a pointer outside the window moves nothing
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * (1.5 / 4), box.y + box.height * (2.5 / 4));
  const readout = await page.textContent('#heatmaps figure:nth-child(3) .hm-readout');
  assert.match(readout, /^\(2, 1\): GPU .* · double .* · \S/, readout);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});
