// Inputs of the block-sparse bench: seeded random block patterns (k blocks at distinct
// random places on the T×T block grid), their BlockSparse, and a sampled float64 check
// of a product against the blocks themselves. Used by www/bench/blocks.js.
import { mulberry32 } from '../reference.js';

/** Distinct blocks a pool of random values serves (block s takes pool block s' at random). */
const POOL_BLOCKS = 256;

/** A Uint8Array over the T² grid with exactly k ones at seeded random places. */
export function randomPattern(seed, T, k) {
  const next = mulberry32(seed);
  const cells = T * T;
  k = Math.max(0, Math.min(Math.round(k), cells));
  const taken = new Uint8Array(cells);
  if (k <= cells / 2) {
    for (let c = 0; c < k;) { const x = Math.floor(next() * cells); if (!taken[x]) { taken[x] = 1; c++; } }
  } else {
    taken.fill(1);
    for (let c = cells; c > k;) { const x = Math.floor(next() * cells); if (taken[x]) { taken[x] = 0; c--; } }
  }
  return taken;
}

/**
 * An n×n block-sparse operand with blocks of m at the places of `taken`: values
 * uniform in [-1, 1) from a pool of POOL_BLOCKS random blocks (the bench times the
 * product, not the values). Returns { sparse (a BlockSparse: free() it), T, m, n,
 * taken, pick (the pool block of each stored block, in row-major order), pool, k }.
 */
export function makeOperand(BlockSparse, seed, n, m, taken) {
  const T = Math.ceil(n / m);
  const next = mulberry32(seed ^ 0x9e3779b9);
  const pool = new Float32Array(POOL_BLOCKS * m * m);
  for (let i = 0; i < pool.length; i++) pool[i] = 2 * next() - 1;
  const blocks = [];
  const pick = [];
  for (let x = 0; x < taken.length; x++) {
    if (!taken[x]) continue;
    const s = Math.floor(next() * POOL_BLOCKS);
    pick.push(s);
    blocks.push({ row: Math.floor(x / T), col: x % T, data: pool.subarray(s * m * m, (s + 1) * m * m) });
  }
  const sparse = BlockSparse.fromBlocks(n, n, m, blocks);
  return { sparse, T, m, n, taken, pick: Int32Array.from(pick), pool, k: blocks.length };
}

/** Row-major stored numbers of each grid row's blocks: (col, stored index) lists. */
function rowsOf(op) {
  const { T, taken } = op;
  const rows = Array.from({ length: T }, () => []);
  let s = 0;
  for (let x = 0; x < taken.length; x++) if (taken[x]) rows[Math.floor(x / T)].push([x % T, s++]);
  return rows;
}

/**
 * Relative Frobenius error of C = A·B (a BlockSparse result) on `sampleRows` seeded
 * block rows, against float64 products of the blocks; null when n is past `maxN`
 * (C.toDense() is n² floats).
 */
export function checkProduct(c, a, b, { seed = 1, sampleRows = 4, maxN = 4096 } = {}) {
  const { n, m, T } = a;
  if (n > maxN) return null;
  const dense = c.toDense();
  const ar = rowsOf(a), br = rowsOf(b);
  const next = mulberry32(seed + 17);
  let num = 0, den = 0;
  const picked = new Set();
  while (picked.size < Math.min(sampleRows, T)) picked.add(Math.floor(next() * T));
  const row = new Float64Array(m * n);
  for (const i of picked) {
    row.fill(0);
    for (const [k, sa] of ar[i]) {
      const A = a.pool.subarray(a.pick[sa] * m * m, (a.pick[sa] + 1) * m * m);
      for (const [j, sb] of br[k]) {
        const B = b.pool.subarray(b.pick[sb] * m * m, (b.pick[sb] + 1) * m * m);
        for (let r = 0; r < m; r++) {
          for (let t = 0; t < m; t++) {
            const x = A[r * m + t];
            for (let q = 0; q < m; q++) row[r * n + j * m + q] += x * B[t * m + q];
          }
        }
      }
    }
    for (let r = 0; r < m && i * m + r < n; r++) {
      for (let col = 0; col < n; col++) {
        const ref = row[r * n + col];
        const d = dense[(i * m + r) * n + col] - ref;
        num += d * d;
        den += ref * ref;
      }
    }
  }
  return den > 0 ? Math.sqrt(num / den) : Math.sqrt(num);
}
