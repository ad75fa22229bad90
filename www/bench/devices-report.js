// Parameters and report of the several-devices bench (issue 17,
// www/bench/index.html?suite=devices): read from a URL query by the page and, to refuse
// a bad command line before a browser starts, by scripts/bench-devices.mjs. Plain data
// in, plain data out: node imports it.
//
//   cpu    the CPU backend (wasm SIMD128 in Web Workers) against TF.js WASM (XNNPACK)
//          with the same thread count, GFLOP/s at each n of `sizes`, with the slowest
//          worker's kernel time and the rest of the call (messages, copies); at
//          n = threadSweepN (if it is one of `sizes`) also at each thread count of
//          `threadSweep` (0: every core)
//   sweep  the course report's table: C's rows split between two devices at ratios 0,
//          0.1, …, 1 (rows per device, each device's time, the total), then 'auto'
//   all    'auto' over every device at once against the best single device

import { oneOf, queryReader, whole } from './query.js';
import { clockLine } from './systems-report.js';
import { wallNumber } from '../ui/clock.js';

const PROFILES = {
  swiftshader: { sizes: [1024, 2048], sweepN: 1024, pair: ['webgl', 'cpu'], repeats: 3, threadSweep: [] },
  gpu: { sizes: [1024, 2048], sweepN: 3072, pair: ['webgpu', 'cpu'], repeats: 5, threadSweep: [1, 2, 4, 8, 0] },
};
const DEVICE_NAMES = ['webgl', 'webgpu', 'webgpu-low-power', 'cpu'];

export function readDevicesParams(search) {
  const { q, problems, profile, base, num: number, list } = queryReader(search, PROFILES);
  const num = (k, d, min, max) => number(k, d, { min, max, whole: true });
  const parts = list('parts', ['cpu', 'sweep', 'all'], oneOf(['cpu', 'sweep', 'all']));
  const sizes = list('sizes', base.sizes, whole(1, 8192)).map(Number);
  const pair = list('pair', base.pair, oneOf(DEVICE_NAMES));
  const threadSweep = list('threadSweep', base.threadSweep, (t) => (whole(0, 256)(t) ? 'is not a thread count from 0 (every core) to 256' : null)).map(Number);
  if (pair.length !== 2) problems.push(`pair: ${pair.length} devices; the sweep splits between two`);
  return {
    profile, parts, sizes, pair, threadSweep,
    threadSweepN: num('threadSweepN', 2048, 1, 8192),
    sweepN: num('sweepN', base.sweepN, 1, 8192),
    steps: num('steps', 10, 1, 100),           // the sweep's ratios: 0, 1/steps, …, 1
    threads: num('threads', 0, 0, 256),        // 0: navigator.hardwareConcurrency
    repeats: num('repeats', base.repeats, 1, 50),
    autoRuns: num('autoRuns', 4, 1, 50),       // 'auto' runs before it is timed
    seed: num('seed', 1, 0, 2 ** 31),
    post: q.get('post') === '1',
    label: q.get('label') || null,
    browserFlags: (q.get('browserFlags') || '').split(',').filter(Boolean),
    autostart: q.has('post') || q.has('run'),
    problems,
  };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : '–');

/** What the table's rows say: the best ratio, auto against it, the gain over one device. */
export function deriveDevices(result) {
  const d = {};
  const sweep = result.sweep;
  if (sweep?.points?.length) {
    const best = sweep.points.reduce((a, b) => (b.totalMs < a.totalMs ? b : a));
    const ends = sweep.points.filter((p) => p.ratio === 0 || p.ratio === 1);
    const single = ends.reduce((a, b) => (b.totalMs < a.totalMs ? b : a), ends[0]);
    d.sweep = {
      bestRatio: best.ratio, bestMs: best.totalMs,
      bestSingle: single ? (single.ratio === 1 ? sweep.devices[0] : sweep.devices[1]) : null,
      bestSingleMs: single?.totalMs,
      gain: single ? single.totalMs / best.totalMs : NaN,
      autoMs: sweep.auto?.totalMs, autoRatio: sweep.auto?.ratios?.[0],
      // Against the best ratio timed alternately with 'auto' where there is that run.
      bestAgainMs: sweep.bestAgain?.totalMs,
      autoOverBest: sweep.auto ? sweep.auto.totalMs / (sweep.bestAgain?.totalMs ?? best.totalMs) : NaN,
    };
  }
  return d;
}

export function devicesMarkdown(result) {
  const L = [`# Several devices: ${result.label || ''}`, '', clockLine(result), ''];
  // Every time here is wall-clock (CPU workers, whole calls): no finer than the recorded resolution.
  const res = result.timerResolutionMs;
  const m = (x) => (Number.isFinite(res) && Number.isFinite(x) ? wallNumber(x, { res }) : f(x));
  const e = result.env || {};
  L.push(`- ${result.date || ''}; ${e.userAgent || ''}`);
  L.push(`- hardwareConcurrency ${e.hardwareConcurrency}; crossOriginIsolated ${e.crossOriginIsolated}; wasm profile: ${e.wasmProfile || 'release (opt-level 3, lto)'}`);
  for (const [k, v] of Object.entries(e.devices || {})) L.push(`- ${k}: ${v}`);
  if (result.error) L.push(`- **error**: ${result.error}`);
  L.push('');
  if (result.cpu?.length) {
    L.push('## CPU backend against TF.js WASM (XNNPACK), same thread count', '');
    L.push('| n | threads | ours ms | ours GFLOP/s | kernel max ms | overhead ms | kernel sum / (threads × max) | TF.js WASM ms | TF.js GFLOP/s | ours / TF.js |');
    L.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of result.cpu) {
      L.push(`| ${r.n} | ${r.threads} | ${m(r.oursMs)} | ${f(r.oursGflops, 2)} | ${m(r.kernelMaxMs)} | ${m(r.overheadMs)} | ${f(r.kernelSumMs / (r.workers * r.kernelMaxMs), 2)} | ${m(r.tfMs)} | ${f(r.tfGflops, 2)} | ${f(r.oursGflops / r.tfGflops, 2)} |`);
    }
    L.push('', 'kernel max: the slowest worker\'s time in the kernel (median over the timed calls); overhead: the whole call less that (messages, copies of A\'s rows and B, assembling C); the last column 1 when the workers are balanced.');
    if (result.tfWasm) L.push('', `TF.js WASM: SIMD ${result.tfWasm.simd}, threads ${result.tfWasm.threads} (${result.tfWasm.threadsCount} thread(s))`);
    L.push('');
  }
  const s = result.sweep;
  if (s?.points?.length) {
    const [d0, d1] = s.devices;
    L.push(`## The course report's table: n = ${s.n}, C's rows split between ${d0} and ${d1}`, '');
    L.push(`| share of ${d0} | rows ${d0} | rows ${d1} | ${d0} ms | ${d1} ms | total ms | GFLOP/s |`);
    L.push('|---:|---:|---:|---:|---:|---:|---:|');
    const row = (label, p) => L.push(`| ${label} | ${p.rows[0]} | ${p.rows[1]} | ${m(p.ms[0])} | ${m(p.ms[1])} | ${m(p.totalMs)} | ${f(2 * s.n ** 3 / p.totalMs / 1e6, 2)} |`);
    for (const p of s.points) row(f(p.ratio, 2), p);
    if (s.auto) row(`auto (${f(s.auto.ratios[0], 3)})`, s.auto);
    if (s.bestAgain) row(`${f(s.bestAgain.ratio, 2)} again, alternating with auto`, s.bestAgain);
    const d = deriveDevices(result).sweep;
    L.push('', `Best ratio ${f(d.bestRatio, 2)}: ${m(d.bestMs)} ms; best single device ${d.bestSingle}: ${m(d.bestSingleMs)} ms; the split's gain ${f(d.gain, 2)}x; auto ${m(d.autoMs)} ms = ${f(d.autoOverBest, 3)}x the best ratio's${d.bestAgainMs ? ` (${m(d.bestAgainMs)} ms, timed alternately with auto)` : ''}.`);
    L.push('');
  }
  if (result.all) {
    const a = result.all;
    L.push(`## 'auto' over every device, n = ${a.n}`, '');
    L.push('| device | rows | ms | alone ms | alone GFLOP/s |', '|---|---:|---:|---:|---:|');
    a.devices.forEach((name, i) => L.push(`| ${name} | ${a.auto.rows[i]} | ${m(a.auto.ms[i])} | ${m(a.aloneMs[i])} | ${f(2 * a.n ** 3 / a.aloneMs[i] / 1e6, 2)} |`));
    const best = Math.min(...a.aloneMs);
    L.push('', `Together ${m(a.auto.totalMs)} ms against ${m(best)} ms on the best device alone: gain ${f(best / a.auto.totalMs, 2)}x.`);
    L.push('');
  }
  return L.join('\n');
}

/** One bar pair per sweep point (each device's time) and the total, as an SVG. */
export function devicesPlot(result) {
  const s = result.sweep;
  if (!s?.points?.length) return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>';
  const W = 640, H = 300, pad = 40;
  const max = Math.max(...s.points.flatMap((p) => [p.totalMs, ...p.ms]));
  const x = (i) => pad + (i + 0.5) * (W - 2 * pad) / s.points.length;
  const y = (ms) => H - pad - (ms / max) * (H - 2 * pad);
  const bw = (W - 2 * pad) / s.points.length / 3;
  const colors = ['#1f77b4', '#ff7f0e'];
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<text x="${pad}" y="16">n = ${s.n}: each device's time (bars) and the total (line), ms, against ${s.devices[0]}'s share</text>`];
  s.points.forEach((p, i) => {
    p.ms.forEach((ms, k) => parts.push(`<rect x="${x(i) - bw + k * bw}" y="${y(ms)}" width="${bw - 1}" height="${H - pad - y(ms)}" fill="${colors[k]}"/>`));
    parts.push(`<text x="${x(i)}" y="${H - pad + 14}" text-anchor="middle">${p.ratio.toFixed(1)}</text>`);
  });
  parts.push(`<polyline fill="none" stroke="#000" stroke-width="2" points="${s.points.map((p, i) => `${x(i)},${y(p.totalMs)}`).join(' ')}"/>`);
  s.devices.forEach((d, k) => parts.push(`<rect x="${W - 150}" y="${24 + 14 * k}" width="10" height="10" fill="${colors[k]}"/><text x="${W - 136}" y="${33 + 14 * k}">${d}</text>`));
  parts.push('</svg>');
  return parts.join('');
}
