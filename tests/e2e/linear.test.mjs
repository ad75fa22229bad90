// The "Linear systems" panel, elimination half (issue 16, point 4): elimination
// step by step (one heatmap per step, the pivots of a zero diagonal, a singular
// matrix said to be singular at its step), Gaussian elimination, the power-series
// inverse and Jacobi side by side on one diagonally dominant matrix (all three
// small residuals, elimination's direct); steps counted from 1 in the text as in the
// figures; a zero diagonal (Jacobi not applicable, no stale table under an error);
// the fields in the address; the same on WebGPU; phone width; no console errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, accessibleNames, launchBrowser, openPage, startServer, waitForStatus, pageWithHistory } from './harness.mjs';

let server, browser, page;
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await openPage(browser, `${server.origin}/index.html?n=8&ref=0`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
});
after(async () => { await browser?.close(); server?.stop(); });

async function settled(p, id, timeout = 30_000) {
  await p.waitForFunction((id) => !['running', 'idle'].includes(document.getElementById(id)?.dataset.status), id, { timeout, polling: 50 });
  return p.getAttribute(`#${id}`, 'data-status');
}
const record = (p, part) => p.evaluate((part) => window.__linear?.[part], part);

/** Runs a part with these field values; returns its record. */
async function run(p, part, fields) {
  for (const [id, v] of Object.entries(fields)) {
    if (id.endsWith('Kind')) await p.selectOption(`#${id}`, v);
    else await p.fill(`#${id}`, String(v));
  }
  await p.evaluate((part) => { document.getElementById(part).dataset.status = 'idle'; }, part);
  await p.click(`#${part}-run`);
  assert.equal(await settled(p, part), 'done', await p.textContent(`#${part}-status`));
  return record(p, part.replace('linear-', ''));
}

async function stepChecks(p, backend) {
  const r = await run(p, 'linear-steps', { luKind: 'zero', luN: 6, luSeed: 1 });
  assert.deepEqual([r.backend, r.n, r.figures, r.singular], [backend, 6, 7, false]);
  assert.equal(r.pivots.length, 6);
  assert.notEqual(r.pivots[0], 0, 'a zero diagonal must swap at step 0');
  assert.equal(await p.$$eval('#linear-steps-output canvas', (x) => x.length), 7);
  assert.equal(r.passes, { webgl: 12, webgpu: 11, cpu: 6 }[backend]);
  const s = await run(p, 'linear-steps', { luKind: 'singular', luN: 5, luSeed: 2 });
  assert.equal(s.singular, true);
  assert.ok(Number.isInteger(s.step) && s.step < 5, String(s.step));
  assert.match(await p.textContent('#linear-steps-output'), /Singular at step \d/);
}

async function compareChecks(p, backend, n) {
  const r = await run(p, 'linear-compare', { cmpKind: 'dominant', cmpN: n, cmpSeed: 3 });
  assert.deepEqual([r.backend, r.n], [backend, n]);
  const [lu, inv, jac] = r.rows;
  assert.deepEqual(r.rows.map((x) => x.method), ['Gaussian elimination', 'power-series inverse', 'Jacobi']);
  assert.ok(lu.residual < 1e-5, `elimination residual ${lu.residual}`);
  assert.equal(lu.passes, { webgl: 3 * n, webgpu: 2 * n, cpu: n + 1 }[backend]);
  // The text under the table counts the passes as the table does (it said one a step).
  const help = await p.textContent('#linear-compare-output p.help');
  assert.match(help, /on a GPU each step is a pivot pass and an update pass, then back substitution follows: 2n short passes on WebGPU, 3n on WebGL,/);
  assert.ok(jac.residual < 1e-4 && jac.passes > 0, JSON.stringify(jac));
  assert.ok(inv.residual < 1e-3 && inv.passes > 0, JSON.stringify(inv));
  for (const x of r.rows) assert.ok(x.ms > 0, JSON.stringify(x));
  assert.equal(await p.$$eval('#linear-compare-table tbody tr', (x) => x.length), 3);
}

test('WebGL: elimination step by step, singular at its step; three solvers side by side', async () => {
  await stepChecks(page, 'webgl');
  await compareChecks(page, 'webgl', 32);
  assert.deepEqual(page.problems(), []);
});

test('the two parts\' fields (each a matrix, an n and a seed) are told apart: each part\'s are a group named by its heading', async () => {
  const groups = await accessibleNames(page, '#linear-steps .part-controls, #linear-compare .part-controls');
  assert.deepEqual(groups, [
    { role: 'group', name: 'Gaussian elimination with partial pivoting, step by step' },
    { role: 'group', name: 'Three ways to solve A·x = b' },
  ]);
  // A field's name in context, as a screen reader says it on entering its group.
  const fields = await accessibleNames(page, '#linear-steps .part-controls :is(input, select), #linear-compare .part-controls :is(input, select)');
  const inGroup = await page.$$eval('#linear-steps .part-controls :is(input, select), #linear-compare .part-controls :is(input, select)',
    (xs) => xs.map((x) => document.getElementById(x.closest('[role=group]').getAttribute('aria-labelledby')).textContent));
  const said = fields.map((f, i) => `${inGroup[i]}: ${f.name}`);
  assert.equal(said.length, 6);
  assert.equal(new Set(said).size, 6, said.join(' | '));
  assert.deepEqual(fields.map((f) => f.name), ['matrix', 'n', 'seed', 'matrix', 'n', 'seed']);
});

test('every part\'s fields on the page (batched, block-sparse, mesh, linear) are a group named by the part\'s heading, so repeated labels (n, seed, batch) are told apart', async () => {
  const groups = await accessibleNames(page, '.part .part-controls');
  assert.ok(groups.length >= 7, JSON.stringify(groups));
  const headings = await page.$$eval('.part .part-controls', (xs) => xs.map((x) => x.closest('.part').querySelector('h3').textContent));
  assert.deepEqual(groups.map((g) => g.role), groups.map(() => 'group'));
  assert.deepEqual(groups.map((g) => g.name), headings);
  assert.equal(new Set(headings).size, headings.length, headings.join(' | '));
  for (const name of ['Batched 3×3 products: one invocation per output cell', 'Block-sparse matrices: skip the blocks that are zero', 'Fox\'s and Cannon\'s algorithms: blocks on a mesh of processors']) {
    assert.ok(headings.includes(name), name);
  }
});

test('Enter in a panel part\'s number field runs that part, as its button does (and as Enter in the main form does)', async () => {
  const p = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  assert.equal(await waitForStatus(p), 'done');
  // A run: elimination of a 3×3 matrix, started from the n field.
  await p.fill('#luN', '3');
  await p.press('#luN', 'Enter');
  assert.equal(await settled(p, 'linear-steps'), 'done', await p.textContent('#linear-steps-status'));
  assert.equal((await record(p, 'steps')).n, 3);
  assert.equal(new URLSearchParams(await p.evaluate(() => location.search)).get('luN'), '3', 'the fields in the address, as the button puts them');
  // RANSAC runs by itself when first seen: let it finish (Enter, like the button, waits for no run).
  await p.locator('#batched-ransac').scrollIntoViewIfNeeded();
  assert.equal(await settled(p, 'batched-ransac', 120_000), 'done');
  // Every part with a Run button and number fields: Enter reads the fields as the button
  // does (a value out of range is said not to run, at once).
  for (const [part, field] of [['linear-compare', 'cmpN'], ['partitioned-sparse', 'sparseN'], ['partitioned-mesh', 'meshN'],
    ['batched-products', 'prodBatch'], ['batched-ransac', 'ransacIters'], ['batched-svd', 'svdBatch'], ['sparse-jacobi', 'sjN']]) {
    await p.fill(`#${field}`, '0');
    await p.press(`#${field}`, 'Enter');
    await p.waitForFunction((id) => document.getElementById(id).dataset.status !== 'idle', part, { timeout: 10_000 }).catch(() => {});
    assert.match(await p.textContent(`#${part}-status`), /^Not run: .*“0”/, `${part}: Enter in #${field}`);
    assert.equal(await p.getAttribute(`#${part}`, 'data-status'), 'error');
  }
  assert.deepEqual(p.problems(), []);
  await p.context().close();
});

test('steps are counted from 1 in the text as in the figures (the API\'s step counts from 0)', async () => {
  for (const n of [6, 1]) {
    const s = await run(page, 'linear-steps', { luKind: 'singular', luN: n, luSeed: 1 });
    assert.equal(s.singular, true, `n = ${n}`);
    const text = await page.textContent('#linear-steps-output');
    const said = Number(text.match(/Singular at step (\d+) of (\d+)/)?.[1]);
    assert.equal(said, s.step + 1, `n = ${n}: ${text}`);
    const captions = await page.$$eval('#linear-steps-output figcaption', (x) => x.map((c) => c.textContent));
    assert.ok(captions.some((c) => c.startsWith(`after step ${said} (column ${s.step})`)), captions.join(' | '));
    assert.ok(captions.every((c) => !/after step 0/.test(c)), 'no step 0 among the figures');
    assert.match(await page.textContent('#linear-steps-status'), new RegExp(`singular at step ${said} of ${n}`));
  }
  const r = await run(page, 'linear-compare', { cmpKind: 'hilbert', cmpN: 8, cmpSeed: 1 });
  assert.match(r.rows[0].note, /^singular at step \d+ of 8 \(column \d+\)$/);
  const [, k, col] = r.rows[0].note.match(/step (\d+) of 8 \(column (\d+)\)/);
  assert.equal(Number(k), Number(col) + 1);
  assert.match(r.rows[1].note, /^does not converge: /, 'the library\'s reason, not "did not converge: does not converge"');
  // A = [0] has no inverse to iterate towards: no doubling (not −1) and no x (not NaN).
  const zero = await run(page, 'linear-compare', { cmpKind: 'zero', cmpN: 1, cmpSeed: 1 });
  assert.deepEqual([zero.rows[1].passes, zero.rows[1].residual, zero.rows[1].note], [0, null, 'A is zero: it has no inverse']);
  assert.deepEqual(await page.$$eval('#linear-compare-table tbody tr:nth-child(2) td.num', (x) => x.slice(0, 2).map((td) => td.textContent)), ['—', '0']);
  await page.fill('#cmpN', '64');
});

test('a zero diagonal: elimination and inverse solve it, Jacobi is marked not applicable; no stale table under an error', async () => {
  // A first run on another matrix, whose table must not survive what follows.
  await run(page, 'linear-compare', { cmpKind: 'dominant', cmpN: 8, cmpSeed: 1 });
  const r = await run(page, 'linear-compare', { cmpKind: 'zero', cmpN: 8, cmpSeed: 1 });
  assert.equal(r.kind, 'zero');
  const [lu, inv, jac] = r.rows;
  assert.ok(lu.residual < 1e-5, `elimination residual ${lu.residual}`);
  assert.ok(inv.residual < 1e-3, `inverse residual ${inv.residual}`);
  assert.deepEqual([jac.method, jac.applicable, jac.residual, jac.passes], ['Jacobi', false, null, null]);
  assert.match(jac.note, /not applicable: a\[\d+\]\[\d+\] = 0, a zero on the diagonal/);
  assert.match(await page.textContent('#linear-compare-table caption'), /integers with zeros on the diagonal/);
  assert.match(await page.textContent('#linear-compare-table tr[data-applicable="false"]'), /Jacobi.*not applicable/s);
  assert.match(await page.textContent('#linear-compare-status'), /Jacobi does not apply/);
  // A run that stops part way (the inverse made to fail) shows the error alone.
  await page.evaluate(() => {
    const g = window.__page.gpu;
    g.inverseAsync = (n, ...rest) => (n > 2 ? Promise.reject(Object.assign(new Error('made to fail'), { code: 'BAD_ARGUMENT' })) : Object.getPrototypeOf(g).inverseAsync.call(g, n, ...rest));
    document.getElementById('linear-compare').dataset.status = 'idle';
  });
  await page.click('#linear-compare-run');
  assert.equal(await settled(page, 'linear-compare'), 'error');
  await page.evaluate(() => { delete window.__page.gpu.inverseAsync; });
  assert.equal(await page.$$eval('#linear-compare-output table', (x) => x.length), 0, 'no table from the earlier run under the error');
  // So does a field that does not parse.
  await run(page, 'linear-compare', { cmpKind: 'dominant', cmpN: 8, cmpSeed: 1 });
  await page.fill('#cmpN', '0');
  await page.evaluate(() => { document.getElementById('linear-compare').dataset.status = 'idle'; });
  await page.click('#linear-compare-run');
  assert.equal(await settled(page, 'linear-compare'), 'error');
  assert.match(await page.textContent('#linear-compare-status'), /^Not run/);
  assert.equal(await page.$$eval('#linear-compare-output table', (x) => x.length), 0);
  await page.fill('#cmpN', '64');
  assert.deepEqual(page.problems(), []);
});

test('A = 0 (a zero diagonal at n = 1): the status says what each method came to, not "two solves"', async () => {
  const r = await run(page, 'linear-compare', { cmpKind: 'zero', cmpN: 1, cmpSeed: 1 });
  assert.equal(r.n, 1);
  const status = await page.textContent('#linear-compare-status');
  assert.doesNotMatch(status, /solves/);
  assert.match(status, /^Done on WebGL2, n = 1: elimination says singular \(step 1 of 1\); the inverse did not run \(A is zero: it has no inverse\); Jacobi does not apply \(a zero on the diagonal\)\.$/);
  // A matrix all three solve: each says how close it came.
  await run(page, 'linear-compare', { cmpKind: 'dominant', cmpN: 8, cmpSeed: 1 });
  assert.match(await page.textContent('#linear-compare-status'), /^Done on WebGL2, n = 8: elimination solved it \(residual .+\); the inverse converged \(residual .+\); Jacobi converged \(residual .+\)\.$/);
  await page.fill('#cmpN', '64');
  assert.deepEqual(page.problems(), []);
});

test('the fields round-trip through the address; a link runs the parts it names; bad values are notes', async () => {
  await run(page, 'linear-steps', { luKind: 'hilbert', luN: 5, luSeed: 3 });
  await run(page, 'linear-compare', { cmpKind: 'random', cmpN: 16, cmpSeed: 4 });
  const url = page.url();
  const q = new URL(url).searchParams;
  assert.deepEqual(['luKind', 'luN', 'luSeed', 'cmpKind', 'cmpN', 'cmpSeed', 'n'].map((k) => q.get(k)), ['hilbert', '5', '3', 'random', '16', '4', '8']);
  const link = new URL(await page.getAttribute('#permalink', 'href'), url).searchParams;
  for (const key of ['luKind', 'luN', 'luSeed', 'cmpKind', 'cmpN', 'cmpSeed']) assert.equal(link.get(key), q.get(key), key);
  const again = await openPage(browser, url);
  assert.equal(await waitForStatus(again), 'done', await again.textContent('#status'));
  assert.deepEqual(await again.evaluate(() => ['luKind', 'luN', 'luSeed', 'cmpKind', 'cmpN', 'cmpSeed'].map((id) => document.getElementById(id).value)),
    ['hilbert', '5', '3', 'random', '16', '4']);
  for (const part of ['linear-steps', 'linear-compare']) assert.equal(await settled(again, part, 60_000), 'done', part);
  const [s1, s2] = [await record(page, 'steps'), await record(again, 'steps')];
  assert.deepEqual([s2.kind, s2.n, s2.pivots], [s1.kind, s1.n, s1.pivots]);
  const c = await record(again, 'compare');
  assert.deepEqual([c.kind, c.n], ['random', 16]);
  assert.equal(again.url(), url, 'restoring wrote nothing new');
  assert.deepEqual(again.problems(), []);
  await again.context().close();

  const bad = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&luN=20&cmpKind=tridiagonal&luSeed=x`);
  assert.equal(await waitForStatus(bad), 'done');
  const notes = await bad.$$eval('#notes li', (l) => Object.fromEntries(l.map((x) => [x.dataset.param, x.textContent])));
  assert.match(notes.luN, /must be a whole number from 1 to 12; the default luN=6 is used/);
  assert.match(notes.cmpKind, /must be one of dominant, random, zero, hilbert; the default cmpKind=dominant is used/);
  assert.match(notes.luSeed, /the default luSeed=1 is used/);
  assert.deepEqual([await bad.inputValue('#luN'), await bad.inputValue('#cmpKind'), await bad.inputValue('#luSeed')], ['6', 'dominant', '1']);
  assert.deepEqual(bad.problems(), []);
  await bad.context().close();
  await page.fill('#cmpN', '64');
});

test('Back to an address with other fields: the results of the fields left behind go', async () => {
  const p = await pageWithHistory(browser, server.origin);
  await run(p, 'linear-steps', { luKind: 'random', luN: 3, luSeed: 2 });
  assert.equal(await p.locator('#linear-steps figure').count(), 4, 'A and its 3 steps');
  assert.equal((await record(p, 'steps')).n, 3);
  // Back: the entry before that Run has no luN, the field says 6, and the 3×3 steps must not stay under it.
  await p.goBack();
  await p.waitForFunction(() => { const q = new URLSearchParams(location.search); return q.get('n') === '5' && !q.has('luN') && document.body.dataset.status === 'done'; });
  assert.equal(await p.inputValue('#luN'), '6');
  assert.equal(await p.locator('#linear-steps figure').count(), 0);
  assert.equal(await p.getAttribute('#linear-steps', 'data-status'), 'idle');
  assert.match(await p.textContent('#linear-steps-status'), /^The fields changed \(Back or Forward\): the results shown were for other ones\./);
  assert.deepEqual(p.problems(), []);
  await p.context().close();
});

test('on WebGPU too', async () => {
  const gp = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&backend=webgpu`);
  assert.equal(await waitForStatus(gp), 'done', await gp.textContent('#status'));
  await stepChecks(gp, 'webgpu');
  await compareChecks(gp, 'webgpu', 16);
  assert.deepEqual(gp.problems(), []);
  await gp.context().close();
});

test('on the CPU too (backend=cpu: the same passes as Rust loops)', async () => {
  const cp = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&backend=cpu`);
  assert.equal(await waitForStatus(cp), 'done', await cp.textContent('#status'));
  await stepChecks(cp, 'cpu');
  await compareChecks(cp, 'cpu', 16);
  assert.deepEqual(cp.problems(), []);
  await cp.context().close();
});

test('the panel at phone width: nothing wider than the screen', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), 'no horizontal scroll at 390 px');
  await page.locator('#linear').screenshot({ path: join(ARTIFACTS, 'linear-390.png') });
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(page.origins(), [server.origin]);
});

test('Hilbert n = 3 to 8: the text says which method fails at which n, as the table shows', async () => {
  const outcome = {};
  for (let n = 3; n <= 8; n++) {
    const r = await run(page, 'linear-compare', { cmpKind: 'hilbert', cmpN: n, cmpSeed: 1 });
    outcome[n] = r.rows.map((x) => x.note.split(/[:(]/)[0].trim().replace(/ at step .*/, ''));
  }
  const expected = (n) => [n <= 5 ? 'direct' : 'singular', n <= 4 ? 'converged' : 'does not converge', 'diverged'];
  for (let n = 3; n <= 8; n++) assert.deepEqual(outcome[n], expected(n), `n = ${n}`);
  const text = await page.textContent('#linear-compare .help');
  assert.match(text, /Jacobi diverges at every n from 3, in any precision/);
  assert.match(text, /The inverse converges up to n = 4; from n = 5 it stalls/);
  assert.match(text, /small residual up to n = 5.*from n = 6 .* elimination says singular/);
  assert.doesNotMatch(text, /converges for every invertible A but/, 'only in exact arithmetic');
});

/** The n × n Hilbert matrix, 1/(i + j + 1) in float64. */
const hilbert = (n) => Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => 1 / (i + j + 1)));
/** σ_max/σ_min of a symmetric positive definite matrix: its eigenvalues by cyclic Jacobi rotations. */
function cond2(m) {
  const a = m.map((r) => [...r]);
  const n = a.length;
  for (let sweep = 0; sweep < 50; sweep++) {
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        if (a[p][q] === 0) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let k = 0; k < n; k++) { const [x, y] = [a[k][p], a[k][q]]; a[k][p] = c * x - s * y; a[k][q] = s * x + c * y; }
        for (let k = 0; k < n; k++) { const [x, y] = [a[p][k], a[q][k]]; a[p][k] = c * x - s * y; a[q][k] = s * x + c * y; }
      }
    }
  }
  const eig = a.map((r, i) => Math.abs(r[i]));
  return Math.max(...eig) / Math.min(...eig);
}
/** ‖A‖₁·‖A⁻¹‖₁, the inverse by Gauss–Jordan with partial pivoting in float64. */
function cond1(m) {
  const n = m.length;
  const w = m.map((r, i) => [...r, ...r.map((_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(w[r][c]) > Math.abs(w[p][c])) p = r;
    [w[c], w[p]] = [w[p], w[c]];
    const d = w[c][c];
    w[c] = w[c].map((x) => x / d);
    for (let r = 0; r < n; r++) if (r !== c) { const f = w[r][c]; w[r] = w[r].map((x, j) => x - f * w[c][j]); }
  }
  const norm1 = (a) => Math.max(...a[0].map((_, j) => a.reduce((s, r) => s + Math.abs(r[j]), 0)));
  return norm1(m) * norm1(w.map((r) => r.slice(n)));
}
const SUP = { '⁰': 0, '¹': 1, '²': 2, '³': 3, '⁴': 4, '⁵': 5, '⁶': 6, '⁷': 7, '⁸': 8, '⁹': 9 };
/** "4.8·10⁵" → 4.8e5. */
const sciValue = (t) => { const [m, e] = t.split('·10'); return Number(m) * 10 ** Number([...e].map((c) => SUP[c]).join('')); };

test('the Hilbert condition numbers say their norm, and each is what that norm gives (the inverse\'s preset too)', async () => {
  await run(page, 'linear-compare', { cmpKind: 'hilbert', cmpN: 5, cmpSeed: 1 });
  const text = await page.textContent('#linear-compare .help');
  const m = /Hilbert matrices \(condition numbers σ_max\/σ_min ([^;]+) for n = 3 to 8; the inverse's section gives ‖A‖₁·‖A⁻¹‖₁, which is larger: (\S+) at n = 5\)/.exec(text);
  assert.ok(m, text);
  const listed = m[1].split(', ').map(sciValue);
  assert.equal(listed.length, 6);
  listed.forEach((k, i) => assert.equal(k.toPrecision(2), cond2(hilbert(i + 3)).toPrecision(2), `n = ${i + 3}`));
  assert.equal(sciValue(m[2]).toPrecision(2), cond1(hilbert(5)).toPrecision(2));
  // The inverse's Hilbert preset names both, as its table (‖A‖₁·‖A⁻¹‖₁) does.
  await page.selectOption('#inverse-preset', 'hilbert-5');
  const help = await page.textContent('#inverse-preset-help');
  const h = /condition number ‖A‖₁·‖A⁻¹‖₁ ≈ (\S+) \(σ_max\/σ_min ≈ (\S+)\)/.exec(help);
  assert.ok(h, help);
  assert.equal(sciValue(h[1]).toPrecision(2), cond1(hilbert(5)).toPrecision(2));
  assert.equal(sciValue(h[2]).toPrecision(2), cond2(hilbert(5)).toPrecision(2));
});
