// Part 2 of "Many small problems at once": batched 3×3 products (the developer's
// log: "a 3×3 multiply falls out with one thread per output cell"). A seeded batch
// of A_s and B_s, gpu.multiplyBatchedAsync(batch, 3, 3, 3, a, b) in one pass, a few
// products shown, the time for this batch and for 100 000, and batched powers;
// every product checked against float64.
import { el, int, sci } from '../ui/format.js';
import { resolutionText, timerResolutionMs } from '../ui/clock.js';
import { backendName, msText, nextFrame, timedAsync, workItems, devName } from './common.js';
import { numberField, partitionedGrid, readNumber } from './partitioned-ui.js';
import { publishBatched, readFields, uniformMatrices } from './batched-ui.js';
import { fieldGroup, partHandle, partRunner } from './part-runner.js';
import { t } from '../i18n/index.js';

const N = 3;
const BIG = 100000;
const SHOWN = 3;

export function productsPart(ctx, state, lock) {
  const part = el('div', { class: 'part', id: 'batched-products' });
  const f = {
    prodBatch: numberField('prodBatch', t('sec.f.batch'), { min: 1, max: 200000, value: state.prodBatch }),
    prodPower: numberField('prodPower', t('sec.f.powerP'), { min: 0, max: 64, value: state.prodPower }),
    prodSeed: numberField('prodSeed', t('sec.f.seed'), { min: 0, max: 4294967295, value: state.prodSeed }),
  };
  const button = el('button', { type: 'button', class: 'primary', id: 'batched-products-run' }, t('sec.batched.products'));
  const output = el('div', { class: 'part-output', id: 'batched-products-output' });
  const runner = partRunner(ctx, part, 'batched-products-status', t('sec.batched.productsIdle', { big: int(BIG) }), {
    buttons: [button],
    output,
    lock,
    name: 'the batched products',
    onError: (record) => publishBatched('products', record),
    read: () => readFields({
      prodBatch: [f.prodBatch.input, 1, 200000, true],
      prodPower: [f.prodPower.input, 0, 64, true],
      prodSeed: [f.prodSeed.input, 0, 4294967295, true],
    }, readNumber),
    work: (s, progress) => productsDemo(ctx, s, output, progress),
  });
  button.addEventListener('click', runner.run);
  part.append(
    el('h3', { id: 'batched-products-h' }, 'Batched 3×3 products: one invocation per output cell'),
    el('p', {}, 'A 3×3 product has nine entries, each a sum of three products: far too little work to be worth a GPU pass on its own. Thousands of them at once are. ',
      el('code', {}, 'await gpu.multiplyBatchedAsync(batch, 3, 3, 3, a, b)'), ' takes the A', el('sub', {}, 's'), ' one after another in ', el('code', {}, 'a'), ' (batch·9 floats, each matrix row-major) and the B', el('sub', {}, 's'), ' in ', el('code', {}, 'b'),
      ', and computes every C', el('sub', {}, 's'), ' = A', el('sub', {}, 's'), 'B', el('sub', {}, 's'), ' in one pass: one invocation (WebGPU, workgroups of 256) or one fragment (WebGL) per entry of every C', el('sub', {}, 's'),
      ', as the log does it. On the GPU the matrices lie side by side in an atlas, a texture (WebGL) or buffer (WebGPU) of at most 4096 floats a row: ⌊4096/3⌋ = 1365 tiles of 3×3 per band of three rows, the next band below. An invocation finds its matrix and cell from its position in the atlas, reads a row of its A and a column of its B from the same tile position, and writes one number.'),
    el('p', {}, el('code', {}, 'await gpu.powerBatchedAsync(batch, n, m, p)'), ' raises every matrix of a batch to the power p by binary exponentiation, the whole batch in each squaring or product pass (about 2·log₂ p passes), the atlases staying on the GPU in between.'),
    fieldGroup('batched-products-h', ...Object.values(f).map((x) => x.element)),
    el('div', { class: 'buttons' }, button),
    runner.status.element, output);
  return partHandle(part, runner, f);
}

/** batch products of 3×3 matrices in float64: C_s = A_s · B_s. */
function batchedReference(batch, a, b) {
  const c = new Float64Array(batch * 9);
  for (let s = 0; s < batch; s++) {
    const o = 9 * s;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      c[o + 3 * i + j] = a[o + 3 * i] * b[o + j] + a[o + 3 * i + 1] * b[o + 3 + j] + a[o + 3 * i + 2] * b[o + 6 + j];
    }
  }
  return c;
}

/**
 * Every M_s^p in float64 by binary exponentiation, and every |M_s|^p (entrywise absolute
 * values), the scale of float32's rounding error in a chain of products: the error of
 * a product AB is bounded by a multiple of |A|·|B|, not of |AB|.
 */
function powerReference(batch, m, p) {
  return { power: powers(batch, m, p, (v) => v), scale: powers(batch, m, p, Math.abs) };
}

/** Every (f applied to each entry of M_s)^p in float64. */
function powers(batch, m, p, f) {
  const out = new Float64Array(batch * 9);
  const mul = (x, y) => {
    const z = new Array(9);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) z[3 * i + j] = x[3 * i] * y[j] + x[3 * i + 1] * y[3 + j] + x[3 * i + 2] * y[6 + j];
    return z;
  };
  for (let s = 0; s < batch; s++) {
    let r = [1, 0, 0, 0, 1, 0, 0, 0, 1], base = Array.from(m.subarray(9 * s, 9 * s + 9), f);
    for (let e = p; e > 0; e >>= 1) {
      if (e & 1) r = mul(r, base);
      if (e > 1) base = mul(base, base);
    }
    out.set(r, 9 * s);
  }
  return out;
}

/**
 * Largest |x − ref| over each matrix divided by that matrix's largest |scale| (default:
 * |ref|), the worst over the batch.
 */
function relError(batch, x, ref, scale = ref) {
  let worst = 0, abs = 0;
  for (let s = 0; s < batch; s++) {
    let e = 0, peak = 0;
    for (let k = 9 * s; k < 9 * s + 9; k++) { e = Math.max(e, Math.abs(x[k] - ref[k])); peak = Math.max(peak, Math.abs(scale[k])); }
    if (Number.isNaN(x[9 * s]) || !Number.isFinite(e)) return { rel: NaN, abs: NaN };
    abs = Math.max(abs, e);
    worst = Math.max(worst, peak > 0 ? e / peak : e);
  }
  return { rel: worst, abs };
}

async function productsDemo(ctx, s, output, progress) {
  const { gpu } = ctx;
  const batch = s.prodBatch, p = s.prodPower;
  const a = uniformMatrices(batch * 9, s.prodSeed), b = uniformMatrices(batch * 9, s.prodSeed + 1);
  // The shader compiled on a batch of one, so that the times are the products'.
  await gpu.multiplyBatchedAsync(1, N, N, N, a.subarray(0, 9), b.subarray(0, 9));
  const [c, ms] = await timedAsync(() => gpu.multiplyBatchedAsync(batch, N, N, N, a, b));
  await nextFrame();
  const err = relError(batch, c, batchedReference(batch, a, b));
  // The same for 100 000 products (timed; checked too).
  progress(`Timing ${int(BIG)} products…`);
  const bigA = batch === BIG ? a : uniformMatrices(BIG * 9, s.prodSeed + 2), bigB = batch === BIG ? b : uniformMatrices(BIG * 9, s.prodSeed + 3);
  const [bigC, bigMs] = batch === BIG ? [c, ms] : await timedAsync(() => gpu.multiplyBatchedAsync(BIG, N, N, N, bigA, bigB));
  await nextFrame();
  const bigErr = relError(BIG, bigC, batchedReference(BIG, bigA, bigB));
  await nextFrame();
  // Powers: each M_s scaled to a largest entry of 1, so that M^p cannot overflow (its
  // spectral radius is at most 3, and 3^64 < 3.4e38). It can still cancel down far
  // below its factors, or vanish below float32's range (1.4e−45) where its spectral
  // radius is small: measured against the largest |M^p| that was float32 rounding
  // flagged "bad" (1.9e−4 at p = 64) and an underflow to 0 a relative error of 1
  // (20 000 matrices at p = 64). So the error is measured against |M|^p, the scale of
  // the rounding error of a chain of products.
  progress(`Batched powers M^${p}…`);
  const m = a.slice();
  for (let k = 0; k < batch; k++) {
    let peak = 0;
    for (let e = 9 * k; e < 9 * k + 9; e++) peak = Math.max(peak, Math.abs(m[e]));
    for (let e = 9 * k; e < 9 * k + 9; e++) m[e] = peak > 0 ? m[e] / peak : 0;
  }
  const [pw, powMs] = await timedAsync(() => gpu.powerBatchedAsync(batch, N, m, p));
  await nextFrame();
  const powRef = powerReference(batch, m, p);
  const powErr = relError(batch, pw, powRef.power, powRef.scale);
  const squarings = p > 1 ? Math.floor(Math.log2(p)) : 0;
  const ones = p > 0 ? p.toString(2).split('').filter((d) => d === '1').length : 0;
  const width = Math.min(4096, ctx.info?.maxDimension || 4096);
  const perRow = Math.floor(width / N);
  const bands = (count) => Math.ceil(count / perRow);
  const record = {
    status: 'done', backend: gpu.backend, batch, power: p, seed: s.prodSeed,
    maxRelError: err.rel, maxAbsError: err.abs, bigBatch: BIG, bigRelError: bigErr.rel, powerRelError: powErr.rel,
    ms, bigMs, powMs, perRow, first: Array.from(c.subarray(0, 9)),
  };
  const shown = Math.min(SHOWN, batch);
  const fmt = (v) => v.toFixed(3).replace('-', '−');
  const tile = (arr, s2) => Array.from(arr.subarray(9 * s2, 9 * s2 + 9));
  const ok = (e, tol) => (e <= tol ? 'ok' : 'bad');
  output.replaceChildren(
    el('div', { class: 'batched-products-list' }, Array.from({ length: shown }, (_, k) => el('div', { class: 'part-figures', 'data-product': String(k) },
      partitionedGrid(`A${sub(k)}`, 3, 3, tile(a, k), { fmt }),
      el('span', { class: 'part-op', 'aria-hidden': 'true' }, '·'),
      partitionedGrid(`B${sub(k)}`, 3, 3, tile(b, k), { fmt }),
      el('span', { class: 'part-op', 'aria-hidden': 'true' }, '='),
      partitionedGrid(`C${sub(k)} (${devName(gpu)})`, 3, 3, tile(c, k), { fmt, id: `batched-c${k}` })))),
    el('p', { class: 'help' }, `The first ${shown} of ${products(batch)}, entries uniform in [−1, 1) from the seed (shown to 3 decimals).`),
    el('div', { class: 'scroll-x' }, el('table', { class: 'app-results', id: 'batched-products-table' },
      el('caption', {}, `Batched 3×3 products on ${backendName(gpu)}, against float64 products computed here`),
      el('tbody', {}, [
        ['batch', products(batch), `${msText(ms, { bare: true })} (${perProduct(ms, batch)} per product; timer resolution ${resolutionText()})`, `one pass, ${int(batch * 9)} ${workItems(gpu)}; the atlas ${Math.min(batch, perRow) * N} × ${bands(batch) * N} floats (${bands(batch)} band${bands(batch) === 1 ? '' : 's'} of ${int(perRow)} tiles); wall time, upload and readback included`],
        ['batch-error', `max error, ${products(batch)}`, `${sci(err.rel)} relative (${sci(err.abs)} absolute)`, 'largest |C − float64 AB| of a matrix over its largest |entry|, the worst of the batch: float32 rounding', ok(err.rel, 1e-5)],
        ['big', `${int(BIG)} products`, `${msText(bigMs, { bare: true })} (${perProduct(bigMs, BIG)} per product; timer resolution ${resolutionText()})`, `the same pass, ${int(BIG * 9)} ${workItems(gpu)}; atlas ${perRow * N} × ${bands(BIG) * N} floats`],
        ['big-error', `max error, ${int(BIG)} products`, `${sci(bigErr.rel)} relative`, 'the same measure', ok(bigErr.rel, 1e-5)],
        ['power', `powers M^${p}`, `${msText(powMs)}; max error ${sci(powErr.rel)} relative to |M|^${p}`, `gpu.powerBatchedAsync(${batch}, 3, m, ${p}): ${squarings} squaring${squarings === 1 ? '' : 's'} and ${Math.max(0, ones - 1)} product${ones - 1 === 1 ? '' : 's'} with the result, each a pass over the whole batch; each M scaled to a largest entry of 1. The error: largest |M^p − float64 M^p| of a matrix over the largest entry of |M|^p (the power of its absolute values), since float32's rounding in a product AB is bounded by |A|·|B|, not by AB: M^p can cancel far below its factors, or vanish below float32's range`, ok(powErr.rel, 1e-4)],
      ].map(([key, k, v, note, cls]) => el('tr', { 'data-key': key }, el('th', { scope: 'row' }, k, el('span', { class: 'what' }, note)), el('td', { class: cls || null }, v)))))),
    el('p', { class: 'help' }, 'The wall times include copying the matrices to the GPU and the products back, which for 27 multiply-adds per product is most of the cost: the log keeps its data on the GPU, feeding one batched step into the next.'));
  publishBatched('products', record);
  return `Done on ${backendName(gpu)}: ${products(batch)} in ${msText(ms)}, ${int(BIG)} in ${msText(bigMs)}; max relative error ${sci(Math.max(err.rel, bigErr.rel))}, powers ${sci(powErr.rel)}.`;
}

const SUBS = '₀₁₂₃₄₅₆₇₈₉';
const sub = (k) => String(k).split('').map((d) => SUBS[d]).join('');
const products = (k) => `${int(k)} product${k === 1 ? '' : 's'}`;
function perProduct(ms, count) {
  const us = (ms * 1000) / count;
  // toPrecision(3) writes 13 600 µs as "1.36e+4": a millisecond or more is given in ms.
  if (us >= 1000) return msText(us / 1000, { bare: true, over: count });
  // One clock reading over `count` products: no digit finer than the clock's step over count.
  const step = (timerResolutionMs() * 1000) / count;
  if (us < step) return `< ${step >= 1 ? `${step.toPrecision(2)} µs` : `${(step * 1000).toPrecision(2)} ns`}`;
  const digits = Math.max(1, Math.min(3, Math.floor(Math.log10(us / step)) + 1));
  return us >= 1 ? `${us.toPrecision(digits)} µs` : `${(us * 1000).toPrecision(digits)} ns`;
}
