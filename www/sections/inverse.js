// The inverse by power series: A⁻¹ = d·Σ Cᵏ with C = I − dA, summed by the doubling
// product (I + C)(I + C²)(I + C⁴)… on the GPU. The library's default runs the series
// on the normal equations (Newton–Schulz, X ← X(2I − AX)), which converges for every
// invertible A; the chapter's form needs every eigenvalue of I − dA inside the unit
// circle. Shown: the residual ‖AX − I‖ per doubling for each method, and a float64
// check of the final X (its residual, and its distance to Gauss–Jordan's inverse).
import { clockNote, el, int, minusSigns, num, sci } from '../ui/format.js';
import { LinePlot } from '../ui/plot.js';
import { condition1, gaussInverse, inverseResidual, relativeFrobenius, seriesMatrix, spectralRadius } from '../reference-apps.js';
import { INVERSE } from './presets.js';
import { matrixTable, msText, nextFrame, notes, publish, resultsTable, sectionFrame, timed, timedAsync, devName } from './common.js';
import { t } from '../i18n/index.js';

const ID = 'inverse';

function intro() {
  return [
    el('p', {}, 'If C = I − dA is "small", A⁻¹ = d·(I + C + C² + C³ + …). The sum of the first 2ᵗ terms is the product (I + C)(I + C²)(I + C⁴)…(I + C^(2^(t−1))): t doublings, each two matrix products on the GPU, square C and multiply. The textbook asks for max |c_ij| < 1; what the series really needs is every eigenvalue of C inside the unit circle (spectral radius ρ(C) < 1).'),
    el('p', { class: 'help' }, el('code', {}, 'gpu.inverseAsync(n, A)'), ' uses Newton–Schulz by default: the same series for AᵀA, with X₀ = d·Aᵀ and d = 1/(‖A‖₁‖A‖∞), whose C = I − d·AᵀA has eigenvalues in [0, 1) for every invertible A; the doubling is then X ← X(2I − AX). ',
      el('code', {}, '{ method: "series" }'), ' runs the chapter\'s form. Each run stops when ‖AX − I‖_F stops improving.'),
  ];
}

export default {
  id: ID,
  title: 'Inverse by power series: residual per doubling',
  mount(container, ctx) {
    sectionFrame(container, ctx, { id: ID, intro: intro(), presets: INVERSE, run: (p, ui) => run(p, ui, ctx) });
  },
};

async function run(preset, ui, ctx) {
  const { gpu } = ctx;
  const G = devName(gpu);
  const { n } = preset;
  const a = preset.build();
  const [inv64, gaussMs] = timed(() => gaussInverse(n, a));
  const cond = inv64 ? condition1(n, a) : null;

  const runs = [];
  for (const spec of preset.runs) {
    ui.setStatus('running', `gpu.inverseAsync: ${spec.name}…`);
    await nextFrame();
    const [r, ms] = await timedAsync(() => gpu.inverseAsync(n, a, spec.options));
    const check = inverseResidual(n, a, r.matrix);
    const rec = {
      name: spec.name, method: spec.options.method || 'newton-schulz', d: r.scale, converged: r.converged,
      residuals: Array.from(r.residuals), message: r.message, ms, check,
      distance: inv64 ? relativeFrobenius(r.matrix, inv64) : null, matrix: r.matrix,
    };
    if (rec.method === 'series') {
      const c = seriesMatrix(n, a, r.scale);
      rec.maxC = c.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
      rec.rho = spectralRadius(n, c);
    }
    runs.push(rec);
  }

  const plot = new LinePlot({ title: `Residual ‖AX − I‖_F after each doubling (from the ${G})`, xLabel: 'doubling (0: the start X₀)', yLabel: '‖AX − I‖_F', log: true, label: 'residual of the inverse per doubling' });
  // residuals[0] is X₀'s, then one per doubling; the answer is the best X.
  const best = (r) => r.residuals.reduce((m, v) => (v < m ? v : m), Infinity);
  // Diverged: the last residual is not finite or above X₀'s; otherwise it stalled (float32's floor, or a singular A).
  const diverged = (r) => !(r.residuals[r.residuals.length - 1] <= r.residuals[0]);
  const rows = runs.map((r) => el('tr', { 'data-method': r.method },
    el('th', { scope: 'row' }, r.name),
    el('td', { 'data-label': 'converged', class: r.converged ? 'ok' : 'bad' }, r.converged ? 'yes' : diverged(r) ? 'no: diverges' : 'no: stalled above 10⁻³'),
    el('td', { class: 'num', 'data-label': 'd' }, num(r.d, 4)),
    el('td', { class: 'num', 'data-label': 'doublings run' }, `${r.residuals.length - 1} (best after ${r.residuals.indexOf(best(r))})`),
    el('td', { class: 'num', 'data-label': `best ‖AX − I‖ (${G})` }, sci(best(r))),
    el('td', { class: 'num', 'data-label': 'residual (float64)' }, sci(r.check)),
    el('td', { class: 'num', 'data-label': 'vs float64 inverse' }, r.distance === null ? 'no inverse' : sci(r.distance)),
    el('td', { class: 'num', 'data-label': 'time' }, msText(r.ms, { bare: true }))));
  const seriesRuns = runs.filter((r) => r.rho !== undefined);
  const small = n <= 6;
  ui.output.replaceChildren(
    el('div', { class: 'scroll-x' }, el('table', { class: 'app-table inverse-runs', id: 'inverse-runs' },
      el('caption', {}, `Each method on the ${G} (float32); converged means the ${G}'s ‖AX − I‖_F fell below 10⁻³. Checked in float64: ‖AX − I‖_F recomputed from the X the ${G} returned (the best of its doublings), and ‖X − A⁻¹‖_F / ‖A⁻¹‖_F against Gauss–Jordan. `, el('span', { class: 'clock-note' }, clockNote())),
      el('thead', {}, el('tr', {}, [t('sec.th.method'), t('sec.th.converged'), 'd', t('sec.th.doublings'), t('sec.th.bestAx', { dev: G }), t('sec.th.axFloat64'), t('sec.th.vsInverse'), t('sec.th.time')].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, rows))),
    el('div', { class: 'app-figures wide' }, plot.element,
      el('div', {},
        resultsTable('The matrix', [
          ['n', int(n)],
          ['invertible (Gauss–Jordan, float64)', inv64 ? 'yes' : 'no: singular', null, inv64 ? null : 'bad'],
          ['condition number ‖A‖₁·‖A⁻¹‖₁', cond === null ? '∞' : sci(cond), 'float32 keeps ~7 digits: expect to lose about log₁₀ of this'],
          ...seriesRuns.map((r) => [`the series' C = I − dA (d = ${num(r.d, 4)})`, `max |c_ij| = ${num(r.maxC, 4)} · ρ(C) ≈ ${num(r.rho, 4)}`, r.rho < 1 ? 'ρ(C) < 1: the series converges' : 'ρ(C) ≥ 1: the series diverges, whatever max |c_ij| says', r.rho < 1 ? 'ok' : 'bad']),
          ['time', `Gauss–Jordan in JS ${msText(gaussMs)}`],
        ]),
        small ? el('div', { class: 'matrices' },
          matrixTable('A', n, n, a, (v) => num(v, 4)),
          ...runs.map((r) => matrixTable(`X, ${r.name}`, n, n, r.matrix, (v) => num(v, 4))),
          inv64 ? matrixTable('A⁻¹ by Gauss–Jordan (float64)', n, n, inv64, (v) => num(v, 4)) : null) : null)),
    notes(runs.map((r) => ({ level: r.converged ? 'ok' : 'bad', kind: r.converged ? 'converged' : 'not-converged', text: `${r.name}: ${minusSigns(r.message)}.` })).concat([
      preset.id === 'singular-16' ? { level: 'warn', kind: 'singular', text: 'Why the residual ends at exactly 1: for a singular A, Newton–Schulz converges to the pseudo-inverse A⁺, and AA⁺ is the orthogonal projection onto the range of A. I − AA⁺ then projects onto what A misses, so ‖AA⁺ − I‖_F = √(n − rank A): 1 here, where A lacks one dimension. The X returned is A⁺ as far as float32 gets, not an inverse.' } : null,
      preset.id === 'hilbert-5' ? { level: 'warn', kind: 'stored', text: 'Why the float64 A⁻¹ is not the textbook one (whole numbers: 25, −300, 1050, −1400, 630 in its first row): A is stored in float32, so 1/3 is 0.33333334… and 1/7 is 0.14285715…; with a condition number of about 9.4·10⁵ those changes of 10⁻⁸ move the inverse by about 0.1 %. Gauss–Jordan inverts the stored A exactly enough in float64; the textbook inverse belongs to the real 1/(i + j + 1).' } : null,
      preset.id === 'half-j-4' ? { level: 'warn', kind: 'condition', text: 'The chapter\'s test max |c_ij| < 1 holds (every |c_ij| = ½), yet the series diverges: A = I − ½J has the eigenvalues 1 and −1, so C = I − dA has 1 − d and 1 + d, and 1 + d > 1 for every d > 0. No choice of d can make this series converge; Newton–Schulz works on AᵀA = I, whose eigenvalues are all 1. (A is its own inverse here.)' } : null,
      runs.some((r) => r.check === 0) ? { level: 'ok', kind: 'exact', text: `Exact here (${runs.filter((r) => r.check === 0).map((r) => r.name).join(', ')}): ‖AX − I‖ is 0 even recomputed in float64, because the entries of A, of its inverse and of every product along the way are short binary fractions (like ½) that float32 holds exactly. In general they are not, as below.` } : null,
      { level: 'info', kind: 'precision', text: `${runs.some((r) => r.check === 0) ? 'In general not exact' : 'Not exact'}: every product rounds to float32. Newton–Schulz squares the error matrix I − AX at each doubling (I − AX′ = (I − AX)²), so its eigenvalues go e, e², e⁴, … and the residual falls quadratically once it is below 1, until float32 rounding stops it; it then stops improving and the run ends. How low that floor is depends on A: n·2⁻²⁴ times the condition number is a pessimistic bound (the presets here end 10–100 times lower). The GPU's own residual is computed in float32 as well: the float64 recomputation from the same X is the honest number.` },
    ]), 'What is exact'));
  plot.set({
    series: runs.map((r) => ({ name: r.name, points: r.residuals.map((v, i) => [i, v]) })),
    hlines: [{ y: Math.sqrt(n), label: `√n = ${num(Math.sqrt(n), 3)}: the residual of X = 0` }],
    note: 'A residual of 0 (exact in float32) sits on the "0" row; ±Inf or NaN (a diverging series) on the top row.',
  });

  publish(ID, {
    preset: preset.id, status: 'done', n, invertible: !!inv64, cond, gaussMs,
    runs, // each with the GPU's X as `matrix`
  });
  const text = `Done: ${preset.label}. ${runs.map((r) => `${r.name}: ${r.converged ? `converged, ‖AX − I‖ = ${sci(r.check)} (float64)` : `‖AX − I‖ stayed above the 10⁻³ tolerance (best ${sci(r.check)} in float64)`}`).join('; ')}.`;
  return { text, tone: runs.every((r) => r.converged) ? '' : 'warn' };
}

