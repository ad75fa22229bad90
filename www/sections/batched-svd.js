// Part 3 of "Many small problems at once": batched SVD by one-sided Jacobi (the
// developer's log: the SVD of 2000 9×9 systems per batch). A seeded batch of
// random matrices, gpu.svdBatchedAsync(batch, rows, cols, a), the sweeps each
// matrix took, and float64 checks: the reconstruction ‖A − UΣVᵀ‖/‖A‖, the
// orthogonality of U and V, and the singular values against a float64 Jacobi here.
// A large batch goes in calls of about a second, so that Stop can act between them.
import { count, el, int, sci } from '../ui/format.js';
import { backendName, msText, nextFrame, timedAsync, devName } from './common.js';
import { numberField, readNumber } from './partitioned-ui.js';
import { barChart, publishBatched, readFields, uniformMatrices } from './batched-ui.js';
import { fieldGroup, partHandle, partRunner } from './part-runner.js';
import { t } from '../i18n/index.js';

export function svdPart(ctx, state, lock) {
  const part = el('div', { class: 'part', id: 'batched-svd' });
  const f = {
    svdBatch: numberField('svdBatch', t('sec.f.batch'), { min: 1, max: 20000, value: state.svdBatch }),
    svdRows: numberField('svdRows', t('sec.f.rows'), { min: 1, max: 32, value: state.svdRows }),
    svdCols: numberField('svdCols', t('sec.f.columns'), { min: 1, max: 16, value: state.svdCols }),
    svdSeed: numberField('svdSeed', t('sec.f.seed'), { min: 0, max: 4294967295, value: state.svdSeed }),
  };
  const button = el('button', { type: 'button', class: 'primary', id: 'batched-svd-run' }, t('sec.batched.svd'));
  const stopButton = el('button', { type: 'button', id: 'batched-svd-stop', disabled: true }, t('sec.stop'));
  // The call under way, for the status while Stop waits for it: { from, to } (1-based).
  const underway = { from: 0, to: 0 };
  const output = el('div', { class: 'part-output', id: 'batched-svd-output' });
  const runner = partRunner(ctx, part, 'batched-svd-status', t('sec.batched.svdIdle'), {
    buttons: [button],
    output,
    lock,
    name: 'the batched SVD',
    onError: (record) => publishBatched('svd', record),
    read: () => {
      const r = readFields({
        svdBatch: [f.svdBatch.input, 1, 20000, true],
        svdRows: [f.svdRows.input, 1, 32, true],
        svdCols: [f.svdCols.input, 1, 16, true],
        svdSeed: [f.svdSeed.input, 0, 4294967295, true],
      }, readNumber);
      if (r.state && r.state.svdCols > r.state.svdRows) {
        f.svdCols.input.setAttribute('aria-invalid', 'true');
        return { bad: [`columns must not exceed rows (${r.state.svdCols} > ${r.state.svdRows})`] };
      }
      return r;
    },
    work: (s, progress, stop) => svdDemo(ctx, s, output, progress, stop, underway),
    stop: {
      button: stopButton,
      text: () => (underway.to ? `Stopping: the call under way (SVDs ${int(underway.from)}–${int(underway.to)}) finishes first…` : 'Stopping…'),
    },
  });
  button.addEventListener('click', runner.run);
  part.append(
    el('h3', { id: 'batched-svd-h' }, 'Batched SVD: one-sided Jacobi, a thread per column'),
    el('p', {}, 'The log takes the homography as the singular vector of the smallest singular value of each sample\'s 9×9 system, 2000 SVDs per batch. One-sided (Hestenes) Jacobi suits the GPU: it rotates pairs of columns of A until every pair is orthogonal, keeping the rotations in V; then the column lengths are the singular values σ, the normalised columns U, and A = UΣVᵀ. A rotation of the pair (p, q) touches only those two columns, so the pairs of a round-robin round, ⌊n/2⌋ disjoint pairs, rotate at the same time, one thread per column, and n − 1 rounds (n for odd n) meet every pair once: a sweep. Sweeps repeat until no pair needs rotating (|a', el('sub', {}, 'p'), '·a', el('sub', {}, 'q'), '| ≤ 10⁻⁶‖a', el('sub', {}, 'p'), '‖‖a', el('sub', {}, 'q'), '‖), at most 30.'),
    el('p', {}, 'On WebGPU ', el('code', {}, 'await gpu.svdBatchedAsync(batch, rows, cols, a)'), ' runs all sweeps in one dispatch (', el('code', {}, 'wgsl/svd/jacobi.wgsl'), '): one invocation per column keeps its column of [A; V] in registers and publishes it in workgroup memory for its partner, with a barrier between rounds; a workgroup of 32 holds ⌊32/cols⌋ matrices side by side (3 of 9×9; the log\'s 63 = 7 of 9×9 measured slower on the software renderer), and decides after each sweep, together, whether to go on. On WebGL a fragment has one output and no shared memory, so each round is a pass computing every pair\'s rotation and a pass applying it to every entry of [A; V], and a small pass measures convergence after each sweep (read back to decide whether to sweep again).'),
    fieldGroup('batched-svd-h', ...Object.values(f).map((x) => x.element)),
    el('p', { class: 'help' }, 'A large batch is cut into calls of about a second each (a whole batch of 20 000 32×16 matrices takes minutes on a software GPU): the status estimates the time left after each call, and Stop acts between two calls; the float64 checks run between them too, outside the times.'),
    el('div', { class: 'buttons' }, button, stopButton),
    runner.status.element, output);
  return partHandle(part, runner, f);
}

/** The singular values of a rows×cols matrix (row-major) by one-sided Jacobi in float64, decreasing. */
export function singularValues64(rows, cols, a) {
  const col = Array.from({ length: cols }, (_, j) => Float64Array.from({ length: rows }, (_, i) => a[i * cols + j]));
  for (let sweep = 0; sweep < 60; sweep++) {
    let rotated = false;
    for (let p = 0; p < cols - 1; p++) {
      for (let q = p + 1; q < cols; q++) {
        const x = col[p], y = col[q];
        let alpha = 0, beta = 0, gamma = 0;
        for (let i = 0; i < rows; i++) { alpha += x[i] * x[i]; beta += y[i] * y[i]; gamma += x[i] * y[i]; }
        if (Math.abs(gamma) <= 1e-15 * Math.sqrt(alpha * beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t), s = c * t;
        for (let i = 0; i < rows; i++) { const xi = x[i], yi = y[i]; x[i] = c * xi - s * yi; y[i] = s * xi + c * yi; }
      }
    }
    if (!rotated) break;
  }
  return col.map((x) => Math.hypot(...x)).sort((u, v) => v - u);
}

/** Float64 checks of one matrix's U, Σ, V: reconstruction, orthogonality, singular values. */
function checkOne(rows, cols, a, s, u, v) {
  let num = 0, den = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      let r = 0;
      for (let k = 0; k < cols; k++) r += u[i * cols + k] * s[k] * v[j * cols + k];
      const aij = a[i * cols + j];
      num += (aij - r) ** 2;
      den += aij * aij;
    }
  }
  let orthoV = 0, orthoU = 0;
  for (let p = 0; p < cols; p++) {
    for (let q = p; q < cols; q++) {
      let dv = 0, du = 0;
      for (let k = 0; k < cols; k++) dv += v[k * cols + p] * v[k * cols + q];
      for (let i = 0; i < rows; i++) du += u[i * cols + p] * u[i * cols + q];
      orthoV = Math.max(orthoV, Math.abs(dv - (p === q ? 1 : 0)));
      // U's columns are orthonormal where σ > 0 (a zero column where σ = 0).
      if (s[p] > 0 && s[q] > 0) orthoU = Math.max(orthoU, Math.abs(du - (p === q ? 1 : 0)));
    }
  }
  let decreasing = true;
  for (let k = 1; k < cols; k++) if (s[k] > s[k - 1]) decreasing = false;
  const ref = singularValues64(rows, cols, a);
  let sigma = 0;
  for (let k = 0; k < cols; k++) sigma = Math.max(sigma, Math.abs(s[k] - ref[k]));
  return { recon: den > 0 ? Math.sqrt(num / den) : Math.sqrt(num), orthoU, orthoV, decreasing, sigma: ref[0] > 0 ? sigma / ref[0] : sigma };
}

/** Work units (rows·cols² per matrix) of the first call: the default 2000 9×9 in one. */
const FIRST_CALL = 2e6;
/** The wall time a call and its checks aim at, so that Stop answers within about it. */
const CALL_MS = 1000;

/** "40 s", "3 min": a rough time left. */
const roughly = (ms) => (ms < 90_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`);

/**
 * The batch in calls of about CALL_MS each (upload, sweeps, readback, then the float64
 * checks of that call's matrices): gpu.svdBatchedAsync is one promise that cannot be
 * interrupted, and a batch of 20 000 32×16 matrices takes minutes on SwiftShader. The
 * first call is FIRST_CALL work units, the next ones sized by the time it took; a
 * batch that fits the first call (the default 2000 9×9) is one call, as timed before.
 */
async function svdDemo(ctx, st, output, progress, stop, underway) {
  const { gpu } = ctx;
  const { svdBatch: asked, svdRows: rows, svdCols: cols } = st;
  const a = uniformMatrices(asked * rows * cols, st.svdSeed);
  const mn = rows * cols;
  // The shaders compiled on a batch of one, so that the time is the batch's.
  await gpu.svdBatchedAsync(1, rows, cols, a.subarray(0, mn));
  await nextFrame();
  let recon = 0, orthoU = 0, orthoV = 0, sigma = 0, decreasing = true, ms = 0, calls = 0, largest = 0;
  let s0 = null;
  const sweeps = [];
  let size = Math.max(1, Math.min(asked, Math.floor(FIRST_CALL / (rows * cols * cols))));
  let batch = 0; // the matrices decomposed and checked
  const began = performance.now();
  while (batch < asked && !stop.asked) {
    const n = Math.min(size, asked - batch);
    Object.assign(underway, { from: batch + 1, to: batch + n });
    if (!calls && n < asked) progress(`SVDs 1–${int(n)} of ${int(asked)}: a first call, which tells how long the rest will take…`);
    const t0 = performance.now();
    const [r, callMs] = await timedAsync(() => gpu.svdBatchedAsync(n, rows, cols, a.subarray(batch * mn, (batch + n) * mn)));
    ms += callMs;
    calls++;
    largest = Math.max(largest, n);
    s0 ??= Array.from(r.s.subarray(0, cols));
    if (calls === 1 && n === asked) progress('Checking every decomposition in float64…');
    await nextFrame();
    for (let k = 0; k < n; k++) {
      const i = batch + k;
      const c = checkOne(rows, cols, a.subarray(i * mn, (i + 1) * mn), r.s.subarray(k * cols, (k + 1) * cols),
        r.u.subarray(k * mn, (k + 1) * mn), r.v.subarray(k * cols * cols, (k + 1) * cols * cols));
      recon = Math.max(recon, c.recon);
      orthoU = Math.max(orthoU, c.orthoU);
      orthoV = Math.max(orthoV, c.orthoV);
      sigma = Math.max(sigma, c.sigma);
      decreasing &&= c.decreasing;
      if (k % 250 === 249) await nextFrame();
    }
    for (const w of r.sweeps) sweeps.push(w);
    batch += n;
    // The next call: about CALL_MS, at most 4 times this one (a lucky fast call).
    const took = performance.now() - t0;
    size = Math.max(1, Math.min(4 * n, Math.round(n * CALL_MS / Math.max(took, 1))));
    if (batch < asked && !stop.asked) {
      const left = (performance.now() - began) / batch * (asked - batch);
      progress(`${int(batch)} of ${int(asked)} SVDs done and checked in ${roughly(performance.now() - began)}; about ${roughly(left)} left (Stop acts between calls)…`);
    }
  }
  Object.assign(underway, { from: 0, to: 0 });
  const stopped = batch < asked;
  const maxSweeps = Math.max(...sweeps);
  const hist = new Array(maxSweeps + 1).fill(0);
  for (const w of sweeps) hist[w]++;
  const capped = hist[30] || 0;
  let mean = 0;
  for (const w of sweeps) mean += w;
  mean /= batch;
  const rounds = cols % 2 ? cols : cols - 1;
  const record = {
    status: stopped ? 'cancelled' : 'done', backend: gpu.backend, batch, asked, calls, rows, cols, seed: st.svdSeed, ms,
    reconstruction: recon, orthoU, orthoV, sigmaError: sigma, decreasing, sweeps: { max: maxSweeps, mean, histogram: hist, capped },
    s0,
  };
  const ok = (b) => (b ? 'ok' : 'bad');
  const bars = hist.map((v, w) => ({ label: String(w), value: v, mark: null })).slice(hist[0] ? 0 : 1);
  output.replaceChildren(
    barChart(`Sweeps per matrix: how many of the ${count(batch, 'matrix', 'matrices')} needed how many sweeps`, bars, { xLabel: 'sweeps', id: 'batched-svd-sweeps', ariaLabel: `sweeps per matrix: ${bars.map((b) => `${b.value} took ${b.label}`).join(', ')}` }),
    el('div', { class: 'scroll-x' }, el('table', { class: 'app-results', id: 'batched-svd-table' },
      el('caption', {}, `${count(batch, 'SVD')} of ${rows}×${cols} ${batch === 1 ? 'matrix' : 'matrices'} (entries uniform in [−1, 1)) on ${backendName(gpu)}, checked in float64${stopped ? `: stopped, the first ${int(batch)} of ${int(asked)}` : ''}`),
      el('tbody', {}, [
        ['time', msText(ms), `${calls === 1 ? `await gpu.svdBatchedAsync(${batch}, ${rows}, ${cols}, a): wall time` : `${calls} calls of await gpu.svdBatchedAsync(at most ${int(largest)}, ${rows}, ${cols}, …), one after another so that Stop can act between them: the sum of their wall times`}, upload and readback included (${calls === 1 ? '' : 'each call '}${gpu.backend === 'webgpu' ? 'one dispatch' : gpu.backend === 'cpu' ? 'one pass: each matrix by the same float32 algorithm, on this thread' : `two passes per round, ${rounds} rounds per sweep, a measuring pass and a readback per sweep`}); the log: ≈ 3.5–4 ms for 2000 9×9 SVDs with the homographies, CUDA on 2012 hardware`],
        ['sweeps', `mean ${mean.toFixed(2)}, at most ${maxSweeps}${capped ? ` (${capped} stopped by the cap of 30)` : ''}`, `a sweep = ${count(rounds, 'round')} of ${count(Math.floor(cols / 2), 'disjoint pair')}`, ok(!capped)],
        ['reconstruction', sci(recon), 'the largest ‖A − UΣVᵀ‖_F / ‖A‖_F of the batch, float64', ok(recon < 1e-5)],
        ['orthogonality of V', sci(orthoV), 'the largest |VᵀV − I| entry', ok(orthoV < 1e-5)],
        ['orthogonality of U', sci(orthoU), 'the largest |UᵀU − I| entry (columns with σ > 0)', ok(orthoU < 1e-4)],
        ['singular values', `${sci(sigma)} relative${decreasing ? ', decreasing' : ', NOT decreasing'}`, 'the largest |σ − σ(float64 Jacobi here)| / σ₁ of a matrix', ok(sigma < 1e-5 && decreasing)],
        ['σ of the first matrix', s0.map((x) => x.toPrecision(4)).join(', '), 'decreasing; the last one is the smallest, whose V column the log takes as its homography'],
      ].map(([k, v, note, cls]) => el('tr', { 'data-key': k }, el('th', { scope: 'row' }, k, el('span', { class: 'what' }, note)), el('td', { class: cls || null }, v)))))),
    el('p', { class: 'help' }, `Float32 on the ${devName(gpu)}: a pair counts as orthogonal at 10⁻⁶ of its lengths, about what float32 can tell, so the checks land near 10⁻⁶ to 10⁻⁷ rather than float64's 10⁻¹⁵.`));
  publishBatched('svd', record);
  const text = `${count(batch, 'SVD')} of ${rows}×${cols} in ${msText(ms)}${calls > 1 ? ` (${calls} calls)` : ''}, ${mean.toFixed(2)} sweeps on average; reconstruction error ${sci(recon)}.`;
  return stopped
    ? { state: 'cancelled', text: `Stopped on ${backendName(gpu)} after ${int(batch)} of ${int(asked)} SVDs; the results are of those: ${text}` }
    : `Done on ${backendName(gpu)}: ${text}`;
}
