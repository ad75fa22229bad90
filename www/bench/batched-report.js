// The batched small-matrix bench's analysis and report, pure (no DOM): the page
// (www/bench/batched.js) and Node (scripts/bench-batched.mjs) both import it.
//   derive: the RANSAC targets, the null-vector comparison, the failed checks
//   markdown report, and an SVG with two log-log panels: SVDs/s against the batch,
//   GFLOP/s of the batched products against k
import { clockLine, fmtMs, median, resultDay, wallFmt } from './systems-report.js';
import { esc, niceTicks, tickLabel } from './systems-plot.js';

export { median };

/** The issue's targets on the H100 (ms of GPU time for 2000 hypotheses × 1000 points). */
export const TARGETS = { fitMs: 1, scoreMs: 0.5 };

const timed = (r) => r && r.whole && Number.isFinite(r.whole.medianMs);

export function derive(result) {
  const ransac = (result.ransac || []).filter(timed).map((r) => ({
    backend: r.backend, fitMs: r.fitMs, scoreMs: r.scoreMs, wholeMs: r.whole.medianMs,
    fitTarget: r.fitMs == null ? null : r.fitMs <= TARGETS.fitMs,
    scoreTarget: r.scoreMs == null ? null : r.scoreMs <= TARGETS.scoreMs,
  }));
  const nullvec = [];
  for (const be of new Set((result.nullvec || []).map((r) => r.backend))) {
    const of = (kind) => (result.nullvec || []).find((r) => r.backend === be && r.kind === kind && timed(r));
    const rnd = of('random'), dlt = of('dlt'), diag = of('diagonal');
    const rs = ransac.find((r) => r.backend === be);
    const floor = diag?.whole.medianMs;
    nullvec.push({
      backend: be, randomMs: rnd?.whole.medianMs, dltMs: dlt?.whole.medianMs, floorMs: floor,
      randomLessFloorMs: rnd && floor != null ? rnd.whole.medianMs - floor : null,
      dltLessFloorMs: dlt && floor != null ? dlt.whole.medianMs - floor : null,
      fitMs: rs?.fitMs ?? null, ransacWholeMs: rs?.wholeMs ?? null,
    });
  }
  const failed = [];
  const note = (part, r, c) => { if (c && !c.ok) failed.push(`${part} ${r.backend}${r.k ? ` k=${r.k}` : ''}${r.rows ? ` ${r.rows}×${r.cols}` : ''}${r.batch ? ` batch ${r.batch}` : ''}${r.kind ? ` ${r.kind}` : ''}`); };
  for (const r of result.ransac || []) note('ransac', r, r.check);
  for (const r of result.nullvec || []) note('nullvec', r, r.check);
  for (const r of result.svd || []) note('svd', r, r.check);
  for (const r of result.products || []) note('product', r, r.check);
  for (const r of result.chains || []) note('chain', r, r.check);
  const checked = [...(result.ransac || []), ...(result.nullvec || []), ...(result.svd || []), ...(result.products || []), ...(result.chains || [])].filter((r) => r.check).length;
  return { ransac, nullvec, checked, failed };
}

const g3 = (x) => (Number.isFinite(x) ? (Math.abs(x) >= 1e5 || (Math.abs(x) < 1e-2 && x !== 0) ? x.toExponential(2) : +x.toPrecision(3)) : '–');
const runs = (t) => (!t ? '' : t.status === 'single' ? '1 (over cap)' : `${t.timesMs?.length ?? 0}`);
const why = (r) => String(r.reason || '').split('\n')[0].slice(0, 160);
const yes = (b) => (b == null ? '–' : b ? 'met' : 'missed');
const chk = (c) => (!c ? '' : c.ok ? 'ok' : '**FAILED**');

export function batchedMarkdown(result) {
  const d = result.derived || derive(result);
  const p = result.params || {};
  const e = result.env || {};
  const L = [];
  const wall = wallFmt(result);
  L.push(`# Batched small matrices: ${result.label || ''} (${resultDay(result)})`, '', clockLine(result), '');
  L.push(`WebGL renderer: ${e.renderer || '?'} (timer queries: ${e.webgl?.timerQuery ?? '?'}); WebGPU adapter: ${[e.webgpu?.vendor, e.webgpu?.architecture, e.webgpu?.description].filter(Boolean).join(' ') || e.webgpu?.reason || '?'}` +
    `${e.webgpu?.fallback ? ' (fallback adapter)' : ''} (timestamps: ${e.webgpu?.timestamps ?? '?'}).`);
  L.push(`Whole-call times are the wall time of \`await\`ing the call (upload, GPU, readback, unpacking into JavaScript arrays), median of ` +
    `${p.repeats} (RANSAC: ${p.ransacRepeats}) timed calls after a warm-up; one run where the warm-up took more than ${p.capS} s. ` +
    `Every result is checked against float64 on ${p.checkSamples} matrices (RANSAC: ${4 * (p.checkSamples || 0)} hypotheses) spread over the batch: ` +
    `${d.checked} checked, ${d.failed.length ? `**${d.failed.length} failed: ${d.failed.join('; ')}**` : 'all passed'}.` +
    `${result.totalS ? ` Run: ${result.totalS.toFixed(0)} s.` : ''}`, '');

  if ((result.ransac || []).length) {
  L.push(`## 1. RANSAC: ${p.iterations} hypotheses × ${p.points} correspondences (${(100 * p.outliers).toFixed(0)} % outliers, noise ±${p.noise}, threshold ${p.threshold})`, '');
  L.push(`fit = the pass fitting every hypothesis (normalised DLT, exact 8×8 solve, H; one invocation per hypothesis on WebGPU, one fragment per entry of H on WebGL), ` +
    `score = the pass counting every hypothesis's inliers: GPU times from timestamps (WebGL: timer queries), median over the timed calls. Targets (H100): fit ≤ ${TARGETS.fitMs} ms, score ≤ ${TARGETS.scoreMs} ms.`, '');
  L.push('| backend | fit (GPU) | score (GPU) | whole call | runs | fit target | score target | best / true inliers | found | worst true-inlier error (px) | hypotheses checked: score off by | fit off (>3 inliers) | check |');
  L.push('|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---|');
  for (const r of result.ransac || []) {
    if (!timed(r)) { L.push(`| ${r.backend} | ${r.status}: ${why(r)} | | | | | | | | | | | |`); continue; }
    const c = r.check || {};
    const dr = d.ransac.find((x) => x.backend === r.backend) || {};
    L.push(`| ${r.backend} | ${r.fitMs == null ? 'null (no timer)' : fmtMs(r.fitMs)} | ${r.scoreMs == null ? 'null (no timer)' : fmtMs(r.scoreMs)} | ${wall(r.whole.medianMs, r.whole.batch)} | ${runs(r.whole)} | ` +
      `${yes(dr.fitTarget)} | ${yes(dr.scoreTarget)} | ${r.bestCount} / ${c.trueInliers} | ${c.found} | ${g3(c.worstTrueInlierError)} | ${c.hypothesesChecked}: ≤ ${c.maxScoreDiff} | ${c.fitOff} (degenerate mismatches ${c.degenerateMismatch}) | ${chk(c)} |`);
  }
  L.push('');
  }

  if ((result.nullvec || []).length) {
  L.push(`## 2. The null-vector alternative: svdBatchedAsync(${p.iterations}, 9, 9, …) against the fit pass`, '');
  L.push('Inputs: random 9×9 (uniform in [−1, 1)); the hypotheses\' own homogeneous DLT systems (8 rows from the normalised 4-point sample, a zero row: the null vector is Ĥ); ' +
    'diagonal matrices (nothing to rotate: one sweep of checks, so the call\'s floor: upload, dispatch, readback, unpacking). No GPU time is exposed by svdBatchedAsync: ' +
    '"− floor" is the whole call less the diagonal batch\'s, an estimate of the Jacobi iteration itself.', '');
  L.push('| backend | input | whole call | runs | sweeps mean / max | check (recon., ‖VᵀV−I‖, σ vs f64) | null-vector H at its 4 points (px: median / max) |');
  L.push('|---|---|---:|---:|---:|---|---:|');
  for (const r of result.nullvec || []) {
    if (!timed(r)) { L.push(`| ${r.backend} | ${r.kind} | ${r.status}: ${why(r)} | | | | |`); continue; }
    const c = r.check;
    L.push(`| ${r.backend} | ${r.kind} | ${wall(r.whole.medianMs, r.whole.batch)} | ${runs(r.whole)} | ${c.meanSweeps.toFixed(2)} / ${c.maxSweeps} | ${chk(c)} (${g3(c.recon)}, ${g3(c.orth)}, ${g3(c.sErr)}) | ` +
      `${r.nullVector ? `${g3(r.nullVector.median)} / ${g3(r.nullVector.max)}` : ''} |`);
  }
  L.push('');
  L.push('| backend | random 9×9 | − floor | DLT systems | − floor | floor (diagonal) | exact solve: fit pass (GPU) | RANSAC whole call (fit + score + transfers + refit) |');
  L.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const n of d.nullvec) {
    L.push(`| ${n.backend} | ${wall(n.randomMs)} | ${wall(n.randomLessFloorMs)} | ${wall(n.dltMs)} | ${wall(n.dltLessFloorMs)} | ${wall(n.floorMs)} | ${n.fitMs == null ? '–' : fmtMs(n.fitMs)} | ${wall(n.ransacWholeMs)} |`);
  }
  L.push('');
  }

  if ((result.svd || []).length) {
  L.push('## 3. Batched SVD throughput (whole calls: upload, GPU, readback of s, U, V and the sweeps, unpacking)', '');
  L.push('| backend | size | batch | whole call | SVDs/s | runs | sweeps mean / max | check |');
  L.push('|---|---|---:|---:|---:|---:|---:|---|');
  for (const r of [...(result.svd || [])].sort((x, y) => x.backend.localeCompare(y.backend) || x.rows - y.rows || x.batch - y.batch)) {
    if (!timed(r)) { L.push(`| ${r.backend} | ${r.rows}×${r.cols} | ${r.batch} | ${r.status}: ${why(r)} | | | | |`); continue; }
    L.push(`| ${r.backend} | ${r.rows}×${r.cols} | ${r.batch} | ${wall(r.whole.medianMs, r.whole.batch)} | ${g3(r.perS)} | ${runs(r.whole)} | ${r.check.meanSweeps.toFixed(2)} / ${r.check.maxSweeps} | ${chk(r.check)} |`);
  }
  L.push('');
  }

  if ((result.products || []).length) {
  L.push(`## 4. Batched k×k products (batch ≈ ${g3(p.flops)} / 2k³ flops, at most ${p.maxBatch})`, '');
  L.push(`whole = \`await multiplyBatchedAsync(batch, k, k, k, a, b)\` with its transfers (2 inputs up, 1 result down); GFLOP/s = 2k³·batch / t. ` +
    `chain: \`powerBatchedAsync(batch, k, M, p)\` on signed permutation matrices (exact powers), p = 2 (one squaring) and p = 2^${p.chainSquarings} ` +
    `(${p.chainSquarings} squarings, the batch staying on the GPU); per squaring = (t(2^${p.chainSquarings}) − t(2)) / ${p.chainSquarings - 1}, the compute alone.`, '');
  L.push('| backend | k | batch | whole | GFLOP/s (whole) | runs | rel. err | chain: M² | M^(2^s) | per squaring | GFLOP/s (compute) | chain check |');
  L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const r of [...(result.products || [])].sort((x, y) => x.backend.localeCompare(y.backend) || x.k - y.k)) {
    const c = (result.chains || []).find((x) => x.backend === r.backend && x.k === r.k);
    const chain = c?.many ? `${wall(c.one.medianMs, c.one.batch)} | ${wall(c.many.medianMs, c.many.batch)} | ${fmtMs(c.perPassMs)} | ${c.gflops ? g3(c.gflops) : '–'} | ${chk(c.check)}`
      : c ? `${c.status}: ${why(c)} | | | | ` : ' | | | | ';
    if (!timed(r)) { L.push(`| ${r.backend} | ${r.k} | ${r.batch} | ${r.status}: ${why(r)} | | | | ${chain} |`); continue; }
    L.push(`| ${r.backend} | ${r.k} | ${r.batch} | ${wall(r.whole.medianMs, r.whole.batch)} | ${g3(r.gflops)} | ${runs(r.whole)} | ${g3(r.check.relErr)} ${chk(r.check)} | ${chain} |`);
  }
  L.push('');
  }
  if (result.error) L.push(`**The run ended with an error:** ${result.error}`, '');
  return `${L.join('\n')}\n`;
}

// --- the plot ---------------------------------------------------------------------------------

const COLORS = { webgl: '#1f77b4', webgpu: '#d62728' };
const f1 = (x) => (Math.round(x * 10) / 10).toString();

function panel(s, { x0, y0, W, H, title, xLabel, yLabel, series }) {
  const all = series.flatMap((se) => se.pts);
  if (!all.length) { s.push(`<text x="${x0}" y="${y0 + 20}">${esc(`${title}: no data`)}</text>`); return; }
  const xs = all.map((q) => q.x), ys = all.map((q) => q.y);
  const xLo = 10 ** Math.floor(Math.log10(Math.min(...xs))), xHi = 10 ** Math.ceil(Math.log10(Math.max(...xs)) + 1e-9);
  const yLo = 10 ** Math.floor(Math.log10(Math.min(...ys))), yHi = 10 ** Math.ceil(Math.log10(Math.max(...ys)) + 1e-9);
  const X = (v) => x0 + ((Math.log10(v) - Math.log10(xLo)) / (Math.log10(xHi) - Math.log10(xLo) || 1)) * W;
  const Y = (v) => y0 + H - ((Math.log10(v) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo) || 1)) * H;
  s.push(`<text x="${x0}" y="${y0 - 10}" font-size="13" font-weight="bold">${esc(title)}</text>`);
  s.push(`<rect x="${x0}" y="${y0}" width="${W}" height="${H}" fill="#fafafa" stroke="#999"/>`);
  for (const t of niceTicks(yLo, yHi)) {
    const y = f1(Y(t.v));
    s.push(`<line x1="${x0}" x2="${x0 + W}" y1="${y}" y2="${y}" stroke="${t.major ? '#d0d0d0' : '#ececec'}"/>`);
    s.push(`<text x="${x0 - 6}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#333">${tickLabel(t.v)}</text>`);
  }
  for (const t of niceTicks(xLo, xHi)) {
    const x = f1(X(t.v));
    s.push(`<line x1="${x}" x2="${x}" y1="${y0}" y2="${y0 + H}" stroke="${t.major ? '#d0d0d0' : '#ececec'}"/>`);
    s.push(`<text x="${x}" y="${y0 + H + 16}" text-anchor="middle" fill="#333">${tickLabel(t.v)}</text>`);
  }
  s.push(`<text x="${x0 + W / 2}" y="${y0 + H + 36}" text-anchor="middle">${esc(xLabel)}</text>`);
  s.push(`<text transform="translate(${x0 - 52},${y0 + H / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`);
  let ly = y0 + H + 58;
  for (const se of series) {
    if (!se.pts.length) continue;
    const color = COLORS[se.backend] || '#555', dash = se.dash ? ' stroke-dasharray="6 4"' : '';
    s.push(`<polyline points="${se.pts.map((q) => `${f1(X(q.x))},${f1(Y(q.y))}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
    for (const q of se.pts) s.push(`<circle cx="${f1(X(q.x))}" cy="${f1(Y(q.y))}" r="3.5" fill="${q.bad ? '#fff' : color}" stroke="${color}"><title>${esc(`${se.name}: ${q.x}, ${q.y.toPrecision(3)}`)}</title></circle>`);
    s.push(`<line x1="${x0 + 10}" x2="${x0 + 36}" y1="${ly - 4}" y2="${ly - 4}" stroke="${color}" stroke-width="2"${dash}/>`);
    s.push(`<text x="${x0 + 42}" y="${ly}" font-size="11">${esc(se.name)}</text>`);
    ly += 15;
  }
}

export function batchedPlot(result) {
  const W = 420, H = 300, M = { top: 70, left: 80, gap: 110 };
  const width = M.left + 2 * W + M.gap + 30, height = M.top + H + 130;
  const s = [];
  s.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12">`);
  s.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  s.push(`<text x="${M.left}" y="22" font-size="16" font-weight="bold">${esc(`Batched small matrices, ${resultDay(result)} (whole calls with transfers; hollow: check failed)`)}</text>`);
  s.push(`<text x="${M.left}" y="40" font-size="11" fill="#555">${esc(`${result.label || ''}: ${result.env?.renderer || ''}`.slice(0, 150))}</text>`);
  const svd = [];
  for (const r of result.svd || []) {
    if (!timed(r)) continue;
    const name = `${r.backend} ${r.rows}×${r.cols}`;
    let se = svd.find((x) => x.name === name);
    if (!se) svd.push(se = { name, backend: r.backend, dash: r.rows !== 9, pts: [] });
    se.pts.push({ x: r.batch, y: r.perS, bad: !r.check?.ok });
  }
  for (const se of svd) se.pts.sort((a, b) => a.x - b.x);
  panel(s, { x0: M.left, y0: M.top, W, H, title: 'SVDs per second against the batch', xLabel: 'batch (matrices)', yLabel: 'SVDs per second', series: svd });
  const prod = [];
  for (const be of new Set([...(result.products || []), ...(result.chains || [])].map((r) => r.backend))) {
    prod.push({ name: `${be} multiplyBatchedAsync (whole)`, backend: be, dash: false, pts: (result.products || []).filter((r) => r.backend === be && timed(r)).map((r) => ({ x: r.k, y: r.gflops, bad: !r.check?.ok })).sort((a, b) => a.x - b.x) });
    prod.push({ name: `${be} chain, per squaring`, backend: be, dash: true, pts: (result.chains || []).filter((r) => r.backend === be && r.gflops > 0).map((r) => ({ x: r.k, y: r.gflops, bad: !r.check?.ok })).sort((a, b) => a.x - b.x) });
  }
  panel(s, { x0: M.left + W + M.gap, y0: M.top, W, H, title: 'Batched k×k products: GFLOP/s against k', xLabel: 'k', yLabel: 'GFLOP/s', series: prod });
  s.push('</svg>');
  return `${s.join('\n')}\n`;
}
