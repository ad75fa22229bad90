// Jacobi iteration for A x = b: x ← D⁻¹(b − O x), each iteration a matrix-vector
// product and an affine pass on the GPU, the stopping test Σ|Δx| < n·ε from a GPU
// reduction. The error per iteration is measured against Gaussian elimination in
// float64, from the iterates gpu.jacobi records with { recordEvery: 1 } (each a
// readback of x, which the solve itself never needs), at a sample of k.
import { el, int, num, sci } from '../ui/format.js';
import { LinePlot } from '../ui/plot.js';
import { distance1, dominanceRatio, gaussSolve, jacobiMatrix, spectralRadius } from '../reference-apps.js';
import { JACOBI } from './presets.js';
import { msText, notes, publish, resultsTable, sectionFrame, timed, timedAsync, devName } from './common.js';

const ID = 'jacobi';

function intro() {
  return [
    el('p', {}, 'Split A = D + O (its diagonal and the rest). A x = b is x = D⁻¹(b − O x), and Jacobi iterates exactly that from x = 0: x ← T x + c with T = −D⁻¹O and c = D⁻¹b, a matrix-vector product and an addition per iteration. It converges when every eigenvalue of T lies inside the unit circle (spectral radius ρ(T) < 1), which holds for strictly diagonally dominant A; the error then shrinks by about ρ(T) per iteration.'),
    el('p', { class: 'help' }, el('code', {}, 'gpu.jacobiAsync(n, A, b, { epsilon })'), ' keeps x on the GPU: whether Σ|Δx| ≤ ε·Σ|x| is decided by two reductions (halving passes down to one texel), never by reading x back. The test is relative, so scaling b does not change when it stops. A Σ|Δx| that grows a million-fold is reported as divergence.'),
  ];
}

export default {
  id: ID,
  title: 'Jacobi iteration: error per iteration',
  mount(container, ctx) {
    sectionFrame(container, ctx, { id: ID, intro: intro(), presets: JACOBI, run: (p, ui) => run(p, ui, ctx) });
  },
};

/** The iterations at which the error is measured: 1…12, then about 14 more spread geometrically, and the last. */
export function sampleIterations(last) {
  const out = new Set();
  for (let k = 1; k <= Math.min(last, 12); k++) out.add(k);
  if (last > 12) {
    const steps = 14;
    for (let s = 1; s <= steps; s++) out.add(Math.round(12 * (last / 12) ** (s / steps)));
  }
  out.add(last);
  return [...out].filter((k) => k >= 1 && k <= last).sort((x, y) => x - y);
}

async function run(preset, ui, ctx) {
  const { gpu } = ctx;
  const G = devName(gpu);
  const { n, epsilon } = preset;
  const { a, b } = preset.build();
  const [xStar, gaussMs] = timed(() => gaussSolve(n, a, b));
  const T = jacobiMatrix(n, a);
  const rho = spectralRadius(n, T);
  const dominance = dominanceRatio(n, a);

  const [res, gpuMs] = await timedAsync(() => gpu.jacobiAsync(n, a, b, { epsilon, recordEvery: 1 }));
  const N = res.iterations;

  // The error of iterate k, from the recorded iterates (history[k - 1] is x_k).
  const samples = xStar ? sampleIterations(N) : [];
  const errors = samples.map((k) => [k, distance1(res.history[k - 1].x, xStar)]);
  const finalError = xStar ? distance1(res.x, xStar) : null;
  let maxRel = null;
  if (xStar) {
    let scale = 0, worst = 0;
    for (let i = 0; i < n; i++) { scale = Math.max(scale, Math.abs(xStar[i])); worst = Math.max(worst, Math.abs(res.x[i] - xStar[i])); }
    maxRel = worst / scale;
  }
  // The stopping line: ε·Σ|x_k|, the size of update the test accepts at iteration k.
  const thresholds = Array.from(res.norms, (v) => epsilon * v);

  const plot = new LinePlot({ title: `Per iteration: the ${G}'s Σ|Δx| and the true error ‖x_k − x*‖₁`, xLabel: 'iteration k', yLabel: 'Σ|·|', log: true, label: 'Jacobi: update size and error per iteration' });
  const verdict = res.converged ? 'converged' : res.diverged ? 'diverged' : 'stopped at maxIterations';
  ui.output.replaceChildren(
    el('div', { class: 'app-figures wide' }, plot.element,
      resultsTable(`${G} (float32) against Gaussian elimination (float64)`, [
        ['result', `${verdict} after ${int(N)} iteration${N === 1 ? '' : 's'}`, res.converged ? `Σ|Δx| = ${sci(res.deltas[N - 1])} ≤ ε·Σ|x| = ${sci(thresholds[N - 1])}` : res.diverged ? 'Σ|Δx| grew past 10⁶ × its first value' : null, res.converged ? 'ok' : 'bad'],
        ['‖x − x*‖₁', finalError === null ? '—' : sci(finalError), 'x*: Gaussian elimination with partial pivoting, float64'],
        ['max |x_i − x*_i| / max |x*_i|', maxRel === null ? '—' : sci(maxRel)],
        ['diagonal dominance min |a_ii| / Σ_{j≠i} |a_ij|', num(dominance, 4), dominance > 1 ? 'strictly dominant: Jacobi must converge' : 'not dominant: no guarantee', dominance > 1 ? 'ok' : 'warn'],
        ['ρ(T), T = −D⁻¹O (float64 estimate)', num(rho, 4), rho < 1 ? `< 1: the error is multiplied by about ${num(rho, 2)} each iteration` : '> 1: the error grows, Jacobi diverges', rho < 1 ? 'ok' : 'bad'],
        ['time', `gpu.jacobi ${msText(gpuMs)} (reading x back every iteration; the error curve samples them) · Gauss in JS ${msText(gaussMs)}`],
      ])),
    notes([
      res.diverged ? { level: 'bad', kind: 'diverged', text: `Diverged: A is not diagonally dominant and ρ(T) ≈ ${num(rho, 3)} > 1, so each iteration multiplies the error by about that much. The library stops when Σ|Δx| has grown a million-fold and reports diverged: true, so the x it hands back (how far off it is shows above) is flagged rather than passed off as an answer. Gaussian elimination solves this system without trouble.` } : null,
      { level: 'info', kind: 'precision', text: 'Not exact: x lives in float32, so the error stops falling near float32\'s resolution of x (about n·2⁻²⁴·max|x_i|, more when A is ill-conditioned), whatever ε asks for. Σ|Δx| is what the GPU can see cheaply; the true error needs x*, which the iteration does not know: when ρ(T) is close to 1 the error is larger than the last update by about 1/(1 − ρ).' },
    ], 'What is exact'));
  plot.set({
    series: [
      { name: `Σ|Δx| (${G} reduction, every iteration)`, points: Array.from(res.deltas, (v, i) => [i + 1, v]) },
      ...(xStar ? [{ name: '‖x_k − x*‖₁ vs float64 (sampled)', points: errors }] : []),
      { name: `ε·Σ|x_k| (stop below it), ε = ${sci(epsilon)}`, points: thresholds.map((v, i) => [i + 1, v]) },
    ],
  });

  publish(ID, {
    preset: preset.id, status: 'done', n, converged: res.converged, diverged: res.diverged, iterations: N,
    deltas: Array.from(res.deltas), norms: Array.from(res.norms), errors, finalError, maxRel, rho, dominance, gpuMs, x: res.x,
  });
  const text = `Done: ${preset.label}. ${verdict[0].toUpperCase()}${verdict.slice(1)} after ${N} iterations${finalError !== null ? `; ‖x − x*‖₁ = ${sci(finalError)}` : ''}.`;
  return { text, tone: res.converged ? '' : 'warn' };
}
