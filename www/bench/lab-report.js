// The kernel lab bench's report (www/bench/lab.js): each exercise's reference solution
// against the library's own kernel for it, as GFLOP/s and their ratio.
import { clockLine, wallFmt } from './systems-report.js';

// Three significant digits: 0.0123 GFLOP/s on a software adapter, 41,300 on an H100.
const fmt = (v) => (Number.isFinite(v) ? (v >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3)) : '—');

export function labMarkdown(result) {
  const rows = [
    `Kernel lab: the reference solutions against the library's kernels — ${result.env?.renderer ?? ''}`,
    '',
    clockLine(result),
    '',
    '| exercise | backend | verdict | clock | n (timed) | solution ms | GFLOP/s | library kernel | ms | GFLOP/s | ratio |',
    '|---|---|---|---|---:|---:|---:|---|---:|---:|---:|',
  ];
  const wall = wallFmt(result);
  for (const r of result.records) {
    const t = r.timing;
    // A wall-clock median is one reading: no finer than the clock; GPU timestamps keep their digits.
    const ms = (v) => (t?.clock === 'wall' && Number.isFinite(v) ? wall(v).replace(/ ms$/, '') : fmt(v));
    rows.push(`| ${r.exercise} | ${r.backend} | ${r.error ? `error: ${r.error}` : r.verdict} | ${t?.clock ?? '—'} | ${t?.n ?? '—'} | ${ms(t?.ms)} | ${fmt(t?.gflops)} | ${t?.reference?.kernel ?? '—'} | ${ms(t?.reference?.ms)} | ${fmt(t?.reference?.gflops)} | ${t ? fmt(t.gflops / t.reference.gflops) : '—'} |`);
  }
  return `${rows.join('\n')}\n`;
}

/** No plot: the table says it all (one row per exercise). */
export const labPlot = () => '';
