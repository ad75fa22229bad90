// The precision panel: float32 against float64, the error metrics with what they
// mean, the 2^24 integer limit, and warnings when values pass 2^24 or overflow to
// ±Inf / NaN, naming the first pass where it happened.
import { FLOAT32_EXACT_INTEGER_LIMIT } from '../reference.js';
import { el, int, magnitude, sci } from './format.js';

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
    ['max absolute error', m && sci(m.maxAbs), `max |${dev} − double| over the entries finite on both sides (— when there is none)`],
    ['max relative error', m && sci(m.maxRel), `max |${dev} − double| / |double| over nonzero doubles. Large where a true entry is nearly 0 (sums that cancel): a tiny absolute error there is a big relative one. The relative Frobenius error is the figure for the whole matrix`],
    ['relative Frobenius error', m && sci(m.relFrobenius), `‖${dev} − double‖ / ‖double‖ over the entries finite on both sides`],
    ['correctly rounded entries', m && `${int(m.exact)} of ${int(m.total)} (${((100 * m.exact) / m.total).toFixed(1)} %)`, 'entries equal to the double rounded to float32: the best float32 can do, though not always the true value (F(37) = 24 157 817 has no float32; its correct rounding is 24 157 816). Only finite numbers count: not NaN, ±Inf or an overflow'],
  ];
  if (m && m.nonfiniteMismatch) rows.push(['NaN/Inf mismatches', int(m.nonfiniteMismatch), 'entries where one side is NaN or ±Inf and the other is not the same']);
  const general = {
    off: 'The float64 reference is off for this run (ref=0, or n above 2048): no error metrics.',
    running: 'The float64 reference is still running in its Web Worker…',
    cancelled: 'The float64 reference was cancelled.',
    error: 'The float64 reference failed.',
  }[state.refState];
  const why = (latest && latestWhy(latest, state.refState)) ?? general;
  parts.push(el('table', { class: 'metrics', id: 'metrics' },
    el('caption', {}, `${dev} (float32) against JavaScript (float64), ${latest
      ? `pass ${latest.index + 1} of ${state.passCount} (${latest.label})` : 'final result'}`),
    el('tbody', {}, rows.map(([k, v, d]) => el('tr', {},
      el('th', { scope: 'row' }, k, el('span', { class: 'what' }, d)), el('td', { class: 'num' }, v ?? '—'))))));
  if (why && !m) parts.push(el('p', { class: 'help' }, why));
  if (m && m.nonfiniteMismatch) {
    parts.push(el('p', { class: 'help' }, `${int(m.nonfiniteMismatch)} entries are NaN or ±Inf on one side only: the absolute, relative and Frobenius errors are taken over the entries finite on both sides. An entry whose double is finite but beyond float32's range is an overflow, never correctly rounded, even though rounding that double to float32 also gives ±Inf.`));
  }

  // 3. The two formats, and what to expect for this n.
  const bound = n * U32, typical = Math.sqrt(n) * U32;
  parts.push(el('div', { class: 'formats' },
    el('table', { class: 'formats-table' },
      el('caption', {}, 'The two number formats'),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, el('span', { class: 'visually-hidden' }, 'property')), el('th', { scope: 'col' }, `float32 (${dev})`), el('th', { scope: 'col' }, 'float64 (JS)'))),
      el('tbody', {},
        el('tr', {}, el('th', { scope: 'row' }, 'significand'), el('td', {}, '24 bits ≈ 7 digits'), el('td', {}, '53 bits ≈ 16 digits')),
        el('tr', {}, el('th', { scope: 'row' }, 'rounding step (unit roundoff)'), el('td', {}, '2^−24 ≈ 5.96e−8'), el('td', {}, '2^−53 ≈ 1.11e−16')),
        el('tr', {}, el('th', { scope: 'row' }, 'every integer exact up to'), el('td', {}, `2^24 = ${int(FLOAT32_EXACT_INTEGER_LIMIT)}`), el('td', {}, '2^53 ≈ 9.0e15')),
        el('tr', {}, el('th', { scope: 'row' }, 'largest finite value'), el('td', {}, '≈ 3.40e38'), el('td', {}, '≈ 1.80e308')))),
    el('p', {},
      `Each entry of one product is a sum of n = ${n} products, and every multiply-add rounds to float32. The error of such a sum is at most about n·2^−24 ≈ ${sci(bound)} of the sum of |terms| (worst case), and typically nearer √n·2^−24 ≈ ${sci(typical)}, because rounding errors of both signs partly cancel. A chain of passes feeds each pass's rounded output into the next, so errors compound. The double result has errors too, but 2^29 ≈ 5·10^8 times smaller: it serves as the truth.`)));
  if (state.input === 'fibonacci') {
    parts.push(el('p', { class: 'help' }, 'Fibonacci: the blocks of F^p are [[f(p+1), f(p)], [f(p), f(p−1)]]. f(36) = 14 930 352 is below 2^24 and f(37) = 24 157 817 is above it: compare op=power with p = 35 and p = 37 (n = 2). At p = 35 the error is 0. At p = 37 the float32 side returns 24 157 816 and 39 088 168: the float32 nearest each (so still all 4 correctly rounded), but no longer the integers, and the error against the double is no longer 0.'));
  }
  container.replaceChildren(...parts);
}

/** Why the latest pass has no metrics yet, where the reference's own state does not say. */
function latestWhy(latest, refState) {
  if (refState !== 'running' && refState !== 'done') return undefined;
  const pass = `pass ${latest.index + 1}`;
  if (!latest.compared) return `At this size only the final result is compared with the double, when the run ends: ${pass}'s output is not read back.`;
  return refState === 'running' ? `The float64 ${pass} is still being computed in its Web Worker…` : undefined;
}

/** Warnings of a run, the worst first: [{ level: 'bad'|'warn'|'ok', kind, text }]. */
export function findWarnings(state) {
  const out = [];
  const { passes = [], inputStats } = state;
  const where = (idx) => `pass ${idx + 1} (${passes[idx].label})`;
  const first = (test) => passes.findIndex((p) => p.stats && test(p.stats));
  const nanAt = first((s) => s.nan > 0);
  const infAt = first((s) => s.inf > 0);
  const overAt = first((s) => s.maxAbs > FLOAT32_EXACT_INTEGER_LIMIT || s.inf > 0);
  if (inputStats && (inputStats.nan || inputStats.inf)) {
    out.push({ level: 'bad', kind: 'input-nonfinite', text: `The input already holds ${inputStats.nan} NaN and ${inputStats.inf} ±Inf entries.` });
  }
  if (infAt >= 0) {
    const s = passes[infAt].stats;
    out.push({ level: 'bad', kind: 'inf', text: `Overflow: ${int(s.inf)} entries became ±Inf first in ${where(infAt)}: a value passed the largest float32, ≈ 3.40e38 (float64 goes on to 1.8e308). Inf then spreads through every later product.` });
  }
  if (nanAt >= 0) {
    const s = passes[nanAt].stats;
    out.push({ level: 'bad', kind: 'nan', text: `NaN: ${int(s.nan)} entries became NaN first in ${where(nanAt)} (Inf − Inf or 0 · Inf in a sum).` });
  }
  if (inputStats && inputStats.maxAbs > FLOAT32_EXACT_INTEGER_LIMIT) {
    out.push({ level: 'warn', kind: 'input-over-2^24', text: `The input already has values above 2^24 = ${int(FLOAT32_EXACT_INTEGER_LIMIT)} (max |value| ${magnitude(inputStats.maxAbs)}).` });
  }
  if (overAt >= 0) {
    const s = passes[overAt].stats;
    const max = s.inf > 0 ? '±Inf' : magnitude(s.maxAbs);
    out.push({ level: 'warn', kind: 'over-2^24', text: `Values passed 2^24 = ${int(FLOAT32_EXACT_INTEGER_LIMIT)} first in ${where(overAt)} (max |value| ${max}). ${state.integerInput
      ? 'Above 2^24 float32 cannot hold every integer (the gap between neighbours is 2, then 4, …), so even whole-number results come back rounded.'
      : 'This input is not whole numbers, so the limit changes nothing by itself here: float32 rounds every result to about 7 significant digits, above 2^24 as below.'}` });
  }
  if (!out.length && state.passCount !== undefined && passes.length === state.passCount) {
    const max = state.resultStats ? magnitude(state.resultStats.maxAbs) : '—';
    let text = `No value passed 2^24 = ${int(FLOAT32_EXACT_INTEGER_LIMIT)} and no ±Inf or NaN appeared (largest |value| ${max}).`;
    if (state.integerInput) text += ' The input holds whole numbers, so every exact result does too, and float32 holds them exactly below 2^24: expect every entry to be the exact integer, and so correctly rounded too (as long as the partial sums stay below 2^24 as well).';
    out.push({ level: 'ok', kind: 'ok', text });
  }
  return out;
}
