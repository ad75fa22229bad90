// What a run of the demo reports once it has numbers: its totals (times, GFLOP/s), the
// summary table ("GPU against JavaScript"), the precision panel, and the machine-readable
// record that is published for the report script and the page tests (status.js publish()).
import { $, page } from './state.js';
import { INPUT_KINDS } from '../inputs.js';
import { t, tn } from '../i18n/index.js';
import { toQuery } from '../config.js';
import { productFlops } from '../chain.js';
import { deviceName } from '../ui/device.js';
import * as format from '../ui/format.js';
import { clockMs, clockNote, el, gflops, ms, rate, sci } from '../ui/format.js';
import { timerResolutionMs } from '../ui/clock.js';
import { renderPrecision } from '../ui/precision.js';

/** How the result comes back to JavaScript on `backend`, in the page's words. */
export function readbackKind(backend) {
  return t(`summary.readback.${backend === 'webgpu' || backend === 'cpu' ? backend : 'webgl'}`);
}

/** The precision panel (www/ui/precision.js) of run `s` as it stands. */
export function showPrecision(s) {
  const c = s.config;
  renderPrecision($('precision'), {
    n: c.n,
    dev: s.dev,
    input: c.input,
    integerInput: !!INPUT_KINDS[c.input]?.integer && (c.op !== 'multiply' || !!INPUT_KINDS[c.bInput]?.integer),
    inputStats: s.inputStats,
    passes: s.passes,
    passCount: s.passCount,
    metrics: s.metrics || null,
    // Until the result is read back the table shows the latest pass, not the final result.
    latest: s.gpuFinished || !s.passes.length ? null : {
      ...s.passes[s.passes.length - 1], compared: s.keepPasses,
    },
    refState: s.refState === 'waiting' ? 'running' : s.refState,
    resultStats: s.resultStats || (s.passes.length ? s.passes[s.passes.length - 1].stats : s.inputStats),
  });
}

/** Totals of run `s`: GPU time (timer where it has one), wall times, JS time, GFLOP/s. */
export function totals(s) {
  const flops = productFlops(s.n) * s.passCount;
  const allTimed = s.timed && s.passes.length > 0 && s.passes.every((p) => p.gpuMs !== null);
  const wallSum = s.passes.reduce((sum, p) => sum + p.wallMs, 0);
  const gpuMs = allTimed ? s.passes.reduce((sum, p) => sum + p.gpuMs, 0) : wallSum;
  return {
    flops,
    gpuMs,
    gpuTimed: allTimed,
    gpuTimeKind: allTimed
      ? t(s.backend === 'webgpu' ? 'summary.clock.timestamp' : 'summary.clock.timer')
      : t(s.backend === 'cpu' ? 'summary.clock.cpu' : 'summary.clock.wall'),
    gpuWallMs: s.uploadMs + wallSum + s.readbackMs,
    gpuGflops: gflops(flops, gpuMs),
    jsMs: s.refMs ?? null,
    jsGflops: s.refMs ? gflops(flops, s.refMs) : null,
  };
}

/** A wall-clock figure of a table whose caption states the resolution (clockNote()). */
const wall = (v) => clockMs(v, { bare: true });

/** The GPU time of totals `time`: a GPU timer's to its precision, else the wall clock's, bare. */
export const gpuTimeText = (time) => (time.gpuTimed ? ms(time.gpuMs) : wall(time.gpuMs));

/** The summary table's rows (their data-key) and their headings in the catalogues. */
const SUMMARY_LABELS = {
  operation: 'summary.operation', kernel: 'summary.kernel', backend: 'summary.backend', renderer: 'summary.renderer',
  'GPU time': 'summary.gpuTime', 'GPU wall time': 'summary.gpuWall', 'JS float64 time': 'summary.jsTime',
  'GFLOP/s': 'summary.gflops', 'max abs error': 'summary.maxAbs', 'max relative error': 'summary.maxRel',
  'relative Frobenius error': 'summary.frobenius', 'correctly rounded entries': 'summary.exact', 'NaN/Inf mismatches': 'summary.mismatch',
};

/** What input `kind` is, in the page's words. */
const describeInput = (kind, seed, prob) => t(`input.about.${kind}`, { seed, prob });

/** The summary table of finished run `s`: what ran, its times and its errors. */
export function showSummary(s) {
  const c = s.config;
  const time = totals(s);
  const m = s.metrics;
  // With NaN/±Inf on one side only, the errors cover the entries finite on both.
  const over = m && m.nonfiniteMismatch ? t('summary.over', { count: format.int(m.compared) }) : '';
  const rows = [
    ['operation', `${s.opText}; ${c.op === 'multiply'
      ? t('summary.inputsAB', { a: describeInput(c.input, c.seed, c.prob), b: describeInput(c.bInput, c.bSeed, c.bProb) })
      : t('summary.inputs', { a: describeInput(c.input, c.seed, c.prob) })}`],
    ['kernel', `${s.kernel}${c.kernel === 'auto' ? ' (auto)' : ''}, ${tn('summary.passes', s.passCount)}`],
    ['backend', `${t(`summary.backend.${s.backend === 'webgpu' || s.backend === 'cpu' ? s.backend : 'webgl'}`)}${c.backend === 'auto' ? ' (auto)' : ''}`],
    ['renderer', deviceName(page.info)],
    ['GPU time', s.passCount ? `${gpuTimeText(time)} (${time.gpuTimeKind})` : t('summary.noPass')],
    ['GPU wall time', t(s.backend === 'cpu' ? 'summary.wallCpu' : 'summary.wall', { total: wall(time.gpuWallMs), upload: wall(s.uploadMs), readback: readbackKind(s.backend), back: wall(s.readbackMs), before: wall(s.compileMs) })],
    ['JS float64 time', time.jsMs !== null ? t('summary.jsClock', { time: wall(time.jsMs) }) : s.refState === 'off' ? t('summary.refOff') : '—'],
    ['GFLOP/s', s.passCount ? t('summary.rates', { dev: s.dev, gpu: rate(time.gpuGflops), js: rate(time.jsGflops) }) : '—'],
    ['max abs error', m ? sci(m.maxAbs) + over : '—'],
    ['max relative error', m ? sci(m.maxRel) + over : '—'],
    ['relative Frobenius error', m ? sci(m.relFrobenius) + over : '—'],
    ['correctly rounded entries', m ? t('summary.exactOf', { exact: format.int(m.exact), total: format.int(m.total) }) : '—'],
  ];
  if (m && m.nonfiniteMismatch) rows.push(['NaN/Inf mismatches', t('summary.mismatches', { count: format.int(m.nonfiniteMismatch) })]);
  const table = $('summary');
  // Rows keep their keys (data-key); their labels name what computed: GPU or CPU.
  const label = (k) => t(SUMMARY_LABELS[k], { dev: s.dev });
  table.tBodies[0].replaceChildren(...rows.map(([k, v]) => el('tr', { 'data-key': k }, el('th', { scope: 'row' }, label(k)), el('td', {}, v))));
  table.caption.textContent = t('summary.caption', { dev: s.dev });
  // The wall-clock figures above are bare: the line under the table states the resolution once.
  $('summary-clock').textContent = clockNote();
  $('summary-clock').hidden = false;
  table.hidden = false;
}

/** The machine-readable record of run `s`. */
export function record(s, status, error = null) {
  const sums = s.passes.length || s.result ? totals(s) : null;
  return {
    status,
    config: s.config,
    query: toQuery(s.config),
    notes: page.notes || [],
    backend: s.backend ?? page.gpu?.backend ?? null,
    renderer: page.info ? deviceName(page.info) : null,
    kernel: s.kernel ?? null,
    n: s.n,
    passCount: s.passCount ?? null,
    passesDone: s.passes.length,
    passes: s.passes.map((p) => ({ label: p.label, gpuMs: p.gpuMs, wallMs: p.wallMs, maxAbs: p.stats.maxAbs, nan: p.stats.nan, inf: p.stats.inf, relFrobenius: p.relFrobenius ?? null })),
    timerQuery: !!page.info?.timerQuery,
    timerResolutionMs: timerResolutionMs(),
    compileMs: s.compileMs ?? null,
    uploadMs: s.uploadMs ?? null,
    readbackMs: s.readbackMs ?? null,
    totals: sums,
    reference: s.refState,
    metrics: s.metrics || null,
    warnings: [...document.querySelectorAll('#precision .warnings li')].map((li) => ({ kind: li.dataset.kind, level: li.className, text: li.textContent })),
    error,
  };
}
