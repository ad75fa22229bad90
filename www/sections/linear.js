// "Linear systems and sparse matrices", the elimination half (issue 16, point 4):
//   1. Gaussian elimination step by step: gpu.luAsync(n, A, k) stopped after each
//      pivot, the matrix after every step as a heatmap with the pivot row marked;
//   2. Gaussian elimination (gpu.solveAsync), the power-series inverse
//      (gpu.inverseAsync, x = X·b) and Jacobi (gpu.jacobiAsync) side by side on the
//      same matrix: residuals, passes, times.
// Their fields live in the address (config.js SECTION_PARAMS: lu*, cmp*): a link
// shows the same run. www/app/sections.js mounts this on #linear-body. Each part marks its
// element's data-status (idle | running | done | error) and leaves its last run in
// window.__linear[part] for the page tests.
import { clockNote, count, el, int, sci } from '../ui/format.js';
import { backendName, msText, nextFrame, timedAsync, devName } from './common.js';
import { numberField, readNumber, selectField } from './partitioned-ui.js';
import { fieldGroup, partRunner } from './part-runner.js';
import { KINDS, residual, stepCanvas, times, uniform } from './linear-matrices.js';
import { CMP_KINDS, LU_KINDS } from '../config.js';
import { t } from '../i18n/index.js';

function publish(part, record) {
  window.__linear = window.__linear || {};
  window.__linear[part] = record;
}

const kindOptions = (keys) => keys.map((k) => [k, KINDS[k].label]);

/**
 * A part's matrix, n and seed fields, named as their URL parameters (`${prefix}Kind`,
 * `${prefix}N`, `${prefix}Seed`) and filled from the address's `state`.
 */
function sizeFields(prefix, kinds, maxN, state) {
  const f = {
    kind: selectField(`${prefix}Kind`, t('sec.f.matrix'), kindOptions(kinds), state[`${prefix}Kind`]),
    n: numberField(`${prefix}N`, 'n', { min: 1, max: maxN, value: state[`${prefix}N`] }),
    seed: numberField(`${prefix}Seed`, t('sec.f.seed'), { min: 0, max: 4294967295, value: state[`${prefix}Seed`] }),
  };
  return {
    f,
    /** The fields as { state } (their URL parameters), or { bad: [why, …] }. */
    read() {
      const n = readNumber(f.n.input, 1, maxN, true);
      const seed = readNumber(f.seed.input, 0, 4294967295, true);
      const bad = [n, seed].filter((r) => 'why' in r).map((r) => r.why);
      if (bad.length) return { bad };
      return { state: { [`${prefix}Kind`]: f.kind.select.value, [`${prefix}N`]: n.value, [`${prefix}Seed`]: seed.value } };
    },
    /** n, the seed and the kind of a state that `read` returned. */
    of: (state) => ({ n: state[`${prefix}N`], seed: state[`${prefix}Seed`], kind: state[`${prefix}Kind`] }),
    /** The fields as the address says (Back / Forward). */
    set(s) {
      f.kind.select.value = s[`${prefix}Kind`];
      f.n.input.value = String(s[`${prefix}N`]);
      f.seed.input.value = String(s[`${prefix}Seed`]);
    },
  };
}

function stepsPart(ctx, state) {
  const part = el('div', { class: 'part', id: 'linear-steps' });
  const fields = sizeFields('lu', LU_KINDS, 12, state);
  const { f } = fields;
  const button = el('button', { type: 'button', class: 'primary', id: 'linear-steps-run' }, t('sec.linear.steps'));
  const output = el('div', { class: 'part-output', id: 'linear-steps-output' });
  const r = partRunner(ctx, part, 'linear-steps-status', t('sec.chooseMatrix'), {
    buttons: [button], output, read: fields.read, work: (s) => stepsDemo(ctx, fields.of(s), output), onError: (record) => publish('steps', record),
  });
  button.addEventListener('click', r.run);
  part.append(
    el('h3', { id: 'linear-steps-h' }, 'Gaussian elimination with partial pivoting, step by step'),
    el('p', {}, 'Step k + 1 looks down column k for the row with the largest |a', el('sub', {}, 'ik'), '| (the pivot), swaps it into row k, and subtracts l', el('sub', {}, 'i'), ' = a', el('sub', {}, 'ik'), '/a', el('sub', {}, 'kk'), ' times row k from every row below, which zeroes the column under the pivot; l', el('sub', {}, 'i'), ' is kept where the zero would be. Taking the largest keeps every |l', el('sub', {}, 'i'), '| ≤ 1, so errors are not magnified, and it is what gets past a zero on the diagonal. After n steps the matrix holds U on and above the diagonal and L below: P·A = L·U. (Steps are counted from 1 here, rows and columns from 0, as the library\'s pivots are; its ', el('code', {}, 'step'), ' of a singular matrix counts from 0 too: step = k is column k, the page\'s step k + 1.)'),
    el('p', {}, 'The chapter\'s CUDA version runs one thread per row with the pivot row in shared memory. Here each step is passes: on WebGPU ', el('code', {}, 'wgsl/lu/pivot.wgsl'), ' (one workgroup: the pivot by a reduction in workgroup memory, the swap) then ', el('code', {}, 'wgsl/lu/update.wgsl'), ' (one invocation per entry of the trailing block); on WebGL ', el('code', {}, 'glsl/lu/pivot.frag'), ' and ', el('code', {}, 'glsl/lu/eliminate.frag'), ', one fragment per entry. Nothing is read back between steps: the pivots and a "singular at step k" mark stay on the GPU. Below, ', el('code', {}, 'gpu.luAsync(n, A, k)'), ' is stopped after each k to show the matrix; red positive, blue negative, the pivot row of each step outlined, the multipliers framed.'),
    fieldGroup('linear-steps-h', ...Object.values(f).map((x) => x.element)),
    el('div', { class: 'buttons' }, button),
    r.status.element, output);
  return { element: part, run: r.run, set: (s) => follow(fields, r, s) };
}

/** Back / Forward: the fields as the address says, and results of other fields gone. */
function follow(fields, r, state) {
  fields.set(state);
  r.follow(state);
}

async function stepsDemo(ctx, { n, seed, kind }, output) {
  const { gpu } = ctx;
  const a = KINDS[kind].make(n, seed);
  let range = 0;
  for (const v of a) range = Math.max(range, Math.abs(v));
  const figures = [];
  let last = null;
  for (let k = 0; k <= n; k++) {
    const r = await gpu.luAsync(n, a, k);
    last = r;
    const pivot = k > 0 ? r.pivots[k - 1] : null;
    // Steps in words count from 1, as the figures do; rows and columns from 0, as pivots[] does.
    const label = k === 0 ? 'A' : `after step ${k} (column ${k - 1}): pivot row ${pivot}${pivot !== k - 1 ? ` swapped with row ${k - 1}` : ' (no swap)'}`;
    figures.push(el('figure', { class: 'lu-step' },
      stepCanvas(n, k === 0 ? a : r.lu, { pivotRow: k > 0 ? k - 1 : null, done: k, range: range || 1, label }),
      el('figcaption', {}, label)));
  }
  const full = await timedAsync(() => gpu.luAsync(n, a));
  const [res, ms] = full;
  output.replaceChildren(
    el('div', { class: 'lu-steps' }, figures),
    el('p', {}, res.singular
      ? `Singular at step ${res.step + 1} of ${n} (column ${res.step}; the result's step = ${res.step} counts from 0): the pivot there was at most n·2⁻²³·max|aᵢⱼ| = ${sci(n * 2 ** -23 * range)}, indistinguishable from rounding in float32; that step eliminated nothing, so the factors hold no NaN.`
      : `Pivots ${Array.from(res.pivots).join(', ')}; ${int(res.passes)} ${devName(gpu)} passes, ${msText(ms)} (upload and readback included).`));
  publish('steps', { status: 'done', backend: gpu.backend, n, kind, pivots: Array.from(last.pivots), singular: res.singular, step: res.step, passes: res.passes, figures: figures.length });
  return res.singular ? `Done: singular at step ${res.step + 1} of ${n}.` : `Done: ${count(n, 'step')} on ${backendName(gpu)}.`;
}

function comparePart(ctx, state) {
  const part = el('div', { class: 'part', id: 'linear-compare' });
  const fields = sizeFields('cmp', CMP_KINDS, 512, state);
  const { f } = fields;
  const button = el('button', { type: 'button', class: 'primary', id: 'linear-compare-run' }, t('sec.linear.compare'));
  const output = el('div', { class: 'part-output', id: 'linear-compare-output' });
  const r = partRunner(ctx, part, 'linear-compare-status', t('sec.chooseMatrix'), {
    buttons: [button], output, read: fields.read, work: (s) => compareDemo(ctx, fields.of(s), output), onError: (record) => publish('compare', record),
  });
  button.addEventListener('click', r.run);
  part.append(
    el('h3', { id: 'linear-compare-h' }, 'Three ways to solve A·x = b'),
    el('p', {}, 'Elimination is direct: n steps, done. The power-series inverse (A⁻¹ = I + C + C² + …, summed by doubling; Newton–Schulz by default) and Jacobi (x ← D⁻¹(b − O·x)) are iterations of matrix products, each pass embarrassingly parallel, but they converge only on some matrices and at a rate the matrix sets. Each runs here on the same A and b (b uniform in [−1, 1)); the residual ‖A·x − b‖/‖b‖ of each x is computed in float64.'),
    fieldGroup('linear-compare-h', ...Object.values(f).map((x) => x.element)),
    el('div', { class: 'buttons' }, button),
    r.status.element, output);
  return { element: part, run: r.run, set: (s) => follow(fields, r, s) };
}

async function compareDemo(ctx, { n, seed, kind }, output) {
  const { gpu } = ctx;
  const a = KINDS[kind].make(n, seed);
  const b = uniform(seed + 1000, n);
  // Compile each method's shaders on a 2×2 system, so that the times are the runs'.
  const small = Float32Array.of(2, 1, 1, 2), b2 = Float32Array.of(1, 1);
  await gpu.solveAsync(2, small, b2, 1);
  await gpu.inverseAsync(2, small);
  await gpu.jacobiAsync(2, small, b2);
  const rows = [];
  const [lu, luMs] = await timedAsync(() => gpu.solveAsync(n, a, b, 1));
  rows.push({ method: 'Gaussian elimination', call: 'gpu.solveAsync(n, A, b)', residual: lu.residual, passes: lu.passes, ms: luMs,
    note: lu.singular ? `singular at step ${lu.step + 1} of ${n} (column ${lu.step})` : 'direct: n pivot steps' });
  await nextFrame();
  const [inv, invMs] = await timedAsync(() => gpu.inverseAsync(n, a));
  const invX = times(n, inv.matrix, b);
  // A with no inverse to look for (zero, or not finite) gets no iterate: no x, no doubling.
  const noIterate = inv.residuals.length === 0;
  rows.push({ method: 'power-series inverse', call: 'gpu.inverseAsync(n, A), then x = X·b', residual: noIterate ? null : residual(n, a, invX, b), passes: Math.max(0, inv.residuals.length - 1), ms: invMs,
    // The library's message says why on its own ("does not converge: …", "A is zero: …").
    note: inv.converged ? 'converged (doublings)' : inv.message || 'did not converge' });
  await nextFrame();
  // Jacobi divides by the diagonal: with a zero there it does not apply (the library
  // refuses it), which is a row of the comparison, not a failure of the other two.
  const zero = Array.from({ length: n }, (_, i) => i).find((i) => a[i * n + i] === 0);
  let jacobiSaid;
  if (zero !== undefined) {
    jacobiSaid = 'Jacobi does not apply (a zero on the diagonal)';
    rows.push({ method: 'Jacobi', call: 'gpu.jacobiAsync(n, A, b)', residual: null, passes: null, ms: null, applicable: false,
      note: `not applicable: a[${zero}][${zero}] = 0, a zero on the diagonal, and Jacobi divides by the diagonal (x ← D⁻¹(b − O·x))` });
  } else {
    const [jac, jacMs] = await timedAsync(() => gpu.jacobiAsync(n, a, b, { maxIterations: 1000 }));
    rows.push({ method: 'Jacobi', call: 'gpu.jacobiAsync(n, A, b)', residual: residual(n, a, jac.x, b), passes: jac.iterations, ms: jacMs,
      note: jac.converged ? 'converged (iterations)' : jac.diverged ? 'diverged' : 'stopped at 1000 iterations' });
    jacobiSaid = jac.converged ? `Jacobi converged (residual ${sci(rows[2].residual)})` : jac.diverged ? 'Jacobi diverged' : 'Jacobi stopped at 1000 iterations';
  }
  output.replaceChildren(el('div', { class: 'scroll-x' }, el('table', { class: 'app-results', id: 'linear-compare-table' },
    el('caption', {}, `A: ${KINDS[kind].label}, n = ${n}, on ${backendName(gpu)}. `, el('span', { class: 'clock-note' }, clockNote())),
    el('thead', {}, el('tr', {}, ['method', 'residual', 'passesDoublings', 'time', 'note'].map((h) => el('th', {}, t(`sec.th.${h}`))))),
    el('tbody', {}, rows.map((x) => el('tr', { 'data-applicable': String(x.applicable !== false) },
      el('td', {}, x.method, el('br'), el('code', {}, x.call)),
      el('td', { class: 'num' }, x.residual === null ? '—' : sci(x.residual)),
      el('td', { class: 'num' }, x.passes === null ? '—' : int(x.passes)),
      el('td', { class: 'num' }, x.ms === null ? '—' : msText(x.ms, { bare: true })),
      el('td', {}, x.note))))),
  ), el('p', { class: 'help' }, 'Which suits which: elimination solves any non-singular matrix in a fixed n steps (on a GPU each step is a pivot pass and an update pass, then back substitution follows: 2n short passes on WebGPU, 3n on WebGL, so small systems are latency-bound) and says when the matrix is singular; Jacobi needs diagonal dominance (more exactly, D⁻¹O of spectral radius below 1) and then takes few cheap passes; the power-series inverse converges for every invertible A in exact arithmetic, but needs log₂ of the condition number doublings of n³ products, computes all of A⁻¹ to answer one b, and in float32 its ‖AX − I‖ stops near cond(A)·2⁻²⁴ (2⁻²⁴ ≈ 6·10⁻⁸, the float32 rounding step), so it fails to reach the 10⁻³ that counts as converged once cond(A) is much above 10⁴. Hilbert matrices (condition numbers σ_max/σ_min 5.2·10², 1.6·10⁴, 4.8·10⁵, 1.5·10⁷, 4.8·10⁸, 1.5·10¹⁰ for n = 3 to 8; the inverse\'s section gives ‖A‖₁·‖A⁻¹‖₁, which is larger: 9.4·10⁵ at n = 5) show these limits. Jacobi diverges at every n from 3, in any precision: a Hilbert matrix is not diagonally dominant (the spectral radius of D⁻¹O is 1.7 at n = 3, 6 at n = 8). The inverse converges up to n = 4; from n = 5 it stalls (‖AX − I‖ ≈ 0.007 at n = 5, 0.1 at n = 6, about 1 from n = 7). Elimination still gives a small residual up to n = 5 (x itself off by up to cond(A)·2⁻²⁴); from n = 6 (condition ≈ 1.5·10⁷ ≈ 1/2⁻²⁴) a pivot falls under the threshold and elimination says singular.'));
  publish('compare', { status: 'done', backend: gpu.backend, n, kind, rows: rows.map(({ method, residual: res, passes, ms, note, applicable = true }) => ({ method, residual: res, passes, ms, note, applicable })) });
  // What each method came to: "two solves" read as two answers where A = 0 gave none.
  const said = [
    lu.singular ? `elimination says singular (step ${lu.step + 1} of ${n})` : `elimination solved it (residual ${sci(lu.residual)})`,
    noIterate ? `the inverse did not run (${inv.message || 'no inverse'})` : `the inverse ${inv.converged ? 'converged' : 'did not converge'} (residual ${sci(rows[1].residual)})`,
    jacobiSaid,
  ];
  return `Done on ${backendName(gpu)}, n = ${n}: ${said.join('; ')}.`;
}

export default {
  id: 'linear',
  title: 'Linear systems',
  mount(container, ctx) {
    const state = ctx.url.state();
    this.steps = stepsPart(ctx, state);
    this.compare = comparePart(ctx, state);
    container.replaceChildren(
      el('div', { class: 'app-intro' }, el('p', {}, 'The chapter solves A·x = b two ways: Gaussian elimination, a direct method (CUDA, one thread per row, the pivot row shared), and Jacobi iteration, expressible as repeated matrix products. Elimination here: ', el('code', {}, 'gpu.luAsync(n, A)'), ' → { lu, pivots, singular, step } and ', el('code', {}, 'gpu.solveAsync(n, A, b, nrhs)'), ' → { x, residual, singular, step } (blocking ', el('code', {}, 'lu'), ' / ', el('code', {}, 'solve'), ' on WebGL). A pivot at or below n·2⁻²³·max|aᵢⱼ| counts as zero: the result says singular and at which step (counted from 0, as the pivots are), never NaN.')),
      this.steps.element, this.compare.element);
  },
  /** After the demo's first run: the parts a link names run, so the link shows their result. */
  async restore(ctx) {
    const { given } = ctx.url.state();
    if (given.some((k) => k.startsWith('lu'))) await this.steps.run({ replay: true });
    if (given.some((k) => k.startsWith('cmp'))) await this.compare.run({ replay: true });
  },
  /** Back / Forward: the fields follow the address. */
  onUrl(ctx) {
    const state = ctx.url.state();
    this.steps.set(state);
    this.compare.set(state);
  },
};
