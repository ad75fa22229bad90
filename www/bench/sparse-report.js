// The SpMV bench's analysis and report, pure (no DOM): the page (www/bench/sparse.js)
// and Node (scripts/bench-sparse.mjs) both import it.
//   GB/s = bytes / time, bytes = 12·nnz + 8·rows + 4 (each nonzero's value, column and x
//   entry; each row's offset and y entry: plan::sparse::spmv_bytes), beside the streaming
//   ceiling measured in the same run (p + q → out over 12·nnz bytes, same device);
//   ns per nonzero and the log-log slope of time against nnz over the upper two decades
//   (1: time ∝ nnz); a markdown report and an SVG plot of GB/s against nnz.
import { clockLine, fmtMs, fmtNum, resultDay, wallFmt } from './systems-report.js';
import { esc, niceTicks, tickLabel } from './systems-plot.js';

export const spmvBytes = (rows, nnz) => 12 * nnz + 8 * rows + 4;
const f1 = (x) => (Math.round(x * 10) / 10).toString();
const ok = (r) => r.status === 'ok' && Number.isFinite(r.wallMs);
/** The time a record is judged by: the GPU's own where the device timed passes. */
export const timeOf = (r) => (Number.isFinite(r.gpuMs) ? r.gpuMs : r.wallMs);

/** Least-squares slope of log t against log nnz over points within 100× of the largest. */
export function slope(recs) {
  const pts = recs.filter(ok).map((r) => ({ x: Math.log10(r.nnz), y: Math.log10(timeOf(r)) }));
  if (!pts.length) return null;
  const top = Math.max(...pts.map((p) => p.x));
  const up = pts.filter((p) => p.x >= top - 2);
  if (up.length < 2) return null;
  const mx = up.reduce((s, p) => s + p.x, 0) / up.length, my = up.reduce((s, p) => s + p.y, 0) / up.length;
  const sxx = up.reduce((s, p) => s + (p.x - mx) ** 2, 0), sxy = up.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  return sxx > 0 ? sxy / sxx : null;
}

/** Series 'backend|kind' → records by nnz. */
export function series(result) {
  const out = new Map();
  for (const r of result.records || []) {
    const key = `${r.backend}|${r.kind}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(r);
  }
  for (const v of out.values()) v.sort((a, b) => a.nnz - b.nnz);
  return out;
}

/** Per series: best GB/s, its fraction of the ceiling, slope; per backend: the best ceiling. */
export function derive(result) {
  const d = { series: {}, ceilings: {} };
  for (const r of result.records || []) {
    if (Number.isFinite(r.streamGBs)) d.ceilings[r.backend] = Math.max(d.ceilings[r.backend] || 0, r.streamGBs);
  }
  for (const [key, recs] of series(result)) {
    const good = recs.filter(ok);
    const best = good.reduce((b, r) => (r.GBs > (b?.GBs ?? -1) ? r : b), null);
    d.series[key] = { bestGBs: best?.GBs ?? null, bestNnz: best?.nnz ?? null, slope: slope(recs), largestNnz: good.at(-1)?.nnz ?? null,
      stoppedBy: recs.find((r) => r.status === 'error')?.reason ?? null };
  }
  return d;
}

export function sparseMarkdown(result) {
  const d = result.derived || derive(result);
  const lines = [];
  const wall = wallFmt(result);
  lines.push(`# SpMV bench: GB/s against nnz, ${resultDay(result)} — ${result.label || ''}`, '', clockLine(result), '');
  lines.push(`Renderer: ${result.env?.renderer || '?'}; WebGPU: ${[result.env?.webgpu?.vendor, result.env?.webgpu?.architecture, result.env?.webgpu?.description].filter(Boolean).join(' ') || '–'}.`, '');
  lines.push('One pass y = A·x with A in CSR resident on the GPU (one invocation / fragment per row). Bytes per pass: 12·nnz + 8·rows (value, column and x entry per nonzero; offset and y entry per row). "GPU" times are the device\'s timestamps of one pass (where it has them), "wall" the wall clock per pass over back-to-back passes. The ceiling: an element-wise p + q → out pass over the same 12·nnz bytes, same device, same run, timed the same way (GPU time where the device has timestamps). GB/s use the GPU time where there is one, else the wall clock. uniform: perRow nonzeros in every row at random columns; skewed: row i\'s share ∝ 1/(i+1) (a few hub rows); skewed-long (WebGPU): the same matrices with rows past longRow entries by a workgroup of 256 each (wgsl/spmv/long.wgsl), the rest one invocation each.', '');
  for (const [key, recs] of series(result)) {
    const [backend, kind] = key.split('|');
    const s = d.series[key];
    lines.push(`## ${backend}, ${kind}`, '');
    lines.push(`Best ${fmtNum(s.bestGBs)} GB/s at nnz ${s.bestNnz ?? '–'}; slope of log t against log nnz over the upper two decades: ${s.slope == null ? '–' : s.slope.toFixed(2)} (1 = time ∝ nnz)${s.stoppedBy ? `; stopped: ${s.stoppedBy}` : ''}.`, '');
    lines.push('| nnz | rows | longest row | wall / pass | GPU / pass | GB/s | ns per nonzero | ceiling GB/s (p + q, same bytes) | of ceiling |');
    lines.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of recs) {
      if (!ok(r)) { lines.push(`| ${r.nnz} | ${r.rows ?? '–'} | – | ${r.status}: ${String(r.reason || '').slice(0, 120)} | | | | | |`); continue; }
      lines.push(`| ${r.nnz} | ${r.rows} | ${r.maxRow} | ${wall(r.wallMs, r.repeats)} | ${fmtMs(r.gpuMs)} | ${fmtNum(r.GBs)} | ${fmtNum((1e6 * timeOf(r)) / r.nnz)} | ${fmtNum(r.streamGBs)} | ${Number.isFinite(r.streamGBs) ? `${Math.round((100 * r.GBs) / r.streamGBs)} %` : '–'} |`);
    }
    lines.push('');
  }
  lines.push('Best streaming ceilings: ' + (Object.entries(d.ceilings).map(([b, v]) => `${b} ${fmtNum(v)} GB/s`).join(', ') || '–') + ' (earlier H100 WebGPU measurement: 2,990 GB/s).', '');
  if (result.error) lines.push(`**The run stopped early:** ${result.error}`, '');
  return `${lines.join('\n')}\n`;
}

const COLORS = { 'webgl|uniform': '#1f77b4', 'webgl|skewed': '#9467bd', 'webgpu|uniform': '#d62728', 'webgpu|skewed': '#ff7f0e', 'webgpu|skewed-long': '#2ca02c' };

export function sparsePlot(result, opts = {}) {
  const all = [...series(result)].map(([key, recs]) => ({ key, pts: recs.filter(ok).map((r) => ({ x: r.nnz, y: r.GBs, c: r.streamGBs })) })).filter((s) => s.pts.length);
  const W = opts.width ?? 640, H = opts.height ?? 400;
  const M = { top: 64, left: 74, bottom: 56, right: 24 }, legendW = 240;
  const width = M.left + W + M.right + legendW, height = M.top + H + M.bottom;
  const xs = all.flatMap((s) => s.pts.map((p) => p.x)), ys = all.flatMap((s) => s.pts.flatMap((p) => [p.y, p.c])).filter((v) => v > 0);
  const xLo = xs.length ? 10 ** Math.floor(Math.log10(Math.min(...xs))) : 1, xHi = xs.length ? 10 ** Math.ceil(Math.log10(Math.max(...xs))) : 10;
  const yLo = ys.length ? 10 ** Math.floor(Math.log10(Math.min(...ys))) : 1, yHi = ys.length ? 10 ** Math.ceil(Math.log10(Math.max(...ys))) : 10;
  const X = (v) => ((Math.log10(v) - Math.log10(xLo)) / (Math.log10(xHi) - Math.log10(xLo) || 1)) * W;
  const Y = (v) => H - ((Math.log10(v) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo) || 1)) * H;
  const s = [];
  s.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12">`);
  s.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  s.push(`<text x="${M.left}" y="24" font-size="16" font-weight="bold">${esc(`SpMV: GB/s against nnz (log-log), beside the streaming ceiling, ${resultDay(result)}`)}</text>`);
  s.push(`<text x="${M.left}" y="44" font-size="11" fill="#555">${esc(`${result.label || ''}: ${result.env?.renderer || ''}`.slice(0, 150))}</text>`);
  s.push(`<g transform="translate(${M.left},${M.top})">`);
  s.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#fafafa" stroke="#999"/>`);
  for (const t of niceTicks(yLo, yHi)) {
    const y = f1(Y(t.v));
    s.push(`<line x1="0" x2="${W}" y1="${y}" y2="${y}" stroke="${t.major ? '#d0d0d0' : '#ececec'}"/>`);
    s.push(`<text x="-6" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#333">${tickLabel(t.v)}</text>`);
  }
  for (const t of niceTicks(xLo, xHi)) {
    const x = f1(X(t.v));
    s.push(`<line x1="${x}" x2="${x}" y1="0" y2="${H}" stroke="${t.major ? '#d0d0d0' : '#ececec'}"/>`);
    if (t.major) s.push(`<text x="${x}" y="${H + 16}" text-anchor="middle" fill="#333">${tickLabel(t.v)}</text>`);
  }
  s.push(`<text x="${W / 2}" y="${H + 38}" text-anchor="middle" font-size="13">stored nonzeros nnz (log scale)</text>`);
  s.push(`<text transform="translate(-56,${H / 2}) rotate(-90)" text-anchor="middle" font-size="13">GB/s (log scale)</text>`);
  for (const se of all) {
    const color = COLORS[se.key] || '#555';
    s.push(`<polyline points="${se.pts.map((p) => `${f1(X(p.x))},${f1(Y(p.y))}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`);
    const ceil = se.pts.filter((p) => p.c > 0);
    if (se.key.endsWith('uniform') && ceil.length) s.push(`<polyline points="${ceil.map((p) => `${f1(X(p.x))},${f1(Y(p.c))}`).join(' ')}" fill="none" stroke="${color}" stroke-width="1.5" stroke-dasharray="6 4"/>`);
    for (const p of se.pts) s.push(`<circle cx="${f1(X(p.x))}" cy="${f1(Y(p.y))}" r="3.5" fill="${color}"><title>${esc(`${se.key}: nnz ${p.x}, ${p.y.toPrecision(3)} GB/s`)}</title></circle>`);
  }
  s.push('</g>');
  const lx = M.left + W + M.right + 12;
  let ly = M.top + 4;
  s.push(`<text x="${lx}" y="${ly}" font-weight="bold" font-size="13">backend, matrix</text>`);
  for (const se of all) {
    ly += 18;
    s.push(`<line x1="${lx}" x2="${lx + 30}" y1="${ly - 4}" y2="${ly - 4}" stroke="${COLORS[se.key] || '#555'}" stroke-width="2"/>`);
    s.push(`<text x="${lx + 38}" y="${ly}">${esc(se.key.replace('|', ', '))}</text>`);
  }
  ly += 28;
  ['solid: SpMV (GPU time where timed)', 'dashed: p + q streaming ceiling', 'over the same bytes, same device'].forEach((t, k) => s.push(`<text x="${lx}" y="${ly + 14 * k}" font-size="10.5" fill="#555">${esc(t)}</text>`));
  s.push('</svg>');
  return `${s.join('\n')}\n`;
}
