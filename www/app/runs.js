// The run controls: Run, Step one pass, Run the remaining passes and Cancel drive the
// demo's sessions (www/app/session.js). A run starts from the form (a field that does not
// parse stops it), from the address at load, or from Back / Forward; a step-through pauses
// between passes; the end of a run, its failure or its cancelling is shown and published.
import { $, page, ui, views } from './state.js';
import { buttons, clearBanner, publish, setStatus, showError, showNotes } from './status.js';
import { Session, showShader } from './session.js';
import { adopt } from './backend.js';
import { pushConfig, updatePermalink } from './url.js';
import { demoRan } from './sections.js';
import { fitKernel, referenceOn, relevantKeys, toQuery } from '../config.js';
import * as format from '../ui/format.js';
import { clockMs, el, ms, sci } from '../ui/format.js';
import { locale, t, tn } from '../i18n/index.js';

let busy = false;

/**
 * Reads the form and writes the URL. A field of this run that does not parse stops
 * it: the field is marked, the problem shown, and null returned (typing 2.5 for n
 * must not quietly run the default n = 128).
 */
function configFromForm(mode) {
  const { config, problems } = ui.controls.get();
  const relevant = new Set(relevantKeys(config));
  const blocking = problems.filter((p) => relevant.has(p.param));
  ui.controls.markInvalid(blocking.map((p) => p.param));
  if (blocking.length) {
    // As a run refused by the library did: the previous one ends and its results go.
    stopSession();
    clearResults();
    buttons('idle');
    showNotes(blocking, t('notes.notRun'));
    setStatus('error', t('status.notRun', { problems: blocking.map((p) => t('status.problem', p)).join('; ') }));
    $(blocking[0].param).focus();
    return null;
  }
  config.mode = mode;
  ui.controls.mode = mode;
  showNotes([]);
  pushConfig(config);
  return config;
}

/** Run (the form's submit): a new run of the form's configuration. */
export function runClicked() {
  if (busy) return;
  const config = configFromForm('run');
  if (config) start(config);
}

/** "Run the remaining passes" of the paused step-through. */
export function finishClicked() {
  const s = page.session;
  if (!s || busy) return;
  // The remaining passes are the paused run's: its settings go back into the form
  // (and the link), so the form and the results describe the same run.
  if (formDiffers(s)) { ui.controls.set(s.config); updatePermalink(s.config); }
  runRemaining(s);
}

async function stopSession() {
  const s = page.session;
  if (!s) return;
  await s.cancel();
  s.dispose();
  page.session = null;
}

/**
 * The previous run's pictures and numbers go: a run that fails before its first
 * pass, or that the form refuses, must not leave them standing as if they were its own.
 */
function clearResults() {
  page.last = null;
  $('summary').hidden = true;
  $('summary-clock').hidden = true;
  $('heatmaps').replaceChildren();
  for (const k of Object.keys(views)) delete views[k];
  $('timeline').replaceChildren(el('p', { class: 'help', lang: locale }, t('run.timelineEmpty')));
  $('precision').replaceChildren(el('p', { class: 'help', lang: locale }, t('run.precisionEmpty')));
}

/** Starts a session; in 'run' mode runs every pass, in 'step' mode stops before the first. */
export async function start(config) {
  setStatus('running', t('status.starting'));
  await stopSession();
  clearBanner();
  const s = new Session(config);
  page.session = s;
  clearResults();
  $('gpu-progress').value = 0;
  $('gpu-progress-text').textContent = '';
  $('ref-progress').value = 0;
  $('ref-progress-text').textContent = s.refState === 'off' ? 'off for this run' : `waiting for the ${config.backend === 'cpu' ? 'CPU' : 'GPU'}`;
  buttons('running');
  try {
    // The backend of this run: made on first use (a WebGPU device, say), then shared.
    const gpu = await page.backends.get(config.backend);
    if (s.cancelled || s !== page.session) return;
    adopt(gpu);
    // A kernel of the other backend (a link from another machine, where auto picked
    // differently) becomes this backend's default.
    const note = fitKernel(config, gpu.backend, false);
    if (note) ui.controls.set(config);
    if (!(await s.prepare()) || s.cancelled) return;
    // p = 0 or 1 needs no pass: there is nothing to step through.
    if (config.mode === 'step' && s.passCount > 0) {
      s.startReference(); // runs while the student steps
      paused(s);
      return;
    }
    await runRemaining(s);
  } catch (err) {
    fail(s, err);
  }
}

/** Whether the form now asks for another run than the paused step-through `s`. */
export function formDiffers(s) {
  const wanted = ui.controls.get().config;
  // ref=1 (a link's) and the form's ref=auto are the same run where auto turns it on.
  const run = (c) => toQuery({ ...c, mode: 'step', ref: referenceOn(c) ? '1' : '0' });
  return run(wanted) !== run(s.config);
}

export function paused(s) {
  buttons('paused');
  const next = t('status.stepped', { done: s.passes.length, count: s.passCount });
  if (formDiffers(s)) setStatus('paused', t('status.pausedChanged', { next }), 'warn');
  else setStatus('paused', t('status.paused', { next, label: s.labels[s.passes.length] }));
  publish(s.record('paused'));
}

async function runRemaining(s) {
  buttons('running');
  // A naive pass at large n can hold a software GPU (and the page's repaint) for seconds.
  const slow = s.kernel === 'naive' && s.n >= 1024
    ? ` ${t('status.naiveSlow', { adds: sci(s.n ** 3) })}`
    : '';
  setStatus('running', `${tn('status.running', s.passCount, { dev: s.dev })}${slow}`);
  try {
    while (!s.cancelled && s.run && s.run.passesDone < s.passCount) await s.stepOnce();
    if (s.cancelled) return;
    await complete(s);
  } catch (err) {
    fail(s, err);
  }
}

export async function stepClicked() {
  if (busy) return;
  busy = true;
  let s = page.session;
  try {
    const changed = s && formDiffers(s);
    if (!s || !s.run || s.cancelled || changed) {
      // Nothing to continue, or the controls changed since: a new step-through run,
      // and, as the button says, its first pass (a mode=step link stops before it
      // instead, so the input can be looked at first).
      const config = configFromForm('step');
      if (!config) return;
      await start(config);
      s = page.session;
      if (!s || s.cancelled || !s.run || !s.passCount || document.body.dataset.status !== 'paused') return;
    }
    buttons('running');
    await s.stepOnce();
    if (s.cancelled) return;
    if (s.run.passesDone === s.passCount) await complete(s);
    else paused(s);
  } catch (err) {
    fail(s, err);
  } finally {
    busy = false;
  }
}

async function complete(s) {
  await s.finish();
  if (s.cancelled) return;
  page.last = { gpu: s.result, ref: s.ref };
  showShader(null, true);
  buttons('idle');
  const m = s.metrics;
  const time = s.totals();
  let text = tn('status.done', s.passCount, { op: s.opText, kernel: s.kernel });
  if (s.passCount) text += `, ${s.dev} ${time.gpuTimed ? ms(time.gpuMs) : clockMs(time.gpuMs)}`;
  if (time.jsMs !== null) text += `, ${t('status.doneJs', { time: clockMs(time.jsMs) })}`;
  const over = m && m.nonfiniteMismatch ? t('status.doneOver', { count: format.int(m.compared) }) : '';
  if (m && m.compared) text += t('status.doneError', { error: sci(m.relFrobenius), over, exact: format.int(m.exact), total: tn('status.entries', m.total, { count: format.int(m.total) }) });
  else if (m) text += t('status.doneNoneFinite');
  else if (s.refState === 'cancelled') text += t('status.doneRefCancelled');
  if (m && m.nonfiniteMismatch) text += t('status.doneMismatch', { count: format.int(m.nonfiniteMismatch) });
  setStatus('done', `${text}.`, m && m.nonfiniteMismatch ? 'warn' : '');
  if (m && m.compared) document.body.dataset.relFrobenius = String(m.relFrobenius);
  publish(s.record('done'));
  demoRan(window.__results);
}

export function fail(s, err) {
  // A run that was cancelled (or replaced by a new one) can still be inside an await
  // when its run object is freed: what it throws then is not the page's error, and
  // must not paint over the state of the run that replaced it.
  if (s && (s.cancelled || s !== page.session)) {
    console.debug('gpgpu-matrix: ignored after cancel:', err);
    return;
  }
  const d = showError(err);
  // n over the device's limit is the form's n: mark it there too.
  if (d.code === 'SIZE_OVER_LIMIT') ui.controls.markInvalid(['n']);
  if (s) { s.cancelled = true; ui.refClient?.cancel(); s.dispose(); }
  buttons('idle');
  setStatus('error', t('status.stopped', d));
  const record = s ? s.record('error', { code: d.code, message: d.message }) : { status: 'error', error: { code: d.code, message: d.message } };
  publish(record);
}

export async function cancelClicked() {
  const s = page.session;
  if (!s) return;
  if (s.gpuFinished && !s.cancelled) {
    // The GPU's answer is in: Cancel stops the wait for the float64 reference and
    // keeps the result (it used to throw the finished result away).
    s.skipReference();
    return;
  }
  const inFlight = !!s.passInFlight;
  await s.cancel();
  s.dispose();
  buttons('idle');
  const passes = s.passes.length;
  if (views.out && passes < (s.passCount ?? 0)) {
    views.out.setTitle(passes ? t('heatmap.cancelledAt', { pass: passes, count: s.passCount, label: s.labels[passes - 1], next: passes + 1 }) : t('heatmap.cancelledFirst'));
    // Nor does the error picture wait for a last pass that will not come.
    if (views.diff && s.refState !== 'off') views.diff.setTitle(t('heatmap.noErrorRunCancelled'));
  }
  const background = inFlight ? ` ${t('status.cancelledInFlight', { where: t(`status.cancelledWhere.${s.dev}`) })}` : '';
  setStatus('cancelled', `${t('status.cancelled', { done: passes, count: s.passCount ?? '?' })}${background}`);
  $('ref-progress-text').textContent = s.refState === 'off' ? t('progress.off') : t('progress.cancelled');
  publish(s.record('cancelled'));
  page.session = null;
}