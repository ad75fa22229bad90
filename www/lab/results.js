// What a check shows: the verdict, compiler messages, a table of the cases, the first
// wrong element with its error heatmap (the library's), the timing beside the
// library's kernel; and the progress table.
// (i18n.t, not t: a check's timing is `t` here.)
import * as i18n from '../i18n/index.js';
import { resolutionText, wallNumber } from '../ui/clock.js';

const $ = (id) => document.getElementById(id);
const fmt = (v, digits = 3) => (Number.isFinite(v) ? Number(v.toPrecision(digits)).toString() : String(v));
const el = (tag, text) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  return e;
};

// A case's size as its exercise states it: products rows×inner · inner×cols; batched
// the count of 3×3 products (C comes back as their 3·count × 3 stack); spmv the
// matrix's rows × cols and its nonzeros; csr the array (1 × its length), by the name
// the learner types.
const caseSize = (ex, c) => ({
  csr: () => `${c.name}: 1×${c.cols}`,
  batched3x3: () => i18n.t('lab.size.batched3x3', { n: c.rows / 3 }),
  spmv: () => i18n.t('lab.case.spmv', { rows: c.rows, cols: c.inner, nnz: c.nnz }),
}[ex?.id]?.() ?? `${c.rows}×${c.inner} · ${c.inner}×${c.cols}`);

/**
 * A compiler message as the page shows it, at its line. Firefox's WGSL compiler (Naga)
 * writes a snippet of several lines with a caret under the fault, framed by blank lines:
 * `.lab-messages` keeps the lines (pre-wrap, monospace), so only the frame is dropped.
 */
export function compilerLine(m) {
  const message = m.message.replace(/^\s*\n/, '').trimEnd();
  return m.line ? i18n.t('lab.line', { at: `${m.line}${m.column ? `:${m.column}` : ''}`, message }) : message;
}

function caseRow(c, index, ex) {
  const tr = el('tr');
  const ok = !c.firstWrong && !c.nondeterministic;
  tr.className = ok ? 'lab-ok' : 'lab-bad';
  const w = c.firstWrong;
  const status = c.nondeterministic && !w ? i18n.t('lab.differs')
    : w ? i18n.t('lab.wrong', { i: w.i, j: w.j, got: fmt(w.got, 7), want: fmt(w.want, 7) }) + (c.nondeterministic ? i18n.t('lab.andDiffers') : '')
      : i18n.t('lab.casePass');
  for (const text of [index, caseSize(ex, c), c.tolerance === 0 ? i18n.t('lab.exact') : fmt(c.tolerance, 2),
    fmt(c.maxAbsError), fmt(c.maxRelError), status]) tr.append(el('td', String(text)));
  return tr;
}

async function heatmap(gpu, c, map) {
  const canvas = $('lab-heatmap');
  const finite = map.filter(Number.isFinite);
  const range = Math.max(c.tolerance || 1e-6, ...finite.slice(0, 1 << 16));
  await gpu.drawHeatmapAsync(c.rows, c.cols, map, canvas, { sequential: true, range });
  return range;
}

function timingText(ex, t, all) {
  if (!t) return '';
  const ratio = t.gflops / t.reference.gflops;
  const size = { batched3x3: i18n.t('lab.size.batched3x3', { n: t.n }), spmv: i18n.t('lab.size.spmv', { n: t.n }) }[ex.id] ?? `${t.n}×${t.n} · ${t.n}×${t.n}`;
  // Product exercises are timed pass by pass on inputs uploaded once (five of each side);
  // the others as whole calls, transfers included (three).
  const product = !['batched3x3', 'blocksparse', 'spmv'].includes(ex.id);
  const label = i18n.t(t.clock === 'gpu' ? 'lab.clock.gpu' : product ? 'lab.clock.wallPass' : 'lab.clock.wall');
  // GPU timer figures keep their digits; the wall clock's are no finer than its resolution, stated.
  const wall = t.clock !== 'gpu';
  const clock = wall ? i18n.t('clock.figure', { time: label, res: resolutionText() }) : label;
  const time = wall ? (v) => wallNumber(v) : fmt;
  let text = i18n.t(product ? 'lab.timing.five' : 'lab.timing', {
    size, clock, ms: time(t.ms), gflops: fmt(t.gflops), kernel: t.reference.kernel, refMs: time(t.reference.ms), refGflops: fmt(t.reference.gflops), ratio: fmt(ratio),
  });
  if (ex.goal) text += i18n.t(ratio >= ex.goal ? 'lab.goalReached' : 'lab.goal', { goal: ex.goal });
  if (ex.id === 'tiled' && all.global?.bestGflops) {
    text += i18n.t('lab.globalBest', { gflops: fmt(all.global.bestGflops), times: fmt(t.gflops / all.global.bestGflops) });
  }
  return text;
}

export async function renderResult({ ex, result, maps, gpu, entry, all }) {
  $('lab-result').hidden = false;
  const pass = result.verdict === 'pass';
  $('lab-verdict').textContent = !result.compile.ok ? i18n.t('lab.verdict.compile')
    : pass ? i18n.t('lab.verdict.pass', { count: result.cases.length }) : i18n.t('lab.verdict.fail');
  $('lab-verdict').className = pass ? 'lab-pass' : 'lab-fail';
  $('lab-messages').replaceChildren(...result.compile.messages.map((m) => el('li', compilerLine(m))));
  $('lab-cases').replaceChildren(...result.cases.map((c, i) => caseRow(c, i, ex)));
  $('lab-cases-table').hidden = result.cases.length === 0;
  const bad = result.cases.findIndex((c) => c.firstWrong || c.nondeterministic);
  const figure = $('lab-heatmap-figure');
  figure.hidden = bad < 0 || !maps[bad];
  if (!figure.hidden) {
    const c = result.cases[bad];
    const range = await heatmap(gpu, c, maps[bad]);
    const w = c.firstWrong;
    $('lab-first-wrong').textContent = (w
      ? i18n.t('lab.firstWrong', { bad, shape: caseSize(ex, c), i: w.i, j: w.j, got: fmt(w.got, 7), want: fmt(w.want, 7) })
      : i18n.t('lab.case', { bad })) + i18n.t('lab.heatmap', { range: fmt(range, 2) });
  }
  $('lab-timing').textContent = pass ? timingText(ex, result.timing, all) : '';
  if (pass && entry.bestRatio !== null) $('lab-timing').textContent += i18n.t('lab.best', { ms: bestTime(entry), ratio: fmt(entry.bestRatio) });
}

/** A kept best time: GPU-timed as measured; a wall-clock one (or one kept before the
 *  clock was recorded) no finer than this browser's timer step. */
function bestTime(e) {
  return e.bestClock === 'gpu' ? fmt(e.bestMs) : wallNumber(e.bestMs);
}

export function renderProgress(exercises, all) {
  $('lab-progress').replaceChildren(...exercises.map((ex) => {
    const e = all[ex.id];
    const tr = el('tr');
    for (const text of [ex.id, e ? i18n.t(e.passed ? 'lab.passed' : 'lab.notYet') : '—', e?.checks ?? 0,
      e?.bestMs != null ? bestTime(e) : '', e?.bestRatio != null ? fmt(e.bestRatio) : '']) tr.append(el('td', String(text)));
    return tr;
  }));
}
