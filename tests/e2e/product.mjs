// A product through the library as the other engines' tests run it: `inPage` runs in the
// page (puppeteer's evaluate takes it as a function, WebDriver as its source), and
// `checkProduct` compares what it returned with the float64 reference.
import assert from 'node:assert/strict';
import { multiply } from '../../www/reference.js';

export const DIMS = [37, 19, 23];

/** In the page: A·B on `backend` (the CPU's on two workers, rows of C split between
 * them); small integers, so every entry is exact on every backend. Returns
 * { a, b, c, backend, threads } or { error }. */
export async function inPage([[rows, inner, cols], backend]) {
  const m = await import('/www/pkg/gpgpu_matrix.js');
  await m.default();
  let g;
  try {
    g = await m.Gpgpu.create({ backend, ...(backend === 'cpu' ? { threads: 2 } : {}) });
    const a = Float32Array.from({ length: rows * inner }, (_, i) => (i * 7) % 5 - 2);
    const b = Float32Array.from({ length: inner * cols }, (_, i) => (i * 3) % 7 - 3);
    const c = await g.multiplyAsync(rows, inner, cols, a, b);
    const info = g.info();
    return { a: Array.from(a), b: Array.from(b), c: Array.from(c), backend: info.backend, threads: info.threads };
  } catch (e) {
    return { error: `${e.code} ${e.message}` };
  } finally {
    g?.free();
  }
}

export function checkProduct(got, backend) {
  assert.equal(got.error, undefined, got.error);
  assert.equal(got.backend, backend);
  if (backend === 'cpu') assert.equal(got.threads, 2);
  assert.deepEqual(got.c, Array.from(multiply(...DIMS, got.a, got.b)));
}
