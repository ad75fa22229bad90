// The benchmark plot as an SVG string, built by hand (no plotting library): log-log
// GFLOP/s against n, one line per system, one panel per mode (A·A with readback, and
// the chain's per-pass rate; a third for the chain's compute-only GPU-timestamp rate where
// measured), a shared y axis and one legend. Pure ES module: the page
// (www/bench/systems.js) and Node (scripts/bench.mjs) both import it.
import { BASELINE, WEBGPU_BASELINE, deriveLabel, gflops, hasTime, indexRecords, resultDay, systemLabel } from './systems-report.js';

// This project's kernels take these, in order (WebGL's, then WebGPU's, drawn with diamonds);
// async variants reuse their sync colour, dashed.
const OURS_COLORS = ['#1f77b4', '#2ca02c', '#d62728', '#9467bd', '#17becf', '#e377c2', '#8c564b', '#bcbd22', '#0b3d91', '#006d2c'];
// This project's WebGPU kernels, by kernel name (apart from the WebGL palette).
const WEBGPU_COLORS = { global: '#17becf', tiled16: '#bcbd22', register: '#e7298a' };
const PEER_COLORS = { 'tfjs-webgl': '#222222', 'tfjs-webgpu': '#222222', 'tfjs-wasm': '#ff7f0e', gpujs: '#7f7f7f', 'js-f64': '#a0522d' };

export function esc(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const f = (x) => (Math.round(x * 10) / 10).toString();

/** A diamond marker's path centred on (x, y). */
const diamond = (x, y, r = 4.6) => `M${f(x)} ${f(y - r)}L${f(x + r)} ${f(y)}L${f(x)} ${f(y + r)}L${f(x - r)} ${f(y)}Z`;

/** Colour and dash of every system of the result. */
export function systemStyles(result) {
  const styles = new Map();
  let k = 0;
  const base = new Map();
  for (const s of result.systems || []) {
    const root = s.id.replace(/:async$/, '');
    let color = PEER_COLORS[root] || WEBGPU_COLORS[root.startsWith('gpgpu-webgpu:') ? root.slice(13) : ''];
    if (!color) {
      if (!base.has(root)) base.set(root, OURS_COLORS[k++ % OURS_COLORS.length]);
      color = base.get(root);
    }
    const async = /:async$/.test(s.id);
    const baseline = s.id === BASELINE || s.id === WEBGPU_BASELINE;
    const webgpu = s.id.startsWith('gpgpu-webgpu:');
    styles.set(s.id, {
      color,
      // TF.js WebGPU: TF.js WebGL's black, dash-dot
      dash: s.id === WEBGPU_BASELINE ? '9 3 2 3' : async && !webgpu ? '7 4' : s.ours || baseline ? '' : '2 3',
      width: s.ours || baseline ? 2.4 : 1.8,
      marker: webgpu ? 'diamond' : s.ours ? 'circle' : 'square',
    });
  }
  return styles;
}

export function niceTicks(lo, hi) {
  // Decades, plus 2 and 5 between them when the range is short.
  const ticks = [];
  const d0 = Math.floor(Math.log10(lo)), d1 = Math.ceil(Math.log10(hi));
  const minor = d1 - d0 <= 3 ? [1, 2, 5] : [1];
  for (let d = d0; d <= d1; d++) {
    for (const m of minor) {
      const v = m * 10 ** d;
      if (v >= lo * 0.999 && v <= hi * 1.001) ticks.push({ v, major: m === 1 });
    }
  }
  return ticks;
}

/** The 1-2-5 value at or below (dir -1) / above (dir +1) x. */
function snap125(x, dir) {
  const d = Math.floor(Math.log10(x));
  const steps = [1, 2, 5, 10].map((m) => m * 10 ** d);
  if (dir < 0) return steps.filter((v) => v <= x * 1.0001).pop();
  return steps.find((v) => v >= x * 0.9999);
}

export function tickLabel(v) {
  if (v >= 1000) return `${v / 1000}k`;
  if (v >= 1) return String(+v.toPrecision(3));
  return String(+v.toPrecision(2));
}

/** Map id → [{ n, g (GFLOP/s), hollow }] sorted by n, for one panel ('single', 'chain', 'gpu'). */
function panelPoints(result, key, mode) {
  const out = new Map();
  for (const [id, byN] of indexRecords(result, mode)) {
    const pts = [];
    for (const r of byN.values()) {
      if (key !== 'gpu') {
        if (hasTime(r)) pts.push({ n: r.n, g: r.gflops, hollow: r.status === 'single' });
      } else if (Number.isFinite(r.compute?.gpuMsPerPass) && r.compute.gpuMsPerPass > 0) {
        pts.push({ n: r.n, g: gflops(r.n, r.compute.gpuMsPerPass), hollow: r.compute.gpuStatus === 'single' });
      }
    }
    if (pts.length) out.set(id, pts.sort((x, y) => x.n - y.n));
  }
  return out;
}

/**
 * renderPlot(result, { width, height, title }) → an SVG document (string).
 * Panels: A·A with readback, the chain per pass, and (where measured) the chain's
 * compute-only rate by GPU timestamps.
 * Points of single over-cap runs are drawn hollow; skipped/failed ones are absent.
 */
export function renderPlot(result, opts = {}) {
  const passes = result.params?.passes ?? 4;
  // One panel per mode, and a third for the chain's compute-only GPU-timestamp rate
  // where the result has one (the WebGPU systems and WebGL blocked8).
  const panels = [
    { key: 'single', mode: 'single', title: 'A·A with upload + readback', ylabel: 'GFLOP/s' },
    { key: 'chain', mode: 'chain', title: `chain of ${passes} squarings, one readback`, ylabel: 'GFLOP/s per pass' },
    { key: 'gpu', mode: 'chain', title: 'chain, compute only: GPU timestamps', ylabel: 'GFLOP/s per pass' },
  ].map((p) => ({ ...p, points: panelPoints(result, p.key, p.mode) })).filter((p) => p.points.size > 0);
  const modes = panels; // (the layout below counts panels)
  const styles = systemStyles(result);
  const ids = (result.systems || []).map((s) => s.id).filter((id) => panels.some((p) => p.points.has(id)));
  const legendRowH = 18;
  const legendW = 250;
  const panelW = opts.panelWidth ?? 400;
  const panelH = opts.panelHeight ?? 360;
  const margin = { top: 80, left: 70, right: 24, bottom: 58, gap: 70 };
  const width = margin.left + modes.length * panelW + (modes.length - 1) * margin.gap + margin.right + legendW;
  const height = Math.max(margin.top + panelH + margin.bottom, margin.top + 24 + ids.length * legendRowH + 124);

  // Shared axes ranges.
  const all = panels.flatMap((p) => [...p.points.values()].flat());
  const ns = [...new Set([...(result.params?.sizes || []), ...all.map((r) => r.n)])].sort((a, b) => a - b);
  const gs = all.map((r) => r.g).filter((g) => g > 0);
  let yLo = gs.length ? Math.min(...gs) : 0.1, yHi = gs.length ? Math.max(...gs) : 10;
  yLo = snap125(yLo / 1.3, -1);
  yHi = snap125(yHi * 1.3, +1);
  const xLo = Math.log2(ns[0] || 64) - 0.25, xHi = Math.log2(ns[ns.length - 1] || 2048) + 0.25;
  const X = (n) => ((Math.log2(n) - xLo) / (xHi - xLo)) * panelW;
  const Y = (g) => panelH - ((Math.log10(g) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * panelH;

  const s = [];
  s.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12">`);
  s.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  const title = opts.title ?? `gpgpu-matrix (WebGL2, WebGPU) vs TF.js, gpu.js, JS: GFLOP/s (log-log), ${resultDay(result)}`;
  s.push(`<text x="${margin.left}" y="24" font-size="16" font-weight="bold">${esc(title)}</text>`);
  const renderer = result.env?.renderer || '';
  s.push(`<text x="${margin.left}" y="44" font-size="11" fill="#555">${esc(`${deriveLabel(renderer)}: ${renderer}`.slice(0, 160))}</text>`);

  panels.forEach((panel, pi) => {
    const ox = margin.left + pi * (panelW + margin.gap), oy = margin.top;
    s.push(`<g transform="translate(${ox},${oy})">`);
    s.push(`<rect x="0" y="0" width="${panelW}" height="${panelH}" fill="#fafafa" stroke="#999"/>`);
    const ticks = niceTicks(yLo, yHi);
    if (!ticks.some((t) => Math.abs(t.v / yLo - 1) < 1e-6)) ticks.push({ v: yLo, major: false });
    if (!ticks.some((t) => Math.abs(t.v / yHi - 1) < 1e-6)) ticks.push({ v: yHi, major: false });
    for (const t of ticks) {
      const y = f(Y(t.v));
      s.push(`<line x1="0" x2="${panelW}" y1="${y}" y2="${y}" stroke="${t.major ? '#d0d0d0' : '#ececec'}"/>`);
      s.push(`<text x="-6" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#333">${tickLabel(t.v)}</text>`);
    }
    for (const n of ns) {
      const x = f(X(n));
      s.push(`<line x1="${x}" x2="${x}" y1="0" y2="${panelH}" stroke="#e4e4e4"/>`);
      s.push(`<text x="${x}" y="${panelH + 16}" text-anchor="middle" fill="#333">${n}</text>`);
    }
    s.push(`<text x="${panelW / 2}" y="${panelH + 38}" text-anchor="middle" font-size="13">matrix size n (n×n, log scale)</text>`);
    s.push(`<text transform="translate(-50,${panelH / 2}) rotate(-90)" text-anchor="middle" font-size="13">${panel.ylabel} (2n³/t, log scale)</text>`);
    s.push(`<text x="${panelW / 2}" y="-8" text-anchor="middle" font-size="13" font-weight="bold">${esc(panel.title)}</text>`);
    // Baseline first so the others draw over it.
    const order = [...ids].sort((a, b) => (a === BASELINE ? -1 : b === BASELINE ? 1 : 0));
    for (const id of order) {
      const recs = panel.points.get(id) || [];
      if (!recs.length) continue;
      const st = styles.get(id);
      const pts = recs.map((r) => `${f(X(r.n))},${f(Y(r.g))}`).join(' ');
      s.push(`<polyline points="${pts}" fill="none" stroke="${st.color}" stroke-width="${st.width}"${st.dash ? ` stroke-dasharray="${st.dash}"` : ''} stroke-linejoin="round"/>`);
      for (const r of recs) {
        const hollow = r.hollow;
        const fill = hollow ? '#ffffff' : st.color;
        const x = X(r.n), y = Y(r.g);
        const tip = `<title>${esc(`${systemLabel(result, id)}, n=${r.n}: ${r.g.toPrecision(3)} GFLOP/s${hollow ? ' (one run, over cap)' : ''}`)}</title>`;
        if (st.marker === 'square') s.push(`<rect x="${f(x - 3.5)}" y="${f(y - 3.5)}" width="7" height="7" fill="${fill}" stroke="${st.color}" stroke-width="1.5">${tip}</rect>`);
        else if (st.marker === 'diamond') s.push(`<path d="${diamond(x, y)}" fill="${fill}" stroke="${st.color}" stroke-width="1.5">${tip}</path>`);
        else s.push(`<circle cx="${f(x)}" cy="${f(y)}" r="3.8" fill="${fill}" stroke="${st.color}" stroke-width="1.5">${tip}</circle>`);
      }
    }
    s.push('</g>');
  });

  // Legend.
  const lx = margin.left + modes.length * panelW + (modes.length - 1) * margin.gap + 24;
  let ly = margin.top + 4;
  s.push(`<text x="${lx}" y="${ly}" font-weight="bold" font-size="13">systems</text>`);
  ly += 10;
  for (const id of ids) {
    const st = styles.get(id);
    ly += legendRowH;
    s.push(`<line x1="${lx}" x2="${lx + 30}" y1="${ly - 4}" y2="${ly - 4}" stroke="${st.color}" stroke-width="${st.width}"${st.dash ? ` stroke-dasharray="${st.dash}"` : ''}/>`);
    if (st.marker === 'square') s.push(`<rect x="${lx + 11.5}" y="${ly - 7.5}" width="7" height="7" fill="${st.color}"/>`);
    else if (st.marker === 'diamond') s.push(`<path d="${diamond(lx + 15, ly - 4)}" fill="${st.color}"/>`);
    else s.push(`<circle cx="${lx + 15}" cy="${ly - 4}" r="3.8" fill="${st.color}"/>`);
    s.push(`<text x="${lx + 38}" y="${ly}" fill="#111">${esc(systemLabel(result, id))}</text>`);
  }
  ly += 26;
  const notes = ['circles: gpgpu-matrix WebGL · dashed: async', 'diamonds: gpgpu-matrix WebGPU',
    'squares, dotted: others', 'black: TF.js WebGL (dash-dot: WebGPU)', 'hollow: one run over the time cap',
    `median of ${result.params?.repeats ?? '?'} runs after a warm-up`];
  notes.forEach((t, k) => s.push(`<text x="${lx}" y="${ly + 14 * k}" font-size="10.5" fill="#555">${esc(t)}</text>`));
  s.push('</svg>');
  return s.join('\n') + '\n';
}
