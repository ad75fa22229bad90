// Eigenvalues by the power method in its "log" form (square B, normalise, repeat:
// B^(2^t) in t passes), then deflation B − λvvᵀ for the next pair. The matrices are
// built as QΛQᵀ in float64 with Q from Gram–Schmidt, so the spectrum is known: the
// plots show each estimate's distance to the true eigenvalue, squaring by squaring.
import { el, int, num, sci, short } from '../ui/format.js';
import { LinePlot } from '../ui/plot.js';
import { column, eigenResidual, sinAngle } from '../reference-apps.js';
import { EIGEN } from './presets.js';
import { msText, nextFrame, notes, publish, resultsTable, sectionFrame, timed, timedAsync, devName } from './common.js';
import { t } from '../i18n/index.js';

const ID = 'eigen';
const TOLERANCE = 1e-4; // the library's RESIDUAL_TOLERANCE (src/apps/eigen.rs)

function intro() {
  return [
    el('p', {}, 'The power method: Aᵏx points more and more along the eigenvector of the eigenvalue of largest |λ|, since the other components shrink like (λ₂/λ₁)ᵏ. Squaring gets there fast: B, B², B⁴, … reach A^(2^t) in t products; A is first divided by a power of two near its largest entry and each square by its largest entry, so nothing overflows or underflows, whatever the scale of A. Then v = A^(2^t)x / ‖·‖ and λ = vᵀAv. ',
      el('strong', {}, 'Deflation'), ' B = A − λvvᵀ removes that pair (for symmetric A) and the same squaring finds the next.'),
    el('p', { class: 'help' }, el('code', {}, 'gpu.eigenAsync(n, A, k)'), ' stops a pair when ‖Bv − λv‖ / ‖B‖_F ≤ 10⁻⁴, and reports one that does not get there as not converged. The matrices here are QΛQᵀ built in float64 (Q by Gram–Schmidt on seeded random vectors), so the true eigenvalues and eigenvectors are known.'),
  ];
}

export default {
  id: ID,
  title: 'Eigenvalues by the power method: convergence per squaring',
  mount(container, ctx) {
    sectionFrame(container, ctx, { id: ID, intro: intro(), presets: EIGEN, run: (p, ui) => run(p, ui, ctx) });
  },
};

async function run(preset, ui, ctx) {
  const { gpu } = ctx;
  const G = devName(gpu);
  const { n, k } = preset;
  const [{ a, a64, q, lambdas }, buildMs] = timed(() => preset.build());
  await nextFrame();
  const [res, gpuMs] = await timedAsync(() => gpu.eigenAsync(n, a, k));

  // The known spectrum by decreasing |λ|; pair p is compared with the p-th of them
  // (with the nearest among equal magnitudes, for ±λ).
  const order = Array.from(lambdas.keys()).sort((x, y) => Math.abs(lambdas[y]) - Math.abs(lambdas[x]));
  const pairs = res.pairs.map((p, idx) => {
    const expected = lambdas[order[idx]];
    const same = order.filter((c) => Math.abs(Math.abs(lambdas[c]) - Math.abs(expected)) < 1e-12);
    const nearest = same.reduce((best, c) => (Math.abs(p.value - lambdas[c]) < Math.abs(p.value - lambdas[best]) ? c : best), same[0]);
    const truth = lambdas[nearest];
    const v = Float64Array.from(p.vector);
    return {
      value: p.value, truth, converged: p.converged, squarings: p.history.length,
      error: Math.abs(p.value - truth), relError: Math.abs(p.value - truth) / Math.abs(lambdas[order[0]]),
      angle: same.length === 1 ? sinAngle(v, column(n, q, nearest)) : null,
      residual: p.residuals[p.residuals.length - 1] ?? null,
      residual64: eigenResidual(n, a64, v, p.value),
      history: Array.from(p.history), residuals: Array.from(p.residuals), ambiguous: same.length > 1, vector: p.vector,
      // per squaring: the distance to the nearest known eigenvalue of that magnitude
      errors: Array.from(p.history, (h) => Math.min(...same.map((c) => Math.abs(h - lambdas[c])))),
    };
  });
  const failed = pairs.filter((p) => !p.converged).length;

  const errPlot = new LinePlot({ title: 'Eigenvalue error |λ̂ − λ| after each squaring', xLabel: 'squaring t (B^(2^t))', yLabel: '|λ̂ − λ|', log: true, label: 'eigenvalue error per squaring' });
  const resPlot = new LinePlot({ title: 'Residual ‖Bv − λ̂v‖ / ‖B‖_F (the stopping test)', xLabel: 'squaring t', yLabel: 'relative residual', log: true, label: 'residual per squaring' });
  const table = el('div', { class: 'scroll-x' }, el('table', { class: 'app-table eigen-pairs', id: 'eigen-pairs' },
    el('caption', {}, `${pairs.length} of the ${k} pair${k > 1 ? 's' : ''} asked for computed (the run stops at the first that does not converge). Known λ: from Λ; the float64 residual uses the original A.`),
    el('thead', {}, el('tr', {}, [t('sec.th.pair'), t('sec.th.knownLambda'), `${G} λ̂`, '|λ̂ − λ|', 'sin ∠(v̂, v)', t('sec.th.residualOf', { dev: G }), t('sec.th.residualOf', { dev: 'float64' }), t('sec.th.squarings'), t('sec.th.converged')].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, pairs.map((p, i) => el('tr', { 'data-pair': String(i + 1) },
      el('th', { scope: 'row' }, String(i + 1)),
      el('td', { class: 'num', 'data-label': 'known λ' }, p.ambiguous ? `±${num(Math.abs(p.truth), 8)}` : num(p.truth, 8)),
      el('td', { class: 'num', 'data-label': `${G} λ̂` }, num(p.value, 8)),
      el('td', { class: 'num', 'data-label': '|λ̂ − λ|' }, sci(p.error)),
      el('td', { class: 'num', 'data-label': 'sin ∠' }, p.angle === null ? 'two directions' : sci(p.angle)),
      el('td', { class: 'num', 'data-label': `residual (${G})` }, sci(p.residual)),
      el('td', { class: 'num', 'data-label': 'residual (float64)' }, sci(p.residual64)),
      el('td', { class: 'num', 'data-label': 'squarings' }, String(p.squarings)),
      el('td', { class: p.converged ? 'ok' : 'bad', 'data-label': 'converged' }, p.converged ? 'yes' : 'no: does not converge'))))));
  const top = order.slice(0, Math.min(n, k + 1)).map((c) => short(lambdas[c], 6)).join(', '); // 9.5, not 9.50000
  ui.output.replaceChildren(
    table,
    el('div', { class: 'app-figures wide' }, errPlot.element, resPlot.element),
    resultsTable('The matrix and the run', [
      ['A', `${int(n)}×${int(n)} symmetric, = QΛQᵀ (seed ${preset.seed})`, `largest |λ| first: ${top}, …`],
      ['ratio |λ₂/λ₁|', num(Math.abs(lambdas[order[1]] / lambdas[order[0]]), 4), 'each squaring squares it: the error shrinks like this^(2^t)'],
      ['converged pairs', `${pairs.length - failed} of the ${k} asked for`, null, failed ? 'bad' : 'ok'],
      ['time', `${G} ${msText(gpuMs)} · QΛQᵀ in JS ${msText(buildMs)}`, `the ${G} time includes one small readback per squaring (v and Bv)`],
    ]),
    notes([
      failed && pairs.some((p) => p.ambiguous)
        ? { level: 'bad', kind: 'not-converged', text: `Two eigenvalues of equal magnitude (${pairs.find((p) => p.ambiguous) ? `±${num(Math.abs(pairs.find((p) => p.ambiguous).truth), 4)}` : ''}): in exact arithmetic B^(2^t) tends to the projection onto both eigenvectors, so v̂ never settles on one of them and the residual stays large. In float32 the plot goes further: rounding A makes |λ₁| and |λ₂| differ by about 10⁻⁷, and after some 2²¹ of them that difference starts to pick one side (the error dips); a few squarings later each squaring's own rounding, doubled at every step, takes over and the estimate wanders. The λ̂ in the table is the last estimate, no eigenvalue; the library reports "not converged" rather than a wrong eigenvalue.` }
        : failed ? { level: 'bad', kind: 'not-converged', text: 'A pair did not reach the residual tolerance within the squarings allowed.' } : null,
      { level: 'info', kind: 'precision', text: `Not exact: float32 products, and λ̂ = v̂ᵀAv̂ is only as good as v̂. For symmetric A the Rayleigh quotient's error is about ‖r‖²/gap, r = Av̂ − λ̂v̂ and gap the distance to the nearest other eigenvalue, and the angle to the true eigenvector about ‖r‖/gap: close eigenvalues cost accuracy (a relative residual of 10⁻⁵ gave |λ̂ − λ| ≈ 3·10⁻⁷ at a gap of 0.5 in the "close" preset). Later pairs come from the deflated B, which carries the earlier pairs' errors. The float32 rounding of A itself moves the eigenvalues by at most about n·2⁻²⁴·max|a_ij|.` },
    ], 'What is exact'));
  const points = (arr) => arr.map((v, i) => [i + 1, v]);
  errPlot.set({ series: pairs.map((p, i) => ({ name: `pair ${i + 1} (λ = ${p.ambiguous ? '±' : ''}${num(p.ambiguous ? Math.abs(p.truth) : p.truth, 4)})`, points: points(p.errors) })),
    note: pairs.some((p) => p.ambiguous) ? 'With ±λ, the error is measured to the nearer of the two.' : '',
  });
  resPlot.set({
    series: pairs.map((p, i) => ({ name: `pair ${i + 1}`, points: points(p.residuals) })),
    hlines: [{ y: TOLERANCE, label: 'tolerance 10⁻⁴' }],
  });

  publish(ID, { preset: preset.id, status: 'done', n, k, gpuMs, pairs });
  const text = `Done: ${preset.label}. ${pairs.length - failed} of the ${k} pairs asked for converged${failed ? `; pair ${pairs.length} does not, and the run stops there` : ''}.`;
  return { text, tone: failed ? 'warn' : '' };
}
