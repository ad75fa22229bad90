// What the bench suites share (www/bench/blocks.js, batched.js, devices.js, lu.js,
// sparse.js): progress lines (to the page, console.log, window.benchLog and,
// with ?post=1, POST /log), the status the driver polls (body[data-status]), a guard for
// calls that never answer, the WebGL renderer's name, and the end of a run (the result as
// window.benchResult, its report and plot on the page, and with ?post=1 POST /result: the
// gpu-browser protocol, as www/bench/systems.js speaks it).

import { mountFigureTools } from '../ui/figures.js';
import { timerResolutionMs } from '../ui/clock.js';

window.benchLog = [];
const posts = new Set();
let tag = 'bench';
let postEnabled = new URLSearchParams(location.search).get('post') === '1';

/** Names the bench in console lines, and turns posting on or off (the run's ?post). */
export function setBench(name, post) {
  tag = name;
  postEnabled = post;
}

/** A progress line; each line posted by its own request (a chain would stall behind
 *  one response while the page is busy). */
export function log(line) {
  window.benchLog.push(line);
  console.log(`[${tag}] ${line}`);
  const el = document.getElementById('log');
  if (el) { el.textContent += `${line}\n`; el.scrollTop = el.scrollHeight; }
  if (postEnabled) {
    const p = fetch('/log', { method: 'POST', body: line }).catch(() => {}).finally(() => posts.delete(p));
    posts.add(p);
  }
}

/** Lets queued requests (progress lines) and painting happen before more synchronous work. */
export const flush = () => new Promise((r) => setTimeout(r, 0));

export function setStatus(text, state) {
  const el = document.getElementById('status');
  if (el) el.textContent = text;
  if (state) document.body.dataset.status = state;
}

export const errText = (e) => `${e?.name || 'Error'}${e?.code ? ` ${e.code}` : ''}: ${e?.message || e}`;

/** `p`, or a rejection after `ms` (a call that never answers must not stop the run from posting). */
export function guard(p, ms, what) {
  let timer;
  const t = new Promise((_, reject) => { timer = setTimeout(() => reject(Object.assign(new Error(`${what}: no answer in ${ms / 1000} s`), { hung: true })), ms); });
  return Promise.race([Promise.resolve(p).finally(() => clearTimeout(timer)), t]);
}

export function probeRenderer() {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return 'no WebGL2';
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const r = ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return r;
  } catch (e) {
    return `probe failed: ${e.message}`;
  }
}

/** Shows `result` with its report and plot, and posts it (after the progress lines). */
async function finish(result, { markdown, plot }) {
  // Every result says the clock its wall times were read by (the reports state it).
  result.timerResolutionMs ??= timerResolutionMs();
  window.benchResult = result;
  const t = document.getElementById('table'), pl = document.getElementById('plot');
  try {
    if (t) t.textContent = markdown(result);
    if (pl) pl.innerHTML = plot(result);
  } catch (e) { log(`report failed: ${errText(e)}`); }
  document.getElementById('results')?.removeAttribute('hidden');
  if (postEnabled) {
    await Promise.all([...posts]);
    await fetch('/result', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(result) });
  }
}

/**
 * The page's main: reads the parameters, runs the bench when ?run=1, shows and posts the
 * result; a run that throws still posts what it has (`empty(params)` when nothing).
 */
export async function runPage({ readParams, paramsFile, run, empty, markdown, plot }) {
  // Save PNG/SVG on the plots, Copy as CSV/Markdown on the tables.
  mountFigureTools(document.body);
  timerResolutionMs(); // measured before the bench gets busy
  const params = readParams(location.search);
  if (params.problems.length) { setStatus(`Not started: ${params.problems.join('; ')}.`, 'error'); return; }
  if (!params.autostart) { setStatus(`Add ?run=1 (and any parameter of ${paramsFile}) to run.`, 'idle'); return; }
  setStatus('Running…', 'running');
  let result;
  try {
    result = await run(params);
    await finish(result, { markdown, plot });
    setStatus(`Done in ${result.totalS.toFixed(0)} s.`, result.error ? 'error' : 'done');
  } catch (e) {
    log(`FATAL: ${e?.stack || e}`);
    const partial = result || empty(params);
    partial.error = errText(e);
    try { await finish(partial, { markdown, plot }); } catch { /* nothing more to do */ }
    setStatus(`Error: ${e?.message || e}`, 'error');
  }
}
