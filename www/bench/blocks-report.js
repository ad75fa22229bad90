// The block-sparse bench's analysis and report, pure (no DOM): the page
// (www/bench/blocks.js) and Node (scripts/bench-blocks.mjs) both import it.
//   fits: t ≈ c₀ + c₁·P by least squares (plain, and relative: each point weighted 1/t²)
//   spread: max/min of t/P over the upper two decades of P, and of (t − c₀)/P with the
//     relative fit's c₀ (the cost per block product net of the call's fixed cost)
//   crossover: the density where the block-sparse call gets as slow as the dense one
//   markdown report and a log-log SVG plot of t against P
import { clockLine, median, resultDay, wallFmt } from './systems-report.js';
import { esc, niceTicks, tickLabel } from './systems-plot.js';

export { median };

/** 1-2-5 steps from lo to hi (inclusive). */
export function steps125(lo, hi) {
  const out = [];
  for (let d = Math.floor(Math.log10(lo)); d <= Math.ceil(Math.log10(hi)); d++) {
    for (const s of [1, 2, 5]) {
      const v = s * 10 ** d;
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
    }
  }
  return out;
}

/** Least squares t = c0 + c1·x over points [{ x, t }], weights w (default 1). */
export function fitLine(points, weight = () => 1) {
  let sw = 0, sx = 0, st = 0, sxx = 0, sxt = 0;
  for (const p of points) {
    const w = weight(p);
    sw += w; sx += w * p.x; st += w * p.t; sxx += w * p.x * p.x; sxt += w * p.x * p.t;
  }
  const det = sw * sxx - sx * sx;
  if (points.length < 2 || !(Math.abs(det) > 0)) return null;
  const c1 = (sw * sxt - sx * st) / det;
  const c0 = (st - c1 * sx) / sw;
  const maxRel = Math.max(...points.map((p) => Math.abs(c0 + c1 * p.x - p.t) / p.t));
  return { c0, c1, maxRelResidual: maxRel };
}

const timed = (r) => r.status !== 'skipped' && r.status !== 'error' && Number.isFinite(r.whole?.medianMs);

/** The part-1 sweeps of a result: Map 'backend|m' → records sorted by P. */
export function sweeps(result, part = 'fit') {
  const out = new Map();
  for (const r of result.records || []) {
    if (r.part !== part) continue;
    const key = `${r.backend}|${r.m}`;
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(r);
  }
  const by = part === 'cross' ? (r) => r.density : (r) => r.P ?? r.Ptarget ?? 0;
  for (const v of out.values()) v.sort((x, y) => by(x) - by(y));
  return out;
}

/** The time of `key` in a record: the whole call, the whole call less the symbolic phase, or the GPU's numeric pass alone. */
function timeOf(r, key) {
  if (key === 'whole') return r.whole.medianMs;
  if (key === 'gpu') return r.gpuMs;
  return r.whole.medianMs - r.plan.medianMs;
}

/** Fits and t/P spread of one sweep's timed records (t in ms, of the key: 'whole', 'gpuPart' or 'gpu'). */
export function analyseSweep(recs, key = 'whole') {
  const pts = recs.filter(timed).filter((r) => r.P > 0).map((r) => ({ x: r.P, t: timeOf(r, key) }))
    .filter((p) => p.t > 0);
  if (pts.length < 2) return null;
  const pMax = Math.max(...pts.map((p) => p.x)), pMin = Math.min(...pts.map((p) => p.x));
  const upper = pts.filter((p) => p.x >= pMax / 100);
  const perP = upper.map((p) => p.t / p.x);
  const relative = fitLine(pts, (p) => 1 / (p.t * p.t));
  const net = upper.map((p) => (p.t - relative.c0) / p.x);
  return {
    points: pts.length, pMin, pMax, decades: Math.log10(pMax / pMin),
    plain: fitLine(pts),
    relative,
    upperPoints: upper.length, upperFrom: Math.min(...upper.map((p) => p.x)),
    tPerPMin: Math.min(...perP), tPerPMax: Math.max(...perP), spread: Math.max(...perP) / Math.min(...perP),
    netSpread: Math.min(...net) > 0 ? Math.max(...net) / Math.min(...net) : null,
  };
}

/**
 * Crossover density of one backend and block size: the first measured density where
 * the block-sparse call takes at least the dense call's time, interpolated (log t
 * against log density) with the density before it.
 */
export function crossover(recs, denseMs) {
  const pts = recs.filter(timed).map((r) => ({ d: r.density, t: r.whole.medianMs, P: r.P })).sort((x, y) => x.d - y.d);
  if (!pts.length || !Number.isFinite(denseMs)) return { status: 'no data' };
  const k = pts.findIndex((p) => p.t >= denseMs);
  if (k < 0) return { status: 'sparse faster at every density measured', below: pts[pts.length - 1].d };
  if (k === 0) return { status: 'dense faster at every density measured', above: pts[0].d };
  const [lo, hi] = [pts[k - 1], pts[k]];
  const f = (Math.log(denseMs) - Math.log(lo.t)) / (Math.log(hi.t) - Math.log(lo.t));
  const d = Math.exp(Math.log(lo.d) + f * (Math.log(hi.d) - Math.log(lo.d)));
  return { status: 'ok', density: d, between: [lo.d, hi.d], tBetween: [lo.t, hi.t] };
}

/** max/min of the GPU-only t/P over every point of a fit's sweep. */
function recsSpread(result, f) {
  const recs = [...sweeps(result, 'fit')].find(([k]) => k === `${f.backend}|${f.m}`)?.[1] || [];
  const perP = recs.filter(timed).filter((r) => r.gpuMs > 0 && r.P > 0).map((r) => r.gpuMs / r.P);
  return perP.length > 1 ? `${(Math.max(...perP) / Math.min(...perP)).toFixed(2)}×` : '–';
}

/** Everything derived, for the JSON and the report. */
export function derive(result) {
  const fits = [];
  for (const [key, recs] of sweeps(result, 'fit')) {
    const [backend, m] = key.split('|');
    fits.push({ backend, m: +m, n: recs[0].n, whole: analyseSweep(recs, 'whole'), gpuPart: analyseSweep(recs, 'gpuPart'), gpu: analyseSweep(recs, 'gpu') });
  }
  const cross = [];
  for (const [key, recs] of sweeps(result, 'cross')) {
    const [backend, m] = key.split('|');
    const dense = (result.dense || []).find((d) => d.backend === backend && d.n === recs[0].n);
    cross.push({ backend, m: +m, n: recs[0].n, denseMs: dense?.medianMs, ...crossover(recs, dense?.medianMs) });
  }
  return { fits, cross };
}

// --- markdown ----------------------------------------------------------------------------------

const g3 = (x) => (Number.isFinite(x) ? (Math.abs(x) >= 1e4 || (Math.abs(x) < 1e-2 && x !== 0) ? x.toExponential(2) : +x.toPrecision(3)) : '–');
const pct = (x) => (Number.isFinite(x) ? `${(x * 100).toPrecision(2)}%` : '–');
const runs = (t) => (!t ? '' : t.status === 'single' ? '1 (over cap)' : `${t.timesMs?.length ?? 0}${t.batch > 1 ? `×${t.batch}` : ''}`);
const why = (r) => String(r.reason || '').split('\n')[0].slice(0, 160);

export function blocksMarkdown(result) {
  const d = derive(result); // anew: a result read back from JSON may predate a derived column
  const L = [];
  const e = result.env || {};
  const wall = wallFmt(result);
  L.push(`# Block-sparse products: ${result.label || ''} (${resultDay(result)})`, '', clockLine(result), '');
  L.push(`WebGL renderer: ${e.renderer || '?'}; WebGPU adapter: ${[e.webgpu?.vendor, e.webgpu?.architecture, e.webgpu?.description].filter(Boolean).join(' ') || e.webgpu?.reason || '?'}` +
    `${e.webgpu?.fallback ? ' (fallback adapter)' : ''}.`);
  L.push(`Times: the whole \`await gpu.multiplyBlockSparseAsync(a, b)\` (symbolic phase + upload + GPU + readback + assembly), ` +
    `median of ${result.params?.repeats} timed calls after a warm-up${result.params?.heatMs ? ` and ${result.params.heatMs} ms of untimed calls (the GPU's clock up)` : ''} (short calls timed in batches); ` +
    `"plan" = \`BlockSparse.productPlan(a, b)\` alone (the symbolic phase on the CPU); P = block products computed. ` +
    `Random patterns (seed ${result.params?.seed}): each of A and B has k blocks at distinct random places.` +
    `${result.totalS ? ` Run: ${result.totalS.toFixed(0)} s.` : ''}`, '');

  L.push('## 1. t against P', '');
  for (const [key, recs] of sweeps(result, 'fit')) {
    const [backend, m] = key.split('|');
    L.push(`### ${backend}, n = ${recs[0].n}, blocks of ${m}`, '');
    L.push('| P | density | k (each) | C blocks | whole | plan | whole − plan | t/P (µs) | runs | rel. err |');
    L.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of recs) {
      if (!timed(r)) { L.push(`| ${g3(r.P)} | ${g3(r.density)} | ${r.kA ?? '–'} | | ${r.status}: ${why(r)} | | | | | |`); continue; }
      L.push(`| ${r.P} | ${g3(r.density)} | ${r.kA} | ${r.cBlocks} | ${wall(r.whole.medianMs, r.whole.batch)} | ${wall(r.plan?.medianMs, r.plan?.batch)} | ${wall(r.whole.medianMs - r.plan?.medianMs)} | ` +
        `${g3((1000 * r.whole.medianMs) / r.P)} | ${runs(r.whole)} | ${r.relErr == null ? '' : g3(r.relErr)} |`);
    }
    L.push('');
  }
  L.push('Fits (t in ms): plain least squares, and relative (each point weighted 1/t², so the small-P points count as much as the large).', '');
  L.push('| backend | n | m | P range (decades) | plain c₀ (ms) | plain c₁ (µs/product) | relative c₀ (ms) | relative c₁ (µs) | worst relative residual (relative fit) | t/P spread, upper two decades (points) | (t − c₀)/P spread, the same points | the same for whole − plan |');
  L.push('|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const f of d.fits) {
    const w = f.whole, gp = f.gpuPart;
    if (!w) { L.push(`| ${f.backend} | ${f.n} | ${f.m} | too few points | | | | | | | |`); continue; }
    L.push(`| ${f.backend} | ${f.n} | ${f.m} | ${g3(w.pMin)}–${g3(w.pMax)} (${w.decades.toFixed(1)}) | ${g3(w.plain?.c0)} | ${g3(1000 * w.plain?.c1)} | ` +
      `${g3(w.relative?.c0)} | ${g3(1000 * w.relative?.c1)} | ${pct(w.relative?.maxRelResidual)} | ${w.spread.toFixed(2)}× (${w.upperPoints}) | ${w.netSpread ? `${w.netSpread.toFixed(2)}×` : '–'} | ${gp ? `${gp.spread.toFixed(2)}×` : '–'} |`);
  }
  L.push('');
  if (d.fits.some((f) => f.gpu)) {
    L.push('The numeric pass alone (GPU timestamps around it; WebGL timer queries), the same fits:', '');
    L.push('| backend | n | m | P range (decades) | relative c₀ (ms) | relative c₁ (µs/product) | t/P spread, upper two decades (points) | t/P spread, whole range |');
    L.push('|---|---:|---:|---|---:|---:|---:|---:|');
    for (const f of d.fits.filter((f) => f.gpu)) {
      const g = f.gpu;
      const all = recsSpread(result, f);
      L.push(`| ${f.backend} | ${f.n} | ${f.m} | ${g3(g.pMin)}–${g3(g.pMax)} (${g.decades.toFixed(1)}) | ${g3(g.relative?.c0)} | ${g3(1000 * g.relative?.c1)} | ${g.spread.toFixed(2)}× (${g.upperPoints}) | ${all} |`);
    }
    L.push('');
  }

  if (d.cross.length || (result.dense || []).length) {
    L.push('## 2. Crossover density (dense `gpu.multiplyAsync(n, n, n, A, B)` against the block-sparse call, both with transfers)', '');
    L.push('| backend | n | dense | m | crossover density | between (measured) | block-sparse there |');
    L.push('|---|---:|---:|---:|---:|---|---|');
    for (const c of d.cross) {
      const dd = c.status === 'ok' ? g3(c.density) : c.status === 'no data' ? '–' : c.below ? `> ${c.below}` : `< ${c.above}`;
      L.push(`| ${c.backend} | ${c.n} | ${wall(c.denseMs)} | ${c.m} | ${dd} | ${c.between ? `${c.between[0]} – ${c.between[1]}` : c.status} | ${c.tBetween ? `${wall(c.tBetween[0])} – ${wall(c.tBetween[1])}` : ''} |`);
    }
    for (const x of result.dense || []) if (x.status === 'error' || x.status === 'skipped') L.push(`| ${x.backend} | ${x.n} | ${x.status}: ${why(x)} | | | | |`);
    L.push('');
    L.push('Crossover sweeps, whole-call times:', '');
    L.push('| backend | m | density | P | C blocks | block-sparse | plan |');
    L.push('|---|---:|---:|---:|---:|---:|---:|');
    for (const [key, recs] of sweeps(result, 'cross')) {
      const [backend, m] = key.split('|');
      for (const r of recs) L.push(`| ${backend} | ${m} | ${r.density} | ${r.P ?? '–'} | ${r.cBlocks ?? '–'} | ${timed(r) ? wall(r.whole.medianMs, r.whole.batch) : `${r.status}: ${why(r)}`} | ${wall(r.plan?.medianMs, r.plan?.batch)} |`);
    }
    L.push('');
  }

  const cuda = (result.records || []).filter((r) => r.part === 'cuda');
  if (cuda.length || (result.cudaLeftOut || []).length) {
    L.push("## 3. The CUDA report's table (K40) run again", '');
    const backends = [...new Set(cuda.map((r) => r.backend))];
    L.push(`| n | m | k (each of A, B) | P | C blocks | K40 | plan | ${backends.map((b) => `${b} | ${b} ÷ K40`).join(' | ')} |`);
    L.push(`|---:|---:|---:|---:|---:|---:|---:|${backends.map(() => '---:|---:').join('|')}|`);
    const rows = [...new Map(cuda.map((r) => [`${r.n}|${r.m}|${r.kTarget}`, r])).values()];
    for (const r0 of rows) {
      const same = cuda.filter((r) => r.n === r0.n && r.m === r0.m && r.kTarget === r0.kTarget);
      const plan = same.find((r) => r.plan)?.plan;
      const cells = backends.map((b) => {
        const r = same.find((x) => x.backend === b);
        if (!r) return '– | –';
        if (!timed(r)) return `${r.status}: ${why(r)} | –`;
        return `${(r.whole.medianMs / 1000).toPrecision(3)} s${r.whole.status === 'single' ? ' (1 run)' : ''}${r.relErr != null ? `, err ${g3(r.relErr)}` : ''} | ${g3(r.whole.medianMs / 1000 / r0.k40S)}`;
      });
      L.push(`| ${r0.n} | ${r0.m} | ${r0.kTarget} | ${r0.P ?? '–'} | ${r0.cBlocks ?? '–'} | ${r0.k40S} s | ${plan ? wall(plan.medianMs, plan.batch) : '–'} | ${cells.join(' | ')} |`);
    }
    for (const x of result.cudaLeftOut || []) L.push(`| ${x.n} | ${x.m} | ${x.k} | | | ${x.k40S} s | | left out: ${x.reason} |`);
    L.push('');
  }
  if (result.cudaReport) L.push(`## 4. ${cudaReportMarkdown(result).replace(/^# /, '')}`);
  if (result.error) L.push(`**The run ended with an error:** ${result.error}`, '');
  return `${L.join('\n')}\n`;
}

// --- the plot: t against P, log-log ---------------------------------------------------------------

const COLORS = { 1: '#8c564b', 2: '#e377c2', 4: '#1f77b4', 8: '#2ca02c', 16: '#d62728', 32: '#9467bd', 64: '#17becf' };
const f1 = (x) => (Math.round(x * 10) / 10).toString();

/** SVG: whole-call t against P for every sweep of part 1 (WebGL solid circles, WebGPU dashed diamonds). */
export function blocksPlot(result, opts = {}) {
  const series = [...sweeps(result, 'fit')].map(([key, recs]) => {
    const [backend, m] = key.split('|');
    return { backend, m: +m, n: recs[0].n, pts: recs.filter(timed).filter((r) => r.P > 0).map((r) => ({ P: r.P, t: r.whole.medianMs, single: r.whole.status === 'single' })) };
  }).filter((s) => s.pts.length);
  const W = opts.width ?? 640, H = opts.height ?? 420;
  const M = { top: 64, left: 74, bottom: 56, right: 24 }, legendW = 220;
  const width = M.left + W + M.right + legendW, height = M.top + H + M.bottom;
  const all = series.flatMap((s) => s.pts);
  const Ps = all.map((p) => p.P), ts = all.map((p) => p.t);
  const pLo = Ps.length ? 10 ** Math.floor(Math.log10(Math.min(...Ps))) : 1, pHi = Ps.length ? 10 ** Math.ceil(Math.log10(Math.max(...Ps))) : 10;
  const tLo = ts.length ? 10 ** Math.floor(Math.log10(Math.min(...ts))) : 1, tHi = ts.length ? 10 ** Math.ceil(Math.log10(Math.max(...ts))) : 10;
  const X = (p) => ((Math.log10(p) - Math.log10(pLo)) / (Math.log10(pHi) - Math.log10(pLo))) * W;
  const Y = (t) => H - ((Math.log10(t) - Math.log10(tLo)) / (Math.log10(tHi) - Math.log10(tLo))) * H;
  const s = [];
  s.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif" font-size="12">`);
  s.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  s.push(`<text x="${M.left}" y="24" font-size="16" font-weight="bold">${esc(`Block-sparse A·B: whole-call time against block products P (log-log), ${resultDay(result)}`)}</text>`);
  s.push(`<text x="${M.left}" y="44" font-size="11" fill="#555">${esc(`${result.label || ''}: ${result.env?.renderer || ''}`.slice(0, 150))}</text>`);
  s.push(`<g transform="translate(${M.left},${M.top})">`);
  s.push(`<rect x="0" y="0" width="${W}" height="${H}" fill="#fafafa" stroke="#999"/>`);
  for (const t of niceTicks(tLo, tHi)) {
    const y = f1(Y(t.v));
    s.push(`<line x1="0" x2="${W}" y1="${y}" y2="${y}" stroke="${t.major ? '#d0d0d0' : '#ececec'}"/>`);
    s.push(`<text x="-6" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#333">${tickLabel(t.v)}</text>`);
  }
  for (const t of niceTicks(pLo, pHi)) {
    const x = f1(X(t.v));
    s.push(`<line x1="${x}" x2="${x}" y1="0" y2="${H}" stroke="${t.major ? '#d0d0d0' : '#ececec'}"/>`);
    if (t.major) s.push(`<text x="${x}" y="${H + 16}" text-anchor="middle" fill="#333">${tickLabel(t.v)}</text>`);
  }
  // t ∝ P guide through the first series' largest point.
  if (series.length) {
    const p = series[0].pts[series[0].pts.length - 1];
    const k = p.t / p.P;
    const a = Math.max(pLo, tLo / k), b = Math.min(pHi, tHi / k);
    if (b > a) s.push(`<line x1="${f1(X(a))}" y1="${f1(Y(k * a))}" x2="${f1(X(b))}" y2="${f1(Y(k * b))}" stroke="#bbb" stroke-dasharray="3 4"/>`);
  }
  s.push(`<text x="${W / 2}" y="${H + 38}" text-anchor="middle" font-size="13">block products P (log scale)</text>`);
  s.push(`<text transform="translate(-56,${H / 2}) rotate(-90)" text-anchor="middle" font-size="13">ms per call (log scale)</text>`);
  for (const se of series) {
    const color = COLORS[se.m] || '#555';
    const dash = se.backend === 'webgpu' ? ' stroke-dasharray="7 4"' : '';
    s.push(`<polyline points="${se.pts.map((p) => `${f1(X(p.P))},${f1(Y(p.t))}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2"${dash}/>`);
    for (const p of se.pts) {
      const x = X(p.P), y = Y(p.t), fill = p.single ? '#fff' : color;
      const tip = `<title>${esc(`${se.backend}, m=${se.m}: P=${p.P}, ${p.t.toPrecision(3)} ms`)}</title>`;
      if (se.backend === 'webgpu') s.push(`<path d="M${f1(x)} ${f1(y - 4.6)}L${f1(x + 4.6)} ${f1(y)}L${f1(x)} ${f1(y + 4.6)}L${f1(x - 4.6)} ${f1(y)}Z" fill="${fill}" stroke="${color}" stroke-width="1.5">${tip}</path>`);
      else s.push(`<circle cx="${f1(x)}" cy="${f1(y)}" r="3.8" fill="${fill}" stroke="${color}" stroke-width="1.5">${tip}</circle>`);
    }
  }
  s.push('</g>');
  const lx = M.left + W + M.right + 12;
  let ly = M.top + 4;
  s.push(`<text x="${lx}" y="${ly}" font-weight="bold" font-size="13">backend, n, block side</text>`);
  for (const se of series) {
    ly += 18;
    const color = COLORS[se.m] || '#555';
    s.push(`<line x1="${lx}" x2="${lx + 30}" y1="${ly - 4}" y2="${ly - 4}" stroke="${color}" stroke-width="2"${se.backend === 'webgpu' ? ' stroke-dasharray="7 4"' : ''}/>`);
    s.push(`<text x="${lx + 38}" y="${ly}">${esc(`${se.backend}, n=${se.n}, m=${se.m}`)}</text>`);
  }
  ly += 28;
  ['circles, solid: WebGL2', 'diamonds, dashed: WebGPU', 'grey dotted: t ∝ P', 'hollow: one run over the cap',
    `median of ${result.params?.repeats ?? '?'} calls after a warm-up`].forEach((t, k) => s.push(`<text x="${lx}" y="${ly + 14 * k}" font-size="10.5" fill="#555">${esc(t)}</text>`));
  s.push('</svg>');
  return `${s.join('\n')}\n`;
}

// The CUDA report's table through GPU-resident matrices (www/bench/blocks-gpu.js).
const sci = (x) => (x == null ? '–' : x.toExponential(1));
const mib = (x) => (x == null ? '–' : `${(x / 2 ** 20).toFixed(0)}`);

/** The table beside the K40's, as markdown. */
export function cudaReportMarkdown(result) {
  const r = result.cudaReport || result;
  const lines = [
    `# The CUDA report's table on GPU-resident block-sparse matrices (${result.label || ''})`,
    '',
    `${result.env?.webgpu ? `WebGPU: ${[result.env.webgpu.vendor, result.env.webgpu.architecture, result.env.webgpu.description].filter(Boolean).join(' ')}. ` : ''}seconds: ${r.seconds || 'the whole call'}. numeric: the numeric phase's path (dense: A and B written out dense and the dense product kernel; auto takes it where its time, estimated per n³ and per block product, is the shorter). GPU MiB: ${r.gpuBytes || 'GPU buffers held'}. maxRelError: relative Frobenius error of sampled blocks of C against float64 products computed on the CPU from the generator.`,
    '',
    '| n | m | k | block products | numeric | seconds | K40 s | speed-up | symbolic s | numeric s | first call s | C blocks | max rel. error | wasm MiB | GPU MiB |',
    '|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const x of r.rows || []) {
    if (x.status !== 'ok') { lines.push(`| ${x.n} | ${x.m} | ${x.k} | – | ${x.numericAsked} | ${x.status}: ${String(x.reason).slice(0, 120)} | ${x.k40Seconds} | | | | | | | ${mib(x.wasmPeakBytes)} | |`); continue; }
    lines.push(`| ${x.n} | ${x.m} | ${x.k} | ${x.products} | ${x.numericPath}${x.numericAsked === 'auto' ? ' (auto)' : ''} | ${x.seconds.toPrecision(3)} | ${x.k40Seconds} | ${(x.k40Seconds / x.seconds).toFixed(1)}× | ${x.symbolicSeconds.toPrecision(3)} | ${x.numericSeconds.toPrecision(3)} | ${x.firstSeconds.toPrecision(3)} | ${x.cBlocks} | ${sci(x.maxRelError)} | ${mib(x.wasmPeakBytes)} | ${mib(x.gpuBytes)} |`);
  }
  for (const x of r.leftOut || []) lines.push(`| ${x.n} | ${x.m} | ${x.k} | – | | left out: ${x.reason} | ${x.k40S} | | | | | | | | |`);
  if (r.error) lines.push('', `Not run: ${r.error}`);
  return `${lines.join('\n')}\n`;
}
