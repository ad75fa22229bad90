// All-pairs shortest paths by (min, +) squaring: the same repeated squaring with
// "+" replaced by min and "×" by +. Shown as the weighted graph, the distances
// heatmap (unreachable pairs in their own colour), the error heatmap, and a check
// of every entry against Floyd–Warshall in float64.
import { el, int, num, sci } from '../ui/format.js';
import { edgeCount, floydWarshall } from '../reference-apps.js';
import { SHORTEST_PATHS } from './presets.js';
import { graphFigure } from './graph-svg.js';
import { squaringsFor } from './reachability.js';
import { drawMatrix, msText, notes, publish, resultsTable, sectionFrame, timed, timedAsync, yesNo, devName } from './common.js';
import { t } from '../i18n/index.js';

const ID = 'shortest-paths';
const dist = (v) => (v === Infinity ? '∞' : num(v, 6));

function intro() {
  return [
    el('p', {}, 'Replace + by min and × by + (the ', el('strong', {}, '(min, +) semiring'), '): the "product" of the weight matrix W with itself gives, for every pair, the shortest path of at most two edges; W^k the shortest of at most k edges. Repeated squaring gets every shortest path in ⌈log₂(n − 1)⌉ passes, since a shortest path never needs more than n − 1 edges.'),
    el('p', { class: 'help' }, 'No edge is +∞. GLSL ES and WGSL promise no IEEE infinity, so on the GPU it is the finite NO_EDGE = 10³⁰ and the library turns it back into Infinity when it reads the result. The page checks ',
      el('code', {}, 'gpu.shortestPathsAsync(n, W)'), ' against Floyd–Warshall in float64.'),
  ];
}

export default {
  id: ID,
  title: 'Shortest paths: (min, +) squaring',
  mount(container, ctx) {
    sectionFrame(container, ctx, { id: ID, intro: intro(), presets: SHORTEST_PATHS, run: (p, ui) => run(p, ui, ctx) });
  },
};

async function run(preset, ui, ctx) {
  const { gpu, HeatmapView } = ctx;
  const G = devName(gpu);
  const { n, directed } = preset;
  const w = preset.build();
  const edges = edgeCount(n, w) / (directed ? 1 : 2);

  const [fw, fwMs] = timed(() => floydWarshall(n, w));
  const [res, gpuMs] = await timedAsync(() => gpu.shortestPathsAsync(n, w));
  const D = res.distances;

  // Entry by entry against Floyd–Warshall.
  let gpuUnreachable = 0, fwUnreachable = 0, reachDiffer = 0, exact = 0, maxAbs = 0, maxRel = 0, worst = -1;
  const err = new Float32Array(n * n);
  for (let i = 0; i < n * n; i++) {
    const g = D[i], f = fw.dist[i];
    if (g === Infinity) gpuUnreachable++;
    if (f === Infinity) fwUnreachable++;
    if ((g === Infinity) !== (f === Infinity)) { reachDiffer++; err[i] = NaN; continue; }
    if (g === Math.fround(f)) exact++;
    if (f === Infinity) continue;
    const d = Math.abs(g - f);
    err[i] = d;
    if (d > maxAbs) { maxAbs = d; worst = i; }
    if (f !== 0) maxRel = Math.max(maxRel, d / Math.abs(f));
  }
  const meaningless = res.negativeCycle || fw.negativeCycle;

  // The distances drawn with "no path" as NaN, which the colour map shows in its own
  // colour; negative distances (only with negative lengths) need the diverging map.
  const finiteD = Float32Array.from(D, (v) => (v === Infinity ? NaN : v));
  const hasNegative = finiteD.some((v) => v < 0);
  const views = {
    d: new HeatmapView({
      title: hasNegative ? 'Distances (negative lengths: blue < 0 < red)' : `Distances D = W^(n−1) in (min, +), ${G}`,
      label: 'heatmap of the shortest distances', target: 320, sequential: !hasNegative, nanLabel: 'no path (∞)',
    }),
    e: new HeatmapView({ title: `|${G} − Floyd–Warshall|`, label: 'heatmap of the error of each distance', target: 320, sequential: true, nanLabel: 'reachable on one side only' }),
  };
  const graph = graphFigure(n, w, { directed, weights: n <= 12, title: `The graph: ${n} vertices, ${int(edges)} ${directed ? 'directed' : 'undirected'} edges${n <= 12 ? ' (lengths on the edges, near their start)' : ''}` });
  const table = n <= 12 ? [el('h4', {}, 'The distances as numbers'),
    el('p', { class: 'help' }, meaningless
      ? 'Row i: from vertex i; column j: to vertex j. With a negative cycle these are only what the squarings happened to reach, not distances.'
      : 'Row i: from vertex i; column j: to vertex j; ∞: no path. A marked cell would differ from Floyd–Warshall.'),
    distanceTable(n, D, meaningless ? null : fw.dist)] : null;
  const notCompared = 'not compared: no shortest paths exist';
  ui.output.replaceChildren(
    el('div', { class: 'app-figures' }, graph, views.d.element, meaningless ? null : views.e.element),
    ...(table || []),
    resultsTable(`${G} (float32) against Floyd–Warshall (float64)`, [
      ['squarings', `${res.squarings}`, `⌈log₂(n − 1)⌉ = ${squaringsFor(n)}: shortest paths have at most n − 1 = ${n - 1} edges`],
      ['unreachable pairs (∞)', `${G} ${int(gpuUnreachable)} · Floyd–Warshall ${int(fwUnreachable)} of ${int(n * n)}`, 'pairs (i, j) with no path from i to j'],
      ['pairs reachable on one side only', int(reachDiffer), null, reachDiffer ? 'bad' : 'ok'],
      ['exact distances', meaningless ? notCompared : `${int(exact)} of ${int(n * n)}`, 'equal to the float64 distance rounded to float32 (∞ = ∞ counts)'],
      ['max absolute error', meaningless ? notCompared : sci(maxAbs), worst >= 0 && !meaningless ? `largest at (${Math.floor(worst / n)}, ${worst % n})` : null],
      ['max relative error', meaningless ? notCompared : sci(maxRel), 'over finite, nonzero distances'],
      ['negative cycle', `${G} ${yesNo(res.negativeCycle)} · Floyd–Warshall ${yesNo(fw.negativeCycle)}`, 'some d(i, i) < 0: going round the cycle again always shortens a path', res.negativeCycle === fw.negativeCycle ? (meaningless ? 'bad' : 'ok') : 'bad'],
      ['time', `${G} ${msText(gpuMs)} · Floyd–Warshall in JS ${msText(fwMs)}`, `wall times, ${G} upload and readback included`],
    ]),
    notes([
      meaningless
        ? { level: 'bad', kind: 'negative-cycle', text: 'A negative cycle: there are no shortest paths (each trip round the cycle makes a path shorter), so the distances above are meaningless on both sides; the library reports negativeCycle: true instead of pretending.' }
        : null,
      meaningless ? null : preset.integer
        ? { level: 'ok', kind: 'exact', text: 'Exact: the lengths are whole numbers and every sum stays far below 2²⁴, so float32 adds them without rounding, and min never rounds: every finite distance must equal Floyd–Warshall\'s exactly.' }
        : { level: 'warn', kind: 'rounded', text: `Not exact: lengths like 0.37 are not float32 numbers, and each + of a path rounds to float32 (about 6·10⁻⁸ relative). A path of k edges can be off by about k·6·10⁻⁸ of its length; the GPU may also add a path's edges in another order than Floyd–Warshall. Max relative error here: ${sci(maxRel)}.` },
      meaningless || gpuUnreachable + fwUnreachable === 0 ? null
        : { level: 'info', kind: 'unreachable', text: 'Unreachable pairs are exact too: NO_EDGE + anything ≥ NO_EDGE/2 stays "no edge" on the GPU, and comes back as Infinity.' },
    ], 'What is exact'));

  await drawMatrix(ctx, views.d, n, n, finiteD);
  if (!meaningless) await drawMatrix(ctx, views.e, n, n, err, { sequential: true });
  const hover = (i, j) => {
    const k = i * n + j;
    const g = D[k], f = fw.dist[k];
    return `(${i}, ${j}): ${G} ${dist(g)} · Floyd–Warshall ${f === Infinity ? '∞' : num(f, 12)}${g === Math.fround(f) ? ' · exact' : ` · difference ${sci(g - f)}`}`;
  };
  views.d.setValues(hover);
  views.e.setValues(hover);

  publish(ID, {
    preset: preset.id, status: 'done', n, squarings: res.squarings, negativeCycle: res.negativeCycle,
    fwNegativeCycle: fw.negativeCycle, gpuUnreachable, fwUnreachable, reachDiffer, exact, maxAbs, maxRel, gpuMs, fwMs, distances: D,
  });
  // Amber, like the other sections' runs that end without an answer.
  if (meaningless) return { text: `Done: ${preset.label}. Negative cycle reported (${G} ${yesNo(res.negativeCycle)}, Floyd–Warshall ${yesNo(fw.negativeCycle)}): no shortest paths.`, tone: 'warn' };
  return `Done: ${preset.label}. ${res.squarings} (min, +) squarings; ${int(exact)} of ${int(n * n)} distances exact, ${int(gpuUnreachable)} unreachable pairs.`;
}

/** The distance matrix as numbers (n ≤ 12): ∞ where there is no path; cells that differ from Floyd–Warshall are marked. */
function distanceTable(n, d, ref) {
  return el('div', { class: 'scroll-x' }, el('table', { class: 'app-matrix distances', id: 'shortest-paths-matrix' },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('sec.th.fromTo')), Array.from({ length: n }, (_, j) => el('th', { scope: 'col' }, String(j))))),
    el('tbody', {}, Array.from({ length: n }, (_, i) => el('tr', {}, el('th', { scope: 'row' }, String(i)),
      Array.from({ length: n }, (_, j) => {
        const g = d[i * n + j], f = ref ? ref[i * n + j] : g;
        const same = g === Math.fround(f);
        return el('td', { class: `num${g === Infinity ? ' inf' : ''}${same ? '' : ' bad'}`, title: same ? null : `Floyd–Warshall: ${dist(f)}` }, dist(g));
      }))))));
}
