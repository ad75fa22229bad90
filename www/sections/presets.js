// The presets of the application sections: what each one computes, built from
// seeded generators so the page and the page tests (in Node) get the same inputs.
// Pure module: no DOM, no GPU.
import {
  diagonallyDominant, graphAdjacency, hilbert, identityMinusHalfJ, notDominant,
  singularMatrix, symmetricWithSpectrum, tridiagonal, uniformVector, weightedGraph,
} from '../reference-apps.js';
import { mulberry32 } from '../reference.js';

/** The preset of `list` with this id (the first when unknown). */
export function findPreset(list, id) {
  return list.find((p) => p.id === id) || list[0];
}

// ---------------------------------------------------------------------------------
// Reachability: { n, directed, build() → adjacency (Float32Array 0/1) }

export const REACHABILITY = [
  {
    id: 'random-24', n: 24, directed: true,
    label: 'random directed graph, n = 24',
    help: 'Each ordered pair is an edge with probability 0.09 (seed 2): some vertices reach many others, some only themselves.',
    build: () => graphAdjacency('random', 24, { seed: 2, prob: 0.09 }),
  },
  {
    id: 'path-16', n: 16, directed: true,
    label: 'directed path 0 → 1 → … → 15',
    help: 'Vertex i reaches exactly the vertices j ≥ i: R is upper triangular. The longest path has 15 edges, so it takes all ⌈log₂ 15⌉ = 4 squarings.',
    build: () => graphAdjacency('path', 16),
  },
  {
    id: 'cycle-20', n: 20, directed: true,
    label: 'directed cycle, n = 20',
    help: 'Strongly connected: every vertex reaches every other, so R is all ones (connected = true).',
    build: () => graphAdjacency('cycle', 20),
  },
  {
    id: 'components-30', n: 30, directed: false,
    label: 'two components, undirected, n = 30',
    help: 'Vertices 0–14 and 15–29 form two connected groups with no edge between them: R is two blocks of ones.',
    build: () => graphAdjacency('components', 30, { directed: false, seed: 5, prob: 0.04 }),
  },
  {
    id: 'star-32', n: 32, directed: true,
    label: 'star, every vertex → 0, n = 32',
    help: 'Every vertex reaches the centre 0, the centre reaches only itself: R is the first column plus the diagonal.',
    build: () => graphAdjacency('star', 32),
  },
  {
    id: 'complete-12', n: 12, directed: false,
    label: 'complete graph, n = 12',
    help: 'Every pair is an edge: every path is one edge long, so no squaring is needed (R = I + A already); the chain runs ⌈log₂ 11⌉ = 4 anyway.',
    build: () => graphAdjacency('complete', 12, { directed: false }),
  },
  {
    id: 'random-256', n: 256, directed: false,
    label: 'undirected graph, n = 256 (not drawn)',
    help: 'Each pair is an edge with probability 0.006 (seed 7): a few large components and some isolated vertices.',
    build: () => graphAdjacency('random', 256, { directed: false, seed: 7, prob: 0.006 }),
  },
  {
    id: 'random-512', n: 512, directed: true,
    label: 'directed graph, n = 512 (not drawn)',
    help: 'Each ordered pair is an edge with probability 0.002 (seed 11). The one-call gpu.reachability holds the page for about half a second on a software GPU.',
    build: () => graphAdjacency('random', 512, { seed: 11, prob: 0.002 }),
  },
  {
    id: 'random-1024', n: 1024, directed: true, stepOnly: true,
    label: 'directed graph, n = 1024 (not drawn)',
    help: 'Each ordered pair is an edge with probability 0.001 (seed 13). Here the page runs only the squarings one at a time (the one-call gpu.reachability would hold the page for about 2 s on a software GPU).',
    build: () => graphAdjacency('random', 1024, { seed: 13, prob: 0.001 }),
  },
];

// ---------------------------------------------------------------------------------
// Shortest paths: { n, directed, integer, build() → weights (Float32Array, Infinity = no edge) }

export const SHORTEST_PATHS = [
  {
    id: 'random-10', n: 10, directed: true, integer: true,
    label: 'directed graph, n = 10, weights 1–9',
    help: 'Each ordered pair is an edge with probability 0.25 (seed 7), of a whole-number length 1 to 9. Some pairs have no path at all.',
    build: () => weightedGraph('random', 10, { seed: 7, prob: 0.25 }),
  },
  {
    id: 'components-24', n: 24, directed: false, integer: true,
    label: 'two components, n = 24, weights 1–9',
    help: 'Two groups of 12 with no edge between them: every pair across the groups is unreachable (∞).',
    build: () => weightedGraph('components', 24, { directed: false, seed: 6, prob: 0.08 }),
  },
  {
    id: 'real-128', n: 128, directed: true, integer: false,
    label: 'directed, n = 128, weights in [0.1, 1)',
    help: 'Lengths that float32 cannot add exactly: each path length is rounded at every +.',
    build: () => weightedGraph('random', 128, { seed: 8, prob: 0.03, lo: 0.1, hi: 1, integer: false }),
  },
  {
    id: 'random-256', n: 256, directed: true, integer: true,
    label: 'directed, n = 256, weights 1–9 (not drawn)',
    help: 'Each ordered pair is an edge with probability 0.012 (seed 9).',
    build: () => weightedGraph('random', 256, { seed: 9, prob: 0.012 }),
  },
  {
    id: 'negative-cycle-6', n: 6, directed: true, integer: true,
    label: 'a negative cycle, n = 6',
    help: 'The cycle 0 → 1 → … → 5 → 0 has length 2 + 2 + 2 + 2 + 2 − 11 = −1: going round again always gets shorter, so there are no shortest paths.',
    build: () => {
      const n = 6, w = new Float32Array(n * n).fill(Infinity);
      for (let i = 0; i < n; i++) w[i * n + (i + 1) % n] = i === n - 1 ? -11 : 2;
      w[0 * n + 3] = 7;
      w[2 * n + 5] = 5;
      return w;
    },
  },
];

// ---------------------------------------------------------------------------------
// Fibonacci: { ks }

const range = (a, b, step = 1) => Array.from({ length: Math.floor((b - a) / step) + 1 }, (_, i) => a + i * step);

export const FIBONACCI = [
  {
    id: 'edge', ks: range(30, 45),
    label: 'the 2²⁴ edge: k = 30 … 45',
    help: 'F(36) = 14 930 352 is the last Fibonacci number below 2²⁴ = 16 777 216; F(37) = 24 157 817 is the first that float32 cannot hold.',
  },
  {
    id: 'small', ks: range(0, 24),
    label: 'small: k = 0 … 24',
    help: 'Every value far below 2²⁴: all exact.',
  },
  {
    id: 'beyond', ks: [...range(40, 180, 10), 185, 186, 187, 190],
    label: 'far beyond: k = 40 … 190',
    help: 'The error grows with the values; past F(186) ≈ 3.3·10³⁸ the float32 range ends and the GPU gives +Inf.',
  },
  {
    id: 'all', ks: range(0, 100),
    label: 'every k = 0 … 100',
    help: 'The whole curve: exact up to k = 36, then about 7 correct digits.',
  },
];

// ---------------------------------------------------------------------------------
// Inverse: { n, build() → a, runs: [{ name, options }] }

const NS = { name: 'Newton–Schulz (default)', options: {} };
const SERIES = { name: 'series, default d = 1/‖A‖∞', options: { method: 'series' } };

export const INVERSE = [
  {
    id: 'dominant-64', n: 64,
    label: 'diagonally dominant, n = 64: both methods',
    help: 'Off-diagonal entries in [−1, 1), each diagonal entry 1.5 × the rest of its row (seed 11). Both the chapter\'s series and Newton–Schulz converge.',
    build: () => diagonallyDominant(64, 11, 1.5),
    runs: [NS, SERIES],
  },
  {
    id: 'spd-128', n: 128,
    label: 'symmetric positive definite, n = 128',
    help: 'A = QΛQᵀ with eigenvalues evenly from 1 to 10 (condition number 10, seed 5).',
    build: () => symmetricWithSpectrum(128, Array.from({ length: 128 }, (_, i) => 10 - 9 * i / 127), 5).a,
    runs: [NS, SERIES],
  },
  {
    id: 'half-j-4', n: 4,
    label: 'A = I − ½J, n = 4: the series fails',
    help: 'C = I − A = ½J has every |c_ij| = ½ < 1, yet the series with d = 1 diverges: the eigenvalues of A are 1 and −1, so I − dA has the eigenvalue 1 + d > 1 for every d > 0. Newton–Schulz converges.',
    build: () => identityMinusHalfJ(4),
    runs: [{ name: 'series, d = 1 (the chapter)', options: { method: 'series', d: 1, patience: 4 } }, NS],
  },
  {
    id: 'singular-16', n: 16,
    label: 'singular (rank 15), n = 16: no inverse',
    help: 'The last row is the sum of the first two (seed 9): there is no inverse, and the library says so instead of returning garbage.',
    build: () => singularMatrix(16, 9),
    runs: [NS],
  },
  {
    id: 'hilbert-5', n: 5,
    label: 'Hilbert matrix, n = 5: float32\'s limit',
    help: 'a_ij = 1/(i + j + 1), condition number ‖A‖₁·‖A⁻¹‖₁ ≈ 9.4·10⁵ (σ_max/σ_min ≈ 4.8·10⁵): float32 (7 digits) cannot bring ‖AX − I‖ below about 10⁻³: the library stops when it stops improving.',
    build: () => hilbert(5),
    runs: [NS],
  },
];

// ---------------------------------------------------------------------------------
// Eigenvalues: { n, k, lambdas (the known spectrum, largest |λ| first), build() }

/** `first` followed by n − first.length eigenvalues uniform in [−bound, bound) (seeded). */
function spectrum(n, first, bound, seed) {
  const next = mulberry32(seed);
  return [...first, ...Array.from({ length: n - first.length }, () => bound * (2 * next() - 1))];
}

function eigenPreset(p) {
  return { ...p, build: () => symmetricWithSpectrum(p.n, p.lambdas, p.seed) };
}

export const EIGEN = [
  eigenPreset({
    id: 'known-64', n: 64, k: 3, seed: 21,
    lambdas: spectrum(64, [10, -8, 6], 3, 22),
    label: 'n = 64: λ = 10, −8, 6 and 61 more',
    help: 'A = QΛQᵀ with Q from Gram–Schmidt on seeded random vectors, Λ = 10, −8, 6 and 61 values in [−3, 3]: the eigenvalues and eigenvectors are known exactly. Three pairs by squaring and deflation.',
  }),
  eigenPreset({
    id: 'close-128', n: 128, k: 3, seed: 23,
    lambdas: spectrum(128, [10, 9.5, 9], 4, 24),
    label: 'n = 128: close λ = 10, 9.5, 9',
    help: 'The power method converges like (λ₂/λ₁)^(2^t): 0.95 and 0.947 are close to 1, so it needs more squarings.',
  }),
  eigenPreset({
    id: 'plus-minus-32', n: 32, k: 2, seed: 25,
    lambdas: spectrum(32, [8, -8], 3, 26),
    label: 'λ = 8 and −8, n = 32: does not converge',
    help: 'Two dominant eigenvalues of equal magnitude: B^(2^t) tends to the projection onto both eigenvectors, never to one direction. The library reports "not converged", not a wrong answer.',
  }),
  eigenPreset({
    id: 'known-256', n: 256, k: 4, seed: 27,
    lambdas: spectrum(256, [5, 4, -3, 2], 1, 28),
    label: 'n = 256: λ = 5, 4, −3, 2, rest in [−1, 1]',
    help: 'Four pairs, each from the deflated B − λvvᵀ of the one before.',
  }),
];

// ---------------------------------------------------------------------------------
// Jacobi: { n, build() → { a, b }, epsilon }

export const JACOBI = [
  {
    id: 'dominant-64', n: 64, epsilon: 1e-6,
    label: 'diagonally dominant, n = 64',
    help: 'Off-diagonal entries in [0, 1), each diagonal entry 1.5 × the rest of its row (seed 31); b random in [−1, 1). With entries of one sign ρ(T) is close to 1/1.5: the error shrinks by about a third per iteration.',
    build: () => ({ a: diagonallyDominant(64, 31, 1.5, 0), b: Float32Array.from(uniformVector(32, 64)) }),
  },
  {
    id: 'tridiagonal-128', n: 128, epsilon: 1e-6,
    label: 'tridiagonal (−1, 2.5, −1), n = 128',
    help: 'A known-pattern sparse matrix, barely dominant (2.5 against 2): the error is multiplied by about 0.8 each iteration.',
    build: () => ({ a: tridiagonal(128, -1, 2.5, -1), b: Float32Array.from(uniformVector(33, 128)) }),
  },
  {
    id: 'dominant-256', n: 256, epsilon: 1e-6,
    label: 'random signs, strongly dominant, n = 256',
    help: 'Off-diagonal entries in [−1, 1), each diagonal entry 3 × the rest of its row (seed 34): their signs cancel, ρ(T) is far below 1/3 and a few iterations suffice.',
    build: () => ({ a: diagonallyDominant(256, 34, 3), b: Float32Array.from(uniformVector(35, 256)) }),
  },
  {
    id: 'not-dominant-16', n: 16, epsilon: 1e-6,
    label: 'not diagonally dominant, n = 16: diverges',
    help: 'Ones on the diagonal, the rest in [−1, 1) (seed 4): the iteration matrix has eigenvalues outside the unit circle, Σ|Δx| grows every iteration and the library reports divergence.',
    build: () => ({ a: notDominant(16, 4), b: new Float32Array(16).fill(1) }),
  },
];
