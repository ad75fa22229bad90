// The kernel lab (www/lab.html): the exercise list (which need WebGPU), hints one at a
// time, solutions hidden unless the link allows them, a starter that fails with its
// first wrong element and heatmap, the learner's code in the address (deflate-raw +
// base64url, decoded here with node's zlib) reproducing the check on reload, a compile
// error marked at its line in the editor, a WGSL exercise passing on WebGPU with a
// timing beside the library's kernel, and the progress exported as JSON and CSV.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateRawSync, deflateRawSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { ROOT, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const file = (name) => readFileSync(join(ROOT, 'www', 'lab', 'exercises', name), 'utf8');
const encode = (text) => deflateRawSync(Buffer.from(text, 'utf8')).toString('base64url');
const decode = (param) => inflateRawSync(Buffer.from(param, 'base64url')).toString('utf8');
const RESULT_KEYS = ['cases', 'compile', 'exercise', 'timing', 'verdict'];
const CASE_KEYS = ['cols', 'firstWrong', 'inner', 'maxAbsError', 'maxRelError', 'nondeterministic', 'rows', 'tolerance'];
const editorText = (page) => page.$$eval('.cm-content .cm-line', (ls) => ls.map((l) => l.textContent).join('\n'));

async function typeInto(page, text) {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
  await page.waitForFunction(() => document.body.dataset.address === 'saved');
}

async function checkNow(page) {
  await page.click('#lab-check');
  await page.waitForFunction(() => document.body.dataset.status !== 'checking' && document.body.dataset.verdict);
  return waitForStatus(page);
}

test('a GLSL exercise: list, hints, a failing starter, the code in the address, a pass, a compile error at its line', async () => {
  const page = await openPage(browser, `${server.origin}/www/lab.html?exercise=multiply`);
  await waitForStatus(page, 60_000, ['ready']);
  const items = await page.$$eval('#lab-exercises li', (ls) => ls.map((l) => l.textContent));
  assert.equal(items.length, 11);
  assert.equal(items.filter((t) => t.includes('WebGPU')).length, 8, items.join(' | '));
  assert.match(await page.textContent('#lab-support'), /WGSL ones need WebGPU/);
  assert.equal(await page.isVisible('#lab-show-solution'), false, 'solutions hidden by default');
  assert.equal(await editorText(page), file('multiply.starter.glsl'));

  // Hints one at a time.
  assert.equal(await page.$$eval('#lab-hints li', (l) => l.length), 0);
  await page.click('#lab-hint');
  assert.equal(await page.$$eval('#lab-hints li', (l) => l.length), 1);
  await page.click('#lab-hint');
  assert.equal(await page.$$eval('#lab-hints li', (l) => l.length), 2);

  // The starter compiles and fails: the first wrong element, its heatmap.
  assert.equal(await checkNow(page), 'done');
  let r = await page.evaluate(() => window.labResult);
  assert.deepEqual(Object.keys(r).sort(), RESULT_KEYS);
  assert.deepEqual(Object.keys(r.cases[0]).sort(), CASE_KEYS);
  assert.equal(r.verdict, 'fail');
  assert.equal(await page.evaluate(() => document.body.dataset.verdict), 'fail');
  assert.deepEqual([r.cases[0].firstWrong.i, r.cases[0].firstWrong.j], [0, 0]);
  assert.equal(r.timing, null);
  assert.ok(await page.isVisible('#lab-heatmap'));
  assert.match(await page.textContent('#lab-first-wrong'), /first wrong element is C\[0\]\[0\]/);
  // The case table names each case's shape (its numbers, not the code that computes them).
  const c0 = r.cases[0];
  assert.equal(await page.textContent('#lab-cases tr:first-child td:nth-child(2)'), `${c0.rows}×${c0.inner} · ${c0.inner}×${c0.cols}`);

  // The learner's code goes into the address, and the link reproduces it.
  const wrong = file('multiply.wrong-swapped-xy.glsl');
  await typeInto(page, wrong);
  const code = new URL(page.url()).searchParams.get('code');
  assert.equal(decode(code), wrong);
  assert.equal(await checkNow(page), 'done');
  r = await page.evaluate(() => window.labResult);
  const bad = r.cases.findIndex((c) => c.firstWrong);
  assert.deepEqual([bad, r.cases[bad].firstWrong.i, r.cases[bad].firstWrong.j], [1, 0, 1]);

  const solution = file('multiply.solution.glsl');
  const linked = await openPage(browser, `${server.origin}/www/lab.html?exercise=multiply&check=1&code=${encode(solution)}`);
  assert.equal(await waitForStatus(linked), 'done');
  assert.equal(await editorText(linked), solution);
  r = await linked.evaluate(() => window.labResult);
  assert.equal(r.verdict, 'pass', JSON.stringify(r.cases));
  assert.equal(r.timing.reference.kernel, 'naive');
  assert.ok(r.timing.gflops > 0 && r.timing.reference.gflops > 0);
  assert.match(await linked.textContent('#lab-progress'), /multiply\s*passed/);

  // A compile error: status error, the message at its line, marked in the editor.
  const lines = solution.split('\n');
  const at = lines.findIndex((l) => l.includes('float sum = 0.0;'));
  lines[at] = lines[at].replace('0.0', 'missing');
  await typeInto(linked, lines.join('\n'));
  assert.equal(await checkNow(linked), 'error');
  r = await linked.evaluate(() => window.labResult);
  assert.equal(r.compile.ok, false);
  assert.equal(r.compile.messages[0].line, at + 1);
  assert.match(r.compile.messages[0].message, /missing/);
  assert.ok(await linked.$('.cm-lintRange-error'), 'the error is marked in the editor');
  assert.equal(await linked.$eval('#lab-messages li', (li) => getComputedStyle(li).whiteSpace), 'pre-wrap', 'a message keeps its lines');
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(linked.problems(), []);
  await page.context().close();
  await linked.context().close();
});

test('a compiler message of several lines (Firefox\'s WGSL compiler) keeps them, its blank frame dropped', async () => {
  const { compilerLine } = await import(pathToFileURL(join(ROOT, 'www', 'lab', 'results.js')).href);
  // As Firefox ESR 153 gave it for an unknown identifier at line 22, column 23.
  const snippet = "Shader 'learner' parsing error: no definition in scope for identifier: `roww`\n   ┌─ wgsl:22:23\n   │\n22 │         acc = acc + A[roww * dims.inner + k];\n   │                       ^^^^ unknown identifier";
  assert.equal(compilerLine({ line: 22, column: 23, message: `\n${snippet}\n\n` }), `line 22:23: ${snippet}`);
  assert.equal(compilerLine({ line: 12, column: 0, message: "'for' : syntax error" }), "line 12: 'for' : syntax error");
  assert.equal(compilerLine({ line: 0, column: 0, message: '  link failed \n' }), '  link failed');
});

test('a teacher\'s list with solutions: a WGSL kernel passes on WebGPU, timed; progress exported', async () => {
  const page = await openPage(browser, `${server.origin}/www/lab.html?exercises=global,tiled&solutions=1&exercise=tiled`);
  await waitForStatus(page, 60_000, ['ready']);
  assert.deepEqual(await page.$$eval('#lab-exercises button', (b) => b.map((x) => x.dataset.id)), ['global', 'tiled']);
  assert.ok(await page.isVisible('#lab-show-solution'));
  await page.click('#lab-exercises button[data-id="global"]');
  await page.waitForFunction(() => document.body.dataset.status === 'ready' && /one invocation per element/.test(document.getElementById('lab-title').textContent));
  assert.equal(new URL(page.url()).searchParams.get('exercise'), 'global');
  await page.click('#lab-show-solution');
  await page.waitForFunction(() => /extra invocations do nothing/.test(document.querySelector('.cm-content').textContent));
  assert.equal(await editorText(page), file('global.solution.wgsl'));
  assert.equal(await checkNow(page), 'done');
  const r = await page.evaluate(() => window.labResult);
  assert.equal(r.verdict, 'pass', JSON.stringify(r.cases));
  assert.ok(r.cases.length >= 6 && r.cases.every((c) => c.firstWrong === null && !c.nondeterministic));
  assert.equal(r.timing.reference.kernel, 'global');

  const [json] = await Promise.all([page.waitForEvent('download'), page.click('#lab-export-json')]);
  const progress = JSON.parse(readFileSync(await json.path(), 'utf8'));
  assert.equal(progress.exercises.global.passed, true);
  assert.ok(progress.exercises.global.bestRatio > 0);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#lab-export-csv')]);
  const rows = readFileSync(await csv.path(), 'utf8').trim().split('\n');
  assert.match(rows[0], /^exercise,passed,checks,best_ms/);
  assert.match(rows.find((l) => l.startsWith('global,')), /^global,true,1,/);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a link\'s unknown exercise ids are said, not dropped in silence', async () => {
  const code = encode(file('global.solution.wgsl'));
  const page = await openPage(browser, `${server.origin}/www/lab.html?exercises=tiledd,square&exercise=global&code=${code}`);
  await waitForStatus(page, 60_000, ['ready']);
  assert.deepEqual(await page.$$eval('#lab-exercises button', (b) => b.map((x) => x.dataset.id)), ['square']);
  assert.equal(await editorText(page), file('square.starter.glsl'));
  const notice = await page.textContent('#lab-notice');
  assert.match(notice, /left out: tiledd \(/);
  assert.match(notice, /exercise global, which this page does not offer; square is open instead/);
  assert.match(notice, /code in the link, written for global, is not loaded/);
  assert.equal(await page.getAttribute('#lab-notice', 'role'), 'alert');
  // A good link says nothing.
  await page.goto(`${server.origin}/www/lab.html?exercises=square,multiply&exercise=multiply`);
  await waitForStatus(page, 60_000, ['ready']);
  assert.equal(await page.isVisible('#lab-notice'), false);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('without WebGPU: the WGSL exercises say they need it, GLSL and csr still check', async () => {
  const noGpu = () => { Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined }); };
  const page = await openPage(browser, `${server.origin}/www/lab.html?exercise=csr&check=1`, undefined, { init: noGpu });
  await page.waitForFunction(() => document.body.dataset.verdict);
  const r = await page.evaluate(() => window.labResult);
  // The chapter's printed rowOffsets (the starter) fail at index 1, and the page says where.
  assert.equal(r.verdict, 'fail');
  assert.deepEqual(r.cases.map((c) => c.firstWrong && c.firstWrong.j), [null, null, 1]);
  assert.match(await page.textContent('#lab-notice'), /chapter.*rowOffsets\[1\] should be 1: row 0 holds 1 nonzero/);
  // Each case is one array, named as the learner types it, with its length.
  assert.deepEqual(await page.$$eval('#lab-cases td:nth-child(2)', (t) => t.map((x) => x.textContent)), ['values: 1×11', 'columns: 1×11', 'rowOffsets: 1×6']);
  const tags = await page.$$eval('.lab-needs', (t) => t.map((x) => x.textContent));
  assert.equal(tags.length, 8);
  assert.ok(tags.every((t) => /needs WebGPU/.test(t)));
  await typeInto(page, file('csr.solution.txt'));
  assert.equal(await checkNow(page), 'done');
  assert.equal(await page.evaluate(() => window.labResult.verdict), 'pass');
  await page.click('#lab-exercises button[data-id="spmv"]');
  await waitForStatus(page, 10_000, ['unavailable']);
  assert.ok(await page.isDisabled('#lab-check'));
  assert.match(await page.textContent('#lab-notice'), /“spmv” needs WebGPU/);
  await page.context().close();

  const code = encode(file('square.solution.glsl'));
  const glsl = await openPage(browser, `${server.origin}/www/lab.html?exercise=square&check=1&code=${code}`, undefined, { init: noGpu });
  await glsl.waitForFunction(() => document.body.dataset.verdict, null, { timeout: 120_000 });
  assert.equal(await glsl.evaluate(() => window.labResult.verdict), 'pass');
  assert.deepEqual(glsl.problems(), []);
  await glsl.context().close();
});

test('the csr exercise\'s hints lead to the chapter\'s wrong entry without giving the right one', async () => {
  const { pathToFileURL } = await import('node:url');
  const { EXERCISES } = await import(pathToFileURL(join(ROOT, 'www', 'lab', 'exercises.js')).href);
  const hints = EXERCISES.find((e) => e.id === 'csr').hints;
  assert.equal(hints.length, 3);
  for (const h of hints) {
    // The right value of an entry, or where a row starts, is the learner's to find.
    assert.doesNotMatch(h, /\bstarts at \d|\bnot at \d|\brow \d\b|\[0, ?\d/, h);
  }
});

test('the progress table fits its column: no sideways scroll from a phone to a wide screen', async () => {
  for (const width of [1600, 1280, 1024, 700, 390, 320]) {
    const page = await openPage(browser, `${server.origin}/www/lab.html?exercise=multiply`, { width, height: 800 });
    await page.waitForFunction(() => document.body.dataset.status === 'ready');
    const seen = await page.evaluate(() => {
      const table = document.getElementById('lab-progress').closest('table').getBoundingClientRect();
      const aside = document.getElementById('lab-progress').closest('aside').getBoundingClientRect();
      return { scroll: document.documentElement.scrollWidth, view: innerWidth, table: table.right, aside: aside.right };
    });
    assert.ok(seen.scroll <= seen.view, `${width} px: the page is ${seen.scroll} px wide`);
    // At 320 px the table is wider than the screen and scrolls inside its column.
    if (width > 320) assert.ok(seen.table <= seen.aside + 0.5, `${width} px: the table ends at ${seen.table}, its column at ${seen.aside}`);
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  }
});

test('keyboard only, on a projector and an iPad: a visible focus on every control, the editor left with Esc then Tab', async () => {
  for (const viewport of [{ width: 1024, height: 768 }, { width: 768, height: 1024 }]) {
    const page = await openPage(browser, `${server.origin}/www/lab.html?exercise=square`, viewport);
    await waitForStatus(page, 60_000, ['ready']);
    const focused = () => page.evaluate(() => {
      const e = document.activeElement;
      // The editor's focus shows on its frame (CodeMirror's .cm-focused), not on its text.
      const shown = e.closest('.cm-editor') ?? e;
      const s = getComputedStyle(shown);
      return { editor: e.classList.contains('cm-content'), id: e.id, outline: s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth) };
    });
    let f;
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      // CodeMirror marks its frame focused on its next update.
      if (await page.evaluate(() => document.activeElement.classList.contains('cm-content'))) await page.waitForSelector('.cm-editor.cm-focused');
      f = await focused();
      // As the teaching page's: 3 px, seen from the back of a room.
      assert.ok(f.outline >= 3, `${viewport.width} px, Tab ${i + 1}: ${JSON.stringify(f)}`);
      if (f.editor) break;
    }
    assert.ok(f.editor, `${viewport.width} px: Tab reaches the editor`);
    // Tab indents there (as in any code editor); the page says how to leave, and that works.
    await page.keyboard.press('Tab');
    assert.ok((await focused()).editor);
    const described = await page.$eval('.cm-content', (c) => (c.getAttribute('aria-describedby') ?? '').split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '').join(' '));
    assert.match(described, /Esc.*then Tab/, described);
    assert.ok(await page.isVisible('#lab-editor-keys'));
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    f = await focused();
    assert.equal(f.id, 'lab-check');
    assert.ok(f.outline >= 3, JSON.stringify(f));
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  }
});

test('a kernel that computes NaN or ±Inf is not told its elements were never written', async () => {
  const solution = file('global.solution.wgsl');
  const store = 'C[i * dims.cols + j] = sum;';
  assert.ok(solution.includes(store));
  // dims.pad is 0: a division the compiler cannot fold, 0/0 (NaN) or x/0 (±Inf) at run time.
  for (const [wrote, computed, got] of [['(sum - sum)', /computed as NaN/, 'NaN'], ['(abs(sum) + 1.0)', /±Inf/, 'Infinity']]) {
    const code = encode(solution.replace(store, `C[i * dims.cols + j] = ${wrote} / f32(dims.pad);`));
    const page = await openPage(browser, `${server.origin}/www/lab.html?exercise=global&check=1&code=${code}`);
    assert.equal(await waitForStatus(page), 'done');
    const r = await page.evaluate(() => window.labResult);
    assert.equal(r.verdict, 'fail');
    assert.equal(String(r.cases[0].firstWrong.got), got, JSON.stringify(r.cases[0]));
    assert.match(await page.textContent('#lab-first-wrong'), computed);
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  }
});

test('another exercise opened during a check: the check ends in the progress table, not as the new exercise\'s verdict', async () => {
  const page = await openPage(browser, `${server.origin}/www/lab.html?exercise=square&code=${encode(file('square.solution.glsl'))}`);
  await waitForStatus(page, 60_000, ['ready']);
  await page.click('#lab-check');
  await page.waitForFunction(() => document.body.dataset.status === 'checking');
  await page.click('#lab-exercises button[data-id="multiply"]');
  await page.waitForFunction(() => /C = A·B/.test(document.getElementById('lab-title').textContent));
  // One check at a time, on one GPU: the new exercise's waits for it.
  assert.ok(await page.isDisabled('#lab-check'));
  // Square's check goes on to its end and is kept (a pass, timed).
  await page.waitForFunction(() => /square\s*passed/.test(document.getElementById('lab-progress').textContent), null, { timeout: 120_000 });
  await waitForStatus(page, 10_000, ['ready']);
  assert.equal(await page.isVisible('#lab-result'), false, 'square\'s verdict is not shown under multiply');
  assert.equal(await page.evaluate(() => document.body.dataset.verdict), undefined);
  assert.equal(await page.isDisabled('#lab-check'), false);
  assert.match(await page.textContent('#lab-notice'), /“square”.*passed/);
  assert.equal(await editorText(page), file('multiply.starter.glsl'));
  // And multiply checks as usual.
  assert.equal(await checkNow(page), 'done');
  const r = await page.evaluate(() => window.labResult);
  assert.equal(r.exercise, 'multiply');
  assert.equal(r.verdict, 'fail');
  assert.match(await page.textContent('#lab-verdict'), /Fail/);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});
