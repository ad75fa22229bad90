// Page tests written once for every engine (a module, not a test file): figures and copy,
// errors and notes, and the kernel lab's exercises, each driven only through
// `tab.evaluate` (tests/e2e/engines.mjs), so that engines.test.mjs runs the same checks
// in Firefox and WebKit that the Chromium files (figures, errors, url, lab) make with
// Playwright. A subset of those: what a class meets and an engine can get wrong on its
// own (a canvas's PNG, the clipboard, a lost context, the device's limits, the GLSL info
// log, Naga's messages, each exercise's verdict), not the layout and wording checks that
// do not depend on the engine.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { ROOT } from './harness.mjs';
import { decodePng } from './png.mjs';
import { statusInPage } from './a11y.mjs';

/** RFC 4180 CSV, as a spreadsheet reads it. */
export function parseCsv(text) {
  const rows = [];
  let row = [], cell = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; } else if (c === '\r' && text[i + 1] === '\n') { row.push(cell); rows.push(row); row = []; cell = ''; i++; } else cell += c;
  }
  if (cell || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

/** The numbers a cell's text shows (its own minus sign, digit groups and exponents read). */
export const numbersIn = (s) => (s.replace(/\u2212/g, '-').replace(/(\d)[\s\u00a0\u202f\u2009](?=\d{3}\b)/g, '$1').match(/-?\d+(\.\d+)?(e[-+]?\d+)?/gi) || []).map(Number);

/** The RGBA bytes of a w×h region of a decoded PNG, from (x, y). */
export function pixelsOf(png, x, y, w, h) {
  const out = [];
  for (let r = y; r < y + h; r++) out.push(...png.pixels.subarray((r * png.width + x) * 4, (r * png.width + x + w) * 4));
  return out;
}

const status = (tab, states = ['done', 'error'], timeout = 120_000) => tab.evaluate(statusInPage, [states, timeout]);

/**
 * In the page: presses the figure tool `action` under `selector` and catches the file
 * it saves (the page's download() clicks a link to a blob): { name, base64 } and, for
 * `canvas`, that canvas's own pixels. The link is caught, not followed: engines differ
 * in where a download goes, not in the bytes the page made.
 */
async function savedInPage([selector, action, canvas]) {
  const host = document.querySelector(selector);
  const click = HTMLAnchorElement.prototype.click;
  const caught = new Promise((resolve) => {
    HTMLAnchorElement.prototype.click = function caughtClick() {
      HTMLAnchorElement.prototype.click = click;
      resolve({ name: this.download, href: this.href });
    };
  });
  host.querySelector(`.figure-tools [data-action=${action}]`).click();
  const got = await Promise.race([caught, new Promise((r) => setTimeout(() => r({ error: `no file from ${action} in 20 s` }), 20_000))]);
  HTMLAnchorElement.prototype.click = click;
  if (got.error) return got;
  const bytes = new Uint8Array(await (await fetch(got.href)).arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const out = { name: got.name, base64: btoa(binary) };
  if (canvas) {
    const c = host.querySelector(canvas);
    out.canvas = { width: c.width, height: c.height, pixels: Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data) };
  }
  return out;
}

/**
 * In the page: catches the text the page gives the clipboard (through
 * navigator.clipboard or, where that refuses, the copy command) until `copiedInPage`.
 */
function catchCopiesInPage() {
  window.__copies = [];
  const clip = navigator.clipboard;
  const write = clip?.writeText;
  if (clip) clip.writeText = (text) => { window.__copies.push({ via: 'clipboard', text }); return write.call(clip, text); };
  window.__onCopy = () => window.__copies.push({ via: 'execCommand', text: document.activeElement?.value ?? '' });
  document.addEventListener('copy', window.__onCopy);
  document.querySelectorAll('[data-done]').forEach((b) => delete b.dataset.done);
}

/**
 * In the page: after a Copy button `button` was pressed, what it then said, the texts
 * caught, and the cells of `table` as shown.
 */
async function copiedInPage([button, table]) {
  const b = document.querySelector(button);
  for (const until = Date.now() + 20_000; !b.dataset.done && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
  document.removeEventListener('copy', window.__onCopy);
  if (navigator.clipboard) delete navigator.clipboard.writeText;
  const shown = [...document.querySelector(table).rows].map((r) => [...r.cells].map((c) => {
    const x = c.cloneNode(true);
    x.querySelectorAll('.figure-tools').forEach((t) => t.remove());
    return x.textContent.replace(/\s+/g, ' ').trim();
  }));
  return { done: b.dataset.done ?? null, texts: window.__copies, shown };
}

/** In the page: the demo's results and what the page says about its times. */
const timesInPage = () => ({
  timerQuery: window.__results.timerQuery,
  gpuTimeKind: window.__results.totals.gpuTimeKind,
  passes: window.__results.passes.map((p) => ({ gpuMs: p.gpuMs, wallMs: p.wallMs })),
  timeline: document.getElementById('timeline').textContent,
  summary: document.getElementById('summary').textContent,
});

/** In the page: the error banner as shown. */
const bannerInPage = () => {
  const b = document.getElementById('banner');
  return { hidden: b.hidden, code: b.dataset.code, text: b.textContent.replace(/\s+/g, ' ').trim(), status: document.body.dataset.status };
};

/**
 * In the page: loses the demo's WebGL context (WEBGL_lose_context), presses Run while it
 * is lost, restores it and presses Run again; what the banner said at each step.
 */
async function lostContextInPage() {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (f, ms = 60_000) => { for (const end = Date.now() + ms; !f() && Date.now() < end;) await sleep(50); return f(); };
  const banner = () => { const b = document.getElementById('banner'); return { code: b.dataset.code, text: b.textContent.replace(/\s+/g, ' ').trim(), status: document.body.dataset.status }; };
  const run = async () => {
    document.getElementById('run').click();
    // The run says it started (the status leaves its last value), then ends.
    await until(() => !['done', 'error'].includes(document.body.dataset.status), 2_000);
    await until(() => ['done', 'error'].includes(document.body.dataset.status));
    return banner();
  };
  const lose = window.__page.gpu.canvas.getContext('webgl2').getExtension('WEBGL_lose_context');
  if (!lose) return { error: 'no WEBGL_lose_context' };
  lose.loseContext();
  await until(() => document.getElementById('banner').dataset.code === 'context-lost', 10_000);
  const lost = banner();
  const whileLost = await run();
  lose.restoreContext();
  await until(() => document.getElementById('banner').dataset.code === 'context-restored', 10_000);
  const restored = banner();
  const after = await run();
  return { lost, whileLost, restored, after, relFrobenius: window.__results?.metrics?.relFrobenius };
}

/** In the page: the library's answer to arrays it must refuse, and free() after each. */
async function refusedInPage(backend) {
  const m = await import('/www/pkg/gpgpu_matrix.js');
  await m.default();
  const g = await m.Gpgpu.create({ backend });
  const detached = new Float32Array(4);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  const getter = [1, 2, 3, 4];
  Object.defineProperty(getter, 1, { get() { throw new Error('boom'); } });
  const out = {};
  for (const [name, call] of Object.entries({
    detached: () => g.multiplyAsync(2, 2, 2, [1, 2, 3, 4], detached),
    getter: () => g.multiplyAsync(2, 2, 2, getter, [1, 2, 3, 4]),
  })) {
    try {
      await call();
      out[name] = 'no error';
    } catch (e) {
      out[name] = `${e.code}: ${e.message}`;
    }
  }
  out.after = Array.from(await g.multiplyAsync(2, 2, 2, [1, 2, 3, 4], [1, 2, 3, 4])).join(',');
  g.free();
  return out;
}

/** In the page: the notes under the form and what dismissing them does. */
async function notesInPage() {
  const notes = [...document.querySelectorAll('#notes li')].map((l) => [l.dataset.param, l.textContent]);
  const r = window.__results;
  const shown = !document.getElementById('notes').hidden;
  document.querySelector('#notes button')?.click();
  await new Promise((res) => setTimeout(res, 100));
  return {
    notes, shown, config: [r.config.n, r.config.input], kernel: r.kernel, count: r.notes.length,
    hiddenAfter: document.getElementById('notes').hidden || getComputedStyle(document.getElementById('notes')).display === 'none',
    focus: document.activeElement?.id, nMax: document.getElementById('n-max')?.textContent,
  };
}

/**
 * The page's checks, each `{ name, url, needs, run(tab) }`: `needs`, the backend it
 * runs on (skipped where the engine has none, with the engine's reason).
 */
export const PAGE_CHECKS = [
  {
    name: 'figures: a heatmap saves as a PNG of its own pixels, the timeline as SVG; its table copies as CSV and Markdown with its numbers; the times say what clock they are',
    url: '/index.html?n=6&input=integers&op=repeat&k=2&kernel=packed',
    needs: 'webgl',
    async run(tab) {
      assert.equal(await status(tab), 'done', JSON.stringify(await tab.evaluate(bannerInPage)));
      const png = await tab.evaluate(savedInPage, ['#heatmaps figure', 'png', 'canvas']);
      assert.equal(png.error, undefined, png.error);
      assert.match(png.name, /\.png$/);
      const decoded = decodePng(Buffer.from(png.base64, 'base64'));
      const { canvas } = png;
      assert.ok(canvas.width > 1, 'a drawn heatmap');
      assert.ok(decoded.width >= canvas.width && decoded.height >= canvas.height + 24, `the canvas (${canvas.width}×${canvas.height}) and its key (${decoded.width}×${decoded.height})`);
      assert.deepEqual(pixelsOf(decoded, (decoded.width - canvas.width) >> 1, 0, canvas.width, canvas.height), canvas.pixels, 'the PNG holds exactly the canvas pixels');

      const svg = await tab.evaluate(savedInPage, ['#timeline', 'svg']);
      assert.equal(svg.error, undefined, svg.error);
      const text = Buffer.from(svg.base64, 'base64').toString('utf8');
      assert.match(svg.name, /\.svg$/);
      assert.match(text, /^(<\?xml[^>]*>\s*)?<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      assert.match(text, /<image [^>]*href="data:image\/png;base64,/, 'the passes\' thumbnails inside it');

      for (const action of ['csv', 'markdown']) {
        // Pressed as a user does: a script's click has no activation, and the clipboard
        // (and the copy command) refuse it in Firefox.
        const button = `#timeline .scroll-x + .figure-tools [data-action=${action}]`;
        await tab.evaluate(catchCopiesInPage);
        await tab.click(button);
        const c = await tab.evaluate(copiedInPage, [button, '#timeline table']);
        assert.equal(c.done, 'Copied', `${action}: ${JSON.stringify(c.texts)}`);
        assert.equal(c.texts.length, 1, `${action}: one copy (${c.texts.map((x) => x.via)})`);
        const copied = c.texts[0].text;
        const rows = action === 'csv'
          ? parseCsv(copied)
          : copied.trim().split('\n').filter((l) => l.startsWith('|') && !/^\|( --- \|)+$/.test(l)).map((l) => l.slice(2, -2).split(' | ').map((x) => x.replace(/\\(.)/g, '$1')));
        assert.equal(c.shown.length, 3, 'the head and two passes');
        assert.equal(rows.length, c.shown.length, `${action}: one line per row`);
        let numbers = 0;
        c.shown.forEach((row, i) => row.forEach((cell, j) => {
          assert.deepEqual(numbersIn(rows[i][j]), numbersIn(cell), `${action} row ${i}, column ${j}: “${rows[i][j]}” against “${cell}”`);
          numbers += numbersIn(cell).length;
        }));
        assert.ok(numbers >= 10, `${action}: the timeline's numbers came through (${numbers})`);
      }

      // Firefox and WebKit have no GPU timer query: the times must say they are wall times.
      const t = await tab.evaluate(timesInPage);
      if (t.timerQuery) {
        assert.ok(t.passes.every((p) => p.gpuMs > 0), JSON.stringify(t.passes));
      } else {
        assert.match(t.gpuTimeKind, /wall time/);
        for (const p of t.passes) { assert.equal(p.gpuMs, null); assert.ok(p.wallMs > 0); }
        assert.match(t.timeline, /offers no GPU timer/);
        assert.match(t.summary, /wall time around a synchronisation/);
      }
    },
  },
  {
    name: 'errors: a lost WebGL context shows a banner, Run while lost is CONTEXT_LOST, and after the restore Run works',
    url: '/index.html?n=8',
    needs: 'webgl',
    async run(tab) {
      assert.equal(await status(tab), 'done');
      const r = await tab.evaluate(lostContextInPage);
      assert.equal(r.error, undefined, r.error);
      assert.equal(r.lost.code, 'context-lost', JSON.stringify(r.lost));
      assert.equal(r.lost.status, 'error');
      assert.match(r.lost.text, /WebGL context was lost/);
      assert.equal(r.whileLost.code, 'CONTEXT_LOST', JSON.stringify(r.whileLost));
      assert.equal(r.restored.code, 'context-restored', JSON.stringify(r.restored));
      assert.equal(r.after.status, 'done', JSON.stringify(r.after));
      assert.ok(r.relFrobenius <= 1e-5, `relFrobenius ${r.relFrobenius}`);
    },
  },
  {
    name: 'errors: n past the device\'s limit is SIZE_OVER_LIMIT at once, naming the limit the n field gives',
    url: '/index.html?n=65536',
    needs: 'webgl',
    async run(tab) {
      const t0 = Date.now();
      assert.equal(await status(tab), 'error');
      assert.ok(Date.now() - t0 < 20_000, `the error came after ${Date.now() - t0} ms`);
      const b = await tab.evaluate(bannerInPage);
      assert.equal(b.code, 'SIZE_OVER_LIMIT', b.text);
      const nMax = await tab.evaluate(() => document.getElementById('n-max').textContent);
      assert.match(nMax, /^\d+$/);
      assert.match(b.text, new RegExp(`n = 65536 is larger than this device's limit of ${nMax}\\b`));
      assert.match(b.text, /this GPU/);
    },
  },
  {
    name: 'errors: a detached array and an array whose getter throws are BAD_ARGUMENT, and the Gpgpu goes on',
    url: '/index.html?n=1&ref=0',
    needs: 'webgl',
    async run(tab) {
      const r = await tab.evaluate(refusedInPage, 'webgl');
      assert.match(r.detached, /^BAD_ARGUMENT: \w+: is a Float32Array whose ArrayBuffer was detached/);
      assert.match(r.getter, /^BAD_ARGUMENT: /);
      assert.equal(r.after, '7,10,15,22');
    },
  },
  {
    name: 'notes: parameters that do not parse fall back to defaults with a note naming each; dismissed, the focus goes to the form',
    url: '/index.html?n=abc&input=nope&p=-1&backend=opengl&foo=1',
    needs: 'webgl',
    async run(tab) {
      assert.equal(await status(tab), 'done');
      const r = await tab.evaluate(notesInPage);
      const byParam = Object.fromEntries(r.notes);
      assert.deepEqual(Object.keys(byParam).sort(), ['backend', 'foo', 'input', 'n', 'p']);
      assert.match(byParam.backend, /backend=opengl — must be one of auto, webgl, webgpu, cpu; the default backend=auto is used/);
      assert.match(byParam.n, new RegExp(`n=abc — must be a whole number from 1 to ${r.nMax} on this device; the default n=128 is used`));
      assert.match(byParam.foo, /unknown parameter/);
      assert.deepEqual(r.config, [128, 'uniform']);
      assert.equal(r.count, 5);
      assert.ok(r.shown && r.hiddenAfter, 'shown, then dismissed');
      assert.equal(r.focus, 'n');
    },
  },
  {
    name: 'notes: a GPU kernel asked with backend=cpu becomes the CPU\'s, with a note',
    url: '/index.html?n=8&backend=cpu&kernel=tiled16',
    needs: 'cpu',
    async run(tab) {
      assert.equal(await status(tab), 'done', JSON.stringify(await tab.evaluate(bannerInPage)));
      const r = await tab.evaluate(notesInPage);
      assert.ok(r.notes.some(([, t]) => /tiled16 is a WebGPU kernel \(a compute shader\) and this run uses the CPU \(kernels simd, auto\); the default simd is used/.test(t)), JSON.stringify(r.notes));
      assert.equal(r.kernel, 'simd');
    },
  },
];

// ---------------------------------------------------------------------------------
// The kernel lab

const EXERCISES = join(ROOT, 'www', 'lab', 'exercises');
const file = (name) => readFileSync(join(EXERCISES, name), 'utf8');
const encode = (text) => deflateRawSync(Buffer.from(text, 'utf8')).toString('base64url');

/**
 * Each GPU exercise's reference solution and wrong solutions, from the files: a wrong
 * one names where it first fails ("first wrong: case C (i, j)").
 */
export function labFiles(language) {
  const names = readdirSync(EXERCISES).filter((f) => f.endsWith(`.${language}`));
  return [...new Set(names.map((f) => f.split('.')[0]))].sort().map((id) => ({
    id,
    solution: file(`${id}.solution.${language}`),
    wrong: names.filter((f) => f.startsWith(`${id}.wrong-`)).map((f) => {
      const source = file(f);
      const [, c, i, j] = source.match(/first wrong: case (\d+) \((\d+), (\d+)\)/).map(Number);
      return { name: f, source, expect: [c, i, j] };
    }),
  }));
}

/**
 * In the lab page: checks every source of `exercises` with the library the page uses
 * (Gpgpu.checkKernelAsync, untimed) on `backend`: per source its verdict, the first
 * failing case and its first wrong element, and whether that case has an error map.
 */
async function labVerdictsInPage([backend, exercises]) {
  const m = await import('/www/pkg/gpgpu_matrix.js');
  await m.default();
  const g = await m.Gpgpu.create({ backend });
  const out = [];
  try {
    for (const ex of exercises) {
      for (const [name, source] of [['solution', ex.solution], ...ex.wrong.map((w) => [w.name, w.source])]) {
        const t0 = performance.now();
        try {
          const r = await g.checkKernelAsync(ex.id, source, { time: false });
          const first = r.cases.findIndex((c) => c.firstWrong || c.nondeterministic);
          const c = r.cases[first];
          out.push({
            id: ex.id, name, verdict: r.verdict, compile: r.compile.ok ? 'ok' : JSON.stringify(r.compile.messages),
            cases: r.cases.length, first, at: c?.firstWrong ? [c.firstWrong.i, c.firstWrong.j] : null,
            nondeterministic: c?.nondeterministic ?? false, errors: !!c?.errors?.length, ms: Math.round(performance.now() - t0),
          });
        } catch (e) {
          out.push({ id: ex.id, name, error: `${e.code} ${e.message}` });
        }
      }
    }
    return out;
  } finally {
    g.free();
  }
}

/** In the lab page: checks `source` (with a line broken) and reports the compiler's first message. */
async function compileErrorInPage([backend, id, source]) {
  const m = await import('/www/pkg/gpgpu_matrix.js');
  await m.default();
  const g = await m.Gpgpu.create({ backend });
  try {
    const r = await g.checkKernelAsync(id, source, { time: false });
    return { ok: r.compile.ok, verdict: r.verdict, first: r.compile.messages[0] ?? null };
  } finally {
    g.free();
  }
}

/** In the lab page: its result after a check (the link's check=1), and what it shows. */
async function labPageInPage() {
  for (const until = Date.now() + 180_000; !document.body.dataset.verdict && Date.now() < until;) await new Promise((r) => setTimeout(r, 100));
  for (const until = Date.now() + 60_000; !['done', 'error'].includes(document.body.dataset.status) && Date.now() < until;) await new Promise((r) => setTimeout(r, 100));
  const r = window.labResult;
  return {
    status: document.body.dataset.status, verdict: document.body.dataset.verdict,
    notice: document.getElementById('lab-notice').textContent,
    cases: r?.cases.map((c) => c.firstWrong && [c.firstWrong.i, c.firstWrong.j]),
    timing: r?.timing && { kernel: r.timing.reference.kernel, gflops: r.timing.gflops, reference: r.timing.reference.gflops },
    firstWrong: document.getElementById('lab-first-wrong')?.textContent ?? '',
    heatmap: !document.getElementById('lab-heatmap').hidden,
    editor: [...document.querySelectorAll('.cm-content .cm-line')].map((l) => l.textContent).join('\n'),
    needs: [...document.querySelectorAll('.lab-needs')].map((t) => t.textContent),
  };
}

/** Compares the verdicts of labVerdictsInPage with what each file says. */
function assertVerdicts(got, exercises) {
  const wrongs = new Map(exercises.flatMap((ex) => ex.wrong.map((w) => [w.name, w.expect])));
  const mismatches = [];
  for (const r of got) {
    const what = `${r.id} ${r.name}`;
    if (r.error) { mismatches.push(`${what}: ${r.error}`); continue; }
    if (r.compile !== 'ok') { mismatches.push(`${what}: did not compile: ${r.compile}`); continue; }
    if (r.name === 'solution') {
      if (r.verdict !== 'pass' || r.cases < 5) mismatches.push(`${what}: ${r.verdict} (case ${r.first} at ${r.at}, nondeterministic ${r.nondeterministic})`);
      continue;
    }
    const [c, i, j] = wrongs.get(r.name);
    if (r.verdict !== 'fail') mismatches.push(`${what}: passed`);
    else if (r.first !== c || String(r.at) !== String([i, j])) mismatches.push(`${what}: case ${r.first} at (${r.at}), not case ${c} at (${i}, ${j})${r.nondeterministic ? ', nondeterministic' : ''}`);
    else if (!r.errors) mismatches.push(`${what}: no error map`);
  }
  assert.equal(got.length, exercises.reduce((n, ex) => n + 1 + ex.wrong.length, 0), 'every file checked');
  assert.deepEqual(mismatches, []);
}

/** A line of `source` holding `what`, broken: [source, its 1-based line]. */
function broken(source, what) {
  const lines = source.split('\n');
  const at = lines.findIndex((l) => l.includes(what));
  lines[at] = lines[at].replace('0.0', 'missing');
  return [lines.join('\n'), at + 1];
}

/** The lab's checks, as PAGE_CHECKS. */
export const LAB_CHECKS = [
  {
    name: 'lab: each GLSL exercise\'s reference solution passes, each wrong one fails at the element its file names; a compile error is at its line',
    url: '/www/lab.html?exercise=square',
    needs: 'webgl',
    async run(tab, log) {
      const exercises = labFiles('glsl');
      assert.deepEqual(exercises.map((e) => e.id), ['multiply', 'square']);
      const got = await tab.evaluate(labVerdictsInPage, ['webgl', exercises]);
      log(`lab on WebGL: ${got.map((r) => `${r.name} ${r.ms ?? '-'} ms`).join(', ')}`);
      assertVerdicts(got, exercises);
      const [source, line] = broken(exercises[0].solution, 'float sum = 0.0;');
      const e = await tab.evaluate(compileErrorInPage, ['webgl', 'multiply', source]);
      assert.equal(e.ok, false);
      assert.equal(e.first?.line, line, JSON.stringify(e.first));
      assert.match(e.first.message, /missing/);
    },
  },
  {
    name: 'lab page: a link with a wrong GLSL kernel checks it on load, shows its first wrong element and heatmap; the WGSL exercises say whether this browser runs them',
    url: `/www/lab.html?exercise=multiply&check=1&code=${encode(file('multiply.wrong-swapped-xy.glsl'))}`,
    needs: 'webgl',
    async run(tab, log, engine) {
      const r = await tab.evaluate(labPageInPage);
      assert.equal(r.editor, file('multiply.wrong-swapped-xy.glsl'), 'the link\'s code is in the editor');
      assert.equal([r.status, r.verdict].join(' '), 'done fail', r.notice);
      const bad = r.cases.findIndex((c) => c);
      assert.deepEqual([bad, ...r.cases[bad]], [1, 0, 1]);
      assert.ok(r.heatmap, 'the error heatmap is shown');
      assert.match(r.firstWrong, /first wrong element is C\[0\]\[1\]/);
      assert.equal(r.needs.length, 8);
      const webgpu = !engine.backends.webgpu;
      assert.ok(r.needs.every((t) => (webgpu ? t === 'WebGPU' : /needs WebGPU/.test(t))), r.needs.join(' | '));
    },
  },
  {
    name: 'lab: each WGSL exercise\'s reference solution passes, each wrong one fails at the element its file names; a compile error is at its line and column',
    url: '/www/lab.html?exercise=global',
    needs: 'webgpu',
    async run(tab, log) {
      const exercises = labFiles('wgsl');
      assert.equal(exercises.length, 8);
      const got = await tab.evaluate(labVerdictsInPage, ['webgpu', exercises]);
      log(`lab on WebGPU: ${got.map((r) => `${r.name} ${r.ms ?? '-'} ms`).join(', ')}`);
      assertVerdicts(got, exercises);
      const global = exercises.find((e) => e.id === 'global');
      const [source, line] = broken(global.solution, 'var sum = 0.0;');
      const e = await tab.evaluate(compileErrorInPage, ['webgpu', 'global', source]);
      assert.equal(e.ok, false);
      assert.equal(e.first?.line, line, JSON.stringify(e.first));
      assert.ok(e.first.column > 1, `the column: ${JSON.stringify(e.first)}`);
      assert.match(e.first.message, /missing/);
    },
  },
  {
    name: 'lab page: a link with the global exercise\'s solution passes on WebGPU, timed beside the library\'s kernel',
    url: `/www/lab.html?exercise=global&check=1&code=${encode(file('global.solution.wgsl'))}`,
    needs: 'webgpu',
    async run(tab) {
      const r = await tab.evaluate(labPageInPage);
      assert.equal([r.status, r.verdict].join(' '), 'done pass', `${r.notice} ${JSON.stringify(r.cases)}`);
      assert.ok(r.cases.length >= 6 && r.cases.every((c) => c === null));
      assert.equal(r.timing?.kernel, 'global');
      assert.ok(r.timing.gflops > 0 && r.timing.reference > 0, JSON.stringify(r.timing));
    },
  },
];
