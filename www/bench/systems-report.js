// Pure helpers shared by the benchmark page (www/bench/systems.js) and the Node side
// (scripts/bench.mjs, scripts/bench-from-json.mjs): statistics, labels, number
// formatting and the markdown report. No DOM, no Node APIs: it runs in both.
//
// A benchmark result (what the page produces and POSTs to /result) looks like:
//   { schema: 1, date, env: { renderer, userAgent, ... }, params: { sizes, repeats, capS, ... },
//     systems: [{ id, label, kind, ours, async, available, reason }],
//     references: [{ n, mode, method, ms }],
//     records: [{ system, mode, n, passes, status, reason, warmupMs, timesMs, medianMs,
//                 perPassMs, gflops, relFrobenius, maxAbs, errorMethod,
//                 compute }] }   (chain records of the WebGPU systems and WebGL blocked8:
//       compute = { wallStatus, wallMsPerPass, wallTimesMs, wallBatch, wallRelFrobenius,
//                   gpuStatus, gpuMsPerPass, gpuRunsMs, gpuRelFrobenius, gpuReason, … }:
//       the chain's passes alone, by wall clock and by GPU timestamps; env.chainExtras says how)
// status: 'ok' (warm-up + timed runs), 'single' (one run only, over the per-run cap:
// the warm-up itself, compile included), 'skipped' (not run: too slow / over a size
// limit), 'error' (threw), 'unavailable' (system could not start).

import { timerResolutionMs } from '../ui/clock.js';

/** The system every ratio is taken against. */
export const BASELINE = 'tfjs-webgl';
/** The system the WebGPU kernels' ratios are taken against (the WebGPU tables). */
export const WEBGPU_BASELINE = 'tfjs-webgpu';
/** This project's WebGPU kernels, in the order the WebGPU tables show them. */
export const WEBGPU_KERNELS = ['global', 'tiled16', 'register'];
/** The WebGL kernel the WebGPU tables show for contrast. */
export const WEBGL_CONTRAST = 'gpgpu:blocked8';

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

/**
 * The report's line on the clock: the timer resolution the page measured at start-up
 * (result.timerResolutionMs, www/ui/clock.js) and what it bounds.
 */
export function clockLine(result) {
  const res = result?.timerResolutionMs;
  if (!Number.isFinite(res)) return 'Timer resolution: not recorded (a result from before timerResolutionMs).';
  return `Timer resolution: ${Number(res.toPrecision(2))} ms (performance.now(), measured at the page's start). ` +
    'Wall-clock figures are readings of this clock: one reading is good to that step, a mean over k passes to the step / k; ' +
    'GPU-timed figures (timer queries, timestamps) are not limited by it.';
}

/**
 * fmtMs for the wall-clock figures of `result`: `(ms, over)` rounded to the timer
 * resolution it recorded, or to resolution / `over` for a mean over `over` readings
 * taken as one (a batch), and no digit finer; fmtMs as it was for a result without one.
 */
export function wallFmt(result) {
  const res = result?.timerResolutionMs;
  return (ms, over = 1) => {
    if (!Number.isFinite(res) || !Number.isFinite(ms)) return fmtMs(ms);
    const step = res / (over || 1);
    const places = Math.max(0, Math.ceil(-Math.log10(step) - 1e-9));
    if (ms < step) return `< ${step.toFixed(places)} ms`;
    const v = Math.round(ms / step) * step;
    if (v >= 1000) return fmtMs(v);
    // fmtMs's digits by size, but none finer than the step.
    return `${v.toFixed(Math.min(v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 3, places))} ms`;
  };
}

/**
 * wallFmt by this browser's clock (www/ui/clock.js, measured at the page's start): the
 * progress lines' wall-clock figures, rounded as the result's report rounds them.
 */
export const wallLog = (ms, over) => wallFmt({ timerResolutionMs: timerResolutionMs() })(ms, over);

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

/** A record's wall-clock time, no finer than the clock allows: a sample is the mean of
 *  `batch` calls, and a chain's pass one of `passes` (`wall` is wallFmt(result)). */
function timeCell(r, perPass, wall, passes) {
  const s = statusCell(r);
  if (s) return s;
  const batch = r.batch || 1;
  const t = perPass ? wall(r.perPassMs, batch * passes) : wall(r.medianMs, batch);
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
  lines.push(`- renderer: ${e.renderer || '?'}`, `- ${clockLine(result)}`);
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
  if (e.gpgpuWebgpu) {
    const w = e.gpgpuWebgpu;
    lines.push(w.unavailable ? `- gpgpu-matrix WebGPU: unavailable (${w.unavailable})`
      : `- gpgpu-matrix WebGPU: adapter ${[w.vendor, w.architecture, w.description].filter(Boolean).join(' / ') || '?'}` +
        `${w.fallbackAdapter ? ' (fallback adapter)' : ''}; timestamp-query ${w.timestampQuery ? 'granted' : 'not granted'}; ` +
        `register kernel: ${w.registerKernel || '?'}`);
  }
  if (e.tfjs?.webgpu) {
    const w = e.tfjs.webgpu;
    lines.push(`- TF.js WebGPU ${w.version || '?'} (read by await data()): adapter ${[w.adapter?.vendor, w.adapter?.architecture].filter(Boolean).join(' / ') || '?'}; ` +
      `timestamp-query ${w.timestampQuery ? 'granted' : 'not granted'}; WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE=${w.flags?.WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE ?? '?'}`);
  }
  if (e.webgpuTimestamps) {
    const t = e.webgpuTimestamps;
    const verdict = t.timestampQuery === undefined ? (t.reason || '?') : !t.timestampQuery ? 'no timestamp-query'
      : t.quantised ? `QUANTISED (raw values share a factor of ${t.quantumNs} ns): GPU-timestamp times are coarse`
        : `not quantised (raw values share a factor of ${t.quantumNs} ns)`;
    lines.push(`- WebGPU timestamp queries: ${verdict}${t.reason && t.timestampQuery !== undefined ? `; ${t.reason}` : ''}`);
  }
  const flags = e.browserFlags || e.chromiumArgs;
  if (flags?.length) lines.push(`- browser flags: ${flags.join(' ')}`);
  if (e.gpujs?.mode) lines.push(`- gpu.js ${e.gpujs.version || '?'}: mode ${e.gpujs.mode}, precision ${e.gpujs.precision}, tactic ${e.gpujs.tactic}`);
  lines.push(`- timing: median of ${p.repeats} timed runs after one warm-up (runs that take under ${p.minSampleMs ?? 0} ms once warm are timed as ` +
    `means of back-to-back batches, "runs" column R×B; spread = (slowest − fastest) / median); per-run cap ${p.capS} s ` +
    `(a warm-up over the cap is reported alone, marked ≈; a config predicted over ${p.skipFactor}× the cap from the previous size is skipped); ` +
    `chain = ${p.passes} squarings, one readback, time per pass; GFLOP/s = 2n³/t`);
  const refs = (result.references || []).map((r) => `n=${r.n}${r.mode ? ` ${r.mode}` : ''}: ${r.method}`).join('; ');
  if (refs) lines.push(`- error: relative Frobenius norm of (result − float64 reference) / float64 reference (A·A; M^${2 ** (p.passes ?? 4)} for the chain), on ${refs}`);
  if (p.seed !== undefined) lines.push(`- input: uniform [−1, 1) float32, seed ${p.seed} (www/reference.js uniformMatrix)`);
  if (e.chainExtras) {
    lines.push(`- WebGPU systems: single = squareAsync / tensor.data() (upload, one product, mapAsync readback); ` +
      `chain = squareRepeatedlyAsync / P matMuls then data() (one upload, P passes, one readback; per pass = time / P), ` +
      `both as wall clock around the Promise, exactly like the WebGL async twins`);
    lines.push(`- chain, ${e.chainExtras.wall}${p.heatMs !== undefined ? ` (this run: heat = ${p.heatMs} ms)` : ''}`);
    lines.push(`- chain, ${e.chainExtras.gpu}`);
  }
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
  const wall = wallFmt(result);
  const passes = result.params?.passes ?? 4;
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
        const cells = [n, systemLabel(result, id), timeCell(r, mode === 'chain', wall, passes),
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
  out.push(...webgpuTables(result, sizes));
  const unavailable = (result.systems || []).filter((s) => s.available === false);
  if (unavailable.length) {
    out.push('');
    out.push(`Not measured: ${unavailable.map((s) => `${s.label} (${s.reason})`).join('; ')}`);
  }
  return out.join('\n') + '\n';
}

/** GFLOP/s of one of the four WebGPU metrics of a record, or null. */
function metric(r, which) {
  if (!r) return null;
  if (which === 'single' || which === 'chain') return hasTime(r) ? r.gflops : null;
  const ms = which === 'wall' ? r.compute?.wallMsPerPass : r.compute?.gpuMsPerPass;
  return Number.isFinite(ms) && ms > 0 ? gflops(r.n, ms) : null;
}

const METRICS = {
  single: 'A·A with upload and readback',
  chain: 'chain, per pass, one upload and one readback per chain',
  wall: 'chain, compute only, wall clock (onSubmittedWorkDone; WebGL: fence), per pass',
  gpu: 'chain, compute only, GPU timestamps, per pass',
};

/**
 * The WebGPU comparison: per n, this project's WebGPU kernels side by side, the best of
 * them against TF.js WebGPU, and WebGL blocked8 for contrast, in GFLOP/s, once per metric;
 * then the compute-only records in detail (ms per pass, errors, runs).
 */
export function webgpuTables(result, sizes) {
  const ids = WEBGPU_KERNELS.map((k) => `gpgpu-webgpu:${k}`);
  const recs = result.records || [];
  if (!recs.some((r) => ids.includes(r.system) || r.system === WEBGPU_BASELINE)) return [];
  const out = ['', '### WebGPU side by side (GFLOP/s)', ''];
  out.push(`Ours = this project's WebGPU kernels; best = the fastest of them at that n; ratios are GFLOP/s ÷ GFLOP/s of the same metric in the same run.`);
  for (const [which, title] of Object.entries(METRICS)) {
    const mode = which === 'single' ? 'single' : 'chain';
    const idx = indexRecords(result, mode);
    const rows = [];
    for (const n of sizes) {
      const ours = ids.map((id) => metric(idx.get(id)?.get(n), which));
      const tf = metric(idx.get(WEBGPU_BASELINE)?.get(n), which);
      const gl = metric(idx.get(WEBGL_CONTRAST)?.get(n), which);
      if (ours.every((v) => v === null) && tf === null) continue;
      let best = -1;
      ours.forEach((v, k) => { if (v !== null && (best < 0 || v > ours[best])) best = k; });
      const cell = (v) => (v === null ? '–' : fmtNum(v));
      const ratio = (x, y) => (x !== null && y !== null ? `${(x / y).toFixed(2)}×` : '–');
      const b = best >= 0 ? ours[best] : null;
      rows.push(`| ${n} | ${ours.map(cell).join(' | ')} | ${b === null ? '–' : `${fmtNum(b)} (${WEBGPU_KERNELS[best]})`} | ${cell(tf)} | ` +
        `**${ratio(b, tf)}** | ${cell(gl)} | ${ratio(b, gl)} |`);
    }
    if (!rows.length) continue;
    out.push('', `${title}:`, '');
    out.push(`| n | ${WEBGPU_KERNELS.join(' | ')} | best of ours | TF.js WebGPU | best ÷ TF.js WebGPU | WebGL blocked8 | best ÷ blocked8 |`);
    out.push(`|---:|${WEBGPU_KERNELS.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|`);
    out.push(...rows);
  }
  // The compute-only records in detail.
  const chain = indexRecords(result, 'chain');
  const wall = wallFmt(result);
  const passes = result.params?.passes ?? 4;
  const detail = [];
  for (const n of sizes) {
    for (const id of [...ids, WEBGPU_BASELINE, WEBGL_CONTRAST]) {
      const r = chain.get(id)?.get(n);
      if (!r?.compute) continue;
      const c = r.compute;
      // fmt: wall-clock figures no finer than the clock (a mean over a batch of chains);
      // GPU timestamps as measured.
      const part = (ms, status, why, fmt) => (Number.isFinite(ms) ? `${fmt(ms)}${status === 'single' ? ' (1 run)' : ''}`
        : `${status || '–'}${why ? ` (${String(why).slice(0, 60)})` : ''}`);
      const runs = [c.wallTimesMs?.length ? `wall ${c.wallTimesMs.length}${c.wallBatch > 1 ? `×${c.wallBatch}` : ''}` : '',
        c.gpuRunsMs?.length ? `GPU ${c.gpuRunsMs.length}` : ''].filter(Boolean).join(', ');
      const wallPass = (ms) => wall(ms, (c.wallBatch || 1) * passes);
      detail.push(`| ${n} | ${systemLabel(result, id)} | ${hasTime(r) ? wall(r.perPassMs, (r.batch || 1) * passes) : '–'} | ` +
        `${part(c.wallMsPerPass, c.wallStatus, c.wallReason || c.reason, wallPass)} | ` +
        `${part(c.gpuMsPerPass, c.gpuStatus, c.gpuReason || c.reason, fmtMs)} | ` +
        `${fmtErr(c.wallRelFrobenius)} / ${fmtErr(c.gpuRelFrobenius)} | ${runs} |`);
    }
  }
  if (detail.length) {
    out.push('', `Chain of ${result.params?.passes ?? 4} squarings, per pass: with transfers (the chain table), compute only by wall clock, compute only by GPU timestamps:`, '');
    out.push('| n | system | with upload + readback | compute only, wall | compute only, GPU timestamps | rel. error (wall / GPU run) | runs |');
    out.push('|---:|---|---:|---:|---:|---:|---:|');
    out.push(...detail);
  }
  return out;
}
