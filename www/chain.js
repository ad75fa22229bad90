// The float64 reference of a whole run, pass by pass: it follows the GPU run's own
// pass labels ("M^4 = M^2 · M^2", "C = A · B"), so every GPU pass has a double
// counterpart to compare with. Works in chunks of rows and awaits `hooks.pause()`
// between them, so the worker running it can hear "cancel" and report progress.
// Pure module (no DOM): runs in a Web Worker and in Node.

const LABEL = /^M\^(\d+) = M\^(\d+) · M\^(\d+)$/;

/**
 * Parses a run's labels into steps { out, a, b } naming matrices: "A", "B", "C" for a
 * product, "M^e" exponents for squarings and powers. Throws on a label it does not know.
 */
export function parseLabels(labels) {
  return labels.map((label) => {
    if (label === 'C = A · B') return { out: 'C', a: 'A', b: 'B' };
    const m = LABEL.exec(label);
    if (!m) throw new Error(`unknown pass label '${label}'`);
    return { out: `M^${m[1]}`, a: `M^${m[2]}`, b: `M^${m[3]}` };
  });
}

/** C[i0..i1) = rows of A·B, i-k-j order (streams rows of B: cache-friendly). */
export function multiplyRows(inner, cols, A, B, C, i0, i1) {
  for (let i = i0; i < i1; i++) {
    const ci = i * cols;
    const ai = i * inner;
    for (let k = 0; k < inner; k++) {
      const aik = A[ai + k];
      const bk = k * cols;
      for (let j = 0; j < cols; j++) C[ci + j] += aik * B[bk + j];
    }
  }
}

/**
 * Computes the run in float64.
 *   job: { op, n, a (Float32Array/Float64Array), b (products), p (powers), labels, keepPasses }
 *   hooks: { pause(): Promise (lets messages in), cancelled(): bool,
 *            progress(fraction), pass(index, Float64Array) (only when keepPasses) }
 * Resolves to { result: Float64Array, ms (compute time, pauses excluded), cancelled }.
 */
export async function computeChain(job, hooks = {}) {
  const { n, labels } = job;
  const pause = hooks.pause || (() => Promise.resolve());
  const cancelled = hooks.cancelled || (() => false);
  const steps = parseLabels(labels);
  const values = new Map();
  if (job.op === 'multiply') {
    values.set('A', Float64Array.from(job.a));
    values.set('B', Float64Array.from(job.b));
  } else {
    values.set('M^1', Float64Array.from(job.a));
  }
  // The last step that reads each matrix: after it, the matrix can go.
  const lastUse = new Map();
  steps.forEach((s, idx) => { lastUse.set(s.a, idx); lastUse.set(s.b, idx); });

  let busy = 0;
  let t = performance.now();
  const total = Math.max(1, steps.length * n);
  let rowsDone = 0;
  const SLICE_MS = 40;
  for (let idx = 0; idx < steps.length; idx++) {
    const s = steps[idx];
    const A = values.get(s.a), B = values.get(s.b);
    const C = new Float64Array(n * n);
    let i = 0;
    while (i < n) {
      // Rows per slice: about SLICE_MS of work, at least one row.
      const started = performance.now();
      let j = i;
      while (j < n) {
        multiplyRows(n, n, A, B, C, j, j + 1);
        j++;
        if (performance.now() - started > SLICE_MS) break;
      }
      rowsDone += j - i;
      i = j;
      busy += performance.now() - t;
      hooks.progress?.(rowsDone / total);
      await pause();
      t = performance.now();
      if (cancelled()) return { result: null, ms: busy, cancelled: true };
    }
    values.set(s.out, C);
    if (job.keepPasses) hooks.pass?.(idx, C);
    for (const name of [s.a, s.b]) if (lastUse.get(name) === idx && name !== s.out) values.delete(name);
  }
  busy += performance.now() - t;
  let result;
  if (steps.length) {
    result = values.get(steps[steps.length - 1].out);
  } else if (job.op === 'power' && job.p === 0) {
    result = new Float64Array(n * n); // M^0 = I
    for (let i = 0; i < n; i++) result[i * n + i] = 1;
  } else {
    result = values.get('M^1'); // M^1 = M, and M^(2^0) = M
  }
  hooks.progress?.(1);
  return { result, ms: busy, cancelled: false };
}

/** Floating-point operations of one n×n×n product (a multiply and an add per term). */
export const productFlops = (n) => 2 * n * n * n;
