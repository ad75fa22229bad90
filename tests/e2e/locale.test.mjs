// The page in another language (locale=it, www/i18n/): every English string has an
// Italian one with the same placeholders; the demo's controls, its status line, its notes
// and the page's words around the library's errors are Italian (the library's message
// stays English); the switch reloads the page in the language picked, the run kept.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';
import en from '../../www/i18n/en.js';
import it from '../../www/i18n/it.js';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const placeholders = (s) => [...new Set(s.match(/\{\w+\}/g) ?? [])].sort();

test('every key of the English catalogue is in the Italian one, with the same placeholders', () => {
  const missing = Object.keys(en.strings).filter((k) => !Object.hasOwn(it.strings, k));
  assert.deepEqual(missing, []);
  // Only the library's words (kernel.about.*), which English takes from the library.
  const stray = Object.keys(it.strings).filter((k) => !Object.hasOwn(en.strings, k) && !k.startsWith('kernel.about.'));
  assert.deepEqual(stray, [], 'keys English lacks');
  for (const k of Object.keys(en.strings)) assert.deepEqual(placeholders(it.strings[k]), placeholders(en.strings[k]), k);
  // Every key the page's HTML names is in the catalogue.
  const html = readFileSync(join(ROOT, 'index.html'), 'utf8');
  for (const [, key] of html.matchAll(/data-i18n(?:-label)?="([^"]+)"/g)) assert.ok(Object.hasOwn(en.strings, key), key);
});

test('every key the sections name (www/sections/) is in both catalogues', () => {
  const dir = join(ROOT, 'www', 'sections');
  const used = new Set();
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.js'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const [, key] of text.matchAll(/\bt\('([\w.]+)'/g)) used.add(key);
    for (const [, key] of text.matchAll(/\btn\('([\w.]+)'/g)) used.add(`${key}.one`).add(`${key}.other`);
  }
  assert.ok(used.size > 80, `${used.size} keys`);
  assert.deepEqual([...used].filter((k) => !Object.hasOwn(en.strings, k) || !Object.hasOwn(it.strings, k)), []);
});

/**
 * The sections' own widgets in document order: buttons, labels, legends, summaries,
 * their status lines and column headings, each as its accessible label and text.
 */
const sectionControls = (page) => page.evaluate(() => [...document.querySelectorAll(
  ':is(#compute, #partitioned, #batched, #linear, #devices, #applications) :is(button, label, legend, summary, [role=status], th[scope=col], nav[aria-label])')]
  .map((e) => ({ id: e.id || e.getAttribute('for') || e.closest('[id]').id, text: `${e.getAttribute('aria-label') ?? ''}|${e.textContent.replace(/\s+/g, ' ').trim()}` })));

test('locale=it: every section\'s Run buttons, labels and status lines are Italian', async () => {
  const mounted = async (p) => {
    assert.equal(await waitForStatus(p), 'done');
    await p.waitForSelector('#devices-run', { state: 'attached', timeout: 60_000 });
    await p.waitForSelector('#jacobi-run', { state: 'attached', timeout: 60_000 });
    return sectionControls(p);
  };
  const english = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  const page = await openPage(browser, `${server.origin}/index.html?n=4&ref=0&locale=it`);
  const [before, now] = [await mounted(english), await mounted(page)];
  assert.equal(now.length, before.length, 'the same widgets');
  assert.ok(now.length > 60, `${now.length} widgets`);
  // Names, symbols and numbers read the same in both languages.
  const same = /^\|?(|n|k|d|batch|n \(n×n\)|CUDA|WebGPU \(WGSL\)|WebGL2 fragment shader|global|shared|tiled16 \(shared\)|naive\w*|register\w*|[\w ]*\d+ ?(×|\(|\)|[\w×]*)*)$/;
  const left = now.filter((x, i) => x.text === before[i].text && !same.test(x.text.replace(/^\|/, '')));
  assert.deepEqual(left, [], 'widgets still in English');
  // Each section's Run buttons: the applications' "Run", and the parts' own.
  const runs = await page.$$eval(':is(#compute, #partitioned, #batched, #linear, #devices, #applications) button.primary, #devices-sweep-run, #partitioned-fill-run, #compute-stop, #batched-svd-stop',
    (b) => b.map((x) => [x.id, x.textContent, x.getAttribute('aria-label')]));
  assert.ok(runs.length >= 17, JSON.stringify(runs));
  for (const [id, text, label] of runs) {
    assert.match(text, /^(Esegui|Misura|Elimina|Risolvi|Calcola|Eleva|Ferma|Esplora)/, id);
    if (label) assert.match(label, /^Esegui: /, id);
  }
  // Marked as Italian, so that a screen reader reads them in Italian inside the English essays.
  assert.deepEqual(await page.$$eval('#devices-run, #reachability-run, label[for=fibonacci-preset], #jacobi-status', (e) => e.map((x) => x.lang)), ['it', 'it', 'it', 'it']);
  for (const id of ['reachability', 'fibonacci', 'jacobi']) {
    assert.equal(await page.textContent(`#${id}-status`), 'Scegli un esempio e premi Esegui.');
    assert.equal(await page.textContent(`label[for=${id}-preset]`), 'esempio');
  }
  // The compute section's own check of its fields, in Italian.
  for (const box of await page.$$('#compute input[type=checkbox]:checked')) await box.uncheck();
  await page.click('#compute-run');
  assert.equal(await page.textContent('#compute-status'), 'Seleziona almeno una dimensione.');
  // A section's run, in Italian: its status line and column headings.
  await page.click('#fibonacci-run');
  await page.waitForFunction(() => /done|error/.test(document.getElementById('fibonacci').dataset.status));
  assert.match(await page.textContent('#fibonacci-status'), / Su WebGL2\.$/);
  const heads = await page.$$eval('#fibonacci thead th', (th) => th.map((x) => x.textContent));
  assert.ok(heads.includes('F(k) esatto'), heads.join(', '));
  assert.deepEqual(heads.slice(-3), ['errore relativo', 'passi', 'esito']);
  assert.deepEqual([...english.problems(), ...page.problems()], []);
  for (const p of [english, page]) await p.context().close();
});

/** The words of the demo's controls: headings, labels, legends, options, buttons, help lines. */
const controlTexts = (page) => page.evaluate(() => [...document.querySelectorAll(
  '#config :is(h2, legend, label, option, button, .help), #run-panel :is(h2, button, label), .classroom-bar :is(label, button, summary), .skip, h1')]
  .filter((e) => e.checkVisibility() || e.tagName === 'OPTION')
  .map((e) => ({ id: e.id || e.getAttribute('for') || e.getAttribute('value') || e.tagName, text: e.textContent.replace(/\s+/g, ' ').trim() })));

test('locale=it: Italian controls (none left in English), an Italian run, note and error; the library\'s message stays English', async () => {
  const query = 'n=4&ref=1&op=repeat&k=2';
  const english = await openPage(browser, `${server.origin}/index.html?${query}`);
  assert.equal(await waitForStatus(english), 'done');
  const page = await openPage(browser, `${server.origin}/index.html?${query}&locale=it&seed=x`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  assert.equal(await page.getAttribute('html', 'lang'), 'it');
  assert.equal(await page.getAttribute('.sections', 'lang'), 'en', 'the essays stay English, and say so');
  assert.equal(await page.textContent('#run'), 'Esegui');
  assert.equal(await page.textContent('label[for="op"]'), 'operazione');
  assert.equal(await page.inputValue('#locale-switch'), 'it');
  // Each control's words differ from the English page's, but for names and numbers
  // that are the same in both (kernel and backend names, sizes, formulas).
  const same = /^(\d+|n \(n×n\)|[a-z0-9]+|i·1000 \+ j|Fibonacci \[\[1,1\],\[1,0\]\]|webgl \(fragment\)|webgpu \(compute\)|cpu \(SIMD128\)|backend|kernel|English|Italiano|\?|.*\?)$/;
  const before = Object.fromEntries((await controlTexts(english)).map((x) => [`${x.id}:${x.text}`, x.text]));
  const now = await controlTexts(page);
  assert.ok(now.length > 40, `${now.length} controls`);
  const left = now.filter((x) => before[`${x.id}:${x.text}`] !== undefined && !same.test(x.text));
  assert.deepEqual(left, [], 'controls still in English');
  // The run's status, the notes about the address, the summary.
  assert.match(await page.textContent('#status'), /^Fatto: R = M\^\(2\^2\) = M\^4, n = 4 con il kernel naive, 2 passi, .*arrotondati correttamente\.$/);
  assert.match(await page.textContent('#notes'), /Alcune impostazioni sono state ignorate:.*seed=x — deve essere un numero intero da 0 a 4294967295; si usa il valore predefinito seed=1/s);
  assert.equal(await page.textContent('#summary caption'), 'GPU a confronto con JavaScript');
  // A field that does not parse stops the run, in Italian.
  await page.fill('#n', '0');
  await page.click('#run');
  assert.match(await page.textContent('#status'), /^Non eseguito: n deve essere un numero intero da 1 a \d+ \(vale “0”\)\.$/);
  // An error of the library: the page's title and advice in Italian, its message in English.
  const max = Number(await page.textContent('#n-max'));
  const failing = await openPage(browser, `${server.origin}/index.html?n=${max + 1}&ref=0&locale=it`);
  assert.equal(await waitForStatus(failing), 'error');
  assert.match(await failing.textContent('#status'), /^Interrotto: n è più grande di quanto questa GPU consenta \(SIZE_OVER_LIMIT\)\.$/);
  assert.match(await failing.textContent('#banner'), /Scegli un n più piccolo/);
  assert.match(await failing.textContent('#banner'), /is larger than this device's limit/, 'the library\'s own words');
  assert.deepEqual([...english.problems(), ...page.problems(), ...failing.problems()], []);
  for (const p of [english, page, failing]) await p.context().close();
});

test('the language switch reloads the page in the language picked, with its configuration; the link builder offers it', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=5&ref=0&projector=1`);
  assert.equal(await waitForStatus(page), 'done');
  await Promise.all([page.waitForEvent('load'), page.selectOption('#locale-switch', 'it')]);
  assert.equal(await waitForStatus(page), 'done');
  const url = new URL(page.url());
  assert.deepEqual([url.searchParams.get('locale'), url.searchParams.get('n'), url.searchParams.get('projector')], ['it', '5', '1']);
  assert.equal(await page.textContent('#run'), 'Esegui');
  // The permalink keeps the language; the link builder writes it.
  assert.equal(new URL(await page.getAttribute('#permalink', 'href'), page.url()).searchParams.get('locale'), 'it');
  await page.click('#lesson-links summary');
  await page.selectOption('#lesson-page-locale', 'it');
  assert.equal(new URL(await page.inputValue('#lesson-link')).searchParams.get('locale'), 'it');
  // The lab's entry offers the language too.
  await page.selectOption('#lesson-page', 'lab');
  await page.selectOption('#lesson-lab-locale', 'it');
  const lab = new URL(await page.inputValue('#lesson-link'));
  assert.deepEqual([lab.pathname, lab.searchParams.get('locale')], ['/www/lab.html', 'it']);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

/**
 * The demo's words beyond its controls, each read from a finished run: `read(page)` gives
 * the text, `en` and `it` what each language must show (the English page is checked too,
 * so that moving a string into the catalogues changed nothing there).
 */
const RUN_TEXTS = [
  { what: 'a heatmap\'s description', read: (p) => p.textContent('#heatmaps figure:nth-child(2) .hm-description'),
    en: /^Heatmap of a 4×4 matrix, colour from −\S+ \(blue\) through 0 \(white\) to \+\S+ \(red\); 0 NaN and 0 ±Inf entries.*every entry drawn; focus it/,
    it: /^Mappa di calore di una matrice 4×4, colore da −\S+ \(blu\) passando per 0 \(bianco\) fino a \+\S+ \(rosso\); 0 elementi NaN e 0 ±Inf.*ogni elemento disegnato; selezionala/ },
  { what: 'a heatmap\'s readout by the arrow keys', async read(p) {
    await p.focus('#heatmaps figure:nth-child(2) canvas');
    await p.keyboard.press('ArrowRight');
    return p.textContent('#heatmaps figure:nth-child(2) .hm-readout');
  }, en: /^\(0, 1\): GPU \S+ · double \S+ · (difference|correctly rounded)/, it: /^\(0, 1\): GPU \S+ · double \S+ · (differenza|arrotondato correttamente)/ },
  { what: 'the error heatmap\'s readout', async read(p) {
    await p.focus('#heatmaps figure:nth-child(3) canvas');
    await p.keyboard.press('End');
    return p.textContent('#heatmaps figure:nth-child(3) .hm-readout');
  }, en: /^\(3, 3\): GPU .* · double .*(correctly rounded: the float32 nearest|of the scale from the float32 nearest)/, it: /^\(3, 3\): GPU .* · double .*(arrotondato correttamente: il float32 più vicino|della scala dal float32 più vicino)/ },
  { what: 'the summary\'s kernel, backend and exact rows', read: (p) => p.$$eval('#summary tbody tr:is([data-key=kernel], [data-key=backend], [data-key="correctly rounded entries"], [data-key="GPU wall time"]) td', (td) => td.map((x) => x.textContent).join(' | ')),
    en: /^naive, 2 passes \| WebGL2: fragment shaders \| .*\(upload .* \+ passes \+ readPixels .*compiling the shader took .*\| \d+ of 16 equal the double rounded to float32$/,
    it: /^naive, 2 passi \| WebGL2: fragment shader \| .*\(caricamento .* \+ passi \+ readPixels .*la compilazione dello shader ha preso .*\| \d+ su 16 uguali al double arrotondato a float32$/ },
  { what: 'the timeline\'s caption and headings', read: (p) => p.$eval('#timeline table', (t) => `${t.caption.textContent} | ${[...t.tHead.rows[0].cells].map((c) => c.textContent).join(', ')}`),
    en: /^2 render-to-texture passes, each an n×n×n product .* Error vs double: .* \| pass, computes, (GPU time|time).*, wall time, GFLOP\/s, max \|value\|, NaN \/ ±Inf, error vs double, output$/,
    it: /^2 passi render-to-texture, ciascuno un prodotto n×n×n .* Errore vs double: .* \| passo, calcola, (tempo GPU|tempo).*, tempo reale, GFLOP\/s, max \|valore\|, NaN \/ ±Inf, errore vs double, uscita$/ },
  { what: 'the precision panel', read: (p) => p.$eval('#precision', (e) => `${e.querySelector('#metrics caption').textContent} | ${e.querySelector('.warnings li').textContent.slice(0, 40)} | ${e.querySelector('.formats-table caption').textContent}`),
    en: /^GPU \(float32\) against JavaScript \(float64\), final result \| No value passed 2\^24 .* \| The two number formats$/,
    it: /^GPU \(float32\) a confronto con JavaScript \(float64\), risultato finale \| Nessun valore ha superato 2\^24 .* \| I due formati numerici$/ },
  { what: 'the shader panel\'s words', read: (p) => p.evaluate(() => ['#shader-h', 'label[for=shader-kernel]', '#shader-about', '#shader-notes h3', '#program-summary'].map((s) => document.querySelector(s).textContent).join(' | ')),
    en: /^The shader that ran \| show the kernel \| .*This is the kernel that ran\. The vertex shader only passes .* \| Key lines \| The complete fragment shader the GPU compiles/,
    it: /^Lo shader eseguito \| mostra il kernel \| .*Questo è il kernel che è stato eseguito\. Il vertex shader si limita .* \| Righe chiave \| Il fragment shader completo che la GPU compila/ },
  { what: 'the footer\'s device line', read: (p) => p.textContent('#device'), en: /^Device: .* · textures up to \d+² · .* · kernels: naive/, it: /^Dispositivo: .* · texture fino a \d+² · .* · kernel: naive/ },
  { what: 'the slides iframe\'s title', async read(p) {
    await p.click('#slides-link');
    return (await p.inputValue('#slides-box textarea')).match(/title="([^"]*)"/)[1];
  }, en: /^gpgpu-matrix: .*; M: random in \[−1, 1\] \(seed 1\); on WebGL, naive kernel$/, it: /^gpgpu-matrix: .*; M: .* \(seed 1\); su WebGL, kernel naive$/ },
  { what: 'a section\'s "Not run" line', async read(p) {
    await p.fill('#sparseN', '0');
    await p.click('#partitioned-sparse-run');
    return p.textContent('#partitioned-sparse .app-status');
  }, en: /^Not run: .*\.$/, it: /^Non eseguito: [^A-Z]*\.$/ },
];

for (const [lang, suffix] of [['en', ''], ['it', '&locale=it']]) {
  test(`the run's words beyond the controls are in ${lang === 'en' ? 'English, as before' : 'Italian'}: ${RUN_TEXTS.map((c) => c.what).join(', ')}`, async () => {
    const page = await openPage(browser, `${server.origin}/index.html?n=4&ref=1&op=repeat&k=2&backend=webgl${suffix}`);
    assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
    for (const c of RUN_TEXTS) assert.match(await c.read(page), c[lang], c.what);
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  });
}

test('the kernel lab in Italian: its controls, status, verdict, case table and progress; the exercises\' statements and hints stay English, and say so', async () => {
  const page = await openPage(browser, `${server.origin}/www/lab.html?exercise=square&locale=it`);
  await waitForStatus(page, 60_000, ['ready']);
  assert.equal(await page.getAttribute('html', 'lang'), 'it');
  for (const [sel, text] of [['h1', 'Laboratorio dei kernel: scrivi il kernel'], ['#lab-check', 'Verifica (Ctrl+Invio)'],
    ['#lab-reset', 'Torna al codice iniziale'], ['#lab-progress-title', 'I tuoi progressi'], ['#lab-export-csv', 'Esporta CSV'],
    ['#lab-language', 'fragment shader GLSL ES 3.00 · WebGL2']]) assert.equal((await page.textContent(sel)).trim(), text, sel);
  assert.match(await page.textContent('#lab-support'), /^Questo browser: WebGL2 sì, WebGPU (sì|no)\./);
  assert.match(await page.textContent('#lab-hint'), /^Mostra un suggerimento \(ne restano \d+\)$/);
  assert.deepEqual(await page.$$eval('#lab-cases-table th', (th) => th.map((x) => x.textContent)),
    ['caso', 'forma', 'tolleranza', 'max |errore|', 'errore max / scala', 'primo elemento sbagliato']);
  for (const sel of ['#lab-statement', '#lab-hints', '#lab-title', '.page-header .lead']) assert.equal(await page.getAttribute(sel, 'lang'), 'en', sel);
  // The starter fails: the verdict, the case rows and the first wrong element in Italian.
  await page.click('#lab-check');
  await page.waitForFunction(() => document.body.dataset.verdict, null, { timeout: 120_000 });
  assert.equal(await page.textContent('#lab-verdict'), 'Non superato');
  assert.match(await page.textContent('#lab-cases tr:first-child td:last-child'), /atteso|superato|diverso/);
  assert.match(await page.textContent('#lab-first-wrong'), /^Caso \d+.*La mappa di calore mostra/);
  assert.match(await page.textContent('#lab-progress'), /non ancora/);
  // The address the lab writes as the learner types keeps the language.
  assert.equal(new URL(page.url()).searchParams.get('locale'), 'it');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});
