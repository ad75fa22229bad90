// What the teaching page says about its run: the status line (body[data-status], which the
// report script and the page tests read), the Run / Step / Cancel buttons' states (the
// keyboard's focus kept), the notes about settings, the error and context banners, the
// device named in the progress bar's label, and the machine-readable results
// (<script id="results"> and window.__results).
import { $, page, ui } from './state.js';
import { describeError } from '../ui/errors.js';
import { el } from '../ui/format.js';
import { t } from '../i18n/index.js';
import { embedded } from '../ui/slides.js';

/**
 * Names what computes the float32 side, 'GPU' or 'CPU', in the progress bar's label and
 * the precision panel's heading: from the configuration at load, then from each run.
 */
export function nameDevice(dev) {
  document.querySelector('label[for="gpu-progress"]').textContent = t('run.passes', { dev });
  $('precision-h').textContent = t('run.precisionHeading', { dev });
}

/** `tone` 'warn' marks a finished run whose answer overflowed or turned NaN. */
export function setStatus(status, text, tone = '') {
  document.body.dataset.status = status;
  $('status').textContent = text;
  $('status').className = `status ${status}${tone ? ` ${tone}` : ''}`;
}

export function showNotes(notes, heading = t('notes.ignored')) {
  const box = $('notes');
  if (!notes.length) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  box.replaceChildren(
    el('p', {}, el('strong', {}, heading)),
    el('ul', {}, notes.map((n) => el('li', { 'data-param': n.param },
      el('code', {}, `${n.param}=${n.value}`), ` — ${n.why}.`))),
    // Focus goes to the field a note is about (else n), not lost to the page body; on a
    // slide (embed=1), which shows no form, to Run.
    el('button', { type: 'button', class: 'link', onclick: () => {
      box.hidden = true;
      (embedded() ? $('run') : document.querySelector('#config [aria-invalid="true"]') || $('n')).focus();
    } }, t('notes.dismiss')));
  page.notes = notes;
}

export function showError(err, where = '') {
  const d = describeError(err, page.gpu?.backend);
  const banner = $('banner');
  banner.hidden = false;
  banner.className = 'banner error';
  banner.dataset.code = d.code;
  banner.replaceChildren(
    el('p', { class: 'banner-title' }, el('strong', {}, d.title), ' ', el('code', {}, d.code)),
    el('p', {}, where ? `${where}: ${d.message}` : d.message),
    el('p', { class: 'help' }, d.advice),
    // Hidden with the banner, the button would drop the keyboard's focus to <body>: it
    // goes to the field the error is about (else n), as the notes' Dismiss does.
    el('button', { type: 'button', class: 'link', onclick: () => {
      banner.hidden = true;
      (document.querySelector('#config [aria-invalid="true"]') || $('n')).focus();
    } }, t('notes.dismiss')));
  return d;
}

export function showBanner(kind, title, text) {
  const banner = $('banner');
  banner.hidden = false;
  banner.className = `banner ${kind}`;
  banner.dataset.code = kind;
  banner.replaceChildren(el('p', { class: 'banner-title' }, el('strong', {}, title)), el('p', {}, text));
}

export function clearBanner() { $('banner').hidden = true; }

/** Publishes the machine-readable results (report script, tests). */
export function publish(results) {
  window.__results = results;
  $('results').textContent = JSON.stringify(results, (k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 1);
}
/** The control that had focus when a run disabled it (focus then falls to <body>). */
let focusBeforeRun = null;

export function buttons(state) {
  // state: idle | running | paused
  const active = document.activeElement;
  if (state === 'running' && active && active !== document.body) focusBeforeRun = active;
  $('run').disabled = state === 'running';
  $('step').disabled = state === 'running';
  $('finish').hidden = state !== 'paused';
  $('cancel').disabled = state === 'idle';
  // On the pictures only: the status line inside the run panel must still be read
  // out pass by pass, which aria-busy on the whole panel would hold back.
  $('heatmaps').setAttribute('aria-busy', String(state === 'running'));
  ui.controls.setBusy(state === 'running');
  if (state !== 'running') {
    // Keyboard users keep their place: back to the control they used, or, if it is
    // gone (the finish button hides when done, Cancel is disabled), to Step or Run.
    // A control disabled or hidden under the focus holds it until the browser moves
    // it to <body>.
    const now = document.activeElement;
    const lost = now === null || now === document.body || now.disabled || now.hidden;
    if (lost && (focusBeforeRun || now !== document.body)) {
      const back = [focusBeforeRun, state === 'paused' ? $('step') : $('run')]
        .find((e) => e?.isConnected && !e.disabled && !e.hidden);
      back?.focus();
    }
    focusBeforeRun = null;
  }
}
