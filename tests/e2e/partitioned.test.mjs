// The "Partitioned matrices" panel (issue 14, point 6): the chapter's worked example
// C00 = A00·B00 + A01·B10 on the GPU, a small block-sparse product (zero error,
// fewer block products than dense) and the fill-in under repeated squaring, Fox's
// and Cannon's algorithms stepped through with q = 3 (messages 2q²(q−1) = 36 and
// 2q(q−1) + 2q²(q−1) = 48), the panel's controls in the address, no console errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, launchBrowser, openPage, pageWithHistory, startServer, waitForStatus } from './harness.mjs';
import { decodePng } from './png.mjs';

let server, browser, page;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // A tiny main demo without the float64 worker: the panel has the GPU to itself.
  page = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
});
after(async () => { await browser?.close(); server?.stop(); });

/** Waits until part `id` (an element with data-status) is no longer running; returns its status. */
async function settled(p, id, timeout = 30_000) {
  await p.waitForFunction((id) => !['running', 'idle'].includes(document.getElementById(id)?.dataset.status), id, { timeout, polling: 50 });
  return p.getAttribute(`#${id}`, 'data-status');
}
const record = (p, part) => p.evaluate((part) => window.__partitioned?.[part], part);
const cells = (p, sel) => p.$$eval(`${sel} td`, (tds) => tds.map((td) => td.textContent.trim()));

test('the worked example: C00 = A00·B00 + A01·B10 = [[12, 59], [6, 33]] on the GPU, as the tiled product and float64 say', async () => {
  assert.deepEqual(await cells(page, '#partitioned-a'), ['1', '5', '12', '0', '3', '6', '4', '8', '2']);
  // The partition lines: after the second column and the second row.
  assert.equal(await page.$$eval('#partitioned-a td.cut-right', (t) => t.length), 3);
  assert.equal(await page.$$eval('#partitioned-a tr.cut-below', (t) => t.length), 1);
  await page.click('#partitioned-worked-run'); // also runs on its own once scrolled to
  assert.equal(await settled(page, 'partitioned-worked'), 'done', await page.textContent('#partitioned-worked-status'));
  const r = await record(page, 'worked');
  assert.deepEqual(r.t1, [0, 47, 0, 27], 'A00·B00');
  assert.deepEqual(r.t2, [12, 12, 6, 6], 'A01·B10');
  assert.deepEqual(r.sum, [12, 59, 6, 33]);
  assert.deepEqual(r.c00, [12, 59, 6, 33], 'C00 of the tiled product (maxTile 2)');
  assert.deepEqual(r.tiled, [12, 59, 79, 6, 33, 42, 2, 82, 104]);
  assert.equal(r.agree, true);
  assert.deepEqual(await cells(page, '#partitioned-sum'), ['12', '59', '6', '33']);
  assert.deepEqual(await page.$$eval('#partitioned-worked-checks td', (t) => t.map((x) => x.textContent)), ['equal', 'equal', 'equal', 'equal']);
});

test('block-sparse: a small product with zero error and fewer block products than dense; the fill-in', async () => {
  await page.fill('#sparseN', '64');
  await page.fill('#sparseBlock', '4');
  await page.fill('#sparseDensity', '10');
  await page.fill('#sparseSeed', '3');
  await page.click('#partitioned-sparse-run');
  assert.equal(await settled(page, 'partitioned-sparse'), 'done', await page.textContent('#partitioned-sparse-status'));
  const r = await record(page, 'sparse');
  assert.deepEqual([r.n, r.blockSize, r.density, r.gridRows], [64, 4, 10, 16]);
  assert.equal(r.errorSparse, 0);
  assert.equal(r.errorDense, 0);
  assert.equal(r.denseBlockProducts, 16 ** 3);
  assert.ok(r.blockProducts <= r.denseBlockProducts, `${r.blockProducts} > ${r.denseBlockProducts}`);
  assert.ok(r.blockProducts < r.denseBlockProducts / 10, `10 % of the blocks: ${r.blockProducts} products`);
  assert.equal(r.blockProducts, r.planProducts, 'the symbolic phase predicted the products');
  assert.ok(r.nonzero.a > 0 && r.nonzero.b > 0);
  // 16 canvas pixels per block: a saved PNG (the canvas's pixels) is 256 wide, not 16.
  assert.equal(await page.$$eval('#partitioned-sparse-output canvas.occupancy', (c) => c.map((x) => `${x.width}x${x.height}`).join()), '256x256,256x256,256x256');
  const savedPng = async (sel) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`${sel} .figure-tools [data-action=png]`)]);
    return decodePng(readFileSync(await dl.path()));
  };
  const png = await savedPng('#partitioned-occ-a');
  // The picture over its key (on the page the colours are explained in the text).
  assert.ok(png.width >= 256 && png.height >= 256 + 20, `${png.width}×${png.height}`);
  const left = (png.width - 256) >> 1;
  const keyOf = (p) => new Set(Array.from({ length: (p.height - 256) * p.width }, (_, k) => Array.from(p.pixels.slice(4 * (256 * p.width + k), 4 * (256 * p.width + k) + 3)).join()));
  const key = keyOf(png);
  for (const c of ['30,58,138', '247,247,244']) assert.ok(key.has(c), `${c} (stored, not stored) in A's key`);
  assert.ok(!key.has('245,158,11'), 'no amber in A\'s key: A has none');
  assert.ok(keyOf(await savedPng('#partitioned-occ-c')).has('245,158,11'), 'amber (reserved, came out zero) in C\'s key');
  let dark = 0;
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 16; j++) {
      // Both corners of a block and its centre: one colour per block, no blur between them.
      const at = (y, x) => Array.from(png.pixels.slice(4 * (y * png.width + left + x), 4 * (y * png.width + left + x) + 3)).join();
      const c = at(16 * i + 8, 16 * j + 8);
      assert.equal(at(16 * i, 16 * j), c);
      assert.equal(at(16 * i + 15, 16 * j + 15), c);
      if (c === '30,58,138') dark++;
    }
  }
  assert.match(await page.textContent('#partitioned-occ-a .help'), new RegExp(`^16×16 blocks, ${dark} stored `));
  assert.match(await page.textContent('#partitioned-sparse-table tr[data-key="max error, block-sparse"] td'), /^0 \(exact\)$/);
  assert.match(await page.textContent('#partitioned-sparse-table tr[data-key="block products"] td'), new RegExp(`^${r.blockProducts} of the dense 4\u202F096`));
  const q = new URL(page.url()).searchParams;
  assert.deepEqual([q.get('sparseN'), q.get('sparseBlock'), q.get('sparseDensity'), q.get('sparseSeed'), q.get('n')], ['64', '4', '10', '3', '8']);

  await page.click('#partitioned-fill-run');
  assert.equal(await settled(page, 'partitioned-fill'), 'done', await page.textContent('#partitioned-fill-status'));
  const f = await record(page, 'fill');
  assert.equal(f.steps.length, 6);
  const nz = f.steps.map((s) => s.nonzeroBlocks);
  assert.deepEqual(nz, [...nz].sort((x, y) => x - y), `nonzero blocks only grow: ${nz}`);
  assert.equal(nz[5], 256, 'M^64 of a path of 64 vertices is dense');
  assert.ok(f.denseAfter !== null && f.denseAfter <= 6, String(f.denseAfter));
  assert.ok(f.relError < 1e-5, String(f.relError));
  assert.equal(await page.$$eval('#partitioned-fill-table tbody tr', (t) => t.length), 7);
});

async function stepThrough(algorithm, steps, messages) {
  await page.selectOption('#mesh', algorithm);
  await page.fill('#meshN', '6');
  await page.fill('#meshQ', '3');
  await page.click('#partitioned-mesh-run');
  assert.equal(await settled(page, 'partitioned-mesh'), 'done', await page.textContent('#partitioned-mesh-status'));
  const r = await record(page, 'mesh');
  assert.deepEqual([r.algorithm, r.q, r.steps, r.messages, r.formula.messages, r.blockProducts, r.maxError], [algorithm, 3, steps, messages, messages, 27, 0]);
  assert.equal(r.bytes, messages * 2 * 2 * 4, '2×2 blocks of 4-byte floats');
  assert.match(await page.textContent('#partitioned-mesh-table tr[data-key="messages"] td'), new RegExp(`^${messages}$`));
  assert.equal(await page.isDisabled('#partitioned-mesh-prev'), true);
  await page.focus('#partitioned-mesh-next'); // stepped from the keyboard
  let sent = 0;
  for (let k = 1; k <= steps; k++) {
    assert.equal(await page.textContent('#partitioned-mesh-step'), `Step ${k} of ${steps}`);
    const s = await record(page, 'mesh');
    assert.equal(s.step, k);
    assert.equal(await page.$$eval('#partitioned-mesh-view .mesh-node', (g) => g.length), 9);
    // The picture's text alternative follows the step: each send, what each node holds.
    const said = await page.getAttribute('#partitioned-mesh-view svg.mesh-svg', 'aria-label');
    assert.equal(said.match(/ from node \(/g)?.length ?? 0, await page.$$eval('#partitioned-mesh-view .mesh-send', (a) => a.length), said);
    assert.equal(said.match(/node \(\d,\d\) A\(/g).length, 9, said);
    assert.equal(await page.$$eval('#partitioned-mesh-view path.mesh-send', (p) => p.length), s.stepSends, `arrows of step ${k}`);
    if (s.stepKind === 'multiply') assert.equal(s.stepSends, 0);
    sent += s.stepSends;
    assert.equal(new URL(page.url()).searchParams.get('meshStep'), k === 1 ? null : String(k));
    if (k < steps) await page.keyboard.press('Enter');
  }
  assert.equal(sent, messages, 'the arrows of all steps add up to the messages');
  assert.equal(await page.isDisabled('#partitioned-mesh-next'), true);
  // Next disabled under the focus at the last step: the keyboard goes on from Previous.
  assert.equal(await page.evaluate(() => document.activeElement.id), 'partitioned-mesh-prev');
  // A step picked in the list, which is drawn anew: the focus stays on that step's entry.
  await page.locator('#partitioned-mesh-view .mesh-steps button').nth(steps - 2).focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent('#partitioned-mesh-step'), `Step ${steps - 1} of ${steps}`);
  assert.equal(await page.evaluate((k) => document.activeElement === document.querySelectorAll('#partitioned-mesh-view .mesh-steps button')[k], steps - 2), true);
  // A saved picture says what the arrows' colours and the frames mean (the page's text did only).
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click('#partitioned-mesh-view .figure-tools [data-action=svg]')]);
  const words = readFileSync(await dl.path(), 'utf8').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  for (const t of ['an A block sent', 'a B block sent', 'sends', 'receives', 'multiplies, C += A·B']) assert.ok(words.includes(t), `“${t}” in the saved SVG`);
  const keyArrows = await page.$$eval('#partitioned-mesh-view .svg-legend path.mesh-key', (p) => p.map((x) => getComputedStyle(x).stroke));
  const arrows = await page.$$eval('#partitioned-mesh-view path.mesh-send', (p) => [...new Set(p.map((x) => `${x.classList[1]} ${getComputedStyle(x).stroke}`))].sort());
  assert.deepEqual(keyArrows, ['rgb(29, 78, 216)', 'rgb(217, 119, 6)']);
  for (const a of arrows) assert.ok(keyArrows.includes(a.split(' ').slice(1).join(' ')), `${a}: a colour the key names`);
}

test('Cannon\'s skew is what the text says: node (i, j) then holds A(i, (i+j) mod q) and B((i+j) mod q, j), sent i or j nodes along', async () => {
  // The text said A(i, i+j) (no wrap: node (3, 3) of a 4×4 mesh holds A(3, 2)) and
  // "only neighbours talk", though the skew sends row 2's blocks two nodes along.
  const text = await page.textContent('#partitioned-mesh > p');
  assert.match(text, /holds Ai,\(i\+j\) mod q and B\(i\+j\) mod q,j/);
  assert.doesNotMatch(text, /Only neighbours talk/);
  await page.selectOption('#mesh', 'cannon');
  await page.fill('#meshN', '8');
  await page.fill('#meshQ', '4');
  await page.click('#partitioned-mesh-run');
  assert.equal(await settled(page, 'partitioned-mesh'), 'done', await page.textContent('#partitioned-mesh-status'));
  const q = 4;
  const skew = await record(page, 'mesh');
  assert.equal(skew.stepKind, 'skew');
  for (const { node: [i, j], a, b } of skew.holds) assert.deepEqual([a, b], [[i, (i + j) % q], [(i + j) % q, j]], `node (${i}, ${j})`);
  const sends = await page.$$eval('#partitioned-mesh-view .mesh-sends li', (l) => l.map((x) => x.textContent));
  assert.ok(sends.includes('A(2,2): node (2,2) → (2,0), 16 bytes'), sends.join('; '));
  await page.click('#partitioned-mesh-next');
  assert.match(await page.textContent('#partitioned-mesh-label'), /^multiply: stage 0: C\(i, j\) \+= A\(i, \(i\+j\) mod 4\) · B\(\(i\+j\) mod 4, j\)$/);
  assert.match(await page.textContent('#partitioned-mesh-table tr[data-key="messages"]'), /then q−1 rolls each move all 2q² blocks/);
});

test('Fox and Cannon with q = 3 step through; messages 2q²(q−1) = 36 and 2q(q−1) + 2q²(q−1) = 48', async () => {
  await page.locator('#partitioned-mesh').scrollIntoViewIfNeeded();
  await stepThrough('fox', 8, 36);
  await page.locator('#partitioned-mesh').screenshot({ path: join(ARTIFACTS, 'partitioned-fox.png') });
  await stepThrough('cannon', 6, 48);
  const first = await record(page, 'mesh');
  assert.equal(first.algorithm, 'cannon');
  await page.locator('#partitioned').screenshot({ path: join(ARTIFACTS, 'partitioned-1280.png') });
  assert.deepEqual(page.problems(), []);
});

test('Cannon at n = 64, q = 8 from a link, the first big call of its page: the exact product, no GL_ERROR', async () => {
  // Its 128 block uploads fill wasm-bindgen's table of JS objects; growing it grew wasm
  // memory while a block's Float32Array view was being made, which detached the view,
  // and texSubImage2D refused it ("ArrayBufferView not big enough", GL error 0x0502).
  // src/wasm_view.rs makes such a view again.
  const mp = await openPage(browser, `${server.origin}/index.html?n=4&ref=0&mesh=cannon&meshN=64&meshQ=8`);
  assert.equal(await waitForStatus(mp), 'done', await mp.textContent('#status'));
  assert.equal(await settled(mp, 'partitioned-mesh', 60_000), 'done', await mp.textContent('#partitioned-mesh-status'));
  assert.match(await mp.textContent('#partitioned-mesh-status'), /16 steps, 1.008 messages .*max error 0\./);
  assert.deepEqual(mp.problems(), []);
  await mp.context().close();
});

test('the fill-in with blocks of 32: M is dense before any squaring, and the page says so', async () => {
  // A 64×64 path in blocks of 32 is a 2×2 grid whose four blocks the band all touches
  // (entries (31, 32) and (32, 31) lie in the off-diagonal ones). The page said "dense
  // after squaring 1 (M^2)", while its own table showed M's 4 of 4 blocks nonzero.
  const fp = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  assert.equal(await waitForStatus(fp), 'done', await fp.textContent('#status'));
  await fp.fill('#sparseBlock', '32');
  await fp.click('#partitioned-fill-run');
  assert.equal(await settled(fp, 'partitioned-fill'), 'done', await fp.textContent('#partitioned-fill-status'));
  const f = await record(fp, 'fill');
  assert.equal(f.start, 4);
  assert.equal(f.denseAt, 0);
  assert.match(await fp.textContent('#partitioned-fill-status'), /dense from the start/);
  assert.doesNotMatch(await fp.textContent('#partitioned-fill-status'), /after squaring/);
  assert.match(await fp.textContent('#partitioned-fill-dense'), /^Every block of M holds a nonzero before any squaring/);
  assert.equal(await fp.getAttribute('#partitioned-fill-table tbody tr[data-k="0"]', 'class'), 'dense', 'the M row marked');
  assert.equal(await fp.$$eval('#partitioned-fill-table tbody tr.dense', (t) => t.length), 1);
  assert.deepEqual(fp.problems(), []);
  await fp.context().close();
});

test('on the CPU too: the worked example and a block-sparse product with zero error', async () => {
  const cp = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&backend=cpu&sparseN=64&sparseBlock=4&sparseDensity=10&sparseSeed=3`);
  assert.equal(await waitForStatus(cp), 'done', await cp.textContent('#status'));
  await cp.click('#partitioned-worked-run');
  assert.equal(await settled(cp, 'partitioned-worked'), 'done', await cp.textContent('#partitioned-worked-status'));
  assert.deepEqual((await record(cp, 'worked')).tiled, [12, 59, 79, 6, 33, 42, 2, 82, 104]);
  await cp.click('#partitioned-sparse-run');
  assert.equal(await settled(cp, 'partitioned-sparse'), 'done', await cp.textContent('#partitioned-sparse-status'));
  const r = await record(cp, 'sparse');
  assert.deepEqual([r.n, r.blockSize, r.errorSparse, r.errorDense], [64, 4, 0, 0]);
  assert.ok(r.blockProducts < r.denseBlockProducts / 10, `10 % of the blocks: ${r.blockProducts} products`);
  assert.match(await cp.textContent('#partitioned-sparse-status'), /the CPU/);
  assert.match(await cp.textContent('#partitioned-sparse-k40'), /copying the blocks into the library's memory and back/, 'no GPU on the CPU backend');
  assert.deepEqual(cp.problems(), []);
  await cp.context().close();
});

test('the panel\'s controls round-trip through the address, beside the demo\'s', async () => {
  const url = page.url();
  const q = new URL(url).searchParams;
  assert.deepEqual([q.get('mesh'), q.get('meshQ'), q.get('meshStep'), q.get('sparseN')], ['cannon', null, '5', '64'], 'meshQ=3 and meshN=6 are the defaults');
  // The permalink (the demo's part written out in full) carries the same panel state.
  const link = new URL(await page.getAttribute('#permalink', 'href'), url).searchParams;
  for (const key of ['sparseN', 'sparseBlock', 'sparseDensity', 'sparseSeed', 'mesh', 'meshN', 'meshQ', 'meshStep']) assert.equal(link.get(key), q.get(key), key);
  assert.equal(link.get('n'), '8');
  const again = await openPage(browser, url);
  assert.equal(await waitForStatus(again), 'done', await again.textContent('#status'));
  // The parts the address names run on their own after the demo, and show the same step.
  assert.equal(await settled(again, 'partitioned-mesh', 60_000), 'done', await again.textContent('#partitioned-mesh-status'));
  assert.equal(await settled(again, 'partitioned-sparse', 60_000), 'done');
  assert.deepEqual(await again.evaluate(() => ['mesh', 'meshN', 'meshQ', 'sparseN', 'sparseBlock', 'sparseDensity', 'sparseSeed'].map((id) => document.getElementById(id).value)),
    ['cannon', '6', '3', '64', '4', '10', '3']);
  assert.equal(await again.textContent('#partitioned-mesh-step'), 'Step 5 of 6');
  const r = await record(again, 'mesh');
  assert.deepEqual([r.algorithm, r.step, r.messages], ['cannon', 5, 48]);
  assert.equal(again.url(), url, 'restoring wrote nothing new');
  // A run of the demo keeps the panel's parameters.
  await again.fill('#n', '6');
  await again.click('#run');
  assert.equal(await waitForStatus(again), 'done');
  const q2 = new URL(again.url()).searchParams;
  assert.deepEqual([q2.get('n'), q2.get('mesh'), q2.get('meshStep'), q2.get('sparseN')], ['6', 'cannon', '5', '64']);
  assert.deepEqual(again.problems(), []);
  await again.context().close();

  // A parameter that does not parse: a note, and the default.
  const bad = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&meshQ=9&mesh=strassen`);
  assert.equal(await waitForStatus(bad), 'done');
  const notes = await bad.$$eval('#notes li', (l) => Object.fromEntries(l.map((x) => [x.dataset.param, x.textContent])));
  assert.match(notes.meshQ, /must be a whole number from 1 to 8; the default meshQ=3 is used/);
  assert.match(notes.mesh, /must be one of fox, cannon; the default mesh=fox is used/);
  assert.equal(await bad.inputValue('#meshQ'), '3');
  assert.deepEqual(bad.problems(), []);
  await bad.context().close();
});

test('Back to an address with other fields: the results of the fields left behind go', async () => {
  const p = await pageWithHistory(browser, server.origin);
  await p.fill('#sparseN', '16');
  await p.fill('#sparseBlock', '4');
  await p.click('#partitioned-sparse-run');
  assert.equal(await settled(p, 'partitioned-sparse'), 'done');
  await p.click('#partitioned-fill-run');
  assert.equal(await settled(p, 'partitioned-fill'), 'done');
  await p.fill('#meshN', '4');
  await p.fill('#meshQ', '2');
  await p.click('#partitioned-mesh-run');
  assert.equal(await settled(p, 'partitioned-mesh'), 'done');
  // Back past the two Runs to other fields (the fill-in ran with the sparse fields): no
  // sparse or mesh parameters, the fields their defaults, and none of the three results
  // (n = 16 in blocks of 4, the fill-in in blocks of 4, a 2×2 mesh) may stay.
  await p.goBack();
  await p.waitForFunction(() => new URLSearchParams(location.search).get('meshN') === null);
  await p.goBack();
  await p.waitForFunction(() => { const q = new URLSearchParams(location.search); return q.get('n') === '5' && !q.has('sparseN') && document.body.dataset.status === 'done'; });
  assert.deepEqual(await p.evaluate(() => ['sparseN', 'sparseBlock', 'meshN', 'meshQ'].map((id) => document.getElementById(id).value)), ['256', '8', '6', '3']);
  for (const [part, out] of [['partitioned-sparse', '#partitioned-sparse-output'], ['partitioned-fill', '#partitioned-fill-output'], ['partitioned-mesh', '#partitioned-mesh-view']]) {
    assert.equal(await p.getAttribute(`#${part}`, 'data-status'), 'idle', part);
    assert.equal(await p.textContent(out), '', part);
    assert.match(await p.textContent(`#${part}-status`), /^The fields changed \(Back or Forward\)/, part);
  }
  assert.equal(await p.textContent('#partitioned-mesh-summary'), '');
  assert.ok(await p.isDisabled('#partitioned-mesh-next'));
  // A field that does not parse: "Not run", and the results of the run before go too.
  await p.click('#partitioned-fill-run');
  assert.equal(await settled(p, 'partitioned-fill'), 'done');
  await p.fill('#sparseBlock', '0');
  await p.evaluate(() => { document.getElementById('partitioned-fill').dataset.status = 'idle'; });
  await p.click('#partitioned-fill-run');
  assert.equal(await settled(p, 'partitioned-fill'), 'error');
  assert.match(await p.textContent('#partitioned-fill-status'), /^Not run: /);
  assert.equal(await p.textContent('#partitioned-fill-output'), '');
  assert.deepEqual(p.problems(), []);
  await p.context().close();
});

test('the panel at phone width: nothing wider than the screen', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no horizontal scroll at 390 px');
  await page.locator('#partitioned').screenshot({ path: join(ARTIFACTS, 'partitioned-390.png') });
  // 320 px: the narrowest phones, and 1280 px zoomed to 400 % (WCAG 1.4.10).
  await page.setViewportSize({ width: 320, height: 568 });
  await page.waitForTimeout(200);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 320), 'no horizontal scroll at 320 px');
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(page.origins(), [server.origin]);
});
