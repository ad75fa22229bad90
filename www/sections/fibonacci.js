// Fibonacci numbers by matrix power: [[1,1],[1,0]]^k = [[F(k+1), F(k)], [F(k), F(k−1)]]
// on the GPU, against BigInt. The table shows where float32 stops being exact
// (F(36) = 14 930 352 < 2^24 < F(37) = 24 157 817) and how the error grows beyond.
import { el, int, sci } from '../ui/format.js';
import { LinePlot } from '../ui/plot.js';
import { fibonacciBig, float32SpacingBig, nearestFloat32Big } from '../reference-apps.js';
import { FIBONACCI } from './presets.js';
import { msText, nextFrame, notes, publish, resultsTable, sectionFrame, devName } from './common.js';
import { t } from '../i18n/index.js';

const ID = 'fibonacci';
const LIMIT = 16777216n;
const big = (x) => (x === null ? '+Inf' : int(x.toString()).replaceAll('-', '−'));

function intro() {
  return [
    el('p', {}, 'The matrix A = [[1, 1], [1, 0]] shifts a pair of Fibonacci numbers: A·(F(k), F(k−1)) = (F(k+1), F(k)). So Aᵏ = [[F(k+1), F(k)], [F(k), F(k−1)]], and binary exponentiation gets F(k) in about 2·log₂ k products of 2×2 matrices on the GPU (',
      el('code', {}, 'gpu.fibonacciAsync(k)'), '). The numbers are whole, so the question is only: can float32 hold them?'),
    el('p', { class: 'help' }, 'F(0) = 0, F(1) = 1 (the textbook\'s f₀ = f₁ = 1 is F(k + 1) here). The reference is exact: BigInt arithmetic in JavaScript.'),
  ];
}

export default {
  id: ID,
  title: 'Fibonacci numbers: where float32 stops being exact',
  mount(container, ctx) {
    sectionFrame(container, ctx, { id: ID, intro: intro(), presets: FIBONACCI, run: (p, ui) => run(p, ui, ctx) });
  },
};

async function run(preset, ui, ctx) {
  const { gpu } = ctx;
  const G = devName(gpu);
  const rows = [];
  let gpuMs = 0;
  for (const [idx, k] of preset.ks.entries()) {
    if (idx % 25 === 24) await nextFrame();
    const t0 = performance.now();
    const r = await gpu.fibonacciAsync(k);
    gpuMs += performance.now() - t0;
    const exact = fibonacciBig(k);
    const nearest = nearestFloat32Big(exact);
    const gpuBig = Number.isFinite(r.value) ? BigInt(r.value) : null;
    const diff = gpuBig === null ? null : gpuBig - exact;
    const rel = diff === null ? Infinity : exact === 0n ? Math.abs(Number(diff)) : Math.abs(Number(diff)) / Number(exact);
    // How many float32 values lie between the GPU's and the nearest float32 to F(k).
    const steps = gpuBig === null || nearest === null ? null : Number(gpuBig - nearest) / Number(float32SpacingBig(nearest));
    const verdict = gpuBig === exact ? 'exact'
      : gpuBig === null ? (nearest === null ? 'overflow (past float32\'s range)' : 'overflow (an intermediate passed float32\'s range)')
        : gpuBig === nearest ? 'rounded: the nearest float32'
          : `rounded, and ${Math.abs(steps)} float32 step${Math.abs(steps) === 1 ? '' : 's'} off the nearest`;
    rows.push({
      k, exact, gpu: r.value, gpuBig, nearest, diff, rel, steps, passes: r.passes, verdict,
      libExact: r.exact, libExactValue: r.exactValue,
      libAgrees: r.exact === (gpuBig === exact) && (r.exactValue === null || r.exactValue === exact.toString()),
    });
  }

  const firstInexact = rows.find((r) => r.gpuBig !== r.exact);
  // Inexact from the range's first k (k = 40 … 190): the first inexact of the range,
  // not of all k, which is F(37) (odd and above 2²⁴: no float32 holds it).
  const fromStart = firstInexact && firstInexact === rows[0] && rows[0].k > 0;
  const below = fromStart ? ` (the range's first k; F(37) = ${big(fibonacciBig(37))}, odd and above 2²⁴, is the first no float32 holds)` : '';
  const exactRows = rows.filter((r) => r.gpuBig === r.exact);
  const lastExact = exactRows[exactRows.length - 1];
  const worst = rows.reduce((a, r) => (Number.isFinite(r.rel) && (!a || r.rel > a.rel) ? r : a), null);
  const disagreements = rows.filter((r) => !r.libAgrees).length;

  const table = el('div', { class: 'scroll-x fib-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'fibonacci-table-caption' }, el('table', { class: 'app-table fib-table', id: 'fibonacci-table' },
    el('caption', { id: 'fibonacci-table-caption' }, `F(k) on the ${G} (float32) against the exact value (BigInt).${rows.some((r) => r.k === 36 || r.k === 37) ? ' Highlighted: the 2²⁴ edge.' : ''}`),
    el('thead', {}, el('tr', {},
      ['k', t('sec.th.fExact'), `${G} float32`, `${G} − F(k)`, t('sec.th.relError'), t('sec.th.passes'), t('sec.th.verdict')].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows.map((r) => el('tr', {
      'data-k': String(r.k),
      class: `${r.gpuBig === r.exact ? 'exact' : r.gpuBig === null ? 'overflow' : 'inexact'}${r.k === 36 || r.k === 37 ? ' edge' : ''}`,
    },
    el('th', { scope: 'row' }, String(r.k)),
    el('td', { class: 'num', 'data-label': 'exact' }, big(r.exact), r.exact > LIMIT && fibonacciBig(r.k - 1) <= LIMIT ? el('span', { class: 'what' }, '> 2²⁴') : null),
    el('td', { class: 'num', 'data-label': G }, big(r.gpuBig)),
    el('td', { class: 'num', 'data-label': `${G} − F(k)` }, r.diff === null ? '—' : big(r.diff)),
    el('td', { class: 'num', 'data-label': 'relative' }, r.rel === 0 ? '0' : sci(r.rel)),
    el('td', { class: 'num', 'data-label': 'passes' }, String(r.passes)),
    el('td', { 'data-label': 'verdict' }, r.verdict))))));

  const plot = new LinePlot({ title: `Relative error |${G} − F(k)| / F(k)`, xLabel: 'k', yLabel: 'relative error', log: true, label: `relative error of the ${G}'s F(k) against k` });
  ui.output.replaceChildren(
    el('div', { class: 'app-figures wide' }, resultsTable(`${G} against BigInt`, [
      ['last exact F(k)', lastExact ? `F(${lastExact.k}) = ${big(lastExact.exact)}` : 'none in this range'],
      [fromStart ? 'first inexact F(k) in this range' : 'first inexact F(k)', firstInexact ? `F(${firstInexact.k}) = ${big(firstInexact.exact)}, ${G} ${big(firstInexact.gpuBig)}${below}` : 'none in this range', 'float32 holds every whole number only up to 2²⁴ = 16 777 216'],
      ['largest relative error', !worst ? '—' : worst.rel === 0 ? '0: every F(k) here is exact' : `${sci(worst.rel)} at k = ${worst.k}`, 'float32 rounding alone gives at most 2⁻²⁴ ≈ 5.96e−8'],
      ['library\'s exact flag', disagreements ? `disagrees with BigInt ${disagreements} times` : 'agrees with BigInt for every k', 'exact and exactValue of gpu.fibonacciAsync(k)', disagreements ? 'bad' : 'ok'],
      ['time', `${rows.length} calls, ${G} ${msText(gpuMs)} in all`, 'wall time, readback included'],
    ]), plot.element),
    table,
    notes([
      { level: 'ok', kind: 'exact', text: 'Exact up to F(36) = 14 930 352: F(k) is the off-diagonal entry of F^k, and every entry of the matrices multiplied to reach it, every product and every partial sum that form it are whole numbers of at most F(k) < 2²⁴ = 16 777 216, all of which float32 holds. (The diagonal of F^36 already holds F(37), rounded; it is not the entry read.)' },
      { level: 'warn', kind: 'edge', text: 'F(37) = 24 157 817 is above 2²⁴, where float32 numbers are 2 apart: the odd 24 157 817 cannot be stored, and float32 arithmetic gives 24 157 816. Beyond, the gap doubles with every power of two, so the absolute error grows with F(k) while the relative error stays near float32\'s 2⁻²⁴ ≈ 6·10⁻⁸ — a bit above it when the rounding of several passes adds up.' },
      { level: 'bad', kind: 'overflow', text: 'The largest float32 is about 3.4·10³⁸: F(186) ≈ 3.3·10³⁸ still fits, F(187) ≈ 5.4·10³⁸ does not, and from there float32 arithmetic gives +Inf (float64 would go on to F(1476)).' },
    ], 'What is exact'));
  const series = [{ name: `${G} float32`, points: rows.map((r) => [r.k, r.rel]) }];
  const ks = preset.ks;
  plot.set({
    series,
    hlines: [{ y: 2 ** -24, label: 'float32 rounding, 2⁻²⁴' }],
    vlines: ks[0] <= 37 && ks[ks.length - 1] >= 37 ? [{ x: 37, label: 'F(37) > 2²⁴' }] : [],
    note: 'Exact values (relative error 0) sit on the "0" row at the bottom; +Inf (overflow) on the top row.',
  });

  publish(ID, {
    preset: preset.id, status: 'done',
    rows: rows.map((r) => ({ k: r.k, gpu: r.gpu, exact: r.exact.toString(), isExact: r.gpuBig === r.exact, nearest: r.gpuBig !== null && r.gpuBig === r.nearest, rel: r.rel, passes: r.passes, libExact: r.libExact, libAgrees: r.libAgrees })),
    firstInexact: firstInexact ? firstInexact.k : null, lastExact: lastExact ? lastExact.k : null, gpuMs,
  });
  return `Done: ${preset.label}. ${exactRows.length} of ${rows.length} exact${firstInexact ? `; the first inexact ${fromStart ? 'in this range ' : ''}is F(${firstInexact.k})${below}` : ''}.`;
}
