// Part 2 of "Partitioned matrices": block-sparse products, the CUDA report's format
// (BRIEF.md §3). A seeded random pattern of nonzero blocks, A·B on the GPU with
// only the block products whose both blocks are stored, against the dense product
// and a float64 reference; then how a sparse matrix fills in under repeated squaring.
import { count, el, int, sci } from '../ui/format.js';
import { mulberry32 } from '../reference.js';
import { backendName, msText, nextFrame, timedAsync, devName } from './common.js';
import {
  maxError, numberField, occupancyFigure, pct, publishPart, readNumber, sparseReference,
} from './partitioned-ui.js';
import { fieldGroup, partLock, partRunner } from './part-runner.js';
import { t } from '../i18n/index.js';

/** The path graph of the fill-in demo: n vertices, M = (I + adjacency) / 3. */
const FILL_N = 64;
const FILL_SQUARINGS = 6; // M^64: every pair of the 64 vertices is joined by a walk

/**
 * n×n matrices A and B with a seeded pattern: each block is nonzero with
 * probability `density`, and a nonzero block holds whole numbers 1..9 (float32 is
 * exact on their products: any error would be a wrong block).
 */
export function randomBlockPattern(n, blockSize, density, seed) {
  const next = mulberry32(seed);
  const grid = Math.ceil(n / blockSize);
  const make = () => {
    const m = new Float32Array(n * n);
    for (let br = 0; br < grid; br++) {
      for (let bc = 0; bc < grid; bc++) {
        if (next() >= density) continue;
        for (let i = br * blockSize; i < Math.min(n, (br + 1) * blockSize); i++) {
          for (let j = bc * blockSize; j < Math.min(n, (bc + 1) * blockSize); j++) m[i * n + j] = 1 + Math.floor(next() * 9);
        }
      }
    }
    return m;
  };
  const a = make();
  return { a, b: make() };
}

/** (I + path adjacency) / 3 on FILL_N vertices: tridiagonal, row sums at most 1. */
function pathMatrix(n) {
  const m = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    m[i * n + i] = 1 / 3;
    if (i > 0) m[i * n + i - 1] = 1 / 3;
    if (i + 1 < n) m[i * n + i + 1] = 1 / 3;
  }
  return m;
}

export function sparsePart(ctx, state) {
  const part = el('div', { class: 'part', id: 'partitioned-sparse' });
  const f = {
    n: numberField('sparseN', t('sec.f.nSquare'), { min: 8, max: 1024, value: state.sparseN }),
    block: numberField('sparseBlock', t('sec.f.blockSize'), { min: 1, max: 32, value: state.sparseBlock }),
    density: numberField('sparseDensity', t('sec.f.density'), { min: 0.1, max: 100, step: 0.1, value: state.sparseDensity }),
    seed: numberField('sparseSeed', t('sec.f.seed'), { min: 0, max: 4294967295, value: state.sparseSeed }),
  };
  const button = el('button', { type: 'button', class: 'primary', id: 'partitioned-sparse-run' }, t('sec.sparseBlocks.run'));
  const fillButton = el('button', { type: 'button', id: 'partitioned-fill-run' }, t('sec.sparseBlocks.fill', { n: FILL_N }));
  const output = el('div', { class: 'part-output', id: 'partitioned-sparse-output' });
  const fillPart = el('div', { class: 'part', id: 'partitioned-fill' });
  const fillOutput = el('div', { class: 'part-output', id: 'partitioned-fill-output' });

  const read = () => {
    const got = { sparseN: readNumber(f.n.input, 8, 1024), sparseBlock: readNumber(f.block.input, 1, 32), sparseDensity: readNumber(f.density.input, 0.1, 100, false), sparseSeed: readNumber(f.seed.input, 0, 4294967295) };
    const bad = Object.values(got).filter((r) => 'why' in r).map((r) => r.why);
    return bad.length ? { bad } : { state: Object.fromEntries(Object.entries(got).map(([k, r]) => [k, r.value])) };
  };
  // The two parts share the fields, so they take turns; the fill-in reads the block size only.
  const lock = partLock();
  const buttons = [button, fillButton];
  const sparse = partRunner(ctx, part, 'partitioned-sparse-status', t('sec.sparseBlocks.idle'), {
    read, output, buttons, lock, name: 'the block-sparse product', work: (s) => multiplyDemo(ctx, s, output), onError: (record) => publishPart('sparse', record),
  });
  const filling = partRunner(ctx, fillPart, 'partitioned-fill-status', t('sec.sparseBlocks.fillIdle', { n: FILL_N }), {
    read, output: fillOutput, buttons, lock, name: 'the fill-in', keys: ['sparseBlock'], work: (s) => fillDemo(ctx, s, fillOutput), onError: (record) => publishPart('fill', record),
  });
  button.addEventListener('click', sparse.run);
  fillButton.addEventListener('click', filling.run);
  fillPart.append(filling.status.element, fillOutput);

  part.append(
    el('h3', { id: 'partitioned-sparse-h' }, 'Block-sparse matrices: skip the blocks that are zero'),
    el('p', {}, 'The CUDA report cuts n×n matrices into T×T blocks of m×m (T = n/m) and keeps one boolean per block: does it hold any nonzero? A block of C = AB is a sum of T products A', el('sub', {}, 'ik'), 'B', el('sub', {}, 'kj'),
      ', and a product is needed only where both blocks are stored. A symbolic phase on the CPU (', el('code', {}, 'BlockSparse.productPlan(a, b)'), ') lists those products and the blocks of C they reach; the GPU then computes only them, one invocation (WebGPU) or fragment (WebGL) per entry of each listed block of C (',
      el('code', {}, 'gpu.multiplyBlockSparseAsync(a, b)'), '), and each output block records whether it came out nonzero. The work grows with the nonzero blocks, not with n³.'),
    fieldGroup('partitioned-sparse-h', f.n.element, f.block.element, f.density.element, f.seed.element),
    el('div', { class: 'buttons' }, button),
    sparse.status.element, output,
    el('h4', {}, 'Fill-in: what repeated squaring does to a sparse matrix'),
    el('p', {}, `A path of ${FILL_N} vertices, M = (I + adjacency)/3, is tridiagonal: only the blocks on and next to the diagonal are stored. Entry (i, j) of M^p is nonzero when a walk of at most p steps joins i and j, so every squaring doubles the band, and after log₂ ${FILL_N} = ${FILL_SQUARINGS} squarings every block is stored: the matrix is dense, and sparsity no longer saves anything. `,
      el('code', {}, 'gpu.squareBlockSparseRepeatedlyAsync(m, times)'), ' keeps the blocks on the GPU between squarings.'),
    el('div', { class: 'buttons' }, fillButton),
    fillPart);

  return {
    element: part,
    run: sparse.run,
    fill: filling.run,
    set(s) {
      f.n.input.value = String(s.sparseN);
      f.block.input.value = String(s.sparseBlock);
      f.density.input.value = String(s.sparseDensity);
      f.seed.input.value = String(s.sparseSeed);
      // Back / Forward to other fields: the results of the old ones go.
      sparse.follow(s);
      filling.follow(s);
    },
  };
}

/**
 * Compiles the shaders the timed calls use (a block product of this block size, and
 * the dense kernel auto picks at this n) on tiny inputs, so that the times compare
 * products, not shader compilers.
 */
async function warmUp(ctx, n, bs) {
  const { gpu, BlockSparse } = ctx;
  const one = BlockSparse.fromDense(bs, bs, new Float32Array(bs * bs).fill(1), bs);
  try {
    (await gpu.multiplyBlockSparseAsync(one, one)).free();
  } finally {
    one.free();
  }
  const eight = new Float32Array(64).fill(1);
  await gpu.multiplyAsync(8, 8, 8, eight, eight, { kernel: gpu.defaultKernel(n) });
}

async function multiplyDemo(ctx, s, output) {
  const { gpu, BlockSparse } = ctx;
  const n = s.sparseN, bs = s.sparseBlock;
  const { a: A, b: B } = randomBlockPattern(n, bs, s.sparseDensity / 100, s.sparseSeed);
  const a = BlockSparse.fromDense(n, n, A, bs);
  const b = BlockSparse.fromDense(n, n, B, bs);
  let c = null;
  try {
    const plan = BlockSparse.productPlan(a, b);
    await warmUp(ctx, n, bs);
    let sparseMs;
    [c, sparseMs] = await timedAsync(() => gpu.multiplyBlockSparseAsync(a, b));
    await nextFrame();
    const [dense, denseMs] = await timedAsync(() => gpu.multiplyAsync(n, n, n, A, B));
    await nextFrame();
    const ref = await sparseReference(n, A, B);
    const cDense = c.toDense();
    const errSparse = maxError(cDense, ref), errDense = maxError(dense, ref);
    const T = a.gridRows, total = T * a.gridCols;
    const r = {
      status: 'done', n, blockSize: bs, density: s.sparseDensity, seed: s.sparseSeed, gridRows: T, gridCols: a.gridCols,
      nonzero: { a: a.nonzeroBlocks, b: b.nonzeroBlocks, c: c.nonzeroBlocks }, storedC: plan.storedBlocks,
      blockProducts: c.blockProducts, denseBlockProducts: c.denseBlockProducts, planProducts: plan.products, planDenseProducts: plan.denseProducts,
      sparseMs, denseMs, errorSparse: errSparse, errorDense: errDense, backend: gpu.backend,
    };
    const ok = (good) => (good ? 'ok' : 'bad');
    const errText = (e) => (e === 0 ? '0 (exact)' : sci(e));
    output.replaceChildren(...[
      el('div', { class: 'part-figures' },
        occupancyFigure('A: stored blocks', T, a.gridCols, a.occupancy(), { id: 'partitioned-occ-a' }),
        occupancyFigure('B: stored blocks', T, b.gridCols, b.occupancy(), { id: 'partitioned-occ-b' }),
        occupancyFigure('C = AB: nonzero blocks', T, c.gridCols, c.occupancy(), { extra: plan.occupancy, id: 'partitioned-occ-c', dark: 'nonzero block', amber: 'reserved by the symbolic phase, came out zero' })),
      el('p', { class: 'help' }, 'One pixel per block: dark where the block is stored (the report\'s boolean is true). Amber in C: blocks the symbolic phase reserved that came out zero.'),
      el('div', { class: 'scroll-x' }, el('table', { class: 'app-results', id: 'partitioned-sparse-table' },
        el('caption', {}, `n = ${int(n)} in blocks of ${bs}: a ${T}×${a.gridCols} grid of ${int(total)} blocks`),
        el('tbody', {}, [
          ['nonzero blocks of A', `${int(a.nonzeroBlocks)} (${pct(a.nonzeroBlocks / total)})`, 'a.nonzeroBlocks'],
          ['nonzero blocks of B', `${int(b.nonzeroBlocks)} (${pct(b.nonzeroBlocks / total)})`, 'b.nonzeroBlocks'],
          ['nonzero blocks of C', `${int(c.nonzeroBlocks)} (${pct(c.nonzeroBlocks / total)}); the symbolic phase stored ${int(plan.storedBlocks)}`, 'c.nonzeroBlocks; productPlan(a, b).storedBlocks'],
          ['block products', `${int(c.blockProducts)} of the dense ${int(c.denseBlockProducts)} (${pct(c.blockProducts / c.denseBlockProducts)})`, `c.blockProducts against c.denseBlockProducts = T³; productPlan said ${int(plan.products)}`, ok(c.blockProducts <= c.denseBlockProducts && c.blockProducts === plan.products)],
          [`${devName(gpu)} time, block-sparse`, msText(sparseMs), 'await gpu.multiplyBlockSparseAsync(a, b): wall time, upload and readback included'],
          [`${devName(gpu)} time, dense`, msText(denseMs), `await gpu.multiplyAsync(${n}, ${n}, ${n}, A, B), the same way (${gpu.backend === 'cpu' ? 'the workers started beforehand' : 'both shaders compiled beforehand'}, on tiny inputs)`],
          ['max error, block-sparse', errText(errSparse), 'max |c.toDense() − float64 AB| (whole numbers: exact in float32 below 2²⁴)', ok(errSparse === 0)],
          ['max error, dense', errText(errDense), `max |dense ${devName(gpu)} product − float64 AB|`, ok(errDense === 0)],
        ].map(([k, v, note, cls]) => el('tr', { 'data-key': k }, el('th', { scope: 'row' }, k, el('span', { class: 'what' }, note)), el('td', { class: cls || null }, v)))))),
      sparseMs > denseMs ? el('p', { class: 'note-box info', id: 'partitioned-sparse-slower' }, c.blockProducts > c.denseBlockProducts / 8
        ? 'Slower than dense here: with this many nonzero blocks the block-sparse product does nearly the dense work, with the bookkeeping on top (a table of which blocks meet, small products instead of one large one). Sparsity pays when few blocks are stored.'
        : 'Slower than dense here: at this size a call costs mostly its fixed overhead (uploading the blocks and the table of which blocks meet, starting the passes, reading back), not arithmetic. Try a larger n at a low density.') : null,
      el('p', { class: 'help', id: 'partitioned-sparse-k40' }, `The report's K40 times, for scale: n = 256, m = 4, k = 1000 nonzero blocks: 0.193 s; n = 2048, m = 8, k = 10⁴: 0.546 s; n = 4096, m = 4, k = 10⁵: 3.913 s; n = 16384, m = 8, k = 10⁶: 44.8 s. Here the page also pays for copying the blocks ${gpu.backend === 'cpu' ? 'into the library\'s memory' : 'to the GPU'} and back on every call.`)].filter(Boolean));
    publishPart('sparse', r);
    const speed = sparseMs < denseMs ? `${(denseMs / sparseMs).toFixed(1)}× faster than dense` : 'no faster than dense here';
    return `Done on ${backendName(gpu)}: ${count(c.blockProducts, 'block product')} instead of ${int(c.denseBlockProducts)}, ${speed}; max error ${errText(errSparse)}.`;
  } finally {
    a.free();
    b.free();
    c?.free();
  }
}

async function fillDemo(ctx, s, output) {
  const { gpu, BlockSparse, reference } = ctx;
  const n = FILL_N, bs = s.sparseBlock;
  const M = pathMatrix(n);
  const m = BlockSparse.fromDense(n, n, M, bs);
  let result = null;
  try {
    const total = m.gridRows * m.gridCols;
    const start = m.nonzeroBlocks;
    const startOcc = m.occupancy();
    const sq = await gpu.squareBlockSparseRepeatedlyAsync(m, FILL_SQUARINGS);
    result = sq.result;
    const ref = reference.repeatedSquare(n, M, FILL_SQUARINGS);
    let peak = 0;
    for (const v of ref) peak = Math.max(peak, Math.abs(v));
    const rel = maxError(result.toDense(), ref) / peak;
    // The squaring after which every block holds a nonzero; 0 where M's own blocks all do
    // already (blocks of 32: the band's four blocks are the whole 2×2 grid), which
    // denseAfter, counting squarings from 1, cannot say.
    const denseAt = start === total ? 0 : sq.denseAfter;
    const dense = denseAt === 0
      ? `Every block of M holds a nonzero before any squaring: blocks this large cover the band with no zero block left, so block sparsity saves nothing from the start.`
      : `Every block holds a nonzero after squaring ${denseAt} (M^${2 ** denseAt}).`;
    const rows = [[0, 1, start, start, start / total, 0], ...sq.steps.map((st, k) => [k + 1, 2 ** (k + 1), st.storedBlocks, st.nonzeroBlocks, st.density, st.products])];
    output.replaceChildren(
      el('div', { class: 'part-figures' },
        occupancyFigure('M: stored blocks', m.gridRows, m.gridCols, startOcc, { id: 'partitioned-fill-before' }),
        occupancyFigure(`M^${2 ** FILL_SQUARINGS}: nonzero blocks`, result.gridRows, result.gridCols, result.occupancy(), { id: 'partitioned-fill-after', dark: 'nonzero block' })),
      el('div', { class: 'scroll-x' }, el('table', { class: 'app-table', id: 'partitioned-fill-table' },
        el('caption', {}, `Squaring a ${n}×${n} path matrix in blocks of ${bs} (${m.gridRows}×${m.gridCols} = ${total} blocks)`),
        el('thead', {}, el('tr', {}, ['squaring', 'power', 'storedBlocks', 'nonzeroBlocks', 'density', 'blockProducts'].map((h) => el('th', { scope: 'col' }, t(`sec.th.${h}`))))),
        el('tbody', {}, rows.map(([k, p, stored, nz, dens, prods]) => el('tr', { 'data-k': String(k), class: denseAt === k ? 'dense' : null },
          el('th', { scope: 'row' }, k ? String(k) : 'M'), el('td', { class: 'num' }, `M^${p}`), el('td', { class: 'num' }, int(stored)),
          el('td', { class: 'num' }, int(nz)), el('td', { class: 'num' }, pct(dens)), el('td', { class: 'num' }, k ? int(prods) : '—')))))),
      el('p', { class: 'help' }, 'Stored: the blocks the symbolic phase keeps (some product of stored blocks lands there). Nonzero: those that hold a nonzero entry after the GPU computed them; a stored block can come out zero when the nonzero entries of its factors never meet. Only the nonzero ones go on to the next squaring (its flags come back, the values stay on the GPU), as the report skips blocks whose flag is false. Density is the nonzero share.'),
      el('p', { id: 'partitioned-fill-dense' }, denseAt === null ? `After ${FILL_SQUARINGS} squarings some block is still zero.` : `${dense} Largest error against float64, relative to the largest entry: ${sci(rel)} (float32 rounding).`));
    publishPart('fill', { status: 'done', n, blockSize: bs, steps: sq.steps, denseAfter: sq.denseAfter, denseAt, start, relError: rel, backend: gpu.backend });
    const when = denseAt === null ? 'not dense yet' : denseAt === 0 ? 'dense from the start (every block of M is nonzero)' : `dense after squaring ${denseAt}`;
    return `Done on ${backendName(gpu)}: ${when}, relative error ${sci(rel)}.`;
  } finally {
    m.free();
    result?.free();
  }
}
