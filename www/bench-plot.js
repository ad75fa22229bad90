// The benchmark plot as an SVG string, built by hand (no plotting library): log-log
// GFLOP/s against n, one line per system, one panel per mode (A·A with readback, and
// the chain's per-pass rate), a shared y axis and one legend. Pure ES module: the page
// (www/bench.js) and Node (scripts/bench.mjs) both import it.
import { BASELINE, deriveLabel, hasTime, indexRecords, resultDay, systemLabel } from './bench-report.js';

// This project's kernels take these, in order; async variants reuse their sync colour, dashed.
const OURS_COLORS = ['#1f77b4', '#2ca02c', '#d62728', '#9467bd', '#17becf', '#e377c2', '#8c564b', '#bcbd22', '#0b3d91', '#006d2c'];
const PEER_COLORS = { 'tfjs-webgl': '#222222', 'tfjs-wasm': '#ff7f0e', gpujs: '#7f7f7f', 'js-f64': '#a0522d' };

function esc(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const f = (x) => (Math.round(x * 10) / 10).toString();

/** Colour and dash of every system of the result. */
export function systemStyles(result) {
  const styles = new Map();
  let k = 0;
  const base = new Map();
  for (const s of result.systems || []) {
    const root = s.id.replace(/:async$/, '');
    let color = PEER_COLORS[root];
    if (!color) {
      if (!base.has(root)) base.set(root, OURS_COLORS[k++ % OURS_COLORS.length]);
      color = base.get(root);
    }
    const async = /:async$/.test(s.id);
    const baseline = s.id === BASELINE;
    styles.set(s.id, {
      color,
      dash: async ? '7 4' : s.ours || baseline ? '' : '2 3',
      width: s.ours || baseline ? 2.4 : 1.8,
      marker: s.ours ? 'circle' : 'square',
    });
  }
  return styles;
}

function niceTicks(lo, hi) {
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

function tickLabel(v) {
  if (v >= 1000) return `${v / 1000}k`;
  if (v >= 1) return String(+v.toPrecision(3));
  return String(+v.toPrecision(2));
}

/**
 * renderPlot(result, { width, height, title }) → an SVG document (string).
 * Points of single over-cap runs are drawn hollow; skipped/failed ones are absent.
 */
export function renderPlot(result, opts = {}) {
  const modes = ['single', 'chain'].filter((m) => indexRecords(result, m).size > 0);
  const styles = systemStyles(result);
  const ids = (result.systems || []).map((s) => s.id)
    .filter((id) => modes.some((m) => [...(indexRecords(result, m).get(id)?.values() || [])].some(hasTime)));
  const legendRowH = 18;
  const legendW = 230;
  const panelW = opts.panelWidth ?? 400;
  const panelH = opts.panelHeight ?? 360;
  const margin = { top: 80, left: 70, right: 24, bottom: 58, gap: 70 };
  const width = margin.left + modes.length * panelW + (modes.length - 1) * margin.gap + margin.right + legendW;
  const height = Math.max(margin.top + panelH + margin.bottom, margin.top + 24 + ids.length * legendRowH + 96);

  // Shared axes ranges.
  const all = (result.records || []).filter((r) => modes.includes(r.mode) && hasTime(r));
  const ns = [...new Set([...(result.params?.sizes || []), ...all.map((r) => r.n)])].sort((a, b) => a - b);
  const gs = all.map((r) => r.gflops).filter((g) => g > 0);
  let yLo = gs.length ? Math.min(...gs) : 0.1, yHi = gs.length ? Math.max(...gs) : 10;
  yLo = snap125(yLo / 1.3, -1);
  yHi = snap125(yHi * 1.3, +1);
  const xLo = Math.log2(ns[0] || 64) - 0.25, xHi = Math.log2(ns[ns.length - 1] || 2048) + 0.25;
  const X = (n) => ((Math.log2(n) - xLo) / (xHi - xLo)) * panelW;
  const Y = (g) => panelH - ((Math.log10(g) - Math.log10(yLo)) / (Math.log10(yHi) - Math.log10(yLo))) * panelH;

  const s = [];
  s.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12">`);
  s.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  const title = opts.title ?? `gpgpu-matrix vs TF.js, gpu.js, JS: GFLOP/s (log-log), ${resultDay(result)}`;
  s.push(`<text x="${margin.left}" y="24" font-size="16" font-weight="bold">${esc(title)}</text>`);
  const renderer = result.env?.renderer || '';
  s.push(`<text x="${margin.left}" y="44" font-size="11" fill="#555">${esc(`${deriveLabel(renderer)}: ${renderer}`.slice(0, 160))}</text>`);

  modes.forEach((mode, pi) => {
    const ox = margin.left + pi * (panelW + margin.gap), oy = margin.top;
    const idx = indexRecords(result, mode);
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
    s.push(`<text transform="translate(-50,${panelH / 2}) rotate(-90)" text-anchor="middle" font-size="13">${mode === 'chain' ? 'GFLOP/s per pass' : 'GFLOP/s'} (2n³/t, log scale)</text>`);
    const ptitle = mode === 'single' ? 'A·A with upload + readback' : `chain of ${result.params?.passes ?? 4} squarings, one readback`;
    s.push(`<text x="${panelW / 2}" y="-8" text-anchor="middle" font-size="13" font-weight="bold">${esc(ptitle)}</text>`);
    // Baseline first so the others draw over it.
    const order = [...ids].sort((a, b) => (a === BASELINE ? -1 : b === BASELINE ? 1 : 0));
    for (const id of order) {
      const recs = [...(idx.get(id)?.values() || [])].filter(hasTime).sort((a, b) => a.n - b.n);
      if (!recs.length) continue;
      const st = styles.get(id);
      const pts = recs.map((r) => `${f(X(r.n))},${f(Y(r.gflops))}`).join(' ');
      s.push(`<polyline points="${pts}" fill="none" stroke="${st.color}" stroke-width="${st.width}"${st.dash ? ` stroke-dasharray="${st.dash}"` : ''} stroke-linejoin="round"/>`);
      for (const r of recs) {
        const hollow = r.status === 'single';
        const fill = hollow ? '#ffffff' : st.color;
        const x = X(r.n), y = Y(r.gflops);
        const tip = `<title>${esc(`${systemLabel(result, id)}, n=${r.n}: ${r.gflops.toPrecision(3)} GFLOP/s${hollow ? ' (one run, over cap)' : ''}`)}</title>`;
        if (st.marker === 'square') s.push(`<rect x="${f(x - 3.5)}" y="${f(y - 3.5)}" width="7" height="7" fill="${fill}" stroke="${st.color}" stroke-width="1.5">${tip}</rect>`);
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
    else s.push(`<circle cx="${lx + 15}" cy="${ly - 4}" r="3.8" fill="${st.color}"/>`);
    s.push(`<text x="${lx + 38}" y="${ly}" fill="#111">${esc(systemLabel(result, id))}</text>`);
  }
  ly += 26;
  s.push(`<text x="${lx}" y="${ly}" font-size="10.5" fill="#555">circles: gpgpu-matrix · dashed: async</text>`);
  s.push(`<text x="${lx}" y="${ly + 14}" font-size="10.5" fill="#555">squares, dotted: others</text>`);
  s.push(`<text x="${lx}" y="${ly + 28}" font-size="10.5" fill="#555">black: TF.js WebGL</text>`);
  s.push(`<text x="${lx}" y="${ly + 42}" font-size="10.5" fill="#555">hollow: one run over the time cap</text>`);
  s.push(`<text x="${lx}" y="${ly + 56}" font-size="10.5" fill="#555">median of ${esc(result.params?.repeats ?? '?')} runs after a warm-up</text>`);
  s.push('</svg>');
  return s.join('\n') + '\n';
}
