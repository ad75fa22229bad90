// Graph reachability: R = b[(I + A)^(n−1)] by ⌈log₂(n−1)⌉ boolean squarings on the
// GPU, shown as the graph (nodes and edges) beside R's heatmap, a timeline of the
// squarings (paths of at most 2^t edges after squaring t) and a check of every
// entry against breadth-first search from every vertex in JavaScript.
import { clockNote, el, int } from '../ui/format.js';
import { bfsHops, edgeCount, mutualClasses, pairsWithin } from '../reference-apps.js';
import { REACHABILITY } from './presets.js';
import { graphFigure } from './graph-svg.js';
import { binaryLegend, drawMatrix, msText, nextFrame, notes, publish, resultsTable, sectionFrame, timed, timedAsync, yesNo, devName } from './common.js';
import { t } from '../i18n/index.js';

const ID = 'reachability';

/** ⌈log₂(n − 1)⌉ squarings: (I + A)^(2^t) with 2^t ≥ n − 1 (none for n ≤ 2). */
export function squaringsFor(n) {
  return n <= 2 ? 0 : Math.ceil(Math.log2(n - 1));
}

function intro() {
  return [
    el('p', {}, 'Entry (i, j) of Aᵏ counts the walks of k edges from i to j, so (I + A)ᵏ is nonzero exactly where a path of at most k edges exists. With the ',
      el('strong', {}, 'boolean semiring'), ' (OR for +, AND for ×) every product stays 0 or 1, and repeated squaring reaches (I + A)^(2^t) ⊇ every path of ≤ 2^t edges: ',
      el('code', {}, 'R = b[(I + A)^(n−1)]'), ' takes only ⌈log₂(n − 1)⌉ squarings. The graph is (strongly) connected when R is all ones.'),
    el('p', { class: 'help' }, 'The page runs the squarings one at a time (gpu.startSquareRepeatedly with semiring "boolean") to show each of them, then the one-call ',
      el('code', {}, 'gpu.reachabilityAsync(n, A)'), ', and checks both against breadth-first search from every vertex in JavaScript.'),
  ];
}

export default {
  id: ID,
  title: 'Graph reachability: boolean squaring',
  mount(container, ctx) {
    sectionFrame(container, ctx, { id: ID, intro: intro(), presets: REACHABILITY, run: (p, ui) => run(p, ui, ctx) });
  },
};

async function run(preset, ui, ctx) {
  const { gpu, HeatmapView } = ctx;
  const G = devName(gpu);
  const { n, directed } = preset;
  const adjacency = preset.build();
  const T = squaringsFor(n);
  const edges = edgeCount(n, adjacency) / (directed ? 1 : 2);

  // JavaScript reference first (it is quick): hop counts by BFS from every vertex.
  const [hops, bfsMs] = timed(() => bfsHops(n, adjacency));
  const bfsPairs = pairsWithin(hops, n);
  const bfsConnected = bfsPairs === n * n;

  // The frame of the output.
  const views = {
    r: new HeatmapView({ title: `R = b[(I + A)^(n−1)] on the ${G}`, label: 'heatmap of the reachability matrix R', target: 320 }),
    input: new HeatmapView({ title: 'I + A (the input, 0/1)', label: 'heatmap of I plus the adjacency matrix', target: 320 }),
  };
  const graphSlot = el('div', { class: 'graph-slot' });
  const tbody = el('tbody');
  const timeline = el('div', { class: 'scroll-x' }, el('table', { class: 'app-timeline' },
    el('caption', {}, T ? `${T} boolean squaring${T > 1 ? 's' : ''} (⌈log₂(${n} − 1)⌉), one ${G} pass each.` : `n = ${n}: no squaring needed, I + A already holds every path.`, ' ', el('span', { class: 'clock-note' }, clockNote())),
    el('thead', {}, el('tr', {},
      ...[t('sec.th.pass'), t('sec.th.computes'), t('sec.th.pathsOf'), t('sec.th.time'), t('sec.th.reachable', { dev: G }),
        t('sec.th.hops'), t('sec.th.output')].map((h) => el('th', { scope: 'col' }, h)))),
    tbody));
  const tableSlot = el('div');
  const notesSlot = el('div');
  ui.output.replaceChildren(
    el('div', { class: 'app-figures' }, graphSlot, views.r.element, views.input.element),
    el('h4', {}, 'The squarings'), timeline, tableSlot, notesSlot);

  const m = Float32Array.from(adjacency, (v) => (v !== 0 ? 1 : 0));
  for (let i = 0; i < n; i++) m[i * n + i] = 1;
  await drawMatrix(ctx, views.input, n, n, m, { range: 1 });
  binaryLegend(views.input, '1: an edge i → j (or i = j)', '0: none');
  views.input.setValues((i, j) => `(${i}, ${j}): ${m[i * n + j]}${i === j ? ' (the diagonal: I)' : m[i * n + j] ? ` (edge ${i} → ${j})` : ' (no edge)'}`);

  // 1. The squarings one at a time.
  const passes = [];
  const stepRun = gpu.startSquareRepeatedly(n, m, T, { semiring: 'boolean' });
  let stepResult, stepMs = 0;
  try {
    const labels = stepRun.labels();
    for (let t = 0; t < T; t++) {
      ui.setStatus('running', `Squaring ${t + 1} of ${T} on the ${G}…`);
      await nextFrame();
      const t0 = performance.now();
      stepRun.step(true);
      await stepRun.whenDone();
      const wallMs = performance.now() - t0;
      stepMs += wallMs;
      const stats = await stepRun.statsAsync('latest');
      const pairs = Math.round(stats.sumAbs);
      const refPairs = pairsWithin(hops, 2 ** (t + 1));
      const thumb = new HeatmapView({ target: 72, small: true, label: `output of squaring ${t + 1}` });
      thumb.drawn(await stepRun.drawHeatmapAsync('latest', thumb.prepare(n, n), { range: 1 }), 1, stats);
      thumb.legend.replaceChildren(); // 0/1: the big picture's legend says it
      const ok = pairs === refPairs;
      passes.push({ label: labels[t], wallMs, pairs, refPairs });
      tbody.append(el('tr', { 'data-pass': String(t + 1) },
        el('th', { scope: 'row' }, String(t + 1)),
        el('td', { class: 'label', 'data-label': 'computes' }, labels[t].replace(/M/g, '(I+A)')),
        el('td', { class: 'num', 'data-label': 'paths of' }, `≤ ${int(2 ** (t + 1))} edges`),
        el('td', { class: 'num', 'data-label': 'time' }, msText(wallMs, { bare: true })),
        el('td', { class: 'num', 'data-label': `${G} pairs` }, int(pairs)),
        el('td', { class: `num ${ok ? 'ok' : 'bad'}`, 'data-label': 'BFS pairs' }, `${int(refPairs)} ${ok ? '✓' : '✗'}`),
        el('td', { class: 'pic' }, thumb.element)));
    }
    stepResult = await stepRun.resultAsync();
    const times = stepRun.gpuTimes();
    times.forEach((g, t) => { if (Number.isFinite(g)) passes[t].gpuMs = g; });
  } finally {
    stepRun.free();
  }

  // 2. The one-call library function (unless it would hold the page too long).
  let lib = null, libMs = null;
  if (!preset.stepOnly) {
    ui.setStatus('running', `gpu.reachabilityAsync(n, A) on the ${G}…`);
    await nextFrame();
    [lib, libMs] = await timedAsync(() => gpu.reachabilityAsync(n, adjacency));
  }
  const R = lib ? lib.matrix : stepResult;

  // 3. Compare with BFS, entry by entry.
  let mismatches = 0, stepMismatches = 0, gpuPairs = 0;
  for (let i = 0; i < n * n; i++) {
    const ref = hops[i] >= 0 ? 1 : 0;
    if (R[i] !== ref) mismatches++;
    if (stepResult[i] !== ref) stepMismatches++;
    if (R[i] === 1) gpuPairs++;
  }
  const gpuConnected = lib ? lib.connected : gpuPairs === n * n;

  await drawMatrix(ctx, views.r, n, n, R, { range: 1 });
  binaryLegend(views.r, '1: j is reachable from i', '0: it is not');
  views.r.setTitle(lib ? 'R = b[(I + A)^(n−1)] from gpu.reachability' : 'R = b[(I + A)^(n−1)] from the squarings');
  views.r.setValues((i, j) => {
    const h = hops[i * n + j];
    return `(${i}, ${j}): ${G} R = ${R[i * n + j]} · BFS: ${h < 0 ? `${j} is not reachable from ${i}` : h === 0 ? 'itself' : `reachable in ${h} edge${h > 1 ? 's' : ''}`}${R[i * n + j] === (h >= 0 ? 1 : 0) ? ' · agree' : ' · DIFFERENT'}`;
  });
  graphSlot.replaceChildren(graphFigure(n, adjacency, { directed, classes: mutualClasses(n, R), title: `The graph: ${n} vertices, ${int(edges)} ${directed ? 'directed' : 'undirected'} edge${edges === 1 ? '' : 's'}` }));

  let longest = 0;
  for (const h of hops) if (h > longest) longest = h;
  tableSlot.replaceChildren(resultsTable(`${G} against breadth-first search (JavaScript)`, [
    ['vertices, edges', `${int(n)}, ${int(edges)} (${directed ? 'directed' : 'undirected'})`],
    ['squarings', lib ? `${lib.squarings} (gpu.reachability) · ${T} stepped` : `${T} stepped`, '⌈log₂(n − 1)⌉: after squaring t, R holds every path of at most 2^t edges'],
    ['longest shortest path', `${longest} edge${longest === 1 ? '' : 's'}`, 'from BFS: the squarings needed are ⌈log₂ of this⌉; the chain cannot know it in advance'],
    ['reachable pairs', `${G} ${int(gpuPairs)} · BFS ${int(bfsPairs)} of ${int(n * n)}`, 'pairs (i, j) with a path from i to j, i = j included'],
    ['entries different from BFS', `${int(mismatches)} of ${int(n * n)}${lib ? ` (stepped run: ${int(stepMismatches)})` : ''}`, null, mismatches || stepMismatches ? 'bad' : 'ok'],
    ['connected (R all ones)', `${G} ${yesNo(gpuConnected)} · BFS ${yesNo(bfsConnected)}`, directed ? 'strongly connected: every vertex reaches every other' : 'every vertex reaches every other', gpuConnected === bfsConnected ? 'ok' : 'bad'],
    ['time', `${lib ? `gpu.reachability ${msText(libMs)} · ` : ''}squarings one by one ${msText(stepMs)} · BFS in JS ${msText(bfsMs)}`, 'wall times; the stepped run also waits for the page to paint between passes'],
  ]));
  notesSlot.replaceChildren(notes([
    { level: 'ok', kind: 'exact', text: 'Exact: the boolean semiring thresholds every pass to exactly 0 or 1 in the shader, so no rounding can build up however long the chain; whole numbers 0 and 1 are exact in float32. The check above is entry by entry, with no tolerance.' },
    preset.stepOnly ? { level: 'info', text: `n = ${n}: the one-call gpu.reachability would hold the page for about 2 s on a software GPU, so the answer shown is the stepped run's (the same boolean squarings, one pass per animation frame).` } : null,
    n > 40 ? { level: 'info', text: `The graph is not drawn above 40 vertices; the heatmaps show every entry${n > 320 ? ' (downsampled: each pixel the largest entry of its block)' : ''}.` } : null,
  ], 'What is exact'));

  publish(ID, {
    preset: preset.id, status: 'done', n, directed, edges, squarings: lib ? lib.squarings : null, steppedSquarings: T,
    connected: gpuConnected, bfsConnected, gpuPairs, bfsPairs, mismatches, stepMismatches,
    passes, libMs, stepMs, bfsMs, longest, matrix: R,
  });
  return `Done: ${preset.label}. ${T} squaring${T === 1 ? '' : 's'}; R ${mismatches ? `differs from BFS in ${int(mismatches)} entries` : 'equals BFS in every entry'}; ${gpuConnected ? 'connected' : 'not connected'}.`;
}

