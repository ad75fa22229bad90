// The classroom (www/classroom/): projector mode's colour map keeps the values' order in
// greyscale and for colour-blind viewers and comes back exactly when switched off; the
// mode is in the address and the permalink.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';
import { LIBRARY_DIVERGING, PROJECTOR_DIVERGING, colourAt, luminance } from '../../www/classroom/colours.js';
import { describeSeries } from '../../www/ui/plot.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

/** Colour-vision deficiencies at full severity (Machado, Oliveira, Fernandes 2009), on linear RGB. */
const DEFICIENCIES = {
  none: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
};
const toLinear = (v) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
const toByte = (c) => 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);
const seenWith = (m, rgb) => { const l = rgb.map(toLinear); return m.map((row) => toByte(Math.min(1, Math.max(0, row[0] * l[0] + row[1] * l[1] + row[2] * l[2])))); };

/** Whether `map`'s luminance rises along t (as seen with deficiency `m`), by at least `step` a sample. */
const rises = (map, m, step = 0.002) => {
  const ls = Array.from({ length: 41 }, (_, k) => luminance(seenWith(m, colourAt(map, -1 + k / 20))));
  return ls.every((l, k) => k === 0 || l - ls[k - 1] >= step);
};

test('the projector colour map gets lighter with the value, in greyscale and with any colour vision; the screen one does not', () => {
  for (const [name, m] of Object.entries(DEFICIENCIES)) assert.ok(rises(PROJECTOR_DIVERGING, m), name);
  assert.ok(!rises(LIBRARY_DIVERGING, DEFICIENCIES.none), 'blue–white–red tells sign by hue alone');
});

test('projector mode recolours the heatmaps in value order and switches back exactly; it stays in the address', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=12&projector=1&ref=0`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.equal(await page.evaluate(() => document.body.classList.contains('projector')), true);
  assert.equal(await page.isChecked('#projector-switch'), true);
  // The result's cells: their luminance rises with their value (n = 12: every entry drawn).
  const cells = () => page.evaluate(() => {
    const c = document.querySelector('#heatmaps figure:nth-child(2) canvas');
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const n = 12, side = c.width / n, v = window.__page.last.gpu;
    const out = [];
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const k = (Math.floor((i + 0.5) * side) * c.width + Math.floor((j + 0.5) * side)) * 4;
      out.push({ value: v[i * n + j], rgb: [px[k], px[k + 1], px[k + 2]] });
    }
    return out;
  });
  const order = (xs) => xs.slice().sort((a, b) => a.value - b.value).map((x) => luminance(x.rgb));
  const projected = await cells();
  const lum = order(projected);
  assert.ok(lum.every((l, k) => k === 0 || l >= lum[k - 1] - 1e-3), 'luminance rises with the value');
  assert.match(await page.getAttribute('#heatmaps figure:nth-child(2) .hm-legend', 'title'), /dark blue.*grey.*yellow/);
  // A run keeps projector=1 in the address and the permalink.
  await page.fill('#n', '11');
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.status === 'done' && new URLSearchParams(location.search).get('n') === '11');
  assert.equal(new URL(page.url()).searchParams.get('projector'), '1');
  assert.equal(new URL(await page.getAttribute('#permalink', 'href'), page.url()).searchParams.get('projector'), '1');
  await page.fill('#n', '12');
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.status === 'done' && new URLSearchParams(location.search).get('n') === '12');
  // Off: the library's own blue–white–red, exactly as it draws it.
  await page.click('#projector-switch');
  assert.equal(new URL(page.url()).searchParams.get('projector'), null);
  const back = await cells();
  await page.evaluate(() => document.getElementById('run').click());
  await waitForStatus(page);
  await page.waitForFunction(() => document.body.dataset.status === 'done');
  const drawn = await cells();
  assert.deepEqual(back.map((x) => x.rgb), drawn.map((x) => x.rgb));
  assert.ok(!order(drawn).every((l, k, a) => k === 0 || l >= a[k - 1] - 1e-3), 'on a screen, sign is hue, not lightness');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

/** The page's sections that are shown (laid out), by id. */
const shownSections = (page) => page.evaluate(() => [...document.querySelectorAll('#run-panel, #config, .sections > section[id], .app-section[id]')]
  .filter((s) => s.checkVisibility()).map((s) => s.id));

for (const { sections, shown } of [
  { sections: 'how,fibonacci', shown: ['config', 'run-panel', 'how', 'applications', 'fibonacci'] },
  { sections: 'applications,compute', shown: ['config', 'run-panel', 'compute', 'applications', 'reachability', 'shortest-paths', 'fibonacci', 'inverse', 'eigen', 'jacobi'] },
]) {
  test(`sections=${sections} shows only those sections, with the demo`, async () => {
    const page = await openPage(browser, `${server.origin}/index.html?n=4&ref=0&sections=${sections}`);
    assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
    assert.deepEqual((await shownSections(page)).sort(), shown.slice().sort());
    const toc = await page.$$eval('.app-toc a', (as) => as.filter((a) => a.checkVisibility()).map((a) => a.getAttribute('href').slice(1)));
    assert.deepEqual(toc, shown.filter((id) => ['reachability', 'shortest-paths', 'fibonacci', 'inverse', 'eigen', 'jacobi'].includes(id)));
    assert.equal(await page.isHidden('#notes'), true, 'no note');
    // A run keeps the lesson in the address.
    await page.click('#run');
    await waitForStatus(page);
    assert.equal(new URL(page.url()).searchParams.get('sections'), sections);
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  });
}

test('a sections=… naming no section is a note, and the whole page is shown', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4&ref=0&sections=how,nosuch`);
  assert.equal(await waitForStatus(page), 'done');
  assert.match(await page.textContent('#notes'), /sections.*unknown section nosuch/s);
  assert.ok((await shownSections(page)).length >= 16);
  await page.context().close();
});

test('the link builder makes a lesson\'s link: this configuration, the sections ticked, projector mode', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=6&op=repeat&k=2&ref=0`);
  assert.equal(await waitForStatus(page), 'done');
  await page.click('#lesson-links summary');
  await page.check('#lesson-page-sections-compute');
  await page.check('#lesson-page-sections-jacobi');
  await page.check('#lesson-page-projector');
  const link = new URL(await page.inputValue('#lesson-link'));
  assert.equal(link.pathname, '/index.html');
  // The permalink's configuration (the page writes it whole), then the lesson's.
  assert.deepEqual(Object.fromEntries(link.searchParams), { n: '6', input: 'uniform', seed: '1', op: 'repeat', k: '2', kernel: 'naive', ref: '0', sections: 'compute,jacobi', projector: '1' });
  assert.equal(await page.getAttribute('#lesson-open', 'href'), link.href);
  // The kernel lab: the exercises ticked, its solutions; none of the page's configuration.
  await page.selectOption('#lesson-page', 'lab');
  await page.check('#lesson-lab-exercises-global');
  await page.check('#lesson-lab-exercises-tiled');
  await page.check('#lesson-lab-solutions');
  const lab = new URL(await page.inputValue('#lesson-link'));
  assert.equal(lab.pathname, '/www/lab.html');
  assert.deepEqual(Object.fromEntries(lab.searchParams), { exercises: 'global,tiled', solutions: '1' });
  await page.selectOption('#lesson-page', 'page');
  assert.equal(new URL(await page.inputValue('#lesson-link')).href, link.href, 'back to this page, as it was');
  const lesson = await openPage(browser, link.href);
  assert.equal(await waitForStatus(lesson), 'done');
  assert.deepEqual((await shownSections(lesson)).sort(), ['applications', 'compute', 'config', 'jacobi', 'run-panel']);
  assert.equal(await lesson.evaluate(() => document.body.classList.contains('projector')), true);
  assert.deepEqual([...page.problems(), ...lesson.problems()], []);
  await lesson.context().close();
  await page.context().close();
});

test('a heatmap describes itself: shape, colour scale, NaN and ±Inf counts, updated with each draw', async () => {
  // M¹⁶ of i·1000 + j overflows float32 (about 10⁷⁰): ±Inf entries to count.
  const page = await openPage(browser, `${server.origin}/index.html?n=6&input=pattern&op=power&p=16&ref=0`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const described = (k) => page.evaluate((k) => {
    const c = document.querySelector(`#heatmaps figure:nth-child(${k}) canvas`);
    return document.getElementById(c.getAttribute('aria-describedby')).textContent;
  }, k);
  const inf = await page.evaluate(() => window.__page.last.gpu.filter((v) => !Number.isFinite(v) && !Number.isNaN(v)).length);
  assert.ok(inf > 0, 'the power overflows');
  assert.match(await described(2), new RegExp(`^Heatmap of a 6×6 matrix, colour from −\\S+ \\(blue\\) through 0 \\(white\\) to \\+\\S+ \\(red\\); 0 NaN and ${inf} ±Inf entries; every entry drawn; focus it`));
  // A new run, a new description; projector mode names its colours.
  await page.click('#projector-switch');
  await page.fill('#n', '3');
  await page.selectOption('#op', 'square');
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.status === 'done' && new URLSearchParams(location.search).get('n') === '3');
  assert.match(await described(2), /^Heatmap of a 3×3 matrix, colour from −\S+ \(dark blue\) through 0 \(grey\) to \+\S+ \(yellow\); 0 NaN and 0 ±Inf entries/);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a small heatmap\'s numbers open as a table, and its description says where the largest is; a large one has no table', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=5&input=integers&op=repeat&k=2&ref=1`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const result = await page.evaluate(() => Array.from(window.__page.last.gpu));
  let at = 0;
  result.forEach((v, k) => { if (Math.abs(v) > Math.abs(result[at])) at = k; });
  const figure = '#heatmaps figure:nth-child(2)';
  const description = await page.evaluate((f) => { const c = document.querySelector(`${f} canvas`); return document.getElementById(c.getAttribute('aria-describedby')).textContent; }, figure);
  assert.ok(description.includes(`largest |value| ${String(result[at]).replace('-', '−')} at (${Math.floor(at / 5)}, ${at % 5})`), description);
  assert.equal(await page.isVisible(`${figure} table`), false, 'closed until asked for');
  await page.click(`${figure} details.hm-table summary`);
  const cells = await page.$$eval(`${figure} table.hm-numbers tbody td`, (tds) => tds.map((td) => Number(td.textContent.replace('−', '-'))));
  assert.deepEqual(cells, result);
  assert.match(await page.textContent(`${figure} table.hm-numbers caption`), /^Result M\^4 .*: its numbers$/);
  // The error picture says where the largest error is, or nothing where every entry is exact.
  assert.doesNotMatch(await page.textContent('#heatmaps figure:nth-child(3) .hm-description'), /largest error/);
  // Past 32 a side: no table (the readout and the description remain).
  await page.fill('#n', '33');
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.status === 'done' && new URLSearchParams(location.search).get('n') === '33');
  assert.equal(await page.isHidden(`${figure} details.hm-table`), true);
  assert.match(await page.textContent(`${figure} .hm-description`), /largest \|value\| \S+ at \(\d+, \d+\)/);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a plot\'s text alternative gives each series\' trend and extremes', () => {
  const fmt = (v) => String(v);
  assert.equal(describeSeries({ name: 'time', points: [[64, 1], [128, 3], [256, 2], [512, 9]] }, fmt, 'n'),
    'time: 4 points, rises from 1 to 9, not steadily; lowest 1 at n 64, highest 9 at n 512');
  assert.equal(describeSeries({ name: 'residual', points: [[1, 8], [2, 4], [3, 4], [4, 0.5]] }, fmt, 'sweep'),
    'residual: 4 points, falls from 8 to 0.5; lowest 0.5 at sweep 4, highest 8 at sweep 1');
  assert.equal(describeSeries({ name: 'x', points: [] }), 'x: no points');
});
