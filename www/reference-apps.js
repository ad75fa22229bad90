// Independent JavaScript references for the applications of matrix powers, and the
// seeded inputs of the page's presets. Nothing here touches the GPU or the library:
// the page (and the page tests, in Node) check the GPU's answers against these.
//
//   graphs      BFS from every vertex (reachability, hop counts), Floyd–Warshall
//               in float64 (shortest paths, negative cycles)
//   Fibonacci   BigInt, and the float32 nearest to a BigInt (round half to even)
//   linear      Gaussian elimination with partial pivoting in float64 (solve,
//               inverse), ‖AX − I‖_F, norms
//   spectra     Q from Gram–Schmidt on seeded vectors, A = QΛQᵀ with a chosen Λ
//
// Matrices are row-major: element (i, j) of an n×n matrix is at i*n + j. Inputs may
// be Float32Array, Float64Array or plain arrays.
import { mulberry32 } from './reference.js';

// ---------------------------------------------------------------------------------
// Graphs

/**
 * An n×n 0/1 adjacency matrix (Float32Array, no self-loops): entry (i, j) = 1 for
 * an edge i → j. kind:
 *   path        0 → 1 → … → n−1
 *   cycle       0 → 1 → … → n−1 → 0
 *   star        every other vertex → 0 (directed), or both ways
 *   complete    every pair
 *   components  `parts` groups of consecutive vertices, each connected (a random
 *               spanning tree plus random extra edges), none between groups
 *   random      each pair an edge with probability `prob`
 * `directed: false` makes every edge go both ways (a symmetric matrix).
 */
export function graphAdjacency(kind, n, { directed = true, seed = 1, prob = 0.1, parts = 2 } = {}) {
  const a = new Float32Array(n * n);
  const next = mulberry32(seed);
  const edge = (i, j) => {
    if (i === j) return;
    a[i * n + j] = 1;
    if (!directed) a[j * n + i] = 1;
  };
  switch (kind) {
    case 'path':
      for (let i = 0; i + 1 < n; i++) edge(i, i + 1);
      break;
    case 'cycle':
      for (let i = 0; i < n; i++) edge(i, (i + 1) % n);
      break;
    case 'star':
      for (let i = 1; i < n; i++) edge(i, 0);
      break;
    case 'complete':
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) edge(i, j);
      break;
    case 'components': {
      const size = Math.ceil(n / parts);
      for (let start = 0; start < n; start += size) {
        const end = Math.min(n, start + size);
        for (let v = start + 1; v < end; v++) {
          const u = start + Math.floor(next() * (v - start));
          edge(u, v);
          edge(v, u);
        }
        for (let i = start; i < end; i++) for (let j = start; j < end; j++) if (next() < prob) edge(i, j);
      }
      break;
    }
    case 'random':
      for (let i = 0; i < n; i++) {
        for (let j = directed ? 0 : i + 1; j < n; j++) if (i !== j && next() < prob) edge(i, j);
      }
      break;
    default:
      throw new Error(`unknown graph kind '${kind}'`);
  }
  return a;
}

/** Out-neighbour lists of a matrix whose nonzero (finite, for weights) entries are edges. */
export function neighbours(n, adjacency, isEdge = (v) => v !== 0) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const list = [];
    for (let j = 0; j < n; j++) if (i !== j && isEdge(adjacency[i * n + j])) list.push(j);
    out.push(list);
  }
  return out;
}

/**
 * Breadth-first search from every vertex: hops[i*n + j] = the fewest edges on a
 * path i → j (0 on the diagonal), −1 when j cannot be reached from i.
 */
export function bfsHops(n, adjacency) {
  const adj = neighbours(n, adjacency);
  const hops = new Int32Array(n * n).fill(-1);
  const queue = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    const row = s * n;
    hops[row + s] = 0;
    let head = 0, tail = 0;
    queue[tail++] = s;
    while (head < tail) {
      const u = queue[head++];
      const d = hops[row + u] + 1;
      for (const v of adj[u]) {
        if (hops[row + v] < 0) { hops[row + v] = d; queue[tail++] = v; }
      }
    }
  }
  return hops;
}

/** Reachability by BFS: 1 where j is reachable from i (every vertex reaches itself), else 0. */
export function reachabilityBFS(n, adjacency) {
  const hops = bfsHops(n, adjacency);
  const r = new Uint8Array(n * n);
  for (let i = 0; i < n * n; i++) r[i] = hops[i] >= 0 ? 1 : 0;
  return r;
}

/** How many pairs (i, j), i = j included, are joined by a path of at most `maxHops` edges. */
export function pairsWithin(hops, maxHops) {
  let c = 0;
  for (let i = 0; i < hops.length; i++) if (hops[i] >= 0 && hops[i] <= maxHops) c++;
  return c;
}

/**
 * The classes of vertices that reach each other (strongly connected components; the
 * connected components of an undirected graph) from a reachability matrix: an
 * Int32Array of class numbers, 0, 1, … in order of each class's first vertex.
 */
export function mutualClasses(n, reach) {
  const cls = new Int32Array(n).fill(-1);
  let next = 0;
  for (let i = 0; i < n; i++) {
    if (cls[i] >= 0) continue;
    cls[i] = next;
    for (let j = i + 1; j < n; j++) {
      if (cls[j] < 0 && reach[i * n + j] && reach[j * n + i]) cls[j] = next;
    }
    next++;
  }
  return cls;
}

/**
 * A weighted directed graph: `adjacency` (as graphAdjacency) with a weight on each
 * edge, Infinity where there is none (and on the diagonal). Weights are whole numbers
 * lo..hi when `integer`, else uniform in [lo, hi) rounded to float32.
 */
export function weightedGraph(kind, n, { directed = true, seed = 1, prob = 0.1, parts = 2, lo = 1, hi = 9, integer = true } = {}) {
  const a = graphAdjacency(kind, n, { directed, seed, prob, parts });
  const next = mulberry32(seed + 1000);
  const w = new Float32Array(n * n).fill(Infinity);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (!a[i * n + j]) continue;
      if (!directed && j < i) { w[i * n + j] = w[j * n + i]; continue; }
      w[i * n + j] = integer ? lo + Math.floor(next() * (hi - lo + 1)) : lo + (hi - lo) * next();
    }
  }
  return w;
}

/**
 * All-pairs shortest paths by Floyd–Warshall in float64. `weights[i][j]` is the edge
 * length, Infinity for none; the diagonal starts at min(0, w_ii). Returns
 * { dist: Float64Array (Infinity where unreachable), negativeCycle } where
 * negativeCycle says some vertex lies on a cycle of negative length (dist[i][i] < 0).
 */
export function floydWarshall(n, weights) {
  const d = Float64Array.from(weights, (v) => (Number.isNaN(v) ? Infinity : v));
  for (let i = 0; i < n; i++) d[i * n + i] = Math.min(0, d[i * n + i]);
  for (let k = 0; k < n; k++) {
    const rk = k * n;
    for (let i = 0; i < n; i++) {
      const dik = d[i * n + k];
      if (dik === Infinity) continue;
      const ri = i * n;
      for (let j = 0; j < n; j++) {
        const via = dik + d[rk + j];
        if (via < d[ri + j]) d[ri + j] = via;
      }
    }
  }
  let negativeCycle = false;
  for (let i = 0; i < n; i++) if (d[i * n + i] < 0) negativeCycle = true;
  return { dist: d, negativeCycle };
}

/** Number of edges (nonzero, finite off-diagonal entries). */
export function edgeCount(n, m, isEdge = (v) => v !== 0 && Number.isFinite(v)) {
  let c = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j && isEdge(m[i * n + j])) c++;
  return c;
}

/** True when m equals its transpose. */
export function isSymmetric(n, m) {
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (!Object.is(m[i * n + j], m[j * n + i])) return false;
  return true;
}

// ---------------------------------------------------------------------------------
// Fibonacci

/** F(k) exactly, F(0) = 0, F(1) = 1 (the library's numbering; the chapter's f_n = F(n+1)). */
export function fibonacciBig(k) {
  let a = 0n, b = 1n;
  for (let i = 0; i < k; i++) [a, b] = [b, a + b];
  return a;
}

const FLOAT32_OVERFLOW = 1n << 128n;

/**
 * The float32 nearest to the integer x ≥ 0 (round half to even), as a BigInt, or
 * null when it rounds past the largest float32 (overflow to +Infinity).
 */
export function nearestFloat32Big(x) {
  if (x < 0n) throw new Error('nearestFloat32Big: x must be ≥ 0');
  const bits = x.toString(2).length;
  if (bits <= 24) return x;
  const shift = BigInt(bits - 24);
  let q = x >> shift;
  const rest = x - (q << shift);
  const half = 1n << (shift - 1n);
  if (rest > half || (rest === half && (q & 1n) === 1n)) q += 1n;
  const r = q << shift;
  return r >= FLOAT32_OVERFLOW ? null : r;
}

/** The gap between neighbouring float32 values at the integer x ≥ 1 (1 below 2^24). */
export function float32SpacingBig(x) {
  const bits = x.toString(2).length;
  return bits <= 24 ? 1n : 1n << BigInt(bits - 24);
}

// ---------------------------------------------------------------------------------
// Linear algebra in float64

/** ‖v‖₂. */
export function norm2(v) {
  let s = 0;
  for (const x of v) s += x * x;
  return Math.sqrt(s);
}

/** Σ|v_i|. */
export function norm1(v) {
  let s = 0;
  for (const x of v) s += Math.abs(x);
  return s;
}

/** ‖a − b‖₁ of two vectors. */
export function distance1(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]);
  return s;
}

/** y = A x (A n×n). */
export function matVec(n, a, x) {
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += a[i * n + j] * x[j];
    y[i] = s;
  }
  return y;
}

/** A·B for n×n matrices in float64. */
export function matMul(n, a, b) {
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      const aik = a[i * n + k];
      if (aik === 0) continue;
      for (let j = 0; j < n; j++) c[i * n + j] += aik * b[k * n + j];
    }
  }
  return c;
}

/** ‖A X − I‖_F in float64. */
export function inverseResidual(n, a, x) {
  const p = matMul(n, a, x);
  let s = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const d = p[i * n + j] - (i === j ? 1 : 0);
      s += d * d;
    }
  }
  return Math.sqrt(s);
}

/** ‖a − b‖_F / ‖b‖_F. */
export function relativeFrobenius(a, b) {
  let d = 0, r = 0;
  for (let i = 0; i < a.length; i++) { d += (a[i] - b[i]) ** 2; r += b[i] * b[i]; }
  return r > 0 ? Math.sqrt(d / r) : Math.sqrt(d);
}

/**
 * Gauss–Jordan elimination with partial pivoting on [A | B] (B n×m) in float64.
 * Returns A⁻¹B (Float64Array n×m), or null when a pivot is below 1e-13·max|A|
 * (singular to working precision).
 */
function gaussJordan(n, a, b, m) {
  const w = n + m;
  const t = new Float64Array(n * w);
  let scale = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) { t[i * w + j] = a[i * n + j]; scale = Math.max(scale, Math.abs(a[i * n + j])); }
    for (let j = 0; j < m; j++) t[i * w + n + j] = b[i * m + j];
  }
  if (scale === 0) return null;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(t[r * w + c]) > Math.abs(t[p * w + c])) p = r;
    if (Math.abs(t[p * w + c]) <= 1e-13 * scale) return null;
    if (p !== c) {
      for (let j = 0; j < w; j++) { const x = t[c * w + j]; t[c * w + j] = t[p * w + j]; t[p * w + j] = x; }
    }
    const piv = t[c * w + c];
    for (let j = c; j < w; j++) t[c * w + j] /= piv;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = t[r * w + c];
      if (f === 0) continue;
      for (let j = c; j < w; j++) t[r * w + j] -= f * t[c * w + j];
    }
  }
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) out[i * m + j] = t[i * w + n + j];
  return out;
}

/** x with A x = b by Gaussian elimination (partial pivoting, float64); null if singular. */
export function gaussSolve(n, a, b) {
  return gaussJordan(n, a, b, 1);
}

/** A⁻¹ by Gauss–Jordan elimination in float64; null if singular. */
export function gaussInverse(n, a) {
  const id = new Float64Array(n * n);
  for (let i = 0; i < n; i++) id[i * n + i] = 1;
  return gaussJordan(n, a, id, n);
}

// ---------------------------------------------------------------------------------
// Matrices with known properties (the presets' inputs)

/**
 * An n×n orthogonal Q (columns orthonormal) from seeded random vectors by modified
 * Gram–Schmidt, run twice ("twice is enough") so QᵀQ = I to float64 precision.
 * Column c is Q[i*n + c].
 */
export function orthogonalMatrix(n, seed) {
  const next = mulberry32(seed);
  const cols = [];
  for (let c = 0; c < n; c++) {
    const v = new Float64Array(n);
    for (let i = 0; i < n; i++) v[i] = 2 * next() - 1;
    for (let pass = 0; pass < 2; pass++) {
      for (const q of cols) {
        let d = 0;
        for (let i = 0; i < n; i++) d += q[i] * v[i];
        for (let i = 0; i < n; i++) v[i] -= d * q[i];
      }
    }
    const len = norm2(v);
    for (let i = 0; i < n; i++) v[i] /= len;
    cols.push(v);
  }
  const q = new Float64Array(n * n);
  for (let c = 0; c < n; c++) for (let i = 0; i < n; i++) q[i * n + c] = cols[c][i];
  return q;
}

/**
 * A = Q Λ Qᵀ with Λ = diag(lambdas) and Q = orthogonalMatrix(n, seed): a symmetric
 * matrix whose eigenvalues are `lambdas` and whose eigenvector for lambdas[c] is
 * column c of Q. Returns { a64 (Float64Array), a (Float32Array, what the GPU gets),
 * q, lambdas }. The float32 rounding moves each eigenvalue by at most
 * ‖A − fl(A)‖₂ ≤ n·2⁻²⁴·max|a_ij|.
 */
export function symmetricWithSpectrum(n, lambdas, seed) {
  if (lambdas.length !== n) throw new Error(`need ${n} eigenvalues, got ${lambdas.length}`);
  const q = orthogonalMatrix(n, seed);
  const a64 = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let s = 0;
      for (let c = 0; c < n; c++) s += q[i * n + c] * lambdas[c] * q[j * n + c];
      a64[i * n + j] = s;
      a64[j * n + i] = s;
    }
  }
  return { a64, a: Float32Array.from(a64), q, lambdas: Float64Array.from(lambdas) };
}

/** Column c of an n×n matrix. */
export function column(n, m, c) {
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = m[i * n + c];
  return v;
}

/** sin of the angle between the lines through u and v (0: same direction up to sign). */
export function sinAngle(u, v) {
  let d = 0;
  for (let i = 0; i < u.length; i++) d += u[i] * v[i];
  const c = Math.min(1, Math.abs(d) / (norm2(u) * norm2(v)));
  return Math.sqrt(Math.max(0, 1 - c * c));
}

/** ‖A v − λ v‖₂ / ‖A‖_F in float64 (the library's convergence measure). */
export function eigenResidual(n, a, v, lambda) {
  const av = matVec(n, a, v);
  let s = 0;
  for (let i = 0; i < n; i++) s += (av[i] - lambda * v[i]) ** 2;
  return Math.sqrt(s) / norm2(a);
}

/**
 * Off-diagonal entries uniform in [lo, 1), each diagonal entry `ratio` times the sum
 * of |off-diagonal| entries of its row (strictly diagonally dominant when ratio > 1;
 * Jacobi then converges at least as fast as (1/ratio)^k, and about that fast when
 * the entries all have one sign, lo = 0).
 */
export function diagonallyDominant(n, seed, ratio = 2, lo = -1) {
  const next = mulberry32(seed);
  const a = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const v = lo + (1 - lo) * next();
      a[i * n + j] = v;
      s += Math.abs(Math.fround(v));
    }
    a[i * n + i] = ratio * s;
  }
  return a;
}

/** Off-diagonal entries uniform in [−1, 1), ones on the diagonal: far from dominant. */
export function notDominant(n, seed) {
  const next = mulberry32(seed);
  const a = new Float32Array(n * n);
  for (let i = 0; i < n * n; i++) a[i] = 2 * next() - 1;
  for (let i = 0; i < n; i++) a[i * n + i] = 1;
  return a;
}

/** The tridiagonal matrix with `sub`, `diag`, `sup` on its three diagonals. */
export function tridiagonal(n, sub, diag, sup) {
  const a = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    a[i * n + i] = diag;
    if (i > 0) a[i * n + i - 1] = sub;
    if (i + 1 < n) a[i * n + i + 1] = sup;
  }
  return a;
}

/** I − ½J (J all ones): its eigenvalues are 1 (n − 1 times) and 1 − n/2. */
export function identityMinusHalfJ(n) {
  const a = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) a[i * n + j] = (i === j ? 1 : 0) - 0.5;
  return a;
}

/**
 * Random sixteenths in [−½, ½] with the last row the sum of the first two: rank
 * n − 1, exactly so in float32 (sums of sixteenths are float32 numbers).
 */
export function singularMatrix(n, seed) {
  const next = mulberry32(seed);
  const a = new Float32Array(n * n);
  for (let i = 0; i < n * n; i++) a[i] = (Math.floor(next() * 17) - 8) / 16;
  for (let j = 0; j < n; j++) a[(n - 1) * n + j] = a[j] + a[n + j];
  return a;
}

/** The Hilbert matrix 1/(i + j + 1), famously ill-conditioned. */
export function hilbert(n) {
  const a = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) a[i * n + j] = 1 / (i + j + 1);
  return a;
}

/** `len` values uniform in [lo, hi) from a seeded generator (float64). */
export function uniformVector(seed, len, lo = -1, hi = 1) {
  const next = mulberry32(seed);
  return Float64Array.from({ length: len }, () => lo + (hi - lo) * next());
}

/** The 1-norm condition number ‖A‖₁·‖A⁻¹‖₁ in float64 (null when A is singular). */
export function condition1(n, a) {
  const inv = gaussInverse(n, a);
  if (!inv) return null;
  const norm = (m) => {
    let best = 0;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += Math.abs(m[i * n + j]);
      best = Math.max(best, s);
    }
    return best;
  };
  return norm(a) * norm(inv);
}

/**
 * The spectral radius ρ(M) (largest |eigenvalue|) of an n×n matrix, estimated in
 * float64 from ‖M^(2^t)‖_F^(1/2^t) after t = `squarings` scaled squarings (Gelfand's
 * formula). The estimate is within a factor (n·κ)^(1/2^t) of ρ, κ the condition of
 * M's eigenvector basis: within about 1 % for t = 10 on the presets' matrices.
 */
export function spectralRadius(n, m, squarings = 14) {
  // ‖M^(2^t)‖ ≈ c·ρ^(2^t) with a constant c (up to √n for the Frobenius norm): the
  // ratio of the last two, ρ^(2^(t−1)), cancels c. ‖M^(2^t)‖^(1/2^t) alone would
  // overestimate by c^(1/2^t) (0.8001 for a T whose ρ is 0.79976 < 0.8).
  let a = Float64Array.from(m);
  let logScale = 0;
  let logPrev = Math.log(norm2(a));
  let logNorm = logPrev;
  for (let t = 0; t < squarings; t++) {
    a = matMul(n, a, a);
    logScale *= 2;
    let top = 0;
    for (const v of a) top = Math.max(top, Math.abs(v));
    if (top === 0) return 0;
    for (let i = 0; i < a.length; i++) a[i] /= top;
    logScale += Math.log(top);
    logPrev = logNorm;
    logNorm = logScale + Math.log(norm2(a));
  }
  return Math.exp((logNorm - logPrev) / 2 ** (squarings - 1));
}

/** T = −D⁻¹O, the Jacobi iteration matrix of A (O = A − D). */
export function jacobiMatrix(n, a) {
  const t = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) t[i * n + j] = -a[i * n + j] / a[i * n + i];
  return t;
}

/** min over rows of |a_ii| / Σ_{j≠i} |a_ij| (> 1: strictly diagonally dominant). */
export function dominanceRatio(n, a) {
  let worst = Infinity;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) if (j !== i) s += Math.abs(a[i * n + j]);
    worst = Math.min(worst, s === 0 ? Infinity : Math.abs(a[i * n + i]) / s);
  }
  return worst;
}

/** C = I − d·A. */
export function seriesMatrix(n, a, d) {
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) c[i * n + j] = (i === j ? 1 : 0) - d * a[i * n + j];
  return c;
}
