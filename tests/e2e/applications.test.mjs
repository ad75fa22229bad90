// The application sections (issue 5): every section's default preset and at least
// one failure preset, run from the page with the mouse or the keyboard; what the
// page displays is checked against references recomputed here in Node (BFS,
// Floyd–Warshall, BigInt, Gauss–Jordan / Gaussian elimination in float64, the known
// spectrum of QΛQᵀ) within the tolerances stated below. No console errors, no
// request off the page's origin; screenshots of every section at 1280 and 390 px.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';
import {
  bfsHops, distance1, eigenResidual, fibonacciBig, floydWarshall, gaussInverse, gaussSolve,
  inverseResidual, pairsWithin, relativeFrobenius, sinAngle, column,
} from '../../www/reference-apps.js';
import { EIGEN, FIBONACCI, INVERSE, JACOBI, REACHABILITY, SHORTEST_PATHS, findPreset } from '../../www/sections/presets.js';
import { int, sci } from '../../www/ui/format.js';

const IDS = ['reachability', 'shortest-paths', 'fibonacci', 'inverse', 'eigen', 'jacobi'];
let server, browser, page;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // A tiny main demo (n = 8, no float64 worker) so that the sections have the GPU to themselves.
  page = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`);
  assert.equal(await waitForStatus(page), 'done');
});
after(async () => { await browser?.close(); server?.stop(); });

/** Selects `preset` (unless null) in section `id`, presses Run, waits; returns the section's record. */
async function run(id, preset = null) {
  if (preset) await page.selectOption(`#${id}-preset`, preset);
  await page.click(`#${id}-run`);
  await page.waitForFunction((id) => document.getElementById(id).dataset.status !== 'running', id, { timeout: 30_000, polling: 50 });
  const status = await page.getAttribute(`#${id}`, 'data-status');
  assert.equal(status, 'done', await page.textContent(`#${id}-status`));
  const rec = await page.evaluate((id) => window.__apps[id], id);
  if (preset) assert.equal(rec.preset, preset);
  return rec;
}

/** The results tables of a section: data-key → the value cell's text. */
async function table(id) {
  return page.$$eval(`#${id} table.app-results tr[data-key]`, (rows) => Object.fromEntries(rows.map((tr) => [tr.dataset.key, tr.querySelector('td').textContent])));
}

/** Whether the section's status box is amber: done, as the preset predicts, but without an answer. */
const warned = (id) => page.$eval(`#${id}-status`, (p) => p.classList.contains('warn'));

const noteKinds = (id) => page.$$eval(`#${id} .app-notes li`, (lis) => lis.map((li) => li.dataset.kind).filter(Boolean));

test('six sections with labelled, keyboard-operable controls', async () => {
  assert.equal(await page.isVisible('#applications'), true);
  assert.equal(await page.locator('main').count(), 1, 'one main landmark');
  assert.equal(await page.locator('main #config').count() + await page.locator('main #applications').count(), 2);
  assert.deepEqual(await page.$$eval('#application-sections > section', (s) => s.map((x) => x.id)), IDS);
  assert.deepEqual(await page.$$eval('.app-toc a', (a) => a.map((x) => x.getAttribute('href'))), IDS.map((id) => `#${id}`));
  for (const id of IDS) {
    assert.equal(await page.textContent(`label[for="${id}-preset"]`), 'preset');
    assert.equal((await page.textContent(`#${id}-run`)).trim(), 'Run');
    // Seven "Run" buttons and six "preset" menus: each accessible name says which section.
    const title = await page.textContent(`#${id} h3`);
    assert.equal(await page.getAttribute(`#${id}-run`, 'aria-label'), `Run: ${title}`);
    assert.equal(await page.getAttribute(`#${id}-preset`, 'aria-label'), `preset: ${title}`);
    assert.equal(await page.getAttribute(`#${id}`, 'data-status'), 'idle');
  }
  // Keyboard only: the preset menu with the arrow keys, then Tab to Run and Enter.
  await page.focus('#fibonacci-preset');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.inputValue('#fibonacci-preset'), 'small');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'fibonacci-run');
  // The focus ring stands out from the white panel and the page by 3:1 at least (WCAG 1.4.11).
  const ring = await page.evaluate(() => {
    const lum = (css) => {
      const [r, g, b] = css.match(/\d+/g).slice(0, 3).map((v) => Number(v) / 255)
        .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
    const outline = getComputedStyle(document.activeElement).outlineColor;
    return Math.min(ratio(outline, 'rgb(255, 255, 255)'), ratio(outline, getComputedStyle(document.documentElement).backgroundColor));
  });
  assert.ok(ring >= 3, `focus ring contrast ${ring.toFixed(2)}:1`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__apps?.fibonacci?.preset === 'small', null, { timeout: 20_000 });
  const rec = await page.evaluate(() => window.__apps.fibonacci);
  assert.equal(rec.rows.length, 25);
  assert.ok(rec.rows.every((r) => r.isExact && BigInt(r.gpu) === fibonacciBig(r.k)), 'F(0..24) all exact');
  await page.waitForFunction(() => document.getElementById('fibonacci').dataset.status === 'done');
  assert.equal((await table('fibonacci'))['largest relative error'], '0: every F(k) here is exact');
  assert.doesNotMatch(await page.textContent('#fibonacci-table caption'), /Highlighted/, 'no 2²⁴ row in 0..24');
});

test('the other panels\' buttons, pressed from the keyboard, keep the focus through their run', async () => {
  // A button disabled while it runs drops the focus to <body>: it must come back.
  const focused = () => page.evaluate(() => document.activeElement.id);
  for (const id of ['partitioned-worked-run', 'partitioned-mesh-run', 'batched-ransac-run', 'linear-steps-run', 'devices-run']) {
    await page.focus(`#${id}`);
    await page.keyboard.press('Enter');
    // Disabled as the key is pressed; enabled again when the run is over.
    await page.waitForFunction((id) => !document.getElementById(id).disabled, id, { timeout: 60_000, polling: 50 });
    assert.equal(await focused(), id);
  }
  // Measure hands the focus to Stop, and Stop, once pressed, back to Measure.
  for (const n of [64, 128]) await page.uncheck(`#compute-n-${n}`);
  await page.focus('#compute-run');
  await page.keyboard.press('Enter');
  assert.equal(await focused(), 'compute-stop');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.getElementById('compute-run').disabled, null, { timeout: 60_000 });
  assert.equal(await focused(), 'compute-run');
  assert.deepEqual(page.problems(), []);
});

test('reachability: R, each squaring and the heatmap equal BFS exactly', async () => {
  const preset = REACHABILITY[0];
  const rec = await run('reachability');
  assert.equal(rec.preset, preset.id);
  const { n } = preset;
  const adjacency = preset.build();
  const hops = bfsHops(n, adjacency);
  const R = await page.evaluate(() => Array.from(window.__apps.reachability.matrix));
  for (let i = 0; i < n * n; i++) assert.equal(R[i], hops[i] >= 0 ? 1 : 0, `R[${Math.floor(i / n)}][${i % n}]`);
  const pairs = pairsWithin(hops, n);
  assert.equal(rec.squarings, Math.ceil(Math.log2(n - 1)));
  // The squarings' timeline: after squaring t, exactly the pairs within 2^t hops.
  const shown = await page.$$eval('#reachability table.app-timeline tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td.num')].map((td) => td.textContent)));
  assert.equal(shown.length, rec.squarings);
  shown.forEach((cells, t) => {
    const ref = int(pairsWithin(hops, 2 ** (t + 1)));
    assert.equal(cells[2], ref, `GPU pairs after squaring ${t + 1}`);
    assert.equal(cells[3], `${ref} ✓`);
  });
  const tb = await table('reachability');
  assert.equal(tb['reachable pairs'], `GPU ${int(pairs)} · BFS ${int(pairs)} of ${int(n * n)}`);
  assert.match(tb['entries different from BFS'], new RegExp(`^0 of ${n * n}`));
  assert.equal(tb['connected (R all ones)'], `GPU ${pairs === n * n ? 'yes' : 'no'} · BFS ${pairs === n * n ? 'yes' : 'no'}`);
  // The graph is drawn (n vertices, every edge) beside R's heatmap ...
  assert.equal(await page.$$eval('#reachability svg.graph-svg .vertex', (v) => v.length), n);
  assert.equal(Number(await page.getAttribute('#reachability figure.graph', 'data-edges')), adjacency.reduce((s, v) => s + (v ? 1 : 0), 0));
  // Its text alternative names every edge (a small graph), as drawn.
  const said = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j && adjacency[i * n + j] && (preset.directed || j > i)) said.push(`${i}${preset.directed ? '→' : '–'}${j}`);
  if (said.length <= 40) assert.ok((await page.getAttribute('#reachability svg.graph-svg', 'aria-label')).includes(`: ${said.join(', ')}.`), said.join(', '));
  // ... and the heatmap's pixels are R: red where reachable, white where not.
  const pixels = await page.evaluate((n) => {
    const c = document.querySelector('#reachability figure.heatmap canvas');
    const px = c.width / n;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    const out = [];
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const k = (Math.floor((i + 0.5) * px) * c.width + Math.floor((j + 0.5) * px)) * 4;
      out.push(data[k] < 200 ? 1 : 0); // red (179, 23, 43) or white (247, 247, 247)
    }
    return out;
  }, n);
  assert.deepEqual(pixels, R);
});

test('reachability: a cycle is strongly connected', async () => {
  const rec = await run('reachability', 'cycle-20');
  assert.equal(rec.connected, true);
  assert.equal(rec.mismatches, 0);
  assert.equal((await table('reachability'))['connected (R all ones)'], 'GPU yes · BFS yes');
});

test('shortest paths: every distance equals Floyd–Warshall, unreachable pairs as ∞', async () => {
  const preset = SHORTEST_PATHS[0];
  const rec = await run('shortest-paths');
  const { n } = preset;
  const fw = floydWarshall(n, preset.build());
  const D = await page.evaluate(() => Array.from(window.__apps['shortest-paths'].distances, (v) => (v === Infinity ? 'inf' : v)));
  const unreachable = fw.dist.filter((v) => v === Infinity).length;
  assert.ok(unreachable > 0, 'the preset has unreachable pairs');
  for (let i = 0; i < n * n; i++) assert.equal(D[i], fw.dist[i] === Infinity ? 'inf' : fw.dist[i], `d(${Math.floor(i / n)}, ${i % n})`);
  // The numbers on the page (integer lengths: exact).
  const cells = await page.$$eval('#shortest-paths-matrix tbody td', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(cells, Array.from(fw.dist, (v) => (v === Infinity ? '∞' : String(v))));
  const tb = await table('shortest-paths');
  assert.equal(tb['unreachable pairs (∞)'], `GPU ${unreachable} · Floyd–Warshall ${unreachable} of ${n * n}`);
  assert.equal(tb['exact distances'], `${n * n} of ${n * n}`);
  assert.equal(tb['negative cycle'], 'GPU no · Floyd–Warshall no');
  assert.equal(await warned('shortest-paths'), false);
  assert.ok((await noteKinds('shortest-paths')).includes('unreachable'));
  assert.equal(rec.squarings, Math.ceil(Math.log2(n - 1)));
  // Every edge carries its length, and no two length labels overlap each other or a vertex.
  const fig = await page.$eval('#shortest-paths figure.graph', (f) => {
    const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const labels = [...f.querySelectorAll('.edge-weight')].map((t) => t.getBoundingClientRect());
    const vertices = [...f.querySelectorAll('.vertex circle')].map((c) => c.getBoundingClientRect());
    let overlaps = 0;
    labels.forEach((a, i) => { overlaps += labels.slice(i + 1).filter((b) => hit(a, b)).length + vertices.filter((b) => hit(a, b)).length; });
    return { labels: labels.length, edges: Number(f.dataset.edges), overlaps };
  });
  assert.equal(fig.labels, fig.edges);
  assert.equal(fig.overlaps, 0);
});

test('shortest paths: real lengths within 1e-5 relative; a negative cycle is reported', async () => {
  const real = findPreset(SHORTEST_PATHS, 'real-128');
  let rec = await run('shortest-paths', real.id);
  const fw = floydWarshall(real.n, real.build());
  const D = await page.evaluate(() => Array.from(window.__apps['shortest-paths'].distances, (v) => (v === Infinity ? 'inf' : v)));
  let worst = 0;
  for (let i = 0; i < D.length; i++) {
    if (fw.dist[i] === Infinity) { assert.equal(D[i], 'inf'); continue; }
    if (fw.dist[i] > 0) worst = Math.max(worst, Math.abs(D[i] - fw.dist[i]) / fw.dist[i]);
  }
  assert.ok(worst <= 1e-5, `max relative error ${worst}`);
  assert.equal((await table('shortest-paths'))['max relative error'], sci(worst));
  assert.ok((await noteKinds('shortest-paths')).includes('rounded'));

  rec = await run('shortest-paths', 'negative-cycle-6');
  assert.equal(rec.negativeCycle, true);
  assert.equal(floydWarshall(6, findPreset(SHORTEST_PATHS, 'negative-cycle-6').build()).negativeCycle, true);
  assert.equal((await table('shortest-paths'))['negative cycle'], 'GPU yes · Floyd–Warshall yes');
  assert.ok((await noteKinds('shortest-paths')).includes('negative-cycle'));
  // No answer: amber, as in the other sections; and no word on unreachable pairs
  // (there are none, and the distances mean nothing).
  assert.equal(await warned('shortest-paths'), true);
  assert.equal((await noteKinds('shortest-paths')).includes('unreachable'), false);
});

test('Fibonacci: exact to F(36), F(37) = 24 157 817 the first inexact, then within 4·2^−24', async () => {
  const rec = await run('fibonacci', 'edge');
  assert.equal(await warned('fibonacci'), false);
  const ks = findPreset(FIBONACCI, 'edge').ks;
  const rows = await page.$$eval('#fibonacci-table tbody tr', (trs) => trs.map((tr) => ({
    k: Number(tr.dataset.k), cells: [...tr.querySelectorAll('td')].map((td) => td.firstChild.textContent),
  })));
  assert.deepEqual(rows.map((r) => r.k), ks);
  for (const { k, cells } of rows) {
    const exact = fibonacciBig(k);
    const gpu = BigInt(rec.rows.find((r) => r.k === k).gpu);
    assert.equal(cells[0], int(exact.toString()), `F(${k}) exact`);
    assert.equal(cells[1], int(gpu.toString()), `F(${k}) GPU`);
    if (k <= 36) {
      assert.equal(gpu, exact, `F(${k}) is exact in float32`);
      assert.equal(cells[5], 'exact');
    } else {
      assert.notEqual(gpu, exact, `F(${k}) > 2^24 is not exact`);
      const rel = Math.abs(Number(gpu - exact)) / Number(exact);
      assert.ok(rel <= 4 * 2 ** -24, `F(${k}): relative error ${rel}`);
      assert.equal(cells[2], int((gpu - exact).toString()).replace('-', '−'));
    }
  }
  assert.equal(fibonacciBig(36), 14930352n);
  assert.equal(fibonacciBig(37), 24157817n);
  const r37 = rec.rows.find((r) => r.k === 37);
  assert.equal(r37.gpu, 24157816);
  assert.equal(r37.libExact, false);
  assert.ok(rec.rows.every((r) => r.libAgrees), 'the library\'s exact flag agrees with BigInt');
  const tb = await table('fibonacci');
  assert.equal(tb['last exact F(k)'], `F(36) = ${int(14930352)}`);
  assert.equal(tb['first inexact F(k)'], `F(37) = ${int(24157817)}, GPU ${int(24157816)}`);
  assert.equal(await page.getAttribute('#fibonacci .plot-area', 'data-scale'), 'log');

  // Far beyond: the error grows with F(k), and float32 overflows after F(186).
  const far = await run('fibonacci', 'beyond');
  const r186 = far.rows.find((r) => r.k === 186), r187 = far.rows.find((r) => r.k === 187);
  assert.ok(Number.isFinite(r186.gpu) && r186.rel <= 4 * 2 ** -24, JSON.stringify(r186));
  assert.equal(r187.gpu, Infinity);
  assert.equal(await page.textContent('#fibonacci-table tr[data-k="187"] td:nth-of-type(2)'), '+Inf');
  // Inexact from the range's first k: F(40) is the first inexact of this range, not of
  // all k (it said "the first inexact is F(40)"); F(37) is.
  const status = await page.textContent('#fibonacci-status');
  assert.match(status, /; the first inexact in this range is F\(40\) \(the range's first k; F\(37\) = 24 157 817, odd and above 2²⁴, is the first no float32 holds\)\./);
  const farTable = await table('fibonacci');
  assert.equal(farTable['first inexact F(k)'], undefined);
  assert.match(farTable['first inexact F(k) in this range'], /^F\(40\) = 102 334 155, GPU .* \(the range's first k; F\(37\)/);
  // Where the range starts among the exact ones, its first inexact is the first of all k.
  assert.doesNotMatch(tb['first inexact F(k)'], /range/);
});

test('inverse: both methods converge on a dominant matrix (float64 residual ≤ 1e-4)', async () => {
  const preset = INVERSE[0];
  const rec = await run('inverse');
  const a = preset.build();
  const inv = gaussInverse(preset.n, a);
  const X = await page.evaluate(() => window.__apps.inverse.runs.map((r) => Array.from(r.matrix)));
  const shown = await page.$$eval('#inverse-runs tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  assert.equal(rec.runs.length, 2);
  rec.runs.forEach((r, idx) => {
    assert.equal(r.converged, true, r.message);
    const residual = inverseResidual(preset.n, a, X[idx]);
    assert.ok(residual <= 1e-4, `${r.name}: ‖AX − I‖ = ${residual}`);
    assert.ok(relativeFrobenius(X[idx], inv) <= 1e-5);
    assert.equal(shown[idx][0], 'yes');
    assert.equal(shown[idx][4], sci(residual), 'the float64 residual shown');
    assert.equal(shown[idx][3], sci(Math.min(...r.residuals)), 'the best GPU residual shown');
  });
  // The residual plot: one line per method, one point per doubling (and X₀).
  assert.equal(await page.$$eval('#inverse .plot-svg path', (p) => p.length), 2);
  assert.equal(await page.$$eval('#inverse .plot-table tbody tr', (r) => r.length), Math.max(...rec.runs.map((r) => r.residuals.length)));
});

test('inverse: I − ½J defeats the chapter\'s series but not Newton–Schulz; a singular A does not converge', async () => {
  let rec = await run('inverse', 'half-j-4');
  const [series, ns] = rec.runs;
  assert.equal(series.method, 'series');
  assert.equal(series.converged, false);
  assert.ok(Math.abs(series.maxC - 0.5) < 1e-12 && Math.abs(series.rho - 2) < 0.05, `max|c| ${series.maxC}, ρ ${series.rho}`);
  assert.equal(ns.converged, true);
  assert.ok(ns.check <= 1e-6, String(ns.check));
  const shown = await page.$$eval('#inverse-runs tbody tr td:nth-of-type(1)', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(shown, ['no: diverges', 'yes']);
  assert.match((await table('inverse'))['the series\' C = I − dA (d = 1)'], /max \|c_ij\| = 0\.5000 · ρ\(C\) ≈ 2/);
  assert.ok((await noteKinds('inverse')).includes('condition'));
  assert.equal(await warned('inverse'), true, 'a series that diverges is not a green Done');

  rec = await run('inverse', 'singular-16');
  assert.equal(gaussInverse(16, findPreset(INVERSE, 'singular-16').build()), null);
  assert.equal(rec.invertible, false);
  assert.equal(rec.runs[0].converged, false);
  assert.match(rec.runs[0].message, /does not converge/);
  assert.equal(await page.textContent('#inverse-runs tbody td:nth-of-type(1)'), 'no: stalled above 10⁻³');
  assert.equal((await table('inverse'))['invertible (Gauss–Jordan, float64)'], 'no: singular');
});

test('eigen: three pairs of a known QΛQᵀ spectrum; ±8 is reported as not converging', async () => {
  const preset = EIGEN[0];
  const rec = await run('eigen');
  const { a64, q, lambdas } = preset.build();
  const order = Array.from(lambdas.keys()).sort((x, y) => Math.abs(lambdas[y]) - Math.abs(lambdas[x]));
  const vectors = await page.evaluate(() => window.__apps.eigen.pairs.map((p) => Array.from(p.vector)));
  const shown = await page.$$eval('#eigen-pairs tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  assert.equal(rec.pairs.length, preset.k);
  rec.pairs.forEach((p, idx) => {
    const truth = lambdas[order[idx]];
    assert.equal(p.converged, true);
    // Tolerances: |λ̂ − λ| ≤ 1e-5·|λ₁|, eigenvector within 1e-3 radians, float64 residual ≤ 1e-3.
    assert.ok(Math.abs(p.value - truth) <= 1e-5 * Math.abs(lambdas[order[0]]), `λ${idx + 1}: ${p.value} vs ${truth}`);
    assert.ok(sinAngle(vectors[idx], column(preset.n, q, order[idx])) <= 1e-3);
    assert.ok(eigenResidual(preset.n, a64, vectors[idx], p.value) <= 1e-3);
    assert.equal(shown[idx][0], String(truth).replace('-', '−'));
    assert.equal(shown[idx][2], sci(Math.abs(p.value - truth)));
    assert.equal(shown[idx][7], 'yes');
  });
  assert.equal(await page.$$eval('#eigen .plot-svg', (s) => s.length), 2);

  const pm = await run('eigen', 'plus-minus-32');
  assert.equal(pm.pairs.length, 1);
  assert.equal(pm.pairs[0].converged, false);
  assert.equal(await page.textContent('#eigen-pairs tbody td:last-child'), 'no: does not converge');
  assert.ok((await noteKinds('eigen')).includes('not-converged'));
});

test('Jacobi: converges to Gaussian elimination\'s x; a non-dominant A diverges', async () => {
  const preset = JACOBI[0];
  const rec = await run('jacobi');
  const { a, b } = preset.build();
  const xStar = gaussSolve(preset.n, a, b);
  const x = await page.evaluate(() => Array.from(window.__apps.jacobi.x));
  assert.equal(rec.converged, true);
  const err = distance1(x, xStar);
  assert.ok(err <= 1e-3, `‖x − x*‖₁ = ${err}`);
  assert.equal(rec.finalError, err);
  assert.equal((await table('jacobi'))['‖x − x*‖₁'], sci(err));
  assert.ok(rec.deltas.at(-1) <= preset.epsilon * rec.norms.at(-1), 'stopped by the relative test');
  // The error per iteration (from the iterates the library recorded) falls.
  assert.ok(rec.errors.length >= 10);
  for (let i = 1; i < rec.errors.length; i++) assert.ok(rec.errors[i][1] < rec.errors[i - 1][1], `error at ${rec.errors[i][0]}`);
  assert.equal(rec.errors[rec.errors.length - 1][0], rec.iterations);

  const bad = await run('jacobi', 'not-dominant-16');
  assert.equal(bad.diverged, true);
  assert.equal(bad.converged, false);
  assert.ok(bad.rho > 1);
  assert.match((await table('jacobi')).result, /^diverged after \d+ iterations/);
  assert.ok(bad.errors[bad.errors.length - 1][1] > 1e3 * bad.errors[0][1], 'the error grows');
  assert.ok((await noteKinds('jacobi')).includes('diverged'));
  assert.equal(await warned('jacobi'), true);
});

test('screenshots at 1280 and 390 px; no console errors, no foreign requests', async () => {
  // The default preset of every section, for the pictures.
  for (const id of IDS) await run(id, (await page.$eval(`#${id}-preset`, (s) => s.options[0].value)));
  await page.$eval('#applications', (s) => s.scrollIntoView());
  await page.screenshot({ path: join(ARTIFACTS, 'applications-1280x720.png') });
  for (const id of IDS) await page.locator(`#${id}`).screenshot({ path: join(ARTIFACTS, `app-${id}-1280.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // Nothing wider than the screen: the page does not scroll sideways.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no horizontal scroll at 390 px');
  for (const id of IDS) await page.locator(`#${id}`).screenshot({ path: join(ARTIFACTS, `app-${id}-390.png`) });
  // The widest matrices a section prints (the Hilbert inverse's −1.887e+4 entries)
  // scroll inside their box; the page itself still does not.
  await run('inverse', 'hilbert-5');
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no horizontal scroll after the Hilbert inverse');
  // It stalls at float32's floor (not "does not converge"), and says why its float64
  // inverse is not the textbook one (A is stored in float32).
  assert.equal(await page.textContent('#inverse-runs tbody td:nth-of-type(1)'), 'no: stalled above 10⁻³');
  assert.ok((await noteKinds('inverse')).includes('stored'));
  // Every preset's name fits its closed menu on a phone (the arrow takes about 24 px).
  const cut = await page.$$eval('.app-controls select', (selects) => {
    const ctx = document.createElement('canvas').getContext('2d');
    return selects.flatMap((s) => {
      ctx.font = getComputedStyle(s).font;
      return [...s.options].filter((o) => ctx.measureText(o.text).width > s.clientWidth - 24).map((o) => `${s.id}: ${o.text}`);
    });
  });
  assert.deepEqual(cut, [], 'preset names cut off at 390 px');
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(page.origins(), [server.origin]);
});
