// Pure helpers shared by the benchmark page (www/bench.js) and the Node side
// (scripts/bench.mjs, scripts/bench-from-json.mjs): statistics, labels, number
// formatting and the markdown report. No DOM, no Node APIs: it runs in both.
//
// A benchmark result (what the page produces and POSTs to /result) looks like:
//   { schema: 1, date, env: { renderer, userAgent, ... }, params: { sizes, repeats, capS, ... },
//     systems: [{ id, label, kind, ours, async, available, reason }],
//     references: [{ n, mode, method, ms }],
//     records: [{ system, mode, n, passes, status, reason, warmupMs, timesMs, medianMs,
//                 perPassMs, gflops, relFrobenius, maxAbs, errorMethod }] }
// status: 'ok' (warm-up + timed runs), 'single' (one run only, over the per-run cap:
// the warm-up itself, compile included), 'skipped' (not run: too slow / over a size
// limit), 'error' (threw), 'unavailable' (system could not start).

/** The system every ratio is taken against. */
export const BASELINE = 'tfjs-webgl';

/** Modes and how they are described. */
export const MODES = {
  single: 'A·A with readback (upload + product + readback)',
  chain: 'chain of squarings with one readback (time per pass)',
};

export function median(xs) {
  if (!xs || xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/** GFLOP/s of one n×n×n product (2n³ flops) that took `ms` milliseconds. */
export function gflops(n, ms) {
  return (2 * n * n * n) / (ms * 1e6);
}

/**
 * A short file-name label for a renderer string: "swiftshader", "h100", "rtx-4090",
 * "apple-m2", ... (lower case, [a-z0-9-]).
 */
export function deriveLabel(renderer) {
  const r = String(renderer || '');
  if (/swiftshader/i.test(r)) return 'swiftshader';
  const clean = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'unknown';
  let m = r.match(/NVIDIA[^,()]*?\b((?:GeForce |Quadro |Tesla )?(?:RTX |GTX )?[A-Z]{0,4}\d{2,5}\w*)/i);
  if (m) return clean(m[1].replace(/^(GeForce|Quadro|Tesla) /i, ''));
  m = r.match(/Apple (M\d\w*(?: (?:Pro|Max|Ultra))?)/i);
  if (m) return clean(`apple-${m[1]}`);
  m = r.match(/(Radeon[^,()]*|Intel[^,()]*Graphics[^,()]*|Mali[^,()]*|Adreno[^,()]*)/i);
  if (m) return clean(m[1]).slice(0, 32);
  return clean(r).slice(0, 32);
}

/** YYYY-MM-DD of the result's date (UTC), for file names. */
export function resultDay(result) {
  const d = new Date(result?.date || Date.now());
  return Number.isNaN(d.getTime()) ? new Date().toISOString().slice(0, 10) : d.toISOString().slice(0, 10);
}

export function fmtMs(ms) {
  if (!Number.isFinite(ms)) return '–';
  if (ms >= 1000) return `${(ms / 1000).toPrecision(3)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(3)} ms`;
}

export function fmtNum(x, digits = 3) {
  if (!Number.isFinite(x)) return '–';
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a >= 10 ** digits) return x.toFixed(0);
  if (a < 1e-3) return x.toExponential(1);
  return x.toPrecision(digits);
}

export function fmtErr(x) {
  return Number.isFinite(x) ? x.toExponential(2) : '–';
}

/** Label of a system id, from the result's system list. */
export function systemLabel(result, id) {
  return result.systems?.find((s) => s.id === id)?.label ?? id;
}

/** Records of one mode, indexed: map[system][n] = record. */
export function indexRecords(result, mode) {
  const map = new Map();
  for (const r of result.records || []) {
    if (r.mode !== mode) continue;
    if (!map.has(r.system)) map.set(r.system, new Map());
    map.get(r.system).set(r.n, r);
  }
  return map;
}

/** True when a record carries a time (status ok, or a single over-cap run). */
export function hasTime(r) {
  return !!r && (r.status === 'ok' || r.status === 'single') && Number.isFinite(r.gflops);
}

/** Systems in the order the result lists them, keeping only those with records in `mode`. */
export function systemsIn(result, mode) {
  const idx = indexRecords(result, mode);
  return (result.systems || []).map((s) => s.id).filter((id) => idx.has(id));
}

function statusCell(r) {
  if (!r) return '–';
  if (r.status === 'skipped') return `skipped (${r.reason || 'too slow'})`;
  if (r.status === 'error') {
    const code = String(r.reason || '').match(/\b([A-Z][A-Z0-9]*_[A-Z0-9_]+)\b/);
    return `error (${code ? code[1] : String(r.reason || '').split('\n')[0].slice(0, 40)})`;
  }
  if (r.status === 'unavailable') return `unavailable`;
  return null;
}

function timeCell(r, perPass) {
  const s = statusCell(r);
  if (s) return s;
  const t = fmtMs(perPass ? r.perPassMs : r.medianMs);
  return r.status === 'single' ? `≈${t}` : t;
}

function ratio(a, b) {
  return hasTime(a) && hasTime(b) ? `${(a.gflops / b.gflops).toFixed(2)}×` : '–';
}

function runsCell(r) {
  if (!r || !hasTime(r)) return '';
  if (r.status === 'single') return '1 (over cap)';
  const t = r.timesMs || [];
  const spread = t.length > 1 && r.medianMs > 0 ? `, spread ${Math.round((100 * (Math.max(...t) - Math.min(...t))) / r.medianMs)}%` : '';
  return `${t.length}${r.batch > 1 ? `×${r.batch}` : ''}${spread}`;
}

/** The environment paragraph of the report. */
export function envSummary(result) {
  const e = result.env || {};
  const p = result.params || {};
  const lines = [];
  lines.push(`- renderer: ${e.renderer || '?'}`);
  if (e.userAgent) lines.push(`- browser: ${e.userAgent}`);
  if (e.hardwareConcurrency) lines.push(`- CPU threads visible to the page: ${e.hardwareConcurrency}; cross-origin isolated: ${!!e.crossOriginIsolated}`);
  // Recorded by scripts/bench.mjs: runs on SwiftShader depend on the host CPU and its load.
  if (e.host) lines.push(`- host: ${e.host.cpu}, ${e.host.cpus} CPUs; load average ${e.host.loadStart.join(' / ')} at the start, ${e.host.loadEnd.join(' / ')} at the end (1 / 5 / 15 min)`);
  if (e.gpgpu) lines.push(`- gpgpu-matrix kernels: ${(e.gpgpu.kernels || []).join(', ')}${e.gpgpu.async ? '; async API present' : '; no async API'}`);
  if (e.tfjs && (e.tfjs.version || e.tfjs.webglFlags || e.tfjs.wasm)) {
    const f = e.tfjs.webglFlags || {};
    const keys = ['WEBGL_VERSION', 'WEBGL_PACK', 'WEBGL_RENDER_FLOAT32_ENABLED', 'WEBGL_FORCE_F16_TEXTURES',
      'WEBGL_DOWNLOAD_FLOAT_ENABLED', 'WEBGL_USE_SHAPES_UNIFORMS', 'WEBGL_CPU_FORWARD'];
    const flags = keys.filter((k) => k in f).map((k) => `${k}=${f[k]}`).join(', ');
    lines.push(`- TF.js ${e.tfjs.version || '?'} WebGL flags: ${flags || '?'}`);
    if (e.tfjs.wasm) lines.push(`- TF.js WASM: SIMD ${e.tfjs.wasm.simd}, threads ${e.tfjs.wasm.threads} (${e.tfjs.wasm.threadsCount ?? '?'} thread(s))`);
  }
  if (e.gpujs?.mode) lines.push(`- gpu.js ${e.gpujs.version || '?'}: mode ${e.gpujs.mode}, precision ${e.gpujs.precision}, tactic ${e.gpujs.tactic}`);
  lines.push(`- timing: median of ${p.repeats} timed runs after one warm-up (runs that take under ${p.minSampleMs ?? 0} ms once warm are timed as ` +
    `means of back-to-back batches, "runs" column R×B; spread = (slowest − fastest) / median); per-run cap ${p.capS} s ` +
    `(a warm-up over the cap is reported alone, marked ≈; a config predicted over ${p.skipFactor}× the cap from the previous size is skipped); ` +
    `chain = ${p.passes} squarings, one readback, time per pass; GFLOP/s = 2n³/t`);
  const refs = (result.references || []).map((r) => `n=${r.n}${r.mode ? ` ${r.mode}` : ''}: ${r.method}`).join('; ');
  if (refs) lines.push(`- error: relative Frobenius norm of (result − float64 reference) / float64 reference (A·A; M^${2 ** (p.passes ?? 4)} for the chain), on ${refs}`);
  if (p.seed !== undefined) lines.push(`- input: uniform [−1, 1) float32, seed ${p.seed} (www/reference.js uniformMatrix)`);
  return lines.join('\n');
}

/**
 * The markdown report: environment, one detailed table per mode (times, GFLOP/s,
 * ratio to TF.js WebGL per n, error), and compact GFLOP/s grids.
 */
export function markdownReport(result) {
  const out = [];
  const label = result.label || deriveLabel(result.env?.renderer);
  out.push(`## gpgpu-matrix benchmark: ${resultDay(result)} (${label})`);
  out.push('');
  out.push(envSummary(result));
  if (result.error) out.push(`\n**The run ended early with an error:** ${result.error}`);
  const sizes = result.params?.sizes || [...new Set((result.records || []).map((r) => r.n))].sort((a, b) => a - b);
  for (const mode of Object.keys(MODES)) {
    const idx = indexRecords(result, mode);
    if (idx.size === 0) continue;
    const ids = systemsIn(result, mode);
    const base = idx.get(BASELINE);
    const single = indexRecords(result, 'single');
    out.push('');
    out.push(`### ${mode === 'single' ? 'A·A with readback' : `Chain of ${result.params?.passes ?? 4} squarings, one readback (per pass)`}`);
    out.push('');
    if (mode === 'single') {
      out.push('| n | system | median | GFLOP/s | × TF.js WebGL | rel. Frobenius error | runs |');
      out.push('|---:|---|---:|---:|---:|---:|---:|');
    } else {
      out.push('| n | system | per pass | GFLOP/s | × TF.js WebGL chain | per pass ÷ own single | rel. Frobenius error | runs |');
      out.push('|---:|---|---:|---:|---:|---:|---:|---:|');
    }
    for (const n of sizes) {
      for (const id of ids) {
        const r = idx.get(id)?.get(n);
        if (!r) continue;
        const b = base?.get(n);
        const cells = [n, systemLabel(result, id), timeCell(r, mode === 'chain'),
          hasTime(r) ? fmtNum(r.gflops) : '–', id === BASELINE ? (hasTime(r) ? '1.00×' : '–') : ratio(r, b)];
        if (mode === 'single') cells.push(fmtErr(r.relFrobenius));
        else {
          const s = single.get(id)?.get(n);
          cells.push(hasTime(r) && hasTime(s) ? `${(r.perPassMs / s.medianMs).toFixed(2)}` : '–');
          cells.push(fmtErr(r.relFrobenius)); // results from before chains were checked have none: "–"
        }
        cells.push(runsCell(r));
        out.push(`| ${cells.join(' | ')} |`);
      }
    }
    // Compact grid: systems × n, GFLOP/s.
    out.push('');
    out.push(`GFLOP/s${mode === 'chain' ? ' per pass' : ''} (≈: one over-cap run; ×: ratio to TF.js WebGL at that n):`);
    out.push('');
    out.push(`| system | ${sizes.map((n) => `n=${n}`).join(' | ')} |`);
    out.push(`|---|${sizes.map(() => '---:').join('|')}|`);
    for (const id of ids) {
      const cells = sizes.map((n) => {
        const r = idx.get(id)?.get(n);
        if (!hasTime(r)) return r?.status === 'skipped' ? 'skip' : r?.status === 'error' ? 'err' : '–';
        const b = base?.get(n);
        const rt = id !== BASELINE && hasTime(b) ? ` (${(r.gflops / b.gflops).toFixed(2)}×)` : '';
        return `${r.status === 'single' ? '≈' : ''}${fmtNum(r.gflops)}${rt}`;
      });
      out.push(`| ${systemLabel(result, id)} | ${cells.join(' | ')} |`);
    }
  }
  const unavailable = (result.systems || []).filter((s) => s.available === false);
  if (unavailable.length) {
    out.push('');
    out.push(`Not measured: ${unavailable.map((s) => `${s.label} (${s.reason})`).join('; ')}`);
  }
  return out.join('\n') + '\n';
}
