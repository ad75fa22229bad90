// "Linear systems and sparse matrices", its sparse half (issue 16, points 2–4): the
// compressed sparse row form derived from a 5×5 example, Jacobi on a tridiagonal system
// far too large to store dense, and PageRank by the power method on the GPU over
// WordNet's synset graph (www/data/, 117,659 nodes), checked against float64 PageRank
// computed here on the CPU. www/app/sections.js mounts this on #sparse-body.
// The PageRank part marks its element's data-status idle | running | done | error, as
// every other part of the page does.
import { el, int, num, sci } from '../ui/format.js';
import { backendName, devName, disableWhileBusy, msText, timedAsync } from './common.js';
import { embedded } from '../ui/slides.js';
import { LinePlot } from '../ui/plot.js';
import { uniformVector } from '../reference-apps.js';
import { numberField, readNumber } from './partitioned-ui.js';
import { readFields } from './batched-ui.js';
import { fieldGroup, partHandle, partRunner } from './part-runner.js';
import { t } from '../i18n/index.js';

const EXAMPLE = [
  [3, 0, 0, 1, 0],
  [0, 4, 0, 0, 0],
  [2, 0, 5, 0, 0],
  [0, 0, 0, 7, 6],
  [0, 8, 0, 0, 9],
];
const GRAPH_URL = new URL('../data/wordnet-graph.txt.gz', import.meta.url);

/**
 * A table that scrolls sideways on a phone rather than widening the page; named by
 * its caption, each row by its first cell (a screen reader says which array a number is of).
 */
function table(caption, rows, head) {
  return el('div', { class: 'scroll-x' }, el('table', { class: 'numbers' },
    el('caption', {}, caption),
    head ? el('thead', {}, el('tr', {}, ...head.map((h) => el('th', {}, h)))) : '',
    el('tbody', {}, ...rows.map((r) => el('tr', {}, ...r.map((c, i) => (i === 0 ? el('th', { scope: 'row' }, String(c)) : el('td', {}, String(c)))))))));
}

/** A column heading for screen readers only: the column's row names say what it holds to the eye. */
const unseen = (text) => el('span', { class: 'visually-hidden' }, text);

/** The 5×5 example, its CSR arrays, and a hand-written listing checked against them. */
function csrExample(ctx) {
  const csr = ctx.Csr.fromDense(5, 5, new Float32Array(EXAMPLE.flat()));
  const arrays = [['values', ...csr.values], ['columns', ...csr.columns], ['rowOffsets', ...csr.rowOffsets]];
  // A listing as it might be typed by hand: row 2's start off by one.
  const listing = { values: csr.values, columns: csr.columns, rowOffsets: Uint32Array.from([0, 2, 4, 5, 7, 9]) };
  const wrong = csr.compareListing(listing.values, listing.columns, listing.rowOffsets);
  const out = el('div', { class: 'sparse-csr', 'data-wrong': wrong.join(',') },
    el('h3', {}, 'Compressed sparse row, derived from the matrix'),
    el('p', {}, 'CSR keeps the nonzeros row by row (values), the column of each (columns) and where each row starts in those two arrays, with the end last (rowOffsets: rows + 1 entries, never decreasing). Row i is values[rowOffsets[i] … rowOffsets[i+1]). Derived here by the library (Csr.fromDense) from this matrix:'),
    table('The 5×5 matrix', EXAMPLE.map((r, i) => [`row ${i}`, ...r]), [unseen('row'), 'col 0', 'col 1', 'col 2', 'col 3', 'col 4']),
    table('Its CSR arrays (Csr.fromDense)', arrays),
    el('p', {}, `A listing with rowOffsets = [${[...listing.rowOffsets].join(', ')}] disagrees with the matrix in: ${wrong.join(', ') || 'nothing'}. `
      + `Row 1 holds one nonzero (the 4), so row 2 starts at 3, not 4: the right rowOffsets are [${[...csr.rowOffsets].join(', ')}]. `
      + 'Csr.compareListing(values, columns, rowOffsets) names the arrays of a listing that do not fit its matrix; a CSR whose offsets decrease, whose columns are out of range or whose arrays disagree in length is refused with a GpgpuError saying which.'));
  csr.free();
  return out;
}

/** The graph file's bytes (1.4 MB), fetched once: in the background soon after the page
 *  has loaded, so that PageRank works offline like the rest of the page. */
let graphBytes = null;
function fetchGraph() {
  graphBytes ??= fetch(GRAPH_URL).then((r) => {
    if (!r.ok) throw new Error(`${GRAPH_URL.pathname}: HTTP ${r.status}`);
    return r.arrayBuffer();
  });
  // A failed fetch (offline before it ran) is tried again at the next click.
  graphBytes.catch(() => { graphBytes = null; });
  return graphBytes;
}

/** WordNet's graph: names and (source, target) pairs. */
async function loadGraph() {
  const bytes = await fetchGraph();
  const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  const lines = text.split('\n');
  const [n, m] = lines[0].split(' ').map(Number);
  const names = new Array(n);
  const src = new Uint32Array(m);
  const dst = new Uint32Array(m);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const line = lines[i + 1];
    const tab = line.indexOf('\t');
    names[i] = line.slice(0, tab);
    const rest = line.slice(tab + 1);
    if (!rest) continue;
    for (const t of rest.split(' ')) { src[k] = i; dst[k] = Number(t); k++; }
  }
  if (k !== m) throw new Error(`the graph file lists ${k} edges, its header says ${m}`);
  return { n, m, names, src, dst };
}

function pagerankPart(ctx) {
  const status = el('p', { class: 'status', role: 'status' }, t('sec.notRunYet'));
  const results = el('div', { class: 'sparse-pagerank-results' });
  const button = el('button', { type: 'button' }, t('sec.sparse.pagerank'));
  const part = el('div', { class: 'sparse-pagerank', 'data-status': 'idle' },
    el('h3', {}, 'PageRank on a real graph: WordNet 3.0'),
    el('p', {}, 'PageRank is the power method\'s best-known use: the ranks x are the dominant eigenvector of the Google matrix, found by x ← d·Mᵀx + (1 − Σ d·Mᵀx)/n, where M divides each node\'s links by their count and d = 0.85 is the chance of following a link rather than jumping anywhere. Mᵀ is sparse: one sparse matrix × vector pass per iteration (one invocation or fragment per row), the ranks staying on the GPU; only two sums come back per iteration. The graph: WordNet 3.0\'s synsets (117,659) and their pointers (361,638 links), from Debian\'s wordnet-base (licence and conversion in www/data/README.md).'),
    button, status, results);
  const run = async () => {
    part.dataset.status = 'running';
    const release = disableWhileBusy([button]);
    try {
      status.textContent = t('sec.sparse.loading');
      const g = await loadGraph();
      const csr = ctx.Csr.fromTriplets(g.n, g.n, g.src, g.dst, new Float32Array(g.m).fill(1));
      // The float32 side: the GPU, or the CPU backend when the demo runs there.
      const dev = devName(ctx.gpu);
      status.textContent = `Ranking ${int(g.n)} nodes on ${backendName(ctx.gpu)}…`;
      let gpu, ref, gpuMs, refMs;
      try {
        const t0 = performance.now();
        gpu = await ctx.gpu.pagerankAsync(csr, { damping: 0.85, tolerance: 1e-6 });
        gpuMs = performance.now() - t0;
        const t1 = performance.now();
        ref = csr.pagerankReference({ damping: 0.85, tolerance: 1e-10 });
        refMs = performance.now() - t1;
      } finally {
        csr.free(); // also when the call threw: the graph's arrays live in the wasm's memory
      }
      let maxDiff = 0;
      for (let i = 0; i < g.n; i++) maxDiff = Math.max(maxDiff, Math.abs(gpu.ranks[i] - ref.ranks[i]));
      const order = [...gpu.ranks.keys()].sort((a, b) => gpu.ranks[b] - gpu.ranks[a]).slice(0, 15);
      results.replaceChildren(
        el('p', {}, `${ctx.gpu.backend === 'cpu' ? 'CPU' : `GPU (${backendName(ctx.gpu)})`}, float32: ${gpu.iterations} iterations to Σ|Δx| < 10⁻⁶, ${gpu.converged ? 'converged' : 'not converged'} (last Σ|Δx| = ${num(gpu.deltas[gpu.deltas.length - 1], 3)}), ${msText(gpuMs)} with the upload; float64 on the CPU (csr.pagerankReference: the library's Rust, compiled to WebAssembly): ${ref.iterations} iterations to the stricter 10⁻¹⁰ (float32 could not go that far), ${msText(refMs)}. Largest |${dev} − float64| over all ranks: ${num(maxDiff, 3)} (ranks average 1/n = ${num(1 / g.n, 3)}; float32 keeps about 7 digits).`),
        table('The 15 highest ranks', order.map((i, r) => [r + 1, g.names[i], num(gpu.ranks[i], 5), num(ref.ranks[i], 5)]), ['#', 'synset (first lemma.pos)', `rank (${dev})`, 'rank (float64)']));
      results.dataset.maxDiff = String(maxDiff);
      status.textContent = t('sec.doneShort');
      part.dataset.status = 'done';
    } catch (err) {
      status.textContent = `PageRank failed: ${err.message}`;
      part.dataset.status = 'error';
    } finally {
      release();
    }
  };
  button.addEventListener('click', run);
  return { element: part, run };
}

/** GiB or MiB of `bytes`, for the storage comparison. */
function bytesText(bytes) {
  return bytes >= 2 ** 30 ? `${num(bytes / 2 ** 30, 3)} GiB` : `${num(bytes / 2 ** 20, 3)} MiB`;
}

/** ‖A·x − b‖₂ / ‖b‖₂ in float64 for A = tridiagonal(−1, d, −1). */
export function tridiagonalResidual(d, x, b) {
  const n = b.length;
  let num2 = 0, den2 = 0;
  for (let i = 0; i < n; i++) {
    const r = d * x[i] - (i > 0 ? x[i - 1] : 0) - (i + 1 < n ? x[i + 1] : 0) - b[i];
    num2 += r * r;
    den2 += b[i] * b[i];
  }
  return Math.sqrt(num2 / den2);
}

/**
 * Jacobi on A = tridiagonal(−1, d, −1), n unknowns: gpu.jacobiSparseAsync on its CSR form.
 * Its iteration matrix T = −D⁻¹O has spectral radius (2/d)·cos(π/(n + 1)), so the error
 * shrinks by that factor per iteration: d = 2 (the 1-D Poisson matrix) converges ever
 * more slowly as n grows, d > 2 at a rate n hardly changes, d < 2 not at all.
 */
async function sparseJacobi(ctx, st, output) {
  const { gpu } = ctx;
  const { sjN: n, sjDiag: d } = st;
  const b = Float32Array.from(uniformVector(71, n));
  const t = new ctx.Tridiagonal(new Float32Array(n - 1).fill(-1), new Float32Array(n).fill(d), new Float32Array(n - 1).fill(-1));
  const csr = t.toCsr();
  t.free();
  const epsilon = 1e-6, maxIterations = 5000;
  let r, runMs;
  try {
    [r, runMs] = await timedAsync(() => gpu.jacobiSparseAsync(csr, b, { epsilon, maxIterations }));
  } finally {
    csr.free();
  }
  const rho = (2 / d) * Math.cos(Math.PI / (n + 1));
  const predicted = rho < 1 ? Math.log(epsilon) / Math.log(rho) : Infinity;
  const k = r.iterations;
  const residual = tridiagonalResidual(d, r.x, b);
  const nnz = 3 * n - 2;
  const verdict = r.converged ? 'converged' : r.diverged ? 'diverged' : `stopped at maxIterations = ${int(maxIterations)}`;
  const plot = new LinePlot({ title: `Σ|Δx| per iteration on ${devName(gpu)}, n = ${int(n)}, d = ${d}`, xLabel: 'iteration k', yLabel: 'Σ|Δx|', log: true, label: 'Sparse Jacobi: the update size per iteration' });
  output.replaceChildren(plot.element,
    table(`Jacobi on tridiagonal(−1, ${d}, −1), n = ${int(n)}: ${verdict}`, [
      ['iterations', int(k), rho < 1 ? `ρᵏ falls to ε at k = ${int(Math.ceil(predicted))} (the test compares Σ|Δx| with ε·Σ|x|, not with the first Σ|Δx|)` : 'ρ ≥ 1: the error grows'],
      ['ρ(T) = (2/d)·cos(π/(n + 1))', num(rho, 6), rho < 1 ? `the error shrinks by this factor per iteration` : 'no convergence: d must exceed 2·cos(π/(n + 1)) ≈ 2'],
      ['‖A·x − b‖ / ‖b‖ (float64, here)', r.converged ? sci(residual) : '—', r.converged ? 'x from float32: about 10⁻⁶ at best, as ε' : ''],
      ['time', msText(runMs), k ? `${msText(runMs / k, { over: k })} an iteration, upload included` : ''],
      ['storage', `CSR ${bytesText(nnz * 8 + (n + 1) * 4)}`, `${int(nnz)} nonzeros; dense float32 would take ${bytesText(4 * n * n)}`],
    ], [unseen('quantity'), 'value', 'note']));
  output.dataset.iterations = String(k);
  output.dataset.converged = String(r.converged);
  output.dataset.diverged = String(r.diverged);
  output.dataset.residual = String(residual);
  // At most about 500 points: a long run's every iteration would make the data table thousands of rows.
  const every = Math.max(1, Math.ceil(k / 500));
  const points = Array.from(r.deltas, (y, i) => [i + 1, y]).filter(([x, y]) => y > 0 && (x % every === 0 || x === k));
  plot.set({ series: [{ name: 'Σ|Δx|', points }], note: rho < 1 ? `A straight line on this log scale: Σ|Δx| shrinks by about ρ = ${num(rho, 6)} per iteration.` : 'ρ ≥ 1: Σ|Δx| grows until the run is called diverged.' });
  return `Done: ${verdict} after ${int(k)} iteration${k === 1 ? '' : 's'} on ${backendName(gpu)}.`;
}

function sparseJacobiPart(ctx, state) {
  const part = el('div', { class: 'part', id: 'sparse-jacobi' });
  const f = {
    sjN: numberField('sjN', t('sec.f.unknowns'), { min: 3, max: 2000000, value: state.sjN }),
    sjDiag: numberField('sjDiag', t('sec.f.diagonal'), { min: 1, max: 10, step: 0.05, value: state.sjDiag }),
  };
  const button = el('button', { type: 'button', class: 'primary', id: 'sparse-jacobi-run' }, t('sec.sparse.jacobi'));
  const output = el('div', { class: 'part-output', id: 'sparse-jacobi-output' });
  const runner = partRunner(ctx, part, 'sparse-jacobi-status', t('sec.sparse.jacobiIdle'), {
    buttons: [button],
    output,
    read: () => readFields({ sjN: [f.sjN.input, 3, 2000000, true], sjDiag: [f.sjDiag.input, 1, 10, false] }, readNumber),
    work: (s) => sparseJacobi(ctx, s, output),
  });
  button.addEventListener('click', runner.run);
  part.append(
    el('h3', { id: 'sparse-jacobi-h' }, 'Jacobi on a sparse system too large to store dense'),
    el('p', {}, 'The chapter stores a tridiagonal matrix by its three diagonals: here A has −1, d, −1 on them and n unknowns, 3n − 2 nonzeros. At n = 100,000 the dense float32 matrix would take 37 GiB; its CSR form takes 2.7 MiB. ', el('code', {}, 'gpu.jacobiSparseAsync(csr, b, { epsilon })'), ' iterates x ← D⁻¹(b − O·x) with one sparse matrix × vector pass per iteration (one invocation or fragment per row), x staying on the GPU, until Σ|Δx| ≤ ε·Σ|x| (ε = 10⁻⁶). The error shrinks per iteration by the spectral radius of T = −D⁻¹O, here ρ = (2/d)·cos(π/(n + 1)): with d = 2.5 about 60 iterations at any n; with d = 2 (the 1-D Poisson matrix) ρ ≈ 1 − π²/(2n²), about 2.8·n² iterations for the error to fall by ε, and past n ≈ 55 more than the 5,000 this page allows (try n = 10 against n = 40: about 260 against 2,600 iterations; the test on Σ|Δx| stops before the error is down by ε); with d below 2, divergence.'),
    fieldGroup('sparse-jacobi-h', f.sjN.element, f.sjDiag.element),
    el('div', { class: 'buttons' }, button),
    runner.status.element, output);
  return partHandle(part, runner, f);
}

export default {
  id: 'sparse',
  title: 'Sparse matrices',
  mount(container, ctx) {
    this.pagerank = pagerankPart(ctx);
    this.jacobi = sparseJacobiPart(ctx, ctx.url.state());
    container.replaceChildren(csrExample(ctx), this.jacobi.element, this.pagerank.element);
    // After the page's own loading, when the browser is idle: not in the way of the
    // demo's first result. Not on a slide (embed=1), which hides this panel: every
    // slide of a deck would fetch the 1.4 MB it never uses.
    if (embedded()) return;
    const later = () => (window.requestIdleCallback ? requestIdleCallback(() => fetchGraph().catch(() => {}), { timeout: 5000 }) : setTimeout(() => fetchGraph().catch(() => {}), 2000));
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later, { once: true });
  },
  /** After the demo's first run: the part a link names runs, so the link shows its result. */
  async restore(ctx) {
    if (ctx.url.state().given.some((k) => k.startsWith('sj'))) await this.jacobi.run({ replay: true });
  },
  /** Back / Forward: the fields follow the address. */
  onUrl(ctx) {
    this.jacobi.set(ctx.url.state());
  },
};
