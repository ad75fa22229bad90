// What a check shows: the verdict, compiler messages, a table of the cases, the first
// wrong element with its error heatmap (the library's), the timing beside the
// library's kernel; and the progress table.

const $ = (id) => document.getElementById(id);
const fmt = (v, digits = 3) => (Number.isFinite(v) ? Number(v.toPrecision(digits)).toString() : String(v));
const el = (tag, text) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  return e;
};

// A case's size as its exercise states it: products rows×inner · inner×cols; batched
// the count of 3×3 products (C comes back as their 3·count × 3 stack); spmv the
// matrix's rows × cols and its nonzeros.
const caseSize = (ex, c) => ({
  batched3x3: `${c.rows / 3} products of 3×3`,
  spmv: `${c.rows}×${c.inner}, ${c.nnz} nonzeros`,
}[ex?.id] ?? `${c.rows}×${c.inner} · ${c.inner}×${c.cols}`);

function caseRow(c, index, ex) {
  const tr = el('tr');
  const ok = !c.firstWrong && !c.nondeterministic;
  tr.className = ok ? 'lab-ok' : 'lab-bad';
  const w = c.firstWrong;
  const status = c.nondeterministic && !w ? 'differs between two runs (a race? a missing barrier?)'
    : w ? `C[${w.i}][${w.j}] = ${fmt(w.got, 7)}, want ${fmt(w.want, 7)}` + (c.nondeterministic ? '; and the two runs differ' : '')
      : 'pass';
  for (const text of [index, caseSize(ex, c), c.tolerance === 0 ? 'exact' : fmt(c.tolerance, 2),
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
  const size = { batched3x3: `${t.n} products of 3×3`, spmv: `${t.n} rows` }[ex.id] ?? `${t.n}×${t.n} · ${t.n}×${t.n}`;
  const product = !['batched3x3', 'blocksparse', 'spmv'].includes(ex.id);
  const clock = t.clock === 'gpu' ? 'GPU timestamps of the passes alone'
    : product ? 'wall clock from each pass to the GPU\u2019s idle (this device grants no GPU timestamps)'
      : 'wall clock, upload and readback included';
  let text = `${size}, ${clock}, median of ${product ? 'five' : 'three'}: yours ${fmt(t.ms)} ms `
    + `(${fmt(t.gflops)} GFLOP/s); the library's ${t.reference.kernel} kernel ${fmt(t.reference.ms)} ms `
    + `(${fmt(t.reference.gflops)} GFLOP/s). Ratio: ${fmt(ratio)}.`;
  if (ex.goal) text += ratio >= ex.goal ? ` Goal (${ex.goal} of the library's) reached.` : ` Goal: ${ex.goal} of the library's.`;
  if (ex.id === 'tiled' && all.global?.bestGflops) {
    text += ` Your global kernel's best: ${fmt(all.global.bestGflops)} GFLOP/s (this one ${fmt(t.gflops / all.global.bestGflops)}× it; the course report measured 3–4.7× on a K40).`;
  }
  return text;
}

export async function renderResult({ ex, result, maps, gpu, entry, all }) {
  $('lab-result').hidden = false;
  const pass = result.verdict === 'pass';
  $('lab-verdict').textContent = !result.compile.ok ? 'Does not compile'
    : pass ? `Pass: all ${result.cases.length} cases` : 'Fail';
  $('lab-verdict').className = pass ? 'lab-pass' : 'lab-fail';
  $('lab-messages').replaceChildren(...result.compile.messages.map((m) => el('li',
    m.line ? `line ${m.line}${m.column ? `:${m.column}` : ''}: ${m.message}` : m.message)));
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
      ? `Case ${bad} (${caseSize(ex, c)}): the first wrong element is C[${w.i}][${w.j}] = ${fmt(w.got, 7)}, the float64 reference ${fmt(w.want, 7)}. `
      : `Case ${bad}: `) + `The heatmap shows each element's error over its scale (0 to ${fmt(range, 2)}); NaN marks an element never written.`;
  }
  $('lab-timing').textContent = pass ? timingText(ex, result.timing, all) : '';
  if (pass && entry.bestRatio !== null) $('lab-timing').textContent += ` Your best: ${fmt(entry.bestMs)} ms, ratio ${fmt(entry.bestRatio)}.`;
}

export function renderProgress(exercises, all) {
  $('lab-progress').replaceChildren(...exercises.map((ex) => {
    const e = all[ex.id];
    const tr = el('tr');
    for (const text of [ex.id, e ? (e.passed ? 'passed' : 'not yet') : '—', e?.checks ?? 0,
      e?.bestMs != null ? fmt(e.bestMs) : '', e?.bestRatio != null ? fmt(e.bestRatio) : '']) tr.append(el('td', String(text)));
    return tr;
  }));
}
