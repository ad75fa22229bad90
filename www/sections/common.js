// What every application section shares: the preset menu with its Run button and
// status line, result tables, "what is exact" notes, heatmaps drawn through the
// library, and the machine-readable record the page tests read.
//
//   section.dataset.status   idle | running | done | error   (on the <section>)
//   window.__apps[id]        the last run's record (see each section's run())
import { el, clockMs } from '../ui/format.js';
import { t } from '../i18n/index.js';

export const nextFrame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));

/** Saves a section's record for the report script and the page tests. */
export function publish(id, record) {
  window.__apps = window.__apps || {};
  window.__apps[id] = record;
}

/**
 * Disables `controls` while a run owns them. The function returned enables them again
 * and gives focus back to the one that had it: disabling the focused button drops focus
 * to <body>, where a keyboard user has lost their place and a screen reader falls silent.
 */
export function disableWhileBusy(controls) {
  const focused = controls.find((c) => c === document.activeElement);
  for (const c of controls) c.disabled = true;
  return () => {
    for (const c of controls) c.disabled = false;
    // A control disabled under the focus holds it until the browser moves it to <body>.
    const now = document.activeElement;
    const lost = now === null || now === document.body || now.disabled === true;
    if (focused?.isConnected && lost) focused.focus();
  };
}

/**
 * Builds the common frame of a section in `container`:
 *   intro      nodes explaining the application (the chapter's idea, how the GPU does it)
 *   presets    [{ id, label, help }]
 *   run(preset, ui)  async; does the work, fills ui.output; may return a status text,
 *                    or { text, tone: 'warn' } for a run that ended as the preset
 *                    predicts but without an answer (a series that diverges, say)
 * Returns ui = { output, setStatus(state, text, tone), select, button }.
 */
export function sectionFrame(container, ctx, { id, intro, presets, run }) {
  const section = container.closest('section') || container;
  const selectId = `${id}-preset`;
  // Seven buttons read "Run" and six menus "preset": their accessible names say which.
  const title = section.querySelector('h2, h3')?.textContent || id;
  const select = el('select', { id: selectId, 'aria-describedby': `${id}-preset-help`, 'aria-label': t('sec.presetOf', { title }) },
    presets.map((p) => el('option', { value: p.id }, p.label)));
  const help = el('p', { class: 'help', id: `${id}-preset-help` });
  const button = el('button', { type: 'button', class: 'primary', id: `${id}-run`, 'aria-label': t('sec.runOf', { title }) }, t('sec.run'));
  const status = el('p', { class: 'status app-status', role: 'status', id: `${id}-status` }, t('sec.choose'));
  const output = el('div', { class: 'app-output', id: `${id}-output` });
  const showHelp = () => { help.textContent = presets.find((p) => p.id === select.value)?.help || ''; };
  select.addEventListener('change', showHelp);
  showHelp();

  const ui = {
    output, select, button,
    setStatus(state, text, tone = '') {
      section.dataset.status = state;
      status.textContent = text;
      status.className = `status app-status ${state}${tone ? ` ${tone}` : ''}`;
    },
  };
  let busy = false;
  button.addEventListener('click', async () => {
    if (busy) return;
    busy = true;
    const release = disableWhileBusy([button, select]);
    const preset = presets.find((p) => p.id === select.value) || presets[0];
    section.dataset.preset = preset.id;
    // The backend the demo runs on (the configuration's backend): the section uses it too.
    const where = ctx.gpu ? ` (${backendWords(ctx.gpu)})` : '';
    ui.setStatus('running', t('sec.running', { label: preset.label, where }));
    try {
      await nextFrame();
      const out = await run(preset, ui);
      const { text, tone } = typeof out === 'object' && out !== null ? out : { text: out };
      ui.setStatus('done', `${text || t('sec.done', { label: preset.label })}${where ? t('sec.on', { backend: backendWords(ctx.gpu) }) : ''}`, tone);
      if (window.__apps?.[id] && ctx.gpu) window.__apps[id].backend = ctx.gpu.backend;
    } catch (err) {
      const d = ctx.describeError(err);
      ui.setStatus('error', stoppedText(d));
      publish(id, { preset: preset.id, status: 'error', error: { code: d.code, message: d.message } });
    } finally {
      busy = false;
      release();
    }
  });
  section.dataset.status = 'idle';
  container.append(
    el('div', { class: 'app-intro' }, intro),
    el('div', { class: 'buttons app-controls' },
      el('label', { for: selectId }, t('sec.preset')), select, button),
    help, status, output);
  return ui;
}

/**
 * A two-column results table: rows [key, value, note?]; each <tr> has
 * data-key = key (what the page tests look for).
 */
export function resultsTable(caption, rows) {
  return el('table', { class: 'app-results' },
    el('caption', {}, caption),
    el('tbody', {}, rows.filter(Boolean).map(([k, v, note, cls]) => el('tr', { 'data-key': k },
      el('th', { scope: 'row' }, k, note ? el('span', { class: 'what' }, note) : null),
      el('td', { class: cls || null }, v)))));
}

/** A list of notes, each { level: 'ok' | 'warn' | 'bad' | 'info', text }. */
export function notes(items, title = '') {
  return el('div', { class: 'app-notes' },
    title ? el('h4', {}, title) : null,
    el('ul', {}, items.filter(Boolean).map((n) => el('li', { class: n.level, 'data-kind': n.kind || null }, n.text))));
}

/**
 * Draws `data` (rows×cols) on a HeatmapView through the library's colour-map shader
 * (drawHeatmapAsync: WebGL draws it at once, WebGPU in a compute pass).
 */
export async function drawMatrix(ctx, view, rows, cols, data, style = {}) {
  let range = style.range;
  if (!(range > 0)) {
    range = 0;
    for (const v of data) if (Number.isFinite(v)) range = Math.max(range, Math.abs(v));
  }
  const canvas = view.prepare(rows, cols);
  const drawn = await ctx.gpu.drawHeatmapAsync(rows, cols, data, canvas, { sequential: view.sequential, ...style, range: range > 0 ? range : 1 });
  let nan = 0, inf = 0;
  for (const v of data) { if (Number.isNaN(v)) nan++; else if (!Number.isFinite(v)) inf++; }
  // A range of 0 makes the legend say "all 0" (an error picture: every entry exact).
  view.drawn(drawn, range, { nan, inf });
  return drawn;
}

/**
 * Replaces a heatmap's legend by two swatches for a 0/1 matrix drawn with the
 * diverging map (0 white, 1 red).
 */
export function binaryLegend(view, one, zero) {
  const swatch = (colour, text) => el('span', { class: 'hm-swatch' }, el('i', { style: `background:${colour}` }), text);
  view.legend.replaceChildren(el('span', { class: 'hm-scale' }, swatch('rgb(179,23,43)', one), swatch('rgb(247,247,247)', zero)));
  view.legend.title = `red: ${one}; white: ${zero}`;
  view.key = [{ colour: 'rgb(179,23,43)', text: one }, { colour: 'rgb(247,247,247)', text: zero }];
}

/** Runs f() and returns [its result, milliseconds]. */
export function timed(f) {
  const t0 = performance.now();
  const r = f();
  return [r, performance.now() - t0];
}

/** Awaits f() (a library call's Async form) and returns [its result, milliseconds]. */
export async function timedAsync(f) {
  const t0 = performance.now();
  const r = await f();
  return [r, performance.now() - t0];
}

/** "WebGPU", "WebGL2" or "the CPU": the backend a section's run used. */
export const backendName = (gpu) => ({ webgpu: 'WebGPU', cpu: 'the CPU' }[gpu.backend] ?? 'WebGL2');

/** backendName in the page's language, for its own sentences (status lines). */
export const backendWords = (gpu) => (gpu.backend === 'cpu' ? t('sec.theCpu') : backendName(gpu));

/** A section's status line for an error the run stopped on (`d`: ctx.describeError's). */
export const stoppedText = (d) => t('sec.stopped', { title: d.title, code: d.code, message: d.message });

/** "CPU" or "GPU": what computed a section's float32 side, for its labels. */
export const devName = (gpu) => (gpu?.backend === 'cpu' ? 'CPU' : 'GPU');

/** What runs one output entry of a pass: an invocation, a fragment, or (CPU) a loop iteration. */
export const workItems = (gpu) => ({ webgpu: 'invocations', cpu: 'loop iterations' }[gpu.backend] ?? 'fragments');

/** Why a pass has no GPU time on this backend. */
export const untimedWhy = (gpu) => ({
  webgpu: 'this adapter has no timestamp-query feature',
  cpu: 'the CPU backend has no GPU timer',
}[gpu.backend] ?? 'this context has no EXT_disjoint_timer_query_webgl2');

/** A wall-clock time rounded to the timer resolution, saying it (format.js clockMs). */
export const msText = clockMs;

/**
 * A small numeric matrix as a table (n ≤ 8), e.g. the inverse of a 4×4 matrix, in a
 * box that scrolls sideways when wide entries (−1.887e+4) outgrow a phone's width.
 */
export function matrixTable(caption, rows, cols, data, fmt) {
  return el('div', { class: 'scroll-x app-matrix-box' }, el('table', { class: 'app-matrix' },
    el('caption', {}, caption),
    el('tbody', {}, Array.from({ length: rows }, (_, i) => el('tr', {},
      Array.from({ length: cols }, (_, j) => el('td', { class: 'num' }, fmt(data[i * cols + j]))))))));
}

/** "yes" / "no" text for a boolean. */
export const yesNo = (b) => t(b ? 'sec.yes' : 'sec.no');
