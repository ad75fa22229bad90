// The configuration lives in the URL: a run chosen with the controls writes it, the
// same URL opened elsewhere gives the same controls and the same run; parameters
// that cannot be used fall back to defaults with a visible note; and once loaded the
// page works offline.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const FIELDS = ['n', 'input', 'seed', 'op', 'k', 'p', 'bInput', 'bSeed', 'kernel'];
/** The values of the controls in use (those of other operations are hidden, and not in the URL). */
const formValues = (page) => page.evaluate((ids) => Object.fromEntries(ids
  .filter((id) => !document.getElementById(id).closest('[hidden]'))
  .map((id) => [id, document.getElementById(id).value])), FIELDS);

test('a configuration survives a URL round trip, and the page then works offline', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&input=integers&seed=7&op=repeat&k=2&kernel=packed`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  let r = await page.evaluate(() => window.__results);
  assert.deepEqual([r.config.n, r.config.input, r.config.seed, r.config.op, r.config.k, r.kernel, r.passCount], [8, 'integers', 7, 'repeat', 2, 'packed', 2]);
  assert.deepEqual(await page.$$eval('#notes li', (l) => l.length), 0);

  // Choose another configuration with the controls (keyboard and mouse) and run it.
  await page.fill('#n', '12');
  await page.selectOption('#op', 'multiply');
  await page.selectOption('#bInput', 'tridiagonal');
  await page.selectOption('#input', 'graph');
  await page.fill('#prob', '0.3');
  await page.fill('#seed', '42');
  await page.selectOption('#kernel', 'blocked4');
  await page.focus('#n');
  await page.keyboard.press('Enter'); // submits the form: Run
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  r = await page.evaluate(() => window.__results);
  const url = page.url();
  const q = new URL(url).searchParams;
  assert.deepEqual(Object.fromEntries(q), { n: '12', input: 'graph', seed: '42', prob: '0.3', op: 'multiply', bInput: 'tridiagonal', kernel: 'blocked4' });
  assert.equal(await page.getAttribute('#permalink', 'href'), `${new URL(url).pathname}${new URL(url).search}`);
  const before = await formValues(page);
  const heat = await page.$$eval('#heatmaps figure figcaption', (f) => f.map((x) => x.textContent));
  assert.equal(heat.length, 4, 'A, B, output and error pictures');

  // The same URL in a fresh page: same controls, same run, same numbers.
  const again = await openPage(browser, url);
  assert.equal(await waitForStatus(again), 'done', await again.textContent('#status'));
  assert.deepEqual(await formValues(again), before);
  const r2 = await again.evaluate(() => window.__results);
  assert.equal(r2.query, r.query);
  for (const key of new URLSearchParams(r.query).keys()) assert.equal(r2.config[key], r.config[key], key);
  assert.deepEqual(r2.metrics, r.metrics);
  assert.equal(r2.passCount, 1);
  assert.deepEqual(r2.passes.map((p) => p.label), ['C = A · B']);
  assert.equal(r2.metrics.exact, 144, 'a 0/1 matrix times a small integer one is exact');
  await again.context().close();

  // Offline from here on: a new run needs nothing from the network.
  await page.context().setOffline(true);
  await page.selectOption('#op', 'power');
  await page.fill('#p', '3');
  await page.click('#run');
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  r = await page.evaluate(() => window.__results);
  assert.deepEqual([r.config.op, r.config.p, r.reference], ['power', 3, 'done']);
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(page.origins(), [server.origin]);
  await page.context().close();
});

test('invalid URL parameters fall back to defaults with a note naming each', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=abc&input=nope&op=square&p=-1&prob=2&kernel=blocked9&backend=opengl&foo=1`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  await page.screenshot({ path: join(ARTIFACTS, 'bad-params.png') });
  const notes = await page.$$eval('#notes li', (l) => l.map((x) => [x.dataset.param, x.textContent]));
  const byParam = Object.fromEntries(notes);
  assert.deepEqual(Object.keys(byParam).sort(), ['backend', 'foo', 'input', 'kernel', 'n', 'p', 'prob']);
  assert.match(byParam.backend, /backend=opengl — must be one of auto, webgl, webgpu, cpu; the default backend=auto is used/);
  // The range the n field's help gives (this device's), not the page's cap of 65536.
  const nMax = await page.textContent('#n-max');
  assert.match(nMax, /^\d+$/);
  assert.match(byParam.n, new RegExp(`n=abc — must be a whole number from 1 to ${nMax} on this device; the default n=128 is used`));
  assert.match(byParam.input, /must be one of uniform, identity/);
  assert.match(byParam.p, /the default p=5 is used/);
  assert.match(byParam.foo, /unknown parameter/);
  assert.equal(await page.isVisible('#notes'), true);
  const r = await page.evaluate(() => window.__results);
  assert.deepEqual([r.config.n, r.config.input, r.config.kernel], [128, 'uniform', 'naive']);
  assert.equal(r.notes.length, 7);
  assert.equal(r.backend, 'webgl', 'auto: WebGL2 where the only WebGPU adapter is a software one');
  assert.equal(await page.inputValue('#n'), '128');
  // Dismissed from the keyboard, the notes hand focus to the form, not to the page body.
  await page.focus('#notes button');
  await page.keyboard.press('Space');
  assert.equal(await page.isVisible('#notes'), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'n');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a link takes a whole number as the form field does (k=2.0), and still refuses 2.5', async () => {
  // The URL's parser took digits only, so the link of a form that ran k = 2.0 said
  // "k=2.0 — must be a whole number" when opened.
  const page = await openPage(browser, `${server.origin}/index.html?n=8&op=repeat&k=2.0&p=1e1`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const r = await page.evaluate(() => window.__results);
  assert.deepEqual(r.notes, []);
  assert.deepEqual([r.config.k, r.config.p, r.passCount], [2, 10, 2]);
  const bad = await openPage(browser, `${server.origin}/index.html?n=8&op=repeat&k=2.5`);
  assert.equal(await waitForStatus(bad), 'done', await bad.textContent('#status'));
  assert.match(await bad.textContent('#notes li[data-param="k"]'), /k=2\.5 — must be a whole number from 0 to 64; the default k=3 is used/);
  assert.deepEqual([...page.problems(), ...bad.problems()], []);
  await page.context().close();
  await bad.context().close();
});

test('embed with a value other than 1 is a note, and the whole page is shown', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&embed=2`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.match(await page.textContent('#notes li[data-param="embed"]'), /embed=2 — must be 1 \(the result panel alone, for an iframe on a slide\); the default, the whole page, is shown/);
  assert.equal(await page.evaluate(() => document.body.classList.contains('embed')), false);
  assert.deepEqual((await page.evaluate(() => window.__results.notes)).map((x) => x.param), ['embed']);
  // A run from the form writes an address without it; embed=1 stays as it was.
  await page.click('#run');
  assert.equal(await waitForStatus(page), 'done');
  assert.equal(new URL(page.url()).searchParams.has('embed'), false);
  const one = await openPage(browser, `${server.origin}/index.html?n=8&ref=0&embed=1`);
  assert.equal(await waitForStatus(one), 'done');
  assert.equal(await one.$$eval('#notes li', (l) => l.length), 0);
  assert.deepEqual([...page.problems(), ...one.problems()], []);
  await page.context().close();
  await one.context().close();
});

test('a field of the form that does not parse stops the run and is marked', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&op=square`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const runs = () => page.evaluate(() => window.__results.config.n);
  for (const bad of ['2.5', '0', '']) {
    await page.fill('#n', bad);
    await page.click('#run');
    await page.waitForFunction(() => document.body.dataset.status === 'error', null, { timeout: 10_000, polling: 50 });
    assert.match(await page.textContent('#status'), /^Not run: n must be a whole number from 1 to \d+/);
    assert.equal(await page.getAttribute('#n', 'aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'n');
    assert.match(await page.textContent('#notes'), /Not run: fix these settings first/);
    assert.equal(await runs(), 8, 'no run of the default n started');
  }
  // Typed text a number field cannot parse reads as "" there: the message must not say “”.
  await page.fill('#n', '');
  await page.type('#n', '1e');
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.status === 'error', null, { timeout: 10_000, polling: 50 });
  const nMax = Number(await page.textContent('#n-max'));
  assert.ok(nMax < 65536, `SwiftShader's WebGL limit is below the page's cap (${nMax})`);
  assert.equal(await page.textContent('#status'), `Not run: n must be a whole number from 1 to ${nMax} (it is “not a number”).`);
  // Past the device's limit the form says so as its help text does, before any run.
  await page.fill('#n', String(nMax + 1));
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.status === 'error', null, { timeout: 10_000, polling: 50 });
  assert.equal(await page.textContent('#status'), `Not run: n must be a whole number from 1 to ${nMax} (it is “${nMax + 1}”).`);
  assert.equal(await page.textContent('#n-help'), `1 to ${nMax} on this device.`);
  await page.fill('#meshN', ''); // a panel's field, read the same way
  await page.type('#meshN', '--6');
  await page.click('#partitioned-mesh-run');
  assert.equal(await page.textContent('#partitioned-mesh-status'), 'Not run: n (n×n) must be a whole number from 1 to 64 (it is “not a number”).');
  // A field the operation does not use (k, for a square) does not block.
  await page.fill('#n', '6');
  await page.$eval('#k', (k) => { k.value = ''; }); // hidden: square has no k
  await page.click('#run');
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.equal(await runs(), 6);
  assert.equal(await page.getAttribute('#n', 'aria-invalid'), null);
  assert.equal(await page.isVisible('#notes'), false);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('the bench page shows a stored result without loading the peers', async () => {
  const page = await openPage(browser, `${server.origin}/www/bench/index.html?suite=systems&show=swiftshader`);
  const requested = [];
  page.on('request', (req) => requested.push(new URL(req.url()).pathname));
  assert.equal(await waitForStatus(page, 30_000), 'done', await page.textContent('#status'));
  assert.match(await page.textContent('#status'), /^Showing .*swiftshader.*\.json/);
  assert.equal(await page.locator('#plot svg').count(), 1);
  assert.match(await page.textContent('#table'), /TF\.js WebGL/);
  // Showing needs neither TF.js nor gpu.js (a clone that only ran `make serve` has none).
  const peers = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)
    .filter((p) => p.includes('/node_modules/')));
  assert.deepEqual(peers.concat(requested.filter((p) => p.includes('/node_modules/'))), []);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('the bench page refuses parameters that do not parse instead of running the defaults', async () => {
  const page = await openPage(browser, `${server.origin}/www/bench/index.html?suite=systems&sizes=64;128&repeats=3&modes=single,chian`);
  assert.equal(await waitForStatus(page, 30_000), 'error', await page.textContent('#status'));
  const status = await page.textContent('#status');
  assert.match(status, /^Not started: sizes: "64;128" is not a whole number/);
  assert.match(status, /repeats=3: expected a whole number from 5/);
  assert.match(status, /modes: "chian" is neither single nor chain/);
  assert.equal(await page.isVisible('#form'), true);
  assert.equal(await page.evaluate(() => window.benchLog.some((l) => l.startsWith('gpgpu-matrix bench:'))), false, 'nothing ran');
  await page.context().close();
});

test('the bench page says which peer did not load (gpu.js is not Chromium\'s WebGPU GPU)', async () => {
  const page = await openPage(browser, `${server.origin}/www/bench/index.html?suite=systems&sizes=16&modes=single&systems=gpujs,gpgpu:naive,tfjs-webgl&skip=async`, undefined, {
    setup: (context) => context.route('**/node_modules/**', (route) => route.abort()),
  });
  assert.equal(await waitForStatus(page, 60_000), 'done', await page.textContent('#status'));
  const systems = await page.evaluate(() => window.benchResult.systems);
  const gpujs = systems.find((s) => s.id === 'gpujs');
  assert.equal(gpujs.available, false);
  assert.match(gpujs.reason, /gpu\.js script did not load/);
  assert.equal(systems.find((s) => s.id === 'tfjs-webgl').available, false);
  assert.equal(systems.find((s) => s.id === 'gpgpu:naive').available, true);
  // The report does not print "undefined" for the peers it could not describe.
  assert.doesNotMatch(await page.textContent('#table'), /undefined|gpu\.js \?/);
  await page.context().close();
});

test('the bench checks chain results against float64 rows of M^16', async () => {
  const page = await openPage(browser, `${server.origin}/www/bench/index.html?suite=systems&sizes=16,40&modes=chain&systems=gpgpu:packed,gpgpu:blocked8,js-f64&skip=async&sampleRows=8`);
  assert.equal(await waitForStatus(page, 60_000), 'done', await page.textContent('#status'));
  const { records, references } = await page.evaluate(() => window.benchResult);
  assert.deepEqual(references.map((r) => [r.n, r.mode, r.method]), [[16, 'chain', '8 seeded random rows of M^16'], [40, 'chain', '8 seeded random rows of M^16']]);
  assert.equal(records.length, 6);
  for (const r of records) {
    const tol = r.system === 'js-f64' ? 1e-13 : 1e-5;
    assert.ok(r.relFrobenius >= 0 && r.relFrobenius < tol, `${r.system} n=${r.n}: ${r.relFrobenius}`);
  }
  assert.match(await page.textContent('#table'), /\| 40 \| gpgpu blocked8 \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \| \d\.\d\de-\d \|/);
  await page.context().close();
});

test('the float64 checkbox follows the first click and the first Space', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=64`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.equal(await page.isChecked('#ref'), true, 'on by default at n = 64');
  await page.click('#ref');
  assert.equal(await page.isChecked('#ref'), false, 'one click turns it off');
  await page.focus('#ref');
  await page.keyboard.press('Space');
  assert.equal(await page.isChecked('#ref'), true, 'one Space turns it on again');
  await page.click('#ref');
  await page.click('#run');
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.equal(await page.evaluate(() => window.__results.reference), 'off');
  assert.equal(new URL(page.url()).searchParams.get('ref'), '0');
  await page.context().close();
});

test('each run from the form is a history entry: Back returns to the previous configuration and runs it', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=16&op=square`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  await page.fill('#n', '24');
  await page.click('#run');
  await page.waitForFunction(() => window.__results?.config?.n === 24 && document.body.dataset.status === 'done', null, { timeout: 30_000, polling: 50 });
  await page.goBack();
  await page.waitForFunction(() => window.__results?.config?.n === 16 && document.body.dataset.status === 'done', null, { timeout: 30_000, polling: 50 });
  assert.equal(new URL(page.url()).searchParams.get('n'), '16');
  assert.equal(await page.inputValue('#n'), '16');
  await page.goForward();
  await page.waitForFunction(() => window.__results?.config?.n === 24 && document.body.dataset.status === 'done', null, { timeout: 30_000, polling: 50 });
  assert.equal(await page.inputValue('#n'), '24');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('Back from an in-page link (#compute) keeps the step-through where it was: the same configuration is not run again', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=16&op=power&p=13`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  for (const passes of [1, 2]) {
    await page.click('#step');
    await page.waitForFunction((k) => document.body.dataset.status === 'paused' && document.body.dataset.passesDone === String(k), passes, { timeout: 30_000, polling: 50 });
  }
  const stepped = page.url();
  await page.click('.page-header a[href="#compute"]');
  await page.waitForFunction(() => location.hash === '#compute');
  await page.goBack();
  await page.waitForFunction((u) => location.href === u, stepped);
  // A run started again would be "running", then paused at 0 passes: give it the time to.
  await page.waitForTimeout(1500);
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'paused');
  assert.match(await page.textContent('#status'), /2 of 5 passes done/);
  await page.click('#step');
  await page.waitForFunction(() => document.body.dataset.status === 'paused' && document.body.dataset.passesDone === '3', null, { timeout: 30_000, polling: 50 });
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a link to a section (#linear) lands on it, though the panels and results above fill in after the page has loaded', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8&luN=4#linear`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  // The part the link names runs after the demo: the last thing that grows the page.
  await page.waitForFunction(() => document.getElementById('linear-steps').dataset.status === 'done', null, { timeout: 60_000 });
  await page.waitForTimeout(300);
  const top = await page.evaluate(() => document.getElementById('linear').getBoundingClientRect().top);
  assert.ok(Math.abs(top) <= 2, `#linear is ${top}px from the top of the window`);
  // Once the reader scrolls, the page leaves the scrolling to them.
  await page.mouse.wheel(0, -500);
  await page.waitForTimeout(300);
  await page.evaluate(() => document.getElementById('compute-body').append(Object.assign(document.createElement('div'), { style: 'height: 400px' })));
  await page.waitForTimeout(300);
  const after = await page.evaluate(() => document.getElementById('linear').getBoundingClientRect().top);
  assert.ok(after > 400, `#linear is at ${after}px after scrolling up 500px`);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});
