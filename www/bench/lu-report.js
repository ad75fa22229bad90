// The LU bench's report, pure (no DOM): the page (www/bench/lu.js) and Node
// (scripts/bench-lu.mjs) both import it. A markdown table (per backend and n: the
// whole luAsync call, GFLOP/s at 2n³/3 flops, passes, the float64 residual of a
// solve and ‖PA − LU‖/‖A‖) and an SVG of GFLOP/s against n, log-log.
import { clockLine, resultDay, wallFmt } from './systems-report.js';
import { esc, niceTicks, tickLabel } from './systems-plot.js';

/** Flops of an LU factorization of order n (plan::lu::LuShape::flops). */
export function luFlops(n) {
  let f = 0;
  for (let k = 0; k < n; k++) { const m = n - k - 1; f += m + 2 * m * m; }
  return f;
}

const ok = (r) => r && r.lu && Number.isFinite(r.lu.medianMs);
const g3 = (x) => (Number.isFinite(x) ? (Math.abs(x) >= 1e5 || (Math.abs(x) < 1e-2 && x !== 0) ? x.toExponential(2) : String(+x.toPrecision(3))) : '–');

export function luMarkdown(result) {
  const e = result.env || {};
  const L = [];
  const wall = wallFmt(result);
  L.push(`# LU factorization: ${result.label || ''} (${resultDay(result)})`, '', clockLine(result), '');
  L.push(`WebGL renderer: ${e.renderer || '?'}; WebGPU adapter: ${[e.webgpu?.vendor, e.webgpu?.architecture, e.webgpu?.description].filter(Boolean).join(' ') || e.webgpu?.reason || '?'}.`);
  L.push('Time: the whole `await gpu.luAsync(n, A)` (upload, 2 passes per pivot step, readback of LU and the pivots), median of the repeats after a warm-up; GFLOP/s at Σ(m + 2m²), m = n − k − 1 (≈ 2n³/3). ' +
    'Residual: ‖A·x − b‖/‖b‖ in float64 of `gpu.solveAsync(n, A, b)` (one right-hand side); factor error: ‖P·A − L·U‖/‖A‖ in float64. A: uniform in [−1, 1), seeded.', '');
  L.push('| backend | n | time | GFLOP/s | passes | runs | residual | factor error | solve time |');
  L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of result.records || []) {
    if (!ok(r)) { L.push(`| ${r.backend} | ${r.n} | ${r.status}: ${String(r.reason || '').slice(0, 120)} | | | | | | |`); continue; }
    L.push(`| ${r.backend} | ${r.n} | ${wall(r.lu.medianMs, r.lu.batch)} | ${g3(r.gflops)} | ${r.passes} | ${r.lu.status === 'single' ? '1 (over cap)' : r.lu.timesMs.length} | ${g3(r.residual)} | ${r.factorError == null ? '–' : g3(r.factorError)} | ${wall(r.solveMs)} |`);
  }
  if (result.error) L.push('', `Stopped: ${result.error}`);
  L.push('', `Total ${result.totalS ? result.totalS.toFixed(0) : '?'} s.`);
  return L.join('\n');
}

export function luPlot(result, { width = 640, height = 400 } = {}) {
  const pts = new Map();
  for (const r of result.records || []) if (ok(r)) (pts.get(r.backend) || pts.set(r.backend, []).get(r.backend)).push({ n: r.n, g: r.gflops });
  const all = [...pts.values()].flat();
  const box = { l: 60, r: 20, t: 30, b: 45 };
  const head = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`;
  const title = `<text x="${width / 2}" y="18" text-anchor="middle">LU factorization GFLOP/s against n: ${esc(result.label || '')}</text>`;
  if (!all.length) return `${head}${title}<text x="${width / 2}" y="${height / 2}" text-anchor="middle">nothing measured</text></svg>`;
  const nLo = Math.min(...all.map((p) => p.n)), nHi = Math.max(...all.map((p) => p.n)) * 1.0001;
  const gLo = Math.min(...all.map((p) => p.g)) / 1.5, gHi = Math.max(...all.map((p) => p.g)) * 1.5;
  const x = (n) => box.l + ((Math.log(n) - Math.log(nLo)) / (Math.log(nHi) - Math.log(nLo) || 1)) * (width - box.l - box.r);
  const y = (g) => height - box.b - ((Math.log(g) - Math.log(gLo)) / (Math.log(gHi) - Math.log(gLo))) * (height - box.t - box.b);
  const parts = [head, title];
  parts.push(`<rect x="${box.l}" y="${box.t}" width="${width - box.l - box.r}" height="${height - box.t - box.b}" fill="none" stroke="#999"/>`);
  for (const { v } of niceTicks(gLo, gHi)) parts.push(`<line x1="${box.l}" x2="${width - box.r}" y1="${y(v)}" y2="${y(v)}" stroke="#eee"/><text x="${box.l - 4}" y="${y(v) + 4}" text-anchor="end">${tickLabel(v)}</text>`);
  const ns = [...new Set(all.map((p) => p.n))];
  for (const n of ns) parts.push(`<text x="${x(n)}" y="${height - box.b + 16}" text-anchor="middle">${n}</text>`);
  parts.push(`<text x="${width / 2}" y="${height - 8}" text-anchor="middle">n</text><text transform="translate(14 ${height / 2}) rotate(-90)" text-anchor="middle">GFLOP/s</text>`);
  const colours = { webgl: '#b2182b', webgpu: '#2166ac' };
  let ly = box.t + 16;
  for (const [be, p] of pts) {
    p.sort((a, b) => a.n - b.n);
    const c = colours[be] || '#333';
    parts.push(`<polyline fill="none" stroke="${c}" stroke-width="2" points="${p.map((q) => `${x(q.n)},${y(q.g)}`).join(' ')}"/>`);
    for (const q of p) parts.push(`<circle cx="${x(q.n)}" cy="${y(q.g)}" r="3" fill="${c}"><title>${be} n=${q.n}: ${g3(q.g)} GFLOP/s</title></circle>`);
    parts.push(`<text x="${box.l + 10}" y="${ly}" fill="${c}">${be}</text>`);
    ly += 16;
  }
  parts.push('</svg>');
  return parts.join('');
}
