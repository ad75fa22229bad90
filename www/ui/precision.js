// The precision panel: float32 against float64, the error metrics with what they
// mean, the 2^24 integer limit, and warnings when values pass 2^24 or overflow to
// ±Inf / NaN, naming the first pass where it happened.
import { FLOAT32_EXACT_INTEGER_LIMIT } from '../reference.js';
import { el, int, magnitude, sci } from './format.js';
import { t } from '../i18n/index.js';

const U32 = 2 ** -24;
const FLOAT32_MAX = 3.4028234663852886e38;

/**
 * state: { n, integerInput, input, inputStats, passes: [{ label, stats }],
 *          metrics (compare() result or null), refState: 'off'|'running'|'done'|'cancelled'|'error',
 *          resultStats, passCount, dev ('GPU' or 'CPU': what computed the float32 side),
 *          latest: while a run is under way, its latest pass { index, label, metrics
 *          (null until its double is known), compared (whether passes are compared) }, else null }
 */
export function renderPrecision(container, state) {
  const { n } = state;
  const dev = state.dev ?? 'GPU';
  const parts = [];

  // 1. Warnings (and the all-clear) first: they are what changes from run to run.
  const warnings = findWarnings(state);
  const list = el('ul', { class: 'warnings' });
  for (const w of warnings) list.append(el('li', { class: w.level, 'data-kind': w.kind }, w.text));
  parts.push(list);

  // 2. The metrics: of the final result, or, while a run is under way, of its latest pass.
  const latest = state.latest;
  const m = latest ? latest.metrics ?? null : state.metrics;
  const rows = [
    [t('precision.maxAbs'), m && sci(m.maxAbs), t('precision.maxAbsWhat', { dev })],
    [t('precision.maxRel'), m && sci(m.maxRel), t('precision.maxRelWhat', { dev })],
    [t('precision.frobenius'), m && sci(m.relFrobenius), t('precision.frobeniusWhat', { dev })],
    [t('precision.exact'), m && t('precision.exactOf', { exact: int(m.exact), total: int(m.total), percent: ((100 * m.exact) / m.total).toFixed(1) }), t('precision.exactWhat')],
  ];
  if (m && m.nonfiniteMismatch) rows.push([t('precision.mismatch'), int(m.nonfiniteMismatch), t('precision.mismatchWhat')]);
  const general = ['off', 'running', 'cancelled', 'error'].includes(state.refState) ? t(`precision.ref.${state.refState}`) : undefined;
  const why = (latest && latestWhy(latest, state.refState)) ?? general;
  parts.push(el('table', { class: 'metrics', id: 'metrics' },
    el('caption', {}, t('precision.caption', { dev, what: latest
      ? t('precision.ofPass', { pass: latest.index + 1, count: state.passCount, label: latest.label }) : t('precision.final') })),
    el('tbody', {}, rows.map(([k, v, d]) => el('tr', {},
      el('th', { scope: 'row' }, k, el('span', { class: 'what' }, d)), el('td', { class: 'num' }, v ?? '—'))))));
  if (why && !m) parts.push(el('p', { class: 'help' }, why));
  if (m && m.nonfiniteMismatch) {
    parts.push(el('p', { class: 'help' }, t('precision.mismatchHelp', { count: int(m.nonfiniteMismatch) })));
  }

  // 3. The two formats, and what to expect for this n.
  const bound = n * U32, typical = Math.sqrt(n) * U32;
  parts.push(el('div', { class: 'formats' },
    el('table', { class: 'formats-table' },
      el('caption', {}, t('precision.formats')),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, el('span', { class: 'visually-hidden' }, t('precision.property'))), el('th', { scope: 'col' }, `float32 (${dev})`), el('th', { scope: 'col' }, 'float64 (JS)'))),
      el('tbody', {},
        el('tr', {}, el('th', { scope: 'row' }, t('precision.significand')), el('td', {}, t('precision.digits', { bits: 24, digits: 7 })), el('td', {}, t('precision.digits', { bits: 53, digits: 16 }))),
        el('tr', {}, el('th', { scope: 'row' }, t('precision.roundoff')), el('td', {}, '2^−24 ≈ 5.96e−8'), el('td', {}, '2^−53 ≈ 1.11e−16')),
        el('tr', {}, el('th', { scope: 'row' }, t('precision.integers')), el('td', {}, `2^24 = ${int(FLOAT32_EXACT_INTEGER_LIMIT)}`), el('td', {}, '2^53 ≈ 9.0e15')),
        el('tr', {}, el('th', { scope: 'row' }, t('precision.largest')), el('td', {}, '≈ 3.40e38'), el('td', {}, '≈ 1.80e308')))),
    el('p', {}, t('precision.sums', { n, bound: sci(bound), typical: sci(typical) }))));
  if (state.input === 'fibonacci') {
    parts.push(el('p', { class: 'help' }, t('precision.fibonacci')));
  }
  container.replaceChildren(...parts);
}

/** Why the latest pass has no metrics yet, where the reference's own state does not say. */
function latestWhy(latest, refState) {
  if (refState !== 'running' && refState !== 'done') return undefined;
  const pass = latest.index + 1;
  if (!latest.compared) return t('precision.notReadBack', { pass });
  return refState === 'running' ? t('precision.passRunning', { pass }) : undefined;
}

/** Warnings of a run, the worst first: [{ level: 'bad'|'warn'|'ok', kind, text }]. */
export function findWarnings(state) {
  const out = [];
  const { passes = [], inputStats } = state;
  const where = (idx) => t('precision.where', { pass: idx + 1, label: passes[idx].label });
  const first = (test) => passes.findIndex((p) => p.stats && test(p.stats));
  const nanAt = first((s) => s.nan > 0);
  const infAt = first((s) => s.inf > 0);
  const overAt = first((s) => s.maxAbs > FLOAT32_EXACT_INTEGER_LIMIT || s.inf > 0);
  if (inputStats && (inputStats.nan || inputStats.inf)) {
    out.push({ level: 'bad', kind: 'input-nonfinite', text: t('precision.inputNonfinite', { nan: inputStats.nan, inf: inputStats.inf }) });
  }
  if (infAt >= 0) {
    const s = passes[infAt].stats;
    out.push({ level: 'bad', kind: 'inf', text: t('precision.overflow', { count: int(s.inf), where: where(infAt) }) });
  }
  if (nanAt >= 0) {
    const s = passes[nanAt].stats;
    out.push({ level: 'bad', kind: 'nan', text: t('precision.nan', { count: int(s.nan), where: where(nanAt) }) });
  }
  if (inputStats && inputStats.maxAbs > FLOAT32_EXACT_INTEGER_LIMIT) {
    out.push({ level: 'warn', kind: 'input-over-2^24', text: t('precision.inputOver', { limit: int(FLOAT32_EXACT_INTEGER_LIMIT), max: magnitude(inputStats.maxAbs) }) });
  }
  if (overAt >= 0) {
    const s = passes[overAt].stats;
    const max = s.inf > 0 ? '±Inf' : magnitude(s.maxAbs);
    out.push({ level: 'warn', kind: 'over-2^24', text: `${t('precision.over', { limit: int(FLOAT32_EXACT_INTEGER_LIMIT), where: where(overAt), max })} ${t(state.integerInput ? 'precision.overIntegers' : 'precision.overReals')}` });
  }
  if (!out.length && state.passCount !== undefined && passes.length === state.passCount) {
    const max = state.resultStats ? magnitude(state.resultStats.maxAbs) : '—';
    let text = t('precision.ok', { limit: int(FLOAT32_EXACT_INTEGER_LIMIT), max });
    if (state.integerInput) text += t('precision.okIntegers');
    out.push({ level: 'ok', kind: 'ok', text });
  }
  return out;
}
