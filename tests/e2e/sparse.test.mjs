// The sparse half of "Linear systems and sparse matrices" (issue 16, points 2–4): the
// CSR arrays derived from the 5×5 example, with a wrong listing's array named and the
// right rowOffsets shown; PageRank on WordNet's graph (117,659 nodes) run on the GPU and
// checked on the page against float64, its top synsets listed by name; no console errors.
import assert from 'node:assert/strict';
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

test('the CSR example shows the derived arrays and names the wrong listed one', async () => {
  const csr = page.locator('#sparse-body .sparse-csr');
  assert.equal(await csr.getAttribute('data-wrong'), 'rowOffsets');
  const text = await csr.textContent();
  const cells = await csr.locator('table').nth(1).locator('tr').evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
  assert.deepEqual(cells[0], ['values', '3', '1', '4', '2', '5', '7', '6', '8', '9']);
  assert.deepEqual(cells[1], ['columns', '0', '3', '1', '0', '2', '3', '4', '1', '4']);
  assert.deepEqual(cells[2], ['rowOffsets', '0', '2', '3', '5', '7', '9']);
  // For a screen reader: each table named, each array's row headed by its name.
  assert.deepEqual(await csr.locator('table caption').allTextContents(), ['The 5×5 matrix', 'Its CSR arrays (Csr.fromDense)']);
  assert.deepEqual(await csr.locator('table').nth(1).locator('th[scope=row]').allTextContents(), ['values', 'columns', 'rowOffsets']);
  assert.match(text, /the right rowOffsets are \[0, 2, 3, 5, 7, 9\]/);
});

/** Runs the PageRank part on `p` and checks it against float64 and by name. */
async function pagerankChecks(p) {
  const part = p.locator('#sparse-body .sparse-pagerank');
  const t0 = Date.now();
  await part.locator('button').click();
  await p.waitForFunction(() => !['idle', 'running'].includes(document.querySelector('#sparse-body .sparse-pagerank').dataset.status), null, { timeout: 90_000, polling: 100 });
  console.log(`PageRank on WordNet: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  assert.equal(await part.getAttribute('data-status'), 'done', await part.textContent());
  const maxDiff = Number(await part.locator('.sparse-pagerank-results').getAttribute('data-max-diff'));
  const rows = await part.locator('tbody tr').evaluateAll((trs) => trs.map((r) => [...r.children].map((c) => c.textContent)));
  assert.equal(rows.length, 15);
  const top = Number(rows[0][2]);
  assert.ok(maxDiff < 1e-3 * top, `largest |GPU − float64| ${maxDiff} against the top rank ${top}`);
  for (const r of rows) assert.match(r[1], /^\S.*\.[nvar]$/, `a synset name: ${r[1]}`);
  assert.match(await part.textContent(), /converged/);
  // The float64 side is the library's own reference (Rust compiled to WebAssembly), not JavaScript.
  assert.match(await part.textContent(), /float64 on the CPU \(csr\.pagerankReference: the library's Rust, compiled to WebAssembly\)/);
  return part;
}

test('PageRank on WordNet agrees with float64 and lists the top synsets by name', async () => {
  await pagerankChecks(page);
  assert.deepEqual(page.problems(), []);
});

test('PageRank that cannot run (the graph file missing) says so, with the status every part uses: error', async () => {
  const ep = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`, undefined, {
    setup: (ctx) => ctx.route('**/wordnet-graph.txt.gz', (route) => route.fulfill({ status: 404, body: 'not here' })),
  });
  assert.equal(await waitForStatus(ep), 'done', await ep.textContent('#status'));
  const part = ep.locator('#sparse-body .sparse-pagerank');
  await part.locator('button').click();
  await ep.waitForFunction(() => !['idle', 'running'].includes(document.querySelector('#sparse-body .sparse-pagerank').dataset.status), null, { timeout: 30_000, polling: 100 });
  assert.equal(await part.getAttribute('data-status'), 'error');
  assert.match(await part.locator('[role=status]').textContent(), /PageRank failed: .*wordnet-graph\.txt\.gz: HTTP 404/);
  assert.equal(await part.locator('button').isEnabled(), true, 'it can be tried again');
  await ep.context().close();
});

test('PageRank on the CPU too (backend=cpu: SpMV as a Rust loop), offline once the page has loaded', async () => {
  const cp = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&backend=cpu`);
  assert.equal(await waitForStatus(cp), 'done', await cp.textContent('#status'));
  // The graph comes in the background after the page has loaded: then no network is needed.
  await cp.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('wordnet-graph.txt.gz') && e.responseEnd > 0), null, { timeout: 30_000 });
  await cp.context().setOffline(true);
  const part = await pagerankChecks(cp);
  assert.match(await part.textContent(), /CPU, float32: \d+ iterations/);
  assert.deepEqual(cp.problems(), []);
  await cp.context().close();
});

/** Runs the sparse Jacobi part of `p` with n and d typed in; its output's data and status. */
async function sparseJacobi(p, n, d) {
  await p.fill('#sjN', String(n));
  await p.fill('#sjDiag', String(d));
  await p.click('#sparse-jacobi-run');
  await p.waitForFunction(() => !['idle', 'running'].includes(document.getElementById('sparse-jacobi').dataset.status), null, { timeout: 120_000, polling: 100 });
  const out = p.locator('#sparse-jacobi-output');
  return {
    status: await p.getAttribute('#sparse-jacobi', 'data-status'),
    text: await p.textContent('#sparse-jacobi-status'),
    iterations: Number(await out.getAttribute('data-iterations')),
    converged: await out.getAttribute('data-converged'),
    diverged: await out.getAttribute('data-diverged'),
    residual: Number(await out.getAttribute('data-residual')),
  };
}

test('Jacobi on a sparse tridiagonal system converges at the rate its spectral radius says, diverges below d = 2, on WebGL and WebGPU', async () => {
  for (const backend of ['webgl', 'webgpu']) {
    const p = await openPage(browser, `${server.origin}/index.html?n=4&ref=0&backend=${backend}`);
    assert.equal(await waitForStatus(p), 'done', await p.textContent('#status'));
    // d = 2.5: ρ = 0.8 at any n; the float64 residual of the float32 x near ε.
    const ok = await sparseJacobi(p, 1000, 2.5);
    assert.equal(ok.status, 'done', ok.text);
    assert.equal(ok.converged, 'true');
    assert.ok(ok.iterations >= 40 && ok.iterations <= 70, `${ok.iterations} iterations`);
    assert.ok(ok.residual < 1e-4, `residual ${ok.residual}`);
    const url = new URL(p.url());
    assert.equal(url.searchParams.get('sjN'), '1000');
    assert.equal(url.searchParams.get('sjDiag'), null, 'the default d stays out of the address');
    const table = await p.locator('#sparse-jacobi-output > .scroll-x table').textContent();
    assert.match(table, /0\.799996/);
    assert.match(table, /dense float32 would take 3\.81 MiB/);
    // d = 1.9: ρ = (2/1.9)·cos(π/201) > 1.
    const bad = await sparseJacobi(p, 200, 1.9);
    assert.equal(bad.status, 'done', bad.text);
    assert.equal(bad.diverged, 'true');
    assert.match(bad.text, /diverged/);
    // A field out of range is not run, and says which.
    await p.fill('#sjN', '2');
    await p.click('#sparse-jacobi-run');
    assert.match(await p.textContent('#sparse-jacobi-status'), /^Not run: n \(unknowns\) must be a whole number from 3 to 2000000/);
    assert.deepEqual(p.problems(), []);
    await p.context().close();
  }
});

test('a link with sjN and sjDiag runs the sparse Jacobi part with those fields', async () => {
  const p = await openPage(browser, `${server.origin}/index.html?n=4&ref=0&sjN=500&sjDiag=3`);
  assert.equal(await waitForStatus(p), 'done');
  await p.waitForFunction(() => document.getElementById('sparse-jacobi').dataset.status === 'done', null, { timeout: 120_000 });
  assert.equal(await p.inputValue('#sjN'), '500');
  assert.equal(await p.inputValue('#sjDiag'), '3');
  assert.match(await p.textContent('#sparse-jacobi-status'), /converged/);
  // ρ = (2/3)·cos(π/501): about 35 iterations.
  const k = Number(await p.getAttribute('#sparse-jacobi-output', 'data-iterations'));
  assert.ok(k >= 20 && k <= 40, `${k} iterations`);
  assert.deepEqual(p.problems(), []);
  await p.context().close();
});

test('the d = 2 comparison the text suggests converges at both of its n, within the page\'s 5,000 iterations', async () => {
  // It suggested n = 100 against n = 1,000: both stopped at maxIterations, and looked alike.
  const p = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  assert.equal(await waitForStatus(p), 'done');
  const text = await p.textContent('#sparse-jacobi');
  const [, small, large, kSmall, kLarge] = text.match(/try n = ([\d,]+) against n = ([\d,]+): about ([\d,]+) against ([\d,]+) iterations/).map((s) => Number(String(s).replace(/,/g, '')));
  const runs = [];
  for (const n of [small, large]) runs.push(await sparseJacobi(p, n, 2));
  for (const [r, k] of [[runs[0], kSmall], [runs[1], kLarge]]) {
    assert.equal(r.converged, 'true', r.text);
    assert.ok(Math.abs(r.iterations - k) <= 0.2 * k, `${r.iterations} iterations, the text says about ${k}`);
  }
  // The note under the plot gives ρ to as many digits as the table: not "1.000" at n = 40.
  assert.match(await p.textContent('#sparse-jacobi-output'), /shrinks by about ρ = 0\.997/);
  assert.deepEqual(p.problems(), []);
  await p.context().close();
});
