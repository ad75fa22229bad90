// The input matrices a student can pick. Each is an n×n row-major Float32Array
// (exactly what is uploaded to the GPU texture, and what the float64 reference
// starts from). Pure module: runs in the page, in workers and in Node.

import { integerMatrix, mulberry32, uniformMatrix } from './reference.js';

export const INTEGER_LO = -4;
export const INTEGER_HI = 4;

/**
 * Every kind of input: `seeded` / `probability` name the parameters it uses, `integer`
 * says every entry (hence every exact product) is a whole number, `make(n, seed, prob)`
 * builds it. Its menu label and its description are input.KIND and input.about.KIND
 * in the page's catalogues (www/i18n/).
 */
export const INPUT_KINDS = {
  uniform: {
    seeded: true,
    make: (n, seed) => uniformMatrix(seed, n * n, -1, 1),
  },
  identity: {
    integer: true,
    make: (n) => {
      const m = new Float32Array(n * n);
      for (let i = 0; i < n; i++) m[i * n + i] = 1;
      return m;
    },
  },
  integers: {
    seeded: true,
    integer: true,
    make: (n, seed) => integerMatrix(seed, n * n, INTEGER_LO, INTEGER_HI),
  },
  pattern: {
    integer: true,
    make: (n) => {
      const m = new Float32Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) m[i * n + j] = i * 1000 + j;
      return m;
    },
  },
  graph: {
    seeded: true,
    probability: true,
    integer: true,
    make: (n, seed, prob) => {
      // Undirected, no self-loops: each pair {i, j} is an edge with probability prob.
      const next = mulberry32(seed);
      const m = new Float32Array(n * n);
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          if (next() < prob) { m[i * n + j] = 1; m[j * n + i] = 1; }
        }
      }
      return m;
    },
  },
  fibonacci: {
    integer: true,
    make: (n) => {
      // Copies of F = [[1,1],[1,0]] down the diagonal: every 2×2 diagonal block of
      // M^p is F^p = [[f(p+1), f(p)], [f(p), f(p−1)]]. With odd n the last entry is 1.
      const m = new Float32Array(n * n);
      for (let b = 0; b + 1 < n; b += 2) {
        m[b * n + b] = 1; m[b * n + b + 1] = 1; m[(b + 1) * n + b] = 1;
      }
      if (n % 2 === 1) m[n * n - 1] = 1;
      return m;
    },
  },
  tridiagonal: {
    integer: true,
    make: (n) => {
      const m = new Float32Array(n * n);
      for (let i = 0; i < n; i++) {
        m[i * n + i] = 2;
        if (i > 0) m[i * n + i - 1] = -1;
        if (i + 1 < n) m[i * n + i + 1] = -1;
      }
      return m;
    },
  },
};

/** Builds input `kind` of size n. */
export function makeInput(kind, n, seed = 1, prob = 0.1) {
  const k = INPUT_KINDS[kind];
  if (!k) throw new Error(`unknown input '${kind}'`);
  return k.make(n, seed, prob);
}
