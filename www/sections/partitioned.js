// "Partitioned matrices" (issue 14): block matrices multiply like numbers, on the
// GPU. Three parts, each with its own Run and status:
//   1. the chapter's worked example, C00 = A00·B00 + A01·B10 (this file), checked
//      against the library's own tiled product (maxTile 2) and a float64 reference;
//   2. block-sparse products, the CUDA report's format (partitioned-sparse.js);
//   3. Fox's and Cannon's algorithms on a q×q mesh, step by step (partitioned-mesh.js).
// The controls of parts 2 and 3 live in the address (config.js SECTION_PARAMS): a
// link shows the same run. www/app/sections.js mounts this on its own panel, #partitioned.
import { el } from '../ui/format.js';
import { backendName, disableWhileBusy, nextFrame, devName } from './common.js';
import { partStatus, partitionedGrid, publishPart } from './partitioned-ui.js';
import { sparsePart } from './partitioned-sparse.js';
import { meshPart } from './partitioned-mesh.js';
import { t } from '../i18n/index.js';

const ID = 'partitioned';
// The chapter's example (BRIEF.md §2), partitioned 2+1.
const A = [1, 5, 12, 0, 3, 6, 4, 8, 2];
const B = [0, 2, 5, 0, 9, 10, 1, 1, 2];
const C = [12, 59, 79, 6, 33, 42, 2, 82, 104];
const CUT = 2;

/** Block (r, c) of a 3×3 matrix cut 2+1: { rows, cols, data }. */
function block(m, r, c) {
  const r0 = r ? CUT : 0, r1 = r ? 3 : CUT, c0 = c ? CUT : 0, c1 = c ? 3 : CUT;
  const data = [];
  for (let i = r0; i < r1; i++) for (let j = c0; j < c1; j++) data.push(m[i * 3 + j]);
  return { rows: r1 - r0, cols: c1 - c0, data };
}

const blockClass = (i, j) => `blk${i < CUT ? 0 : 1}${j < CUT ? 0 : 1}`;
const grid3 = (caption, m, id) => partitionedGrid(caption, 3, 3, m, { cutRows: [CUT], cutCols: [CUT], cls: blockClass, id });
const small = (caption, rows, cols, m, id) => partitionedGrid(caption, rows, cols, m, { id });

function intro() {
  return [
    el('p', {}, 'Cut A into blocks by rows and columns, and B by the same split of its rows. Then the blocks multiply like numbers: the (i, j) block of C = AB is a sum of products of blocks, C', el('sub', {}, 'ij'), ' = Σ', el('sub', {}, 'k'), ' A', el('sub', {}, 'ik'), '·B', el('sub', {}, 'kj'),
      '. Each product is an ordinary matrix product of smaller matrices, so the work can be shared out: a block per processor, or a tile that fits fast memory (what the compute-shader kernels above do in workgroup memory).'),
    el('p', {}, 'Below, the chapter\'s example, cut 2+1: C', el('sub', {}, '00'), ' = A', el('sub', {}, '00'), '·B', el('sub', {}, '00'), ' + A', el('sub', {}, '01'), '·B', el('sub', {}, '10'),
      ', a 2×2·2×2 product plus a 2×1·1×2 one. Then the same idea where most blocks are zero (block-sparse matrices), and where the blocks live on different processors that must send them to each other (Fox\'s and Cannon\'s algorithms).'),
  ];
}

function workedPart(ctx) {
  const part = el('div', { class: 'part', id: 'partitioned-worked' });
  const status = partStatus(part, 'partitioned-worked-status', t('sec.partitioned.idle'));
  const button = el('button', { type: 'button', class: 'primary', id: 'partitioned-worked-run' }, t('sec.partitioned.run'));
  const output = el('div', { class: 'part-output', id: 'partitioned-worked-output' });
  let busy = false, done = false;
  const run = async () => {
    if (busy || !ctx.gpu) return;
    busy = true;
    const release = disableWhileBusy([button]);
    status.set('running', `Computing the block products on ${backendName(ctx.gpu)}…`);
    try {
      await nextFrame();
      const record = await worked(ctx, output);
      status.set(record.agree ? 'done' : 'error', record.agree
        ? `Done on ${backendName(ctx.gpu)}: A₀₀·B₀₀ + A₀₁·B₁₀ = [[12, 59], [6, 33]] = C₀₀, from the two block products, from the tiled product and from float64.`
        : `The ${devName(ctx.gpu)}'s blocks do not agree with the float64 reference: see the table.`);
      done = true;
    } catch (err) {
      const d = ctx.describeError(err);
      status.set('error', stoppedText(d));
      publishPart('worked', { status: 'error', error: { code: d.code, message: d.message } });
    } finally {
      busy = false;
      release();
    }
  };
  button.addEventListener('click', run);
  const a = block(A, 0, 0), b = block(B, 0, 0);
  part.append(
    el('h3', {}, 'The chapter\'s example, cut 2+1'),
    el('div', { class: 'part-figures' }, grid3('A', A, 'partitioned-a'), grid3('B', B, 'partitioned-b'), grid3('C = AB (float64)', C, 'partitioned-c')),
    el('p', { class: 'help' }, `The lines cut rows and columns after the second: A₀₀ is ${a.rows}×${a.cols}, A₀₁ 2×1, A₁₀ 1×2, A₁₁ 1×1 (the same for B). The four blocks of C: C₀₀ = A₀₀B₀₀ + A₀₁B₁₀, C₀₁ = A₀₀B₀₁ + A₀₁B₁₁, C₁₀ = A₁₀B₀₀ + A₁₁B₁₀, C₁₁ = A₁₀B₀₁ + A₁₁B₁₁ (B₀₀ is ${b.rows}×${b.cols}).`),
    el('div', { class: 'buttons' }, button), status.element, output);
  return { element: part, run, get done() { return done; } };
}

async function worked(ctx, output) {
  const { gpu, reference } = ctx;
  const a00 = block(A, 0, 0), a01 = block(A, 0, 1), b00 = block(B, 0, 0), b10 = block(B, 1, 0);
  // One GPU product per term, each a plain product of the blocks' sizes.
  const t1 = await gpu.multiplyAsync(a00.rows, a00.cols, b00.cols, a00.data, b00.data);
  const t2 = await gpu.multiplyAsync(a01.rows, a01.cols, b10.cols, a01.data, b10.data);
  const sum = Array.from(t1, (v, k) => v + t2[k]);
  // The library's own tiled product: tiles of at most 2 (2+1), a pass per tile term,
  // the terms summed on the GPU.
  const tiled = await gpu.multiplyAsync(3, 3, 3, A, B, { maxTile: 2 });
  const ref = reference.multiply(3, 3, 3, A, B);
  const c00 = (m) => [m[0], m[1], m[3], m[4]];
  const same = (x, y) => x.length === y.length && x.every((v, k) => v === y[k]);
  const refC00 = c00(ref);
  const checks = {
    sum: same(sum, refC00),
    tiledC00: same(c00(tiled), refC00),
    tiledC: same(Array.from(tiled), Array.from(ref)),
    chapter: same(Array.from(ref), C),
  };
  const agree = Object.values(checks).every(Boolean);
  const yes = (ok) => el('td', { class: ok ? 'ok' : 'bad' }, ok ? 'equal' : 'differs');
  output.replaceChildren(
    el('div', { class: 'part-figures' },
      small(`A₀₀·B₀₀ (${devName(gpu)}, 2×2 · 2×2)`, 2, 2, Array.from(t1), 'partitioned-t1'),
      el('span', { class: 'part-op', 'aria-hidden': 'true' }, '+'),
      small(`A₀₁·B₁₀ (${devName(gpu)}, 2×1 · 1×2)`, 2, 2, Array.from(t2), 'partitioned-t2'),
      el('span', { class: 'part-op', 'aria-hidden': 'true' }, '='),
      small('C₀₀, their sum', 2, 2, sum, 'partitioned-sum'),
      grid3(`C from the tiled product (${devName(gpu)}, maxTile 2)`, Array.from(tiled), 'partitioned-tiled')),
    el('div', { class: 'scroll-x' }, el('table', { class: 'app-results part-checks', id: 'partitioned-worked-checks' },
      el('caption', {}, 'Against the float64 reference C = AB computed here in JavaScript'),
      el('tbody', {},
        el('tr', { 'data-key': 'sum' }, el('th', { scope: 'row' }, 'A₀₀·B₀₀ + A₀₁·B₁₀ and C₀₀'), yes(checks.sum)),
        el('tr', { 'data-key': 'tiled-c00' }, el('th', { scope: 'row' }, 'C₀₀ of gpu.multiplyAsync(3, 3, 3, A, B, { maxTile: 2 })'), yes(checks.tiledC00)),
        el('tr', { 'data-key': 'tiled-c' }, el('th', { scope: 'row' }, 'all of C from the tiled product'), yes(checks.tiledC)),
        el('tr', { 'data-key': 'chapter' }, el('th', { scope: 'row' }, 'the chapter\'s C'), yes(checks.chapter))))),
    el('p', { class: 'help' }, 'With maxTile: 2 the library cuts A and B exactly like this, into tiles of at most 2 (2 + 1): one product pass per pair of tiles, A₀₀·B₀₀ then A₀₁·B₁₀ for C₀₀, and an element-wise sum on the GPU. The same happens on its own for matrices past the device\'s texture or buffer limit. Small whole numbers, so float32 is exact and "equal" means every bit.'));
  const record = { status: agree ? 'done' : 'error', t1: Array.from(t1), t2: Array.from(t2), sum, c00: c00(Array.from(tiled)), tiled: Array.from(tiled), reference: Array.from(ref), checks, agree, backend: gpu.backend };
  publishPart('worked', record);
  return record;
}

export default {
  id: ID,
  title: 'Partitioned matrices',
  mount(container, ctx) {
    const state = ctx.url.state();
    this.worked = workedPart(ctx);
    this.sparse = sparsePart(ctx, state);
    this.mesh = meshPart(ctx, state);
    container.replaceChildren(
      el('div', { class: 'app-intro' }, intro()),
      this.worked.element, this.sparse.element, this.mesh.element);
    // The worked example is three tiny products: computed once it is scrolled to.
    if ('IntersectionObserver' in window) {
      const seen = new IntersectionObserver((entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        seen.disconnect();
        if (!this.worked.done) this.worked.run();
      });
      seen.observe(this.worked.element);
    }
  },
  /** After the demo's first run: the parts a link asked for run and show their state. */
  async restore(ctx) {
    const state = ctx.url.state();
    if (state.given.some((k) => k.startsWith('sparse'))) await this.sparse.run({ replay: true });
    if (state.given.some((k) => k.startsWith('mesh'))) await this.mesh.run({ step: state.meshStep, replay: true });
  },
  /** Back / Forward: the controls follow the address. */
  onUrl(ctx) {
    const state = ctx.url.state();
    this.sparse.set(state);
    this.mesh.set(state);
  },
};
