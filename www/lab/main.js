// The kernel lab (www/lab.html): the learner writes the kernel, the library checks it
// against float64 on seeded cases (Gpgpu.checkKernelAsync) and times it beside its
// own. After a check: document.body.dataset.status 'done' (or 'error': the source did
// not compile or link, or the device was lost), dataset.verdict 'pass' | 'fail', and
// window.labResult (docs/page.md).
import init, { Gpgpu } from '../pkg/gpgpu_matrix.js';
import { EXERCISES, fileOf } from './exercises.js';
import { createEditor } from './editor.js';
import { readParams, encodeCode, decodeCode, updateAddress } from './url.js';
import * as progress from './progress.js';
import { renderResult, renderProgress } from './results.js';
import { checkCsr } from './csr.js';
import { locale, t, translateStatic } from '../i18n/index.js';
import { timerResolutionMs } from '../ui/clock.js';

const $ = (id) => document.getElementById(id);
const body = document.body;
const params = readParams();
// The clock's resolution, measured before the lab gets busy: wall-clock timings are rounded to it.
timerResolutionMs();
const gpus = {}; // one Gpgpu per backend, made on first use
let current = null;
let hintsShown = 0;
let addressTimer = 0;

function setStatus(status) { body.dataset.status = status; }

function say(text, alert = false) {
  const el = $('lab-notice');
  el.textContent = text;
  el.hidden = !text;
  el.setAttribute('role', alert ? 'alert' : 'status');
}

async function detect() {
  const webgl = !!document.createElement('canvas').getContext('webgl2');
  let webgpu = false;
  try {
    webgpu = !!(navigator.gpu && await navigator.gpu.requestAdapter());
  } catch { /* no adapter */ }
  return { webgl, webgpu };
}

const backendOf = (ex) => (ex.language === 'glsl' ? 'webgl' : 'webgpu');

async function gpuFor(ex) {
  const backend = backendOf(ex);
  gpus[backend] ??= Gpgpu.create({ backend });
  try {
    return await gpus[backend];
  } catch (e) {
    delete gpus[backend];
    throw e;
  }
}

// After a loss the page gets its GPU back before it says so: WebGPU's Gpgpu asks for a
// new device itself and its next call waits for it (a 1×1 product proves it came);
// a lost WebGL context comes back only when the browser restores it, if ever, so a
// new Gpgpu (a new canvas and context) takes its place.
async function recover(ex) {
  if (backendOf(ex) === 'webgl') forget(ex);
  const gpu = await gpuFor(ex);
  if (backendOf(ex) === 'webgpu') await gpu.squareAsync(1, new Float32Array([1]));
}

function forget(ex) {
  const backend = backendOf(ex);
  const g = gpus[backend];
  delete gpus[backend];
  g?.then((gpu) => gpu.free(), () => {});
}

const editor = createEditor($('lab-editor'), {
  onChange(text) {
    clearTimeout(addressTimer);
    addressTimer = setTimeout(async () => {
      updateAddress({ exercise: current.id, code: await encodeCode(text) });
      body.dataset.address = 'saved';
    }, 300);
    body.dataset.address = 'pending';
  },
  onRun: () => check(),
});

// Loads into the editor happen in the order asked: a later one (a click on another
// exercise, on the solution) wins over an earlier one still fetching.
let loads = 0;
async function load(ex, kind, text = null) {
  const ticket = ++loads;
  const t = text ?? await source(ex, kind);
  if (ticket === loads && ex === current) editor.set(t, ex.language);
}

async function source(ex, kind) {
  const r = await fetch(fileOf(ex, kind));
  if (!r.ok) throw new Error(`${fileOf(ex, kind)}: ${r.status}`);
  return r.text();
}

function showHints() {
  const list = $('lab-hints');
  list.replaceChildren(...current.hints.slice(0, hintsShown).map((h) => {
    const li = document.createElement('li');
    li.textContent = h;
    return li;
  }));
  const left = current.hints.length - hintsShown;
  $('lab-hint').disabled = left === 0;
  $('lab-hint').textContent = left ? t('lab.hintLeft', { left }) : t('lab.noHints');
}

async function open(ex, code = null) {
  current = ex;
  hintsShown = 0;
  for (const b of document.querySelectorAll('#lab-exercises button')) {
    b.setAttribute('aria-current', String(b.dataset.id === ex.id));
  }
  $('lab-title').textContent = ex.title;
  $('lab-language').textContent = t(`lab.language.${ex.language === 'glsl' || ex.language === 'wgsl' ? ex.language : 'none'}`);
  $('lab-statement').innerHTML = ex.statement;
  $('lab-source').textContent = t('lab.source', { source: ex.source });
  showHints();
  $('lab-result').hidden = true;
  await load(ex, 'starter', code);
  delete body.dataset.verdict;
  // A check still running (of the exercise left) keeps the GPU: this one waits for it.
  if (checking) return;
  ready(ex);
}

function ready(ex) {
  setStatus(available(ex) ? 'ready' : 'unavailable');
  $('lab-check').disabled = !available(ex);
  say(available(ex) ? '' : t('lab.needs', { id: ex.id, api: ex.language === 'glsl' ? 'WebGL2' : 'WebGPU' }));
}

let support = { webgl: false, webgpu: false };
const available = (ex) => ({ glsl: support.webgl, wgsl: support.webgpu }[ex.language] ?? true);

// The exercise being checked, while a check runs.
let checking = null;

async function check() {
  if (!available(current) || checking) return;
  const ex = current;
  checking = ex;
  try {
    await checkOnce(ex);
  } finally {
    checking = null;
  }
  // The learner opened another exercise meanwhile: the result is kept in the
  // progress table and said, not shown as the new exercise's verdict.
  if (current !== ex) {
    const verdict = window.labResult?.verdict;
    ready(current);
    delete body.dataset.verdict;
    renderProgress(EXERCISES, progress.load());
    say(t('lab.leftDone', { id: ex.id, verdict: t(verdict === 'pass' ? 'lab.passed' : 'lab.notYet') }));
  }
}

async function checkOnce(ex) {
  setStatus('checking');
  $('lab-check').disabled = true;
  say(t('lab.checking'));
  let result;
  try {
    const gpu = ex.language === 'none' ? null : await gpuFor(ex);
    result = gpu ? await gpu.checkKernelAsync(ex.id, editor.text) : checkCsr(editor.text);
  } catch (e) {
    const lost = e?.code === 'DEVICE_LOST' || e?.code === 'CONTEXT_LOST';
    let unrecovered = null;
    if (lost) unrecovered = await recover(ex).then(() => null, (again) => again);
    say(!lost ? `${e?.code ?? t('lab.error')}: ${e?.message ?? e}`
      : unrecovered ? t('lab.notRecovered', { code: e.code, message: `${unrecovered?.code ?? t('lab.error')}: ${unrecovered?.message ?? unrecovered}` })
        : t('lab.lost', { code: e.code }), true);
    // The fixed shape, and what stopped the check.
    window.labResult = {
      exercise: ex.id, verdict: 'fail', compile: { ok: true, messages: [] }, cases: [], timing: null,
      error: { code: e?.code ?? null, message: String(e?.message ?? e), recovered: lost && !unrecovered },
    };
    body.dataset.verdict = 'fail';
    setStatus('error');
    $('lab-check').disabled = false;
    return;
  }
  // The fixed shape; each failing case's error map stays with the page.
  const maps = result.cases.map((c) => c.errors ?? null);
  window.labResult = {
    exercise: result.exercise,
    verdict: result.verdict,
    compile: result.compile,
    cases: result.cases.map(({ errors, ...c }) => c),
    timing: result.timing && {
      ms: result.timing.ms, gflops: result.timing.gflops, clock: result.timing.clock, reference: result.timing.reference,
      // The step of the clock a "wall" time was read by (the library measures it too).
      timerResolutionMs: result.timing.timerResolutionMs,
    },
  };
  const entry = progress.record(result);
  if (current !== ex) return; // another exercise opened meanwhile: check() says where this went
  say(result.note ?? '');
  editor.mark(result.compile.messages);
  const gpu = ex.language === 'none' ? null : await gpuFor(ex);
  await renderResult({ ex, result, maps, gpu, entry, all: progress.load() });
  renderProgress(EXERCISES, progress.load());
  body.dataset.verdict = result.verdict;
  setStatus(result.compile.ok ? 'done' : 'error');
  $('lab-check').disabled = false;
}

function download(name, type, text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function boot() {
  if (window.gpgpuNoSimd) return; // ../needs-simd.js has said why this browser cannot run it
  // The lab's UI in the page's language (locale=…); the exercises' statements, hints and
  // the page's introduction stay English, and say so (lang="en" in lab.html).
  translateStatic();
  document.documentElement.lang = locale;
  setStatus('loading');
  await init();
  support = await detect();
  const offered = params.exercises
    ? EXERCISES.filter((e) => params.exercises.includes(e.id)) : EXERCISES;
  if (!offered.length) {
    say(t('lab.unknownExercises', { asked: params.exercises.join(', '), known: EXERCISES.map((e) => e.id).join(', ') }), true);
    setStatus('error');
    return;
  }
  $('lab-exercises').replaceChildren(...offered.map((ex) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.id = ex.id;
    b.textContent = ex.title;
    b.addEventListener('click', () => {
      updateAddress({ exercise: ex.id, code: null });
      open(ex).catch(fail);
    });
    li.append(b);
    if (ex.language === 'wgsl') {
      const tag = document.createElement('span');
      tag.className = 'lab-needs';
      tag.textContent = support.webgpu ? 'WebGPU' : t('lab.needsWebgpu');
      li.append(' ', tag);
    }
    return li;
  }));
  $('lab-support').textContent = t('lab.support', { webgl: t(support.webgl ? 'lab.yes' : 'lab.no'), webgpu: t(support.webgpu ? 'lab.yes' : 'lab.no') });
  $('lab-hint').addEventListener('click', () => { hintsShown++; showHints(); });
  $('lab-check').addEventListener('click', () => check());
  $('lab-reset').addEventListener('click', () => load(current, 'starter').catch(fail));
  $('lab-show-solution').hidden = !params.solutions;
  $('lab-show-solution').addEventListener('click', () => load(current, 'solution').catch(fail));
  $('lab-export-json').addEventListener('click', () => download('lab-progress.json', 'application/json', progress.toJson()));
  $('lab-export-csv').addEventListener('click', () => download('lab-progress.csv', 'text/csv', progress.toCsv()));
  renderProgress(EXERCISES, progress.load());
  const chosen = offered.find((e) => e.id === params.exercise) ?? offered[0];
  let code = null;
  let unreadable = false;
  if (params.code && chosen.id === params.exercise) {
    code = await decodeCode(params.code).catch(() => { unreadable = true; return null; });
  }
  await open(chosen, code);
  // A link's typo is said, not dropped in silence: a teacher's list would lose an
  // exercise, a learner's link its code.
  const unknown = (params.exercises ?? []).filter((id) => !EXERCISES.some((e) => e.id === id));
  const notes = [];
  if (unknown.length) notes.push(t('lab.unknownSome', { asked: unknown.join(', '), known: EXERCISES.map((e) => e.id).join(', ') }));
  if (params.exercise && chosen.id !== params.exercise) {
    notes.push(t('lab.notOffered', { id: params.exercise, chosen: chosen.id }));
    if (params.code) notes.push(t('lab.codeNotLoaded', { id: params.exercise }));
  }
  if (unreadable) notes.push(t('lab.unreadable'));
  // After what open() said (an exercise this browser cannot check).
  if (notes.length) say([$('lab-notice').textContent, ...notes].filter(Boolean).join(' '), true);
  if (params.check) await check();
}

function fail(e) {
  say(t('lab.couldNotStart', { message: e?.message ?? e }), true);
  setStatus('error');
}

boot().catch(fail);
