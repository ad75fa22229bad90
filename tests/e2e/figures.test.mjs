// Figures to take away (www/ui/figures.js, www/ui/slides.js): Save PNG gives the
// picture's own pixels at its size, Save SVG a standalone SVG, Copy as CSV/Markdown the
// table's numbers; tables and pictures added later get their tools too; the "Link for
// slides" iframe shows the result panel alone and works offline like the page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { accessibleNames, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';
import { decodePng } from './png.mjs';
import { numbersIn, parseCsv, pixelsOf } from './engine-pages.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const clipboard = { setup: (ctx) => ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin }) };

/** Clicks `button` (a locator) and returns the downloaded file's bytes and name. */
async function downloadOf(page, button) {
  const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
}

/** The opaque colours of a decoded PNG below row `top` (its key), as [r, g, b]. */
function keyColours(png, top) {
  const seen = new Map();
  for (let k = top * png.width * 4; k < png.pixels.length; k += 4) {
    if (png.pixels[k + 3] === 255) seen.set((png.pixels[k] << 16) | (png.pixels[k + 1] << 8) | png.pixels[k + 2], [png.pixels[k], png.pixels[k + 1], png.pixels[k + 2]]);
  }
  return [...seen.values()];
}

const near = (c, rgb, tol = 4) => c.every((v, i) => Math.abs(v - rgb[i]) <= tol);


test('heatmaps save as PNGs of their own pixels; tables copy as CSV and Markdown with their numbers', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=6&input=integers&op=repeat&k=2&kernel=packed`, undefined, clipboard);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));

  // The input heatmap: its figure's Save PNG gives the canvas's pixels with its colour
  // key under them (on the page the key is HTML beside the canvas).
  const fig = page.locator('#heatmaps figure').first();
  const { name, bytes } = await downloadOf(page, fig.locator('.figure-tools [data-action=png]'));
  assert.match(name, /\.png$/);
  const png = decodePng(bytes);
  const canvas = await fig.locator('canvas').first().evaluate((c) => ({
    width: c.width, height: c.height, pixels: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data),
  }));
  assert.ok(canvas.width > 1, 'a drawn heatmap');
  assert.ok(png.width >= canvas.width && png.height >= canvas.height + 24, `the canvas (${canvas.width}×${canvas.height}) and a band for its key (${png.width}×${png.height})`);
  assert.deepEqual(pixelsOf(png, (png.width - canvas.width) >> 1, 0, canvas.width, canvas.height), canvas.pixels, 'the PNG holds exactly the canvas pixels');
  const key = keyColours(png, canvas.height);
  for (const [what, rgb] of Object.entries({ 'the scale\'s blue end': [33, 102, 171], 'its red end': [179, 23, 43], 'NaN': [153, 0, 204], '+Inf': [230, 159, 0] })) {
    assert.ok(key.some((c) => near(c, rgb)), `${what} in the key`);
  }
  assert.ok(key.some((c) => c.every((v) => v < 90)), 'the range written in dark text');
  assert.equal(await fig.locator('[data-action=svg]').count(), 0, 'a canvas has no Save SVG');
  assert.equal(await fig.locator('.hm-legend').evaluate((l) => l.checkVisibility()), true, 'the page keeps its HTML legend');

  // The pass timeline's table: CSV and Markdown hold what the table shows.
  const table = page.locator('#timeline table');
  const tools = page.locator('#timeline .scroll-x + .figure-tools');
  await tools.locator('[data-action=csv]').click();
  await page.waitForFunction(() => document.querySelector('#timeline [data-action=csv]').dataset.done === 'Copied');
  // Said in a live region too: not every screen reader reads a button's new label.
  const said = await page.$eval('[role=status]#figure-tools-said', (r) => [r.textContent, r.className]);
  assert.match(said[0], /^Copy as CSV: 2 render-to-texture passes, each an n×n×n product \(.+ at n = 6\): copied$/);
  assert.equal(said[1], 'visually-hidden');
  const csv = parseCsv(await page.evaluate(() => navigator.clipboard.readText()));
  const shown = await table.evaluate((t) => [...t.rows].map((r) => [...r.cells].map((c) => {
    const x = c.cloneNode(true);
    x.querySelectorAll('.figure-tools').forEach((b) => b.remove());
    return x.textContent.replace(/\s+/g, ' ').trim();
  })));
  assert.equal(csv.length, shown.length, 'one CSV line per row (head + 2 passes)');
  assert.equal(shown.length, 3);
  let numbers = 0;
  shown.forEach((row, i) => {
    assert.equal(csv[i].length, row.length, `row ${i}`);
    row.forEach((text, j) => {
      assert.deepEqual(numbersIn(csv[i][j]), numbersIn(text), `row ${i}, column ${j}: “${csv[i][j]}” against “${text}”`);
      numbers += numbersIn(text).length;
    });
  });
  assert.ok(numbers >= 10, `the timeline's numbers came through (${numbers})`);
  // A plain number cell is a number a spreadsheet reads: ASCII minus, no group spaces.
  assert.ok(csv.flat().some((c) => /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i.test(c)), 'some cells are bare numbers');

  await tools.locator('[data-action=markdown]').click();
  await page.waitForFunction(() => document.querySelector('#timeline [data-action=markdown]').dataset.done === 'Copied');
  const md = (await page.evaluate(() => navigator.clipboard.readText())).trim().split('\n').filter((l) => l.startsWith('|'));
  assert.equal(md.length, shown.length + 1, 'head, rule, one line per pass');
  assert.match(md[1], /^\|( --- \|)+$/);
  assert.deepEqual(md[0].slice(2, -2).split(' | ').map((c) => c.replace(/\\\|/g, '|')), csv[0]);

  // The timeline is a picture too: an SVG of its passes (labels, time bars, thumbnails).
  const timelineSvg = (await downloadOf(page, tools.locator('[data-action=svg]'))).bytes.toString('utf8');
  for (const label of ['M^2 = M^1 · M^1', 'M^4 = M^2 · M^2']) assert.ok(timelineSvg.includes(label), label);
  assert.equal(timelineSvg.match(/<image /g)?.length, 2, 'both thumbnails');
  const timelineFile = await downloadOf(page, tools.locator('[data-action=png]'));
  // Named whole after what it is (it was the caption cut at 60 characters, mid-way).
  assert.equal(timelineFile.name, 'pass-timeline-2-render-to-texture-passes-n-6.png');
  const timelinePng = decodePng(timelineFile.bytes);
  const box = timelineSvg.match(/viewBox="0 0 (\d+) (\d+)"/).slice(1).map(Number);
  assert.deepEqual([timelinePng.width, timelinePng.height], box.map((v) => 2 * v));

  // The timeline's thumbnails are pictures too.
  assert.equal(await page.locator('#timeline td.pic .figure-tools [data-action=png]').count(), 2);

  // A table and an SVG added later (a section mounted after this module) get their tools.
  await page.evaluate(() => {
    const t = document.createElement('table');
    t.id = 'late-table';
    t.innerHTML = '<caption>late</caption><tr><th>x</th><th>y</th></tr><tr><td>1.5</td><td>\u22122e-7</td></tr><tr><td>"q", r</td><td>16 777 216</td></tr>';
    document.getElementById('precision').append(t);
    const f = document.createElement('figure');
    f.id = 'late-svg';
    f.innerHTML = '<figcaption>late picture</figcaption><svg viewBox="0 0 40 20" width="80" height="40"><rect x="2" y="2" width="20" height="10" class="bar" style="fill:#c00"/><text x="2" y="18">a</text></svg>';
    document.getElementById('precision').append(f);
  });
  await page.locator('#late-table + .figure-tools [data-action=csv]').click();
  await page.waitForFunction(() => document.querySelector('#late-table + .figure-tools [data-action=csv]').dataset.done === 'Copied');
  assert.deepEqual(parseCsv(await page.evaluate(() => navigator.clipboard.readText())), [['x', 'y'], ['1.5', '-2e-7'], ['"q", r', '16777216']]);
  const late = page.locator('#late-svg');
  const svgFile = await downloadOf(page, late.locator('[data-action=svg]'));
  assert.match(svgFile.name, /^late-picture\.svg$/);
  const text = svgFile.bytes.toString('utf8');
  assert.match(text, /^<\?xml/);
  const root = text.match(/<svg[^>]*>/)[0];
  for (const attr of ['xmlns="http://www.w3.org/2000/svg"', 'width="80"', 'height="40"', 'viewBox="0 0 40 20"']) assert.ok(root.includes(attr), `${attr} in ${root}`);
  assert.match(text, /fill:\s*rgb\(204, 0, 0\)/, 'the rect keeps its colour');
  const latePng = decodePng((await downloadOf(page, late.locator('[data-action=png]'))).bytes);
  assert.deepEqual([latePng.width, latePng.height], [160, 80], 'twice the picture\'s size on screen');
  // The rect's red is in the PNG (at 2× its user units ×2 scale: x 2..22 → pixels 8..88).
  const at = (x, y) => Array.from(latePng.pixels.subarray((y * latePng.width + x) * 4, (y * latePng.width + x) * 4 + 4));
  assert.deepEqual(at(40, 20), [204, 0, 0, 255]);
  // Removing the table removes its tools.
  const bar = await page.$('#late-table + .figure-tools');
  await page.evaluate(() => document.getElementById('late-table').remove());
  await page.waitForFunction((b) => !b.isConnected, bar);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('every Copy as CSV / Markdown button says which table it copies: no two share a name', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4`);
  assert.equal(await waitForStatus(page), 'done');
  // Tables added later, and captions filled in later, are named too.
  await page.click('#partitioned-worked-run');
  await page.waitForFunction(() => document.getElementById('partitioned-worked').dataset.status === 'done', null, { timeout: 60_000 });
  await page.click('#reachability-run');
  await page.waitForFunction(() => document.getElementById('reachability').dataset.status === 'done', null, { timeout: 60_000 });
  const visible = '.figure-tools:not([hidden]) [data-action=csv], .figure-tools:not([hidden]) [data-action=markdown]';
  const names = (await accessibleNames(page, visible)).map((x) => x.name);
  assert.ok(names.length >= 30, `${names.length} buttons`);
  const twice = names.filter((x, i) => names.indexOf(x) !== i);
  assert.deepEqual(twice, [], 'no two Copy buttons share a name');
  for (const name of names) assert.match(name, /^Copy as (CSV|Markdown): .+$/);
  assert.ok(names.includes('Copy as CSV: GPU against JavaScript'), 'the summary table, by its caption');
  assert.ok(names.includes('Copy as Markdown: C₀₀, their sum'), 'a table the worked example added');
  assert.ok(names.some((x) => /^Copy as CSV: 1 render-to-texture pass, an n×n×n product \(.+ at n = 4\)$/.test(x)), 'the timeline, by its caption\'s first sentence');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('every Save PNG / SVG button says which picture it saves', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4`);
  assert.equal(await waitForStatus(page), 'done');
  await page.click('#reachability-run');
  await page.waitForFunction(() => document.getElementById('reachability').dataset.status === 'done', null, { timeout: 60_000 });
  const visible = '.figure-tools:not([hidden]) [data-action=png], .figure-tools:not([hidden]) [data-action=svg]';
  const names = (await accessibleNames(page, visible)).map((x) => x.name);
  assert.ok(names.length >= 10, `${names.length} buttons`);
  for (const name of names) assert.match(name, /^Save (PNG|SVG): .+$/);
  assert.ok(!names.some((x) => /^Save (PNG|SVG): (the picture|this picture)$/.test(x)), names.join('\n'));
  const twice = names.filter((x, i) => names.indexOf(x) !== i);
  assert.deepEqual(twice, [], 'no two Save buttons share a name');
  assert.ok(names.some((x) => /^Save SVG: 1 render-to-texture pass, an n×n×n product \(.+ at n = 4\)$/.test(x)), 'the timeline, by its caption\'s first sentence');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('the saved elimination steps and pass-timeline thumbnails carry their colour key and range', async () => {
  // Their keys were HTML beside the canvas (or the section's text): a saved PNG had none.
  const page = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`);
  assert.equal(await waitForStatus(page), 'done');
  const saved = async (fig) => {
    const png = decodePng((await downloadOf(page, fig.locator('.figure-tools [data-action=png]').first())).bytes);
    const [width, height] = await fig.locator('canvas').first().evaluate((c) => [c.width, c.height]);
    assert.ok(png.width >= width && png.height >= height + 20, `the canvas (${width}×${height}) and its key (${png.width}×${png.height})`);
    return keyColours(png, height);
  };
  // A pass's thumbnail: the scale it was drawn with.
  const thumb = await saved(page.locator('#timeline td.pic figure').first());
  for (const rgb of [[33, 102, 171], [179, 23, 43]]) assert.ok(thumb.some((c) => near(c, rgb)), `${rgb} in the thumbnail's key`);

  await page.locator('#linear-steps').scrollIntoViewIfNeeded();
  await page.click('#linear-steps-run');
  await page.waitForFunction(() => document.getElementById('linear-steps').dataset.status !== 'running', null, { timeout: 60_000 });
  assert.equal(await page.getAttribute('#linear-steps', 'data-status'), 'done');
  const steps = page.locator('#linear-steps-output figure');
  const scale = [[33, 102, 172], [179, 23, 43]];
  const frames = { 'a multiplier\'s grey frame': [153, 153, 153], 'the pivot row\'s black frame': [0, 0, 0] };
  const first = await saved(steps.nth(0));
  for (const rgb of scale) assert.ok(first.some((c) => near(c, rgb)), `${rgb} in A's key`);
  for (const [what, rgb] of Object.entries(frames)) assert.ok(!first.some((c) => near(c, rgb, 0)), `no ${what} in A's key: A has none`);
  const after = await saved(steps.nth(1));
  for (const rgb of scale) assert.ok(after.some((c) => near(c, rgb)), `${rgb} in step 1's key`);
  for (const [what, rgb] of Object.entries(frames)) assert.ok(after.some((c) => near(c, rgb, 0)), `${what} in step 1's key`);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('tables with cells spanning rows and columns copy as a grid, and lines shown apart stay apart', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4`, undefined, clipboard);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const copied = async (table, action = 'csv') => {
    const b = page.locator(`${table} ~ .figure-tools [data-action=${action}], .scroll-x:has(> ${table}) + .figure-tools [data-action=${action}]`).first();
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await b.click();
    await page.waitForFunction((el) => el.dataset.done === 'Copied', await b.elementHandle());
    return page.evaluate(() => navigator.clipboard.readText());
  };

  // CUDA beside WGSL: each "what changes" note spans both columns.
  const listing = parseCsv(await copied('#cuda-wgsl'));
  assert.ok(listing.length > 10);
  for (const row of listing) assert.equal(row.length, 2, JSON.stringify(row));
  const note = listing.find((r) => r[0].startsWith('__syncthreads() is workgroupBarrier()'));
  assert.deepEqual(note?.[1], '', 'the note in the first column, the second empty');
  // The code keeps its lines (joined with spaces, a // comment hid the code after it),
  // and Markdown escapes its own characters (__shared__ turned bold, var<workgroup> a tag).
  const shared = listing.find((r) => r[0].includes('__shared__ float As'));
  assert.ok(shared, 'the shared-memory declarations');
  assert.match(shared[1], /^ *var<workgroup> a_tile: .*;.*$/m, JSON.stringify(shared[1]));
  assert.ok(shared[1].split('\n').length >= 2, 'one line a declaration');
  const listingMd = await copied('#cuda-wgsl', 'markdown');
  assert.match(listingMd, /\\_\\_shared\\_\\_ float As/);
  assert.match(listingMd, /var\\<workgroup\\> a\\_tile: [^|\n]*<br>/);
  assert.doesNotMatch(listingMd.replace(/<br>/g, ''), /(?<!\\)[<>]/, 'no bare < or > left to read as HTML');

  // The measured table: two header rows (n and the ratio span both; the backends span
  // their kernels) over one row per n, each time with its GFLOP/s on a line below it.
  for (const n of [64, 128]) await page.uncheck(`#compute-n-${n}`);
  await page.click('#compute-run');
  await page.waitForFunction(() => ['done', 'error', 'cancelled'].includes(document.getElementById('compute').dataset.status), null, { timeout: 180_000 });
  assert.equal(await page.getAttribute('#compute', 'data-status'), 'done', await page.textContent('#compute-status'));
  // CSV: one row per kernel (then the K40's two), one number a column, units in the head
  // (a cell on screen holds a time, its GFLOP/s and the wall time together).
  const csv = parseCsv(await copied('#compute-table'));
  // Every column the table shows, the ratio columns too (values of their n, on each of its rows).
  assert.deepEqual(csv[0], ['n', 'API', 'kernel', 'time per product (ms)', 'time measured by', 'GFLOP/s', 'wall time per product (ms)', 'products timed', 'result exact', 'note',
    'global ÷ shared here (this n)', 'global ÷ shared here, times measured by', 'global ÷ shared on the K40 (this n)']);
  assert.deepEqual(csv.slice(1).map((r) => r.slice(0, 3).join(' ')), ['32 WebGPU global', '32 WebGPU tiled16', '32 WebGPU register', '32 WebGL2 blocked8', '32 WebGL2 naive',
    '32 CUDA on an NVIDIA K40 (course report) global', '32 CUDA on an NVIDIA K40 (course report) shared']);
  for (const row of csv) assert.equal(row.length, 13, JSON.stringify(row));
  const asNumber = (s) => { assert.match(s, /^-?\d+(\.\d+)?(e[-+]?\d+)?$/i, `“${s}” is a number`); return Number(s); };
  for (const [j, kernel] of [[1, 'global'], [5, 'naive']]) {
    const row = csv[j];
    const td = await page.$eval(`#compute-table td[data-kernel=${kernel}]`, (x) => ({ ...x.dataset }));
    const time = asNumber(row[3]);
    assert.ok(Math.abs(time - Number(td.shownMs)) <= 1e-3 * Number(td.shownMs), `${kernel}: ${time} ms as measured (${td.shownMs})`);
    assert.equal(row[4], td.kind);
    assert.ok(Math.abs(asNumber(row[5]) - 2 * 32 ** 3 / (time * 1e6)) <= 1e-3 * asNumber(row[5]), `${kernel}: GFLOP/s = 2n³ / time`);
    assert.ok(Math.abs(asNumber(row[6]) - Number(td.ms)) <= 1e-3 * Number(td.ms), `${kernel}: the wall time`);
    assert.ok(asNumber(row[7]) >= 1);
    assert.equal(row[8], 'yes');
  }
  assert.deepEqual(csv[6].slice(3, 6), ['0.015', 'kernel time', '4.369'], 'the K40\'s global time and GFLOP/s');
  assert.deepEqual(csv[7].slice(3, 6), ['0.005', 'kernel time', '13.11']);
  const ratio = await page.$eval('#compute-table tr[data-n="32"] td.ratio', (td) => ({ ratio: Number(td.dataset.ratio), text: td.textContent }));
  for (const row of csv.slice(1)) {
    assert.ok(Math.abs(asNumber(row[10]) - ratio.ratio) <= 1e-3 * ratio.ratio, `global ÷ shared here: ${row[10]} as the table's ${ratio.text}`);
    assert.equal(row[11], /GPU times/.test(ratio.text) ? 'GPU timer' : 'wall');
    assert.equal(row[12], '3', 'the K40\'s 15 µs ÷ 5 µs');
  }
  const md = (await copied('#compute-table', 'markdown')).trim().split('\n').filter((l) => l.startsWith('|'));
  assert.equal(md.length, 4, 'head, rule, second head, n = 32');
  for (const line of md) assert.equal(line.match(/(?<!\\)\|/g).length, 11, line);
  // Markdown is the table as shown: a cell's time, GFLOP/s and wall time apart, as on screen.
  const row = md[3].slice(2, -2).split(' | ');
  for (const [j, kernel] of [[1, 'global'], [5, 'naive']]) {
    assert.equal(row[j], await page.$eval(`#compute-table td[data-kernel=${kernel}]`, (td) => td.innerText.replace(/\s+/g, ' ').trim()), kernel);
  }
  assert.equal(row[7], '0.015 ms 4.37 GFLOP/s', 'the K40\'s time and GFLOP/s apart');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('the benchmark plot saves as SVG and PNG', async () => {
  const page = await openPage(browser, `${server.origin}/www/bench/index.html?suite=systems&show=swiftshader`);
  await page.waitForSelector('#plot svg');
  const fig = page.locator('#plot svg').first();
  const size = await fig.evaluate((s) => { const r = s.getBoundingClientRect(); return [Math.round(r.width * 2), Math.round(r.height * 2)]; });
  const tools = page.locator('#plot .figure-tools');
  const svg = (await downloadOf(page, tools.locator('[data-action=svg]'))).bytes.toString('utf8');
  assert.match(svg, /<svg/);
  assert.ok(svg.includes('polyline') || svg.includes('path'), 'the plot\'s lines');
  const saved = await downloadOf(page, tools.locator('[data-action=png]'));
  const png = decodePng(saved.bytes);
  assert.deepEqual([png.width, png.height], size);
  // Named after the plot's heading (every plot was "picture.png").
  const heading = await page.evaluate(() => document.querySelector('#plot').closest('section')?.querySelector('h2, h3')?.textContent ?? '');
  assert.notEqual(saved.name, 'picture.png');
  assert.match(saved.name, /^[a-z0-9-]+\.png$/);
  assert.ok(heading.toLowerCase().startsWith(saved.name.split(/[-.]/)[0]), `${saved.name} from “${heading}”`);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('"Link for slides" gives an iframe of the result panel alone, which works offline', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=5&input=integers&seed=3`, undefined, clipboard);
  assert.equal(await waitForStatus(page), 'done');
  await page.click('#slides-link');
  const snippet = await page.inputValue('#slides-snippet');
  const src = snippet.match(/<iframe src="([^"]+)"/)[1].replace(/&amp;/g, '&');
  const url = new URL(src);
  assert.equal(url.origin, server.origin);
  assert.deepEqual([...['n', 'input', 'seed', 'embed'].map((k) => url.searchParams.get(k))], ['5', 'integers', '3', '1']);
  // The iframe's title is its accessible name on the slide: what it shows, in words, not a query string.
  const title = snippet.match(/ title="([^"]+)"/)[1].replace(/&amp;/g, '&');
  assert.equal(title, 'gpgpu-matrix: R = M·M, n = 5; M: integers −4…4 (seed 3); on the default backend (auto), naive kernel');
  // Another operation, input, backend and kernel, from the form: the title follows.
  await page.fill('#n', '64');
  await page.selectOption('#input', 'graph');
  await page.selectOption('#op', 'power');
  await page.selectOption('#backend', 'webgl');
  await page.selectOption('#kernel', 'packed');
  const title2 = (await page.inputValue('#slides-snippet')).match(/ title="([^"]+)"/)[1].replace(/&amp;/g, '&');
  assert.equal(title2, 'gpgpu-matrix: R = M^5, n = 64; M: random graph (edge probability 0.1, seed 3); on WebGL, packed kernel');
  await page.context().close();

  // The snippet's page inside an iframe, as on a slide.
  // (Served from the page's origin: Chromium keeps an about:blank page from framing a local server.)
  const slide = await openPage(browser, `${server.origin}/slide.html`, undefined, {
    setup: (ctx) => ctx.route(`${server.origin}/slide.html`, (r) => r.fulfill({ contentType: 'text/html', body: `<!doctype html><title>slide</title>${snippet}` })),
  });
  const frame = await (await slide.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => document.body.dataset.status === 'done', null, { timeout: 60_000 });
  const visible = await frame.evaluate(() => Object.fromEntries(['.page-header', '#config', '.sections', '.page-footer', '#run-panel', '#heatmaps canvas']
    .map((s) => [s, !!document.querySelector(s)?.checkVisibility()])));
  assert.deepEqual(visible, { '.page-header': false, '#config': false, '.sections': false, '.page-footer': false, '#run-panel': true, '#heatmaps canvas': true });
  const results = await frame.evaluate(() => window.__results);
  assert.equal(results.config.n, 5);
  assert.equal(results.metrics.exact, 25);
  // Offline, like the page: a new run needs nothing from the network.
  await slide.context().setOffline(true);
  await frame.click('#run');
  await frame.waitForFunction(() => document.body.dataset.status === 'running' || document.body.dataset.status === 'done');
  await frame.waitForFunction(() => document.body.dataset.status === 'done', null, { timeout: 60_000 });
  assert.ok(new URL(frame.url()).searchParams.get('embed') === '1', 'the embedded page keeps embed=1 in its address');
  assert.deepEqual(slide.problems(), []);
  await slide.context().close();
});

test('an open "Link for slides" box follows the configuration: a new run or a changed field is what it offers', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=5`);
  assert.equal(await waitForStatus(page), 'done');
  await page.click('#slides-link');
  const offered = async () => {
    const src = new URL((await page.inputValue('#slides-snippet')).match(/<iframe src="([^"]+)"/)[1].replace(/&amp;/g, '&'));
    const open = new URL(await page.getAttribute('#slides-open', 'href'));
    assert.equal(open.href, src.href, 'the Open link is the snippet\'s address');
    return Object.fromEntries(['n', 'op', 'p', 'embed', 'luN'].map((k) => [k, src.searchParams.get(k)]));
  };
  assert.deepEqual(await offered(), { n: '5', op: 'square', p: null, embed: '1', luN: null });
  // A run of another n, the box still open.
  await page.fill('#n', '6');
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.status === 'done' && new URLSearchParams(location.search).get('n') === '6');
  assert.deepEqual(await offered(), { n: '6', op: 'square', p: null, embed: '1', luN: null });
  // A field changed, not run yet: the permalink has it, and so does the snippet.
  await page.selectOption('#op', 'power');
  assert.deepEqual(await offered(), { n: '6', op: 'power', p: '5', embed: '1', luN: null });
  // A panel's field written into the address.
  await page.fill('#luN', '3');
  await page.click('#linear-steps-run');
  await page.waitForFunction(() => document.getElementById('linear-steps').dataset.status === 'done', null, { timeout: 60_000 });
  assert.equal((await offered()).luN, '3');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a table or picture with nothing in it yet offers nothing to copy or save; once drawn, it does', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4`);
  assert.equal(await waitForStatus(page), 'done');
  // "Several devices" before its first run: an empty table and two empty svgs.
  const tools = { table: '#devices .scroll-x:has(> #devices-table) + .figure-tools', bars: '#devices-bars + .figure-tools', sweep: '#devices-sweep + .figure-tools' };
  const visible = () => page.evaluate((t) => Object.fromEntries(Object.entries(t).map(([k, s]) => [k, !!document.querySelector(s)?.checkVisibility()])), tools);
  for (const s of Object.values(tools)) assert.equal(await page.locator(s).count(), 1, `${s}: its tools exist`);
  assert.deepEqual(await visible(), { table: false, bars: false, sweep: false });
  assert.equal(await page.locator('#devices-bars').evaluate((e) => e.checkVisibility()), false, 'no blank picture before a run');
  // A run at this share draws the bars (the sweep and its table stay empty).
  await page.selectOption('#devices-n', '128');
  await page.click('#devices-run');
  await page.waitForFunction(() => ['done', 'error'].includes(document.getElementById('devices-status').dataset.status), null, { timeout: 120_000 });
  assert.equal(await page.getAttribute('#devices-status', 'data-status'), 'done', await page.textContent('#devices-status'));
  assert.deepEqual(await visible(), { table: false, bars: true, sweep: false });
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`${tools.bars} [data-action=svg]`)]);
  assert.match(readFileSync(await dl.path(), 'utf8'), /<rect /, 'the saved bars hold the bars');
  // Another size clears what was drawn: the tools go with it.
  await page.selectOption('#devices-n', '256');
  assert.deepEqual(await visible(), { table: false, bars: false, sweep: false });
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a heatmap never drawn (the error picture with the reference off) offers no Save PNG; drawn, it does', async () => {
  // Its Save PNG saved the blank 1×1 canvas: an 88-byte empty PNG.
  const saveOf = (page, title) => page.locator('#heatmaps figure', { has: page.locator('figcaption', { hasText: title }) }).locator('.figure-tools [data-action=png]');
  const off = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`);
  assert.equal(await waitForStatus(off), 'done');
  assert.equal(await saveOf(off, 'No error picture').count(), 1, 'the error figure has its tools');
  assert.equal(await saveOf(off, 'No error picture').isVisible(), false, 'but no Save PNG of a blank canvas');
  assert.equal(await saveOf(off, 'Result').isVisible(), true, 'the drawn result offers it');
  await off.context().close();
  const on = await openPage(browser, `${server.origin}/index.html?n=8&ref=1`);
  assert.equal(await waitForStatus(on), 'done');
  assert.equal(await saveOf(on, 'Error:').isVisible(), true, 'a drawn error picture offers Save PNG');
  const png = decodePng((await downloadOf(on, saveOf(on, 'Error:'))).bytes);
  assert.ok(png.width > 8 && png.height > 8, `${png.width}×${png.height}`);
  assert.deepEqual(on.problems(), []);
  await on.context().close();
});

test('a slide (embed=1) runs its result panel only: the hidden panels do not run the parts its address names', async () => {
  // A slide link made after using the panels carries their parameters.
  const fetched = [];
  const page = await openPage(browser, `${server.origin}/index.html?n=4&luN=3&meshN=4&devN=128&embed=1`, undefined, {
    setup: (ctx) => ctx.on('request', (r) => fetched.push(new URL(r.url()).pathname)),
  });
  assert.equal(await waitForStatus(page), 'done');
  // Without embed=1 these run right after the demo's first run (the linear, partitioned and
  // devices tests check that a link runs them); give them the time to start.
  await page.waitForTimeout(3000);
  const parts = await page.evaluate(() => ({
    steps: document.getElementById('linear-steps').dataset.status,
    mesh: document.getElementById('partitioned-mesh').dataset.status,
    devices: document.getElementById('devices-status').dataset.status,
  }));
  assert.deepEqual(parts, { steps: 'idle', mesh: 'idle', devices: 'idle' });
  // Nor does the hidden PageRank panel fetch its graph (1.4 MB) for later.
  assert.ok(fetched.includes('/www/app/main.js'), fetched.join(' '));
  assert.deepEqual(fetched.filter((p) => p.includes('wordnet')), []);
  // The address keeps them, so the same link without embed=1 shows them.
  assert.equal(new URL(page.url()).searchParams.get('luN'), '3');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a saved plot says which line is which: its legend is inside the picture', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4`);
  assert.equal(await waitForStatus(page), 'done');
  await page.click('#inverse-run');
  await page.waitForFunction(() => document.getElementById('inverse').dataset.status !== 'running', null, { timeout: 120_000 });
  assert.equal(await page.getAttribute('#inverse', 'data-status'), 'done');
  const plot = page.locator('#inverse figure.plot');
  // What the page shows of the plot's lines: the series of its data table, and √n's line.
  const names = await plot.locator('.plot-table thead th').evaluateAll((th) => th.slice(1).map((x) => x.textContent));
  assert.equal(names.length, 2, names.join(' | '));
  const svgText = (await downloadOf(page, plot.locator('.figure-tools [data-action=svg]'))).bytes.toString('utf8');
  for (const name of [...names, '√n = 8: the residual of X = 0']) assert.ok(svgText.includes(`>${name.replace(/&/g, '&amp;')}</text>`), `“${name}” in the saved SVG`);
  // Each name beside a swatch of its line's colour and dashes.
  const keys = await plot.locator('svg line.plot-key').evaluateAll((ls) => ls.map((l) => [l.getAttribute('stroke'), l.getAttribute('stroke-dasharray')]));
  const lines = await plot.locator('svg path').evaluateAll((ps) => ps.map((p) => [p.getAttribute('stroke'), p.getAttribute('stroke-dasharray')]));
  assert.deepEqual(keys.slice(0, 2), lines);
  assert.deepEqual(keys[2], ['#6b7280', '4 3']);
  // The PNG is that picture: as tall as the plot with its legend.
  const png = decodePng((await downloadOf(page, plot.locator('.figure-tools [data-action=png]'))).bytes);
  const box = await plot.locator('svg.plot-svg').evaluate((s) => s.viewBox.baseVal.height);
  assert.equal(png.height, 2 * box);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

/** The words of a saved SVG's text, its lines (tspans) joined by spaces. */
const svgWords = (svg) => svg.replace(/<\/tspan>\s*<tspan[^>]*>/g, ' ').replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

test('the saved RANSAC pictures and reachability graph carry their keys: a legend drawn inside the picture', async () => {
  // Their keys were HTML beside the picture, so a saved PNG or SVG had no key to its colours.
  const page = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  assert.equal(await waitForStatus(page), 'done');
  await page.locator('#batched-ransac').scrollIntoViewIfNeeded();
  await page.click('#batched-ransac-run');
  await page.waitForFunction(() => document.getElementById('batched-ransac').dataset.status === 'done', null, { timeout: 120_000, polling: 100 });
  const keys = {
    src: ['true match, found inlier', 'true match, missed', 'wrong match, rejected', 'wrong match, accepted', 'the sheet\'s outline'],
    dst: ['true match, found inlier', 'true match, missed', 'wrong match, rejected', 'wrong match, accepted', 'the sheet under the true H', 'under the found h'],
  };
  for (const [which, texts] of Object.entries(keys)) {
    const fig = page.locator(`#batched-ransac-${which}`);
    const words = svgWords((await downloadOf(page, fig.locator('.figure-tools [data-action=svg]'))).bytes.toString('utf8'));
    for (const t of texts) assert.ok(words.includes(t), `“${t}” in the saved SVG of ${which}`);
    // The PNG holds the picture and its legend under the frame: taller than the frame alone.
    const png = decodePng((await downloadOf(page, fig.locator('.figure-tools [data-action=png]'))).bytes);
    const [box, frame] = await fig.locator('svg').evaluate((s) => [{ width: s.viewBox.baseVal.width, height: s.viewBox.baseVal.height }, s.querySelector('rect.frame').height.baseVal.value]);
    assert.ok(Math.abs(png.height / png.width - box.height / box.width) < 0.01, `${which}: the PNG (${png.width}×${png.height}) is the whole picture (${box.width}×${box.height})`);
    assert.ok(box.height > frame + 24 + 4 * 15, `${which}: the picture (${box.height}) has room for its keys under the frame (${frame})`);
  }
  // Keys drawn with the pictures' marks are not counted as points.
  assert.equal(await page.$$eval('#batched-ransac-dst .pt', (x) => x.length), await page.evaluate(() => window.__batched.ransac.n));

  await page.click('#reachability-run');
  await page.waitForFunction(() => document.getElementById('reachability').dataset.status === 'done', null, { timeout: 120_000, polling: 100 });
  const graph = page.locator('#reachability figure.graph');
  const words = svgWords((await downloadOf(page, graph.locator('.figure-tools [data-action=svg]'))).bytes.toString('utf8'));
  assert.match(words, /one colour: vertices that reach each other \(a strongly connected component\)|every vertex is grey/);
  const png = decodePng((await downloadOf(page, graph.locator('.figure-tools [data-action=png]'))).bytes);
  assert.ok(png.height > png.width * 1.05, `the graph's PNG (${png.width}×${png.height}) is the square circle and its key under it`);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('Copy buttons stay under their table where tables sit in a row or a grid: no equation split, no column taken', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4`);
  assert.equal(await waitForStatus(page), 'done');
  const box = (sel) => page.locator(sel).first().evaluate((e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; });
  // The precision panel: the formats table in one column, its paragraph in the other.
  const [table, bar, para] = await Promise.all(['#precision .formats-table', '#precision .formats-table + .figure-tools', '#precision .formats > p'].map(box));
  assert.ok(bar.top >= table.bottom - 1 && bar.left < table.right, 'the buttons under the table');
  assert.ok(para.left >= table.right && Math.abs(para.top - table.top) < 40, 'the paragraph beside the table');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'nothing wider than the window');
  // Batched products: each A · B = C on one line, the buttons under each matrix.
  await page.fill('#prodBatch', '20');
  await page.click('#batched-products-run');
  await page.waitForFunction(() => document.getElementById('batched-products').dataset.status !== 'running', null, { timeout: 120_000 });
  assert.equal(await page.getAttribute('#batched-products', 'data-status'), 'done');
  const rows = await page.$$eval('#batched-products .part-figures', (rs) => rs.map((r) => [...r.querySelectorAll('table.part-grid')].map((t) => {
    const tr = t.getBoundingClientRect();
    const b = t.nextElementSibling.getBoundingClientRect();
    return { top: Math.round(tr.top), under: b.top >= tr.bottom - 1 };
  })));
  assert.equal(rows.length, 3);
  for (const row of rows) {
    assert.equal(row.length, 3, 'A, B and C');
    assert.ok(row.every((t) => t.top === row[0].top), `one line: ${JSON.stringify(row)}`);
    assert.ok(row.every((t) => t.under), 'buttons under each matrix');
  }
  // Fibonacci: its results table beside its plot, the buttons under the table.
  await page.click('#fibonacci-run');
  await page.waitForFunction(() => document.getElementById('fibonacci').dataset.status !== 'running', null, { timeout: 120_000 });
  const [results, plot] = await Promise.all(['#fibonacci .app-figures.wide table.app-results', '#fibonacci .app-figures.wide figure.plot'].map(box));
  assert.ok(plot.left >= results.right && Math.abs(plot.top - results.top) < 40, `the plot beside the table: ${JSON.stringify({ results, plot })}`);
  assert.ok(results.right - results.left > 400, 'the table keeps its column');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a slide (embed=1) whose settings this browser cannot run says so: backend=webgpu without WebGPU', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4&backend=webgpu&kernel=tiled16&embed=1`, undefined, {
    init: () => { delete Navigator.prototype.gpu; },
  });
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  // It ran WebGL's default kernel instead: the slide must not pass that off as compute shaders.
  assert.equal(await page.evaluate(() => window.__results.config.kernel), 'naive');
  assert.equal(await page.locator('#notes').isVisible(), true, 'the notes are shown on the slide');
  assert.deepEqual(await page.locator('#notes li').evaluateAll((li) => li.map((x) => x.dataset.param)), ['backend', 'kernel']);
  assert.equal(await page.locator('#config').isVisible(), false, 'still no form');
  await page.click('#notes button');
  assert.equal(await page.locator('#notes').isVisible(), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'run', 'Dismiss leaves the focus on a control the slide shows');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});
