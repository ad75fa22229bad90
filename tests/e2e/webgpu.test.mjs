// The page on its second backend: backend=webgpu runs the same demo as compute
// shaders (SwiftShader's WebGPU adapter here), with the same heatmaps, timeline and
// precision panel, through the library's Async calls; the URL's backend parameter
// round-trips; the application sections run on it; and a browser without WebGPU
// gets a note instead, with everything WebGL still working.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, accessibleNames, drawnOn, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';
import { applicationChecks } from './sections.mjs';
import { compare, square, uniformMatrix } from '../../www/reference.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

test('backend=webgpu: compute-shader passes with heatmaps, timestamp times, the WGSL shader and a small error', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=48&op=repeat&k=2&backend=webgpu&kernel=tiled16`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  await page.screenshot({ path: join(ARTIFACTS, 'webgpu-1280x720.png') });
  const r = await page.evaluate(() => window.__results);
  assert.deepEqual([r.backend, r.config.backend, r.kernel, r.passCount, r.reference], ['webgpu', 'webgpu', 'tiled16', 2, 'done']);
  assert.match(r.renderer, /WebGPU adapter .*swiftshader/);
  assert.ok(r.metrics.relFrobenius > 0 && r.metrics.relFrobenius <= 1e-5, String(r.metrics.relFrobenius));
  assert.deepEqual(await page.$$eval('#notes li', (l) => l.length), 0);

  // Heatmaps of the input buffer, the result and the error, each drawn.
  const titles = await page.$$eval('#heatmaps figure figcaption', (f) => f.map((x) => x.textContent));
  assert.equal(titles.length, 3, titles.join(' | '));
  assert.match(titles[0], /input buffer/);
  assert.match(titles[1], /^Result M\^4/);
  for (const i of [1, 2, 3]) assert.ok(await drawnOn(page, `#heatmaps figure:nth-child(${i}) canvas`), `picture ${i} drawn`);
  // Hover readout of the result: the GPU value and the double.
  const box = await page.locator('#heatmaps figure:nth-child(2) canvas').boundingBox();
  await page.mouse.move(box.x + 3, box.y + 3);
  assert.match(await page.textContent('#heatmaps figure:nth-child(2) .hm-readout'), /^\(0, 0\): GPU −?\d.* · double −?\d/);

  // The timeline: two compute passes, GPU times from timestamp queries, thumbnails drawn.
  assert.equal(await page.locator('#timeline tbody tr.ran').count(), 2);
  assert.match(await page.textContent('#timeline caption'), /2 compute passes/);
  assert.match(await page.textContent('#timeline thead'), /GPU time \(timestamps\)/);
  for (const p of r.passes) assert.ok(p.gpuMs > 0 && p.relFrobenius <= 1e-5, JSON.stringify(p));
  assert.ok(await drawnOn(page, '#timeline tbody tr:nth-child(2) canvas'), 'thumbnail drawn');
  assert.match(r.totals.gpuTimeKind, /timestamp queries/);

  // The precision panel and the summary.
  const precision = await page.textContent('#precision');
  assert.match(precision, /relative Frobenius error/);
  const table = await page.$$eval('#summary tr', (rows) => Object.fromEntries(rows.map((tr) => [tr.dataset.key, tr.querySelector('td').textContent])));
  assert.equal(table.backend, 'WebGPU: compute shaders');
  assert.match(table['GPU wall time'], /mapAsync/);

  // The shader panel: the WGSL kernel that ran, its key lines, the complete source.
  assert.equal(await page.inputValue('#shader-kernel'), 'tiled16');
  assert.match(await page.textContent('#shader-about'), /^wgsl\/matmul\/2_tiled16\.wgsl — .*This is the kernel that ran/);
  const notes = await page.$$eval('#shader-notes li', (li) => li.map((x) => x.textContent));
  assert.ok(notes.length >= 6, notes.join('\n'));
  assert.ok(notes.some((t) => /workgroupBarrier\(\), CUDA's __syncthreads\(\)/.test(t)));
  assert.ok(notes.some((t) => /var<workgroup>/.test(t)));
  const marked = await page.$$eval('#shader-code .src-line.hl', (l) => l.map((x) => x.textContent));
  assert.ok(marked.some((t) => t.includes('workgroupBarrier();')));
  assert.match(await page.getAttribute('#shader-code pre', 'aria-label'), /^WGSL source/);
  const program = await page.textContent('#program-source');
  assert.match(program, /override SEMIRING/);
  assert.match(program, /@compute @workgroup_size\(TILE, TILE\)/);
  // The register kernel's form on this (software) adapter.
  await page.selectOption('#shader-kernel', 'register');
  assert.match(await page.textContent('#shader-about'), /^wgsl\/matmul\/3_register_cpu\.wgsl — .*The kernel that ran is tiled16\..*CPU form/);
  // Each file of the register kernel gets its own key-line notes, every one of them
  // found on a line (the GPU forms run on real GPUs only, so their notes are checked here).
  const fileNotes = await page.evaluate(async () => {
    const { annotate, rulesFor } = await import('/www/ui/shader.js');
    const out = {};
    for (const f of ['matmul/3_register', 'matmul/3_register_64', 'matmul/3_register_double', 'matmul/3_register_any', 'matmul/3_register_cpu', 'matmul/3_register_cpu_any']) {
      const src = await (await fetch(`/wgsl/${f}.wgsl`)).text();
      out[f] = { found: annotate('register', src).length, rules: rulesFor('register', src).length, first: rulesFor('register', src)[0].note.slice(0, 40) };
    }
    return out;
  });
  for (const [f, n] of Object.entries(fileNotes)) assert.equal(n.found, n.rules, `${f}: ${n.found} of ${n.rules} notes found`);
  // The 128 × 128 form compiles its k loop written out (src/ops/matmul/webgpu/
  // register.rs writes blocks `{ let k = 0u; … }` … `{ let k = 15u; … }`): the listing
  // keeps block 0 and folds the other 15 into one line, and its notes are all found.
  const folded = await page.evaluate(async () => {
    const { annotate, foldWrittenOut, rulesFor } = await import('/www/ui/shader.js');
    const block = (k) => [`        { let k = ${k}u;`, '            if (k > 0u) { x(k); }', '        }'];
    const written = ['a;', ...[...Array(16).keys()].flatMap(block), 'b;', ...[0, 1].flatMap(block), 'c;'].join('\n');
    const src = (await (await fetch('/wgsl/matmul/3_register.wgsl')).text())
      .replace(/for \(var k = 0u; k < BK; k\+\+\) \{/g, '{ let k = 0u;');
    return { lines: foldWrittenOut(written).split('\n'), notes: [annotate('register', foldWrittenOut(src)).length, rulesFor('register', src).length] };
  });
  assert.deepEqual(folded.lines, ['a;', ...[0].flatMap((k) => [`        { let k = ${k}u;`, '            if (k > 0u) { x(k); }', '        }']),
    '        // { let k = 1u; … } … { let k = 15u; … }: the block above again for each k (folded here)', 'b;',
    '        { let k = 0u;', '            if (k > 0u) { x(k); }', '        }',
    '        // { let k = 1u; … } … { let k = 1u; … }: the block above again for each k (folded here)', 'c;']);
  assert.equal(folded.notes[0], folded.notes[1]);
  const sets = new Set(Object.values(fileNotes).map((n) => n.first));
  assert.ok(sets.size >= 5, JSON.stringify(fileNotes));
  assert.ok((await page.$$eval('#shader-notes li', (li) => li.map((x) => x.textContent))).some((t) => /8 × 8 block of C/.test(t)));

  // The form lists the WebGPU kernels; a square on WebGPU, checked here against float64.
  assert.deepEqual(await page.$$eval('#kernel option', (o) => o.map((x) => x.value)), ['global', 'tiled16', 'register', 'auto']);
  await page.selectOption('#op', 'square');
  await page.selectOption('#kernel', 'register');
  await page.click('#run');
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.deepEqual(Object.fromEntries(new URL(page.url()).searchParams), { n: '48', input: 'uniform', seed: '1', op: 'square', backend: 'webgpu', kernel: 'register' });
  const gpu = Float32Array.from(await page.evaluate(() => Array.from(window.__page.last.gpu)));
  const mine = compare(gpu, square(48, uniformMatrix(1, 48 * 48)));
  assert.ok(mine.relFrobenius <= 1e-6, `relative Frobenius error ${mine.relFrobenius}`);
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(page.origins(), [server.origin]);
  await page.context().close();
});

test('the backend round-trips through the URL and the form; auto says what it resolved to', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&backend=webgpu&kernel=global`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.equal(await page.inputValue('#backend'), 'webgpu');
  assert.equal(await page.evaluate(() => window.__results.backend), 'webgpu');
  assert.match(await page.getAttribute('#permalink', 'href'), /backend=webgpu&kernel=global/);

  // To WebGL with the form: the kernel menu follows, the URL says backend=webgl.
  await page.selectOption('#backend', 'webgl');
  assert.deepEqual(await page.$$eval('#kernel option', (o) => o.map((x) => x.value)), ['naive', 'packed', 'blocked4', 'blocked8', 'auto']);
  assert.equal(await page.inputValue('#kernel'), 'naive', 'a WebGPU kernel becomes WebGL\'s default');
  await page.click('#run');
  await page.waitForFunction(() => window.__results?.backend === 'webgl' && document.body.dataset.status === 'done', null, { timeout: 60_000, polling: 50 });
  let q = new URL(page.url()).searchParams;
  assert.deepEqual([q.get('backend'), q.get('kernel')], ['webgl', 'naive']);
  assert.match(await page.textContent('#device'), /SwiftShader/);

  // auto: the library's rule. SwiftShader's WebGPU adapter is a software one, so WebGL.
  await page.selectOption('#backend', 'auto');
  await page.waitForFunction(() => /auto → webgl/.test(document.getElementById('backend-help').textContent), null, { timeout: 30_000 });
  assert.match(await page.textContent('#backend-help'), /software one.*auto → webgl/);
  await page.click('#run');
  await page.waitForFunction(() => window.__results?.config?.backend === 'auto' && document.body.dataset.status === 'done', null, { timeout: 60_000, polling: 50 });
  q = new URL(page.url()).searchParams;
  assert.equal(q.has('backend'), false, 'auto is the default: not in the URL');
  assert.equal(await page.evaluate(() => window.__results.backend), 'webgl');

  // Back to the WebGPU run: its URL, its backend.
  await page.goBack();
  await page.goBack();
  await page.waitForFunction(() => window.__results?.backend === 'webgpu' && document.body.dataset.status === 'done', null, { timeout: 60_000, polling: 50 });
  assert.equal(await page.inputValue('#backend'), 'webgpu');

  // A URL asking for a kernel of the other backend: a note, and this backend's default.
  const mixed = await openPage(browser, `${server.origin}/index.html?n=8&backend=webgpu&kernel=blocked8`);
  assert.equal(await waitForStatus(mixed), 'done', await mixed.textContent('#status'));
  assert.match(await mixed.textContent('#notes li[data-param="kernel"]'), /blocked8 is a WebGL kernel .* this run uses WebGPU .* the default global is used/);
  assert.equal(await mixed.evaluate(() => window.__results.kernel), 'global');
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(mixed.problems(), []);
  await mixed.context().close();
  await page.context().close();
});

test('backend=webgpu steps one compute pass per click, and Run/Cancel in quick succession never end in an error', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=12&input=integers&seed=3&op=power&p=5&backend=webgpu&kernel=register&mode=step`);
  assert.equal(await waitForStatus(page, 60_000, ['paused', 'error']), 'paused', await page.textContent('#status'));
  // No pass has run yet: the shader panel says the run uses the kernel, not that it ran.
  assert.match(await page.textContent('#shader-about'), /This is the kernel the run uses\./);
  // What body[data-status] says while the status line says a stepped pass runs: it
  // said 'paused' (so a test or a script took a pass under way for a pause).
  await page.evaluate(() => {
    window.__whileRunning = new Set();
    new MutationObserver(() => {
      if (/running on the GPU/.test(document.getElementById('status').textContent)) window.__whileRunning.add(document.body.dataset.status);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-status'] });
  });
  await page.click('#step');
  await page.waitForFunction(() => document.body.dataset.passesDone === '1' && document.body.dataset.status === 'paused', null, { timeout: 30_000, polling: 50 });
  assert.deepEqual(await page.evaluate(() => [...window.__whileRunning]), ['running']);
  assert.match(await page.textContent('#heatmaps figure:nth-child(2) figcaption'), /pass 1 of 3: M\^2 = M\^1 · M\^1/);
  await page.click('#finish');
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.match(await page.textContent('#shader-about'), /This is the kernel that ran\./);
  const r = await page.evaluate(() => window.__results);
  assert.equal(r.metrics.exact, 144, 'small integers stay exact in float32');
  for (const p of r.passes) assert.equal(p.relFrobenius, 0, JSON.stringify(p));

  // A run whose promises are still pending when Cancel frees it must stay quiet.
  await page.fill('#n', '64');
  let seed = 11;
  const delay = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % 50; };
  for (let i = 0; i < 12; i++) {
    await page.evaluate(() => document.getElementById('run').click());
    await page.waitForTimeout(delay());
    await page.evaluate(() => { const c = document.getElementById('cancel'); if (!c.disabled) c.click(); });
    await page.waitForTimeout(delay());
    assert.notEqual(await page.evaluate(() => document.body.dataset.status), 'error', `round ${i}: ${await page.textContent('#banner')}`);
  }
  await page.waitForFunction(() => document.body.dataset.status !== 'running', null, { timeout: 30_000, polling: 50 });
  await page.click('#run');
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.equal(await page.isHidden('#banner'), true, await page.textContent('#banner'));
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('the application sections run on WebGPU through their Async calls', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&backend=webgpu`);
  assert.equal(await waitForStatus(page), 'done');
  await applicationChecks(page, 'webgpu', 'WebGPU');
  await page.context().close();
});

test('the compute-shader section measures both backends and shows CUDA beside WGSL', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`);
  assert.equal(await waitForStatus(page), 'done');
  // CUDA beside WGSL, line for line.
  const pairs = await page.$$eval('#cuda-wgsl tr.code', (rows) => rows.map((tr) => [tr.querySelector('.cuda').textContent, tr.querySelector('.wgsl').textContent]));
  const find = (cuda) => pairs.find(([c]) => c.includes(cuda));
  assert.match(find('__syncthreads();')[1], /workgroupBarrier\(\)/);
  assert.match(find('__shared__ float As')[1], /var<workgroup> a_tile/);
  assert.match(find('int row = blockIdx.y')[1], /let row = group\.y \* TILE \+ ty/);
  assert.match(find('C[row * n + col] = sum;')[1], /c\[row \* dims\.cols \+ col\] = sr_finish\(sum\)/);
  assert.ok(await page.isVisible('#compute-software'), 'the software-adapter caveat');

  // A tiny measurement: n = 32 only.
  for (const n of [64, 128]) await page.uncheck(`#compute-n-${n}`);
  await page.click('#compute-run');
  await page.waitForFunction(() => document.getElementById('compute').dataset.status !== 'running', null, { timeout: 120_000, polling: 100 });
  assert.equal(await page.getAttribute('#compute', 'data-status'), 'done', await page.textContent('#compute-status'));
  await page.locator('#compute-table').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(ARTIFACTS, 'compute-table.png') });
  const cells = await page.$$eval('#compute-table tr[data-n="32"] td.cell', (tds) => tds.map((td) => [td.dataset.kernel, td.dataset.backend, Number(td.dataset.ms), td.textContent]));
  assert.deepEqual(cells.map((c) => c[0]), ['global', 'tiled16', 'register', 'blocked8', 'naive']);
  for (const [kernel, backend, ms, text] of cells) {
    assert.ok(ms > 0, `${kernel} (${backend}): ${text}`);
    assert.match(text, /ms ✓.*GFLOP\/s/, text);
  }
  const ratio = Number(await page.getAttribute('#compute-table tr[data-n="32"] td.ratio', 'data-ratio'));
  assert.ok(ratio > 0, 'global ÷ shared measured');
  assert.match(await page.textContent('#compute-table tr[data-n="32"]'), /0\.015 ms.*0\.005 ms.*3\.0/, 'the K40 figures beside them');
  const out = await page.evaluate(() => window.__compute);
  assert.equal(out.status, 'done');
  assert.deepEqual(out.cells.map((c) => [c.backend, c.wrong]), [['webgpu', 0], ['webgpu', 0], ['webgpu', 0], ['webgl', 0], ['webgl', 0]]);
  assert.match(await page.textContent('#compute'), /closed by one await run\.whenDone\(\)/);
  // On this WebGL page, a WGSL kernel picked in the shader panel is shown as a WebGPU
  // device compiles it (the device the measurement made).
  await page.selectOption('#shader-kernel', 'tiled16');
  await page.waitForFunction(() => /override SEMIRING/.test(document.getElementById('program-source').textContent), null, { timeout: 30_000 });
  assert.match(await page.textContent('#shader-about'), /^wgsl\/matmul\/2_tiled16\.wgsl — .*This WebGPU compute shader did not run here; it is shown for comparison\. The kernel that ran is naive, on WebGL2\./);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('Stop ends the compute measurement: the cells it did not reach say so, none is left at "…"', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  assert.equal(await waitForStatus(page), 'done');
  await page.uncheck('#compute-n-128');
  await page.click('#compute-run');
  // Stop once the first cell is in (the kernel being measured then finishes first).
  await page.waitForSelector('#compute-table td.cell[data-ms]', { timeout: 60_000 });
  await page.click('#compute-stop');
  await page.waitForFunction(() => document.getElementById('compute').dataset.status !== 'running', null, { timeout: 120_000, polling: 100 });
  assert.equal(await page.getAttribute('#compute', 'data-status'), 'cancelled', await page.textContent('#compute-status'));
  const measured = (await page.evaluate(() => window.__compute)).cells.filter((c) => c.ms !== null).length;
  assert.equal(await page.textContent('#compute-status'), `Stopped after ${measured} measurement${measured === 1 ? '' : 's'}; the cells not reached say “stopped”.`);
  const cells = await page.$$eval('#compute-table td.cell', (tds) => tds.map((td) => [`${td.closest('tr').dataset.n}/${td.dataset.kernel}`, td.dataset.ms ? 'measured' : td.textContent]));
  assert.equal(cells.length, 10);
  assert.ok(measured >= 1 && measured < 10, `${measured} measured`);
  assert.equal(cells.filter(([, t]) => t === 'measured').length, measured);
  for (const [cell, text] of cells.filter(([, t]) => t !== 'measured')) assert.equal(text, 'stopped', cell);
  // Measuring again starts afresh.
  await page.uncheck('#compute-n-64');
  await page.click('#compute-run');
  await page.waitForFunction(() => document.getElementById('compute').dataset.status !== 'running', null, { timeout: 120_000, polling: 100 });
  assert.equal(await page.getAttribute('#compute', 'data-status'), 'done', await page.textContent('#compute-status'));
  assert.equal(await page.locator('#compute-table td.cell[data-ms]').count(), 5);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('without WebGPU: notes in the backend menu and the compute section; WebGL keeps working', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&backend=webgpu&kernel=tiled16`, undefined, {
    init: () => { delete Navigator.prototype.gpu; },
  });
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.equal(await page.evaluate(() => 'gpu' in navigator), false);
  const notes = Object.fromEntries(await page.$$eval('#notes li', (l) => l.map((x) => [x.dataset.param, x.textContent])));
  assert.match(notes.backend, /backend=webgpu — this browser has no WebGPU \(navigator\.gpu is missing\); the default backend=auto is used/);
  assert.match(notes.kernel, /tiled16 is a WebGPU kernel/);
  const r = await page.evaluate(() => window.__results);
  assert.deepEqual([r.backend, r.kernel, r.status], ['webgl', 'naive', 'done']);
  assert.equal(await page.inputValue('#backend'), 'auto');
  assert.equal(await page.$eval('#backend option[value="webgpu"]', (o) => o.disabled), true);
  assert.match(await page.textContent('#backend option[value="webgpu"]'), /not in this browser/);
  assert.match(await page.textContent('#backend-help'), /no WebGPU \(navigator\.gpu is missing\): auto → webgl/);
  // The compute section says so, and measures the WebGL kernels only.
  assert.match(await page.textContent('#compute-no-webgpu'), /No WebGPU here/);
  for (const n of [64, 128]) await page.uncheck(`#compute-n-${n}`);
  await page.click('#compute-run');
  await page.waitForFunction(() => document.getElementById('compute').dataset.status !== 'running', null, { timeout: 120_000, polling: 100 });
  assert.equal(await page.getAttribute('#compute', 'data-status'), 'done', await page.textContent('#compute-status'));
  const cells = await page.$$eval('#compute-table tr[data-n="32"] td.cell', (tds) => tds.map((td) => [td.dataset.kernel, td.textContent]));
  assert.deepEqual(cells.filter(([k]) => ['global', 'tiled16', 'register'].includes(k)).map(([, t]) => t), ['no WebGPU', 'no WebGPU', 'no WebGPU']);
  for (const [k, t] of cells.filter(([k]) => ['blocked8', 'naive'].includes(k))) assert.match(t, /ms ✓/, `${k}: ${t}`);
  // The WGSL shaders are still shown as files.
  await page.selectOption('#shader-kernel', 'global');
  assert.match(await page.textContent('#program-source'), /No WebGPU device here \(this browser has no WebGPU/);
  assert.equal(await page.getAttribute('#program-source', 'aria-label'), 'The complete WGSL compute shader of the global kernel: not here, no WebGPU device');
  assert.match(await page.textContent('#shader-code'), /Kernel "global": one invocation per element/);
  assert.deepEqual(page.problems(), []);
  await page.screenshot({ path: join(ARTIFACTS, 'no-webgpu.png') });
  await page.context().close();
});

test('the shader menu groups kernels by backend; one of another backend is said to be for comparison', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&backend=webgpu`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const groups = await page.$$eval('#shader-kernel optgroup', (gs) => gs.map((g) => [g.label, [...g.children].map((o) => o.value)]));
  assert.deepEqual(groups.map(([, ks]) => ks), [['naive', 'packed', 'blocked4', 'blocked8'], ['global', 'tiled16', 'register'], ['simd']]);
  assert.match(groups[0][0], /WebGL2.*fragment/);
  assert.match(groups[1][0], /WebGPU.*compute/);
  const about = () => page.textContent('#shader-about');
  assert.match(await about(), /This is the kernel that ran\./);
  // The complete program's block scrolls, so it takes the focus: its name says which program it is.
  await page.click('#program-summary'); // open (closed, the block is out of the accessibility tree)
  const programName = async () => (await accessibleNames(page, '#program-source'))[0].name;
  assert.equal(await programName(), 'The complete WGSL compute shader of the global kernel, as this device compiles it');
  await page.selectOption('#shader-kernel', 'naive');
  assert.match(await page.textContent('#shader-code'), /gl_FragCoord|texelFetch/, 'GLSL');
  assert.match(await about(), /This WebGL2 fragment shader did not run here; it is shown for comparison\. The kernel that ran is global, on WebGPU\./);
  assert.equal(await programName(), 'The complete GLSL fragment shader of the naive kernel');
  await page.selectOption('#shader-kernel', 'simd');
  assert.match(await about(), /This CPU kernel did not run here; it is shown for comparison\. The kernel that ran is global, on WebGPU\./);
  assert.equal(await programName(), 'What the Web Workers run for the simd kernel (no shader)');
  // Another kernel of the same backend needs no such note.
  await page.selectOption('#shader-kernel', 'tiled16');
  assert.match(await about(), /The kernel that ran is global\./);
  assert.doesNotMatch(await about(), /comparison/);
  assert.equal(await programName(), 'The complete WGSL compute shader of the tiled16 kernel, as this device compiles it');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('the register kernel\'s note counts multiply-adds per value read from workgroup memory as the two WGSL loops do', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const got = await page.evaluate(async () => {
    const { rulesFor } = await import('/www/ui/shader.js');
    const text = async (f) => (await fetch(`/wgsl/${f}.wgsl`)).text();
    const tiled = await text('matmul/2_tiled16');
    const register = await text('matmul/3_register');
    // tiled16: one multiply-add per line of its inner loop, each reading its values from the tiles.
    const inner = tiled.split('\n').find((l) => /sum = sr_fma\(sum, a_tile/.test(l));
    const tiledRatio = 1 / (inner.match(/_tile\[/g).length);
    // register: per k, vec4 loads from the tiles (4 values each: the next k's, na0 … nb1)
    // and vec4 multiply-adds (4 each).
    const loads = (register.match(/let n[ab]\d+ = [ab]_tile\[kn\]/g) || []).length * 4;
    const fmas = (register.match(/sr_fma4\(c\d+_\d+,/g) || []).length * 4;
    const note = rulesFor('register', register).find((r) => /for tiled16/.test(r.note)).note;
    return { tiledRatio, registerRatio: fmas / loads, note };
  });
  const m = /([\d.]+) multiply-adds per value read from workgroup memory, against (\S+) for tiled16/.exec(got.note);
  assert.ok(m, got.note);
  assert.equal(m[1], got.registerRatio.toFixed(1));
  assert.equal({ '½': 0.5, 1: 1, 2: 2 }[m[2]], got.tiledRatio, `${got.note}: tiled16 does ${got.tiledRatio}`);
  await page.context().close();
});

test('Stop by keyboard during a long measurement: the status says it is stopping, and the focus stays on Stop until it has', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  assert.equal(await waitForStatus(page), 'done');
  // One size whose first measurement takes about a second here (a minute at n = 1024).
  for (const n of [32, 64, 128]) await page.uncheck(`#compute-n-${n}`);
  await page.check('#compute-n-320');
  await page.focus('#compute-run');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#compute-table td.pending');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'compute-stop');
  await page.keyboard.press('Enter');
  const now = await page.evaluate(() => [document.getElementById('compute-status').textContent, document.getElementById('compute').dataset.status]);
  assert.deepEqual(now, ['Stopping: the measurement under way (global (WebGPU) at n = 320) finishes first…', 'running']);
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'compute-stop', 'not dropped to the page body');
  await page.keyboard.press('Enter'); // a second press changes nothing
  await page.waitForFunction(() => document.getElementById('compute').dataset.status !== 'running', null, { timeout: 120_000, polling: 50 });
  assert.equal(await page.getAttribute('#compute', 'data-status'), 'cancelled');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'compute-run', 'then back on Measure');
  assert.equal(await page.isDisabled('#compute-stop'), true);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a page whose CSP forbids blob: workers gets WebGPU results made on its own thread, with one CSP violation in all', async () => {
  // outputs.js makes result arrays of 1 MiB or more in a blob: worker; here it cannot
  // start. Each Gpgpu, and each after trim(), once tried again: a console error (and a
  // CSP report) every time.
  const csp = "default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'";
  const page = await openPage(browser, `${server.origin}/blank.html`, undefined, {
    setup: (c) => c.route('**/blank.html', (r) => r.fulfill({
      contentType: 'text/html', headers: { 'content-security-policy': csp }, body: '<!doctype html><title>blank</title>',
    })),
  });
  const got = await page.evaluate(async () => {
    const rejections = [];
    addEventListener('unhandledrejection', (e) => rejections.push(String(e.reason)));
    const { default: init, Gpgpu } = await import('/www/pkg/gpgpu_matrix.js');
    await init();
    const n = 512; // a 1 MiB result
    const m = new Float32Array(n * n).fill(1);
    const results = [];
    for (let k = 0; k < 2; k++) {
      const gpu = await Gpgpu.create({ backend: 'webgpu' });
      for (let i = 0; i < 3; i++) {
        const r = await gpu.squareAsync(n, m);
        results.push(r.length === n * n && r.every((v) => v === n));
        if (i === 1) gpu.trim();
        await new Promise((r) => setTimeout(r, 100)); // time for a worker to fail
      }
      gpu.free();
    }
    return { results, rejections };
  });
  assert.deepEqual(got.results, [true, true, true, true, true, true]);
  assert.deepEqual(got.rejections, []);
  const violations = page.problems().filter((p) => /Content Security Policy/.test(p));
  assert.equal(violations.length, 1, violations.join('\n'));
  assert.deepEqual(page.problems().filter((p) => !/Content Security Policy/.test(p)), []);
  await page.context().close();
});
