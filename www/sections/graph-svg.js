// A graph drawn as SVG: vertices on a circle, edges as lines (arrows when directed,
// a double arrow when both directions exist), optional edge lengths, and vertices
// coloured by the class of vertices that reach each other. Up to MAX_DRAWN
// vertices; beyond that the figure says it is not drawn.
import { el } from '../ui/format.js';
import { svgLegend } from './svg-legend.js';

const SVG = 'http://www.w3.org/2000/svg';
export const MAX_DRAWN = 40;
/** Up to this many edges the text alternative names each (with its length where drawn). */
const MAX_EDGES_SAID = 40;
// Colours of classes of two or more vertices; single vertices stay grey.
const CLASS_COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#ca8a04', '#db2777'];
let uid = 0;

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// Where an edge's length label goes: beside its line, near the start (t along it) for
// a directed edge so that it reads as belonging to that arrow; slid along the line, and
// only then to the other side, until its box clears every label placed before and
// every vertex. Boxes are estimated from the 10 px font (CSS .edge-weight).
function placeLabel(text, [sx, sy, ex, ey], t0, placed, pos, r) {
  const w = 6.5 * text.length + 4, h = 13;
  const dx = ex - sx, dy = ey - sy, len = Math.hypot(dx, dy) || 1, ux = dx / len, uy = dy / len;
  const clear = (x, y) => placed.every((b) => Math.abs(b.x - x) * 2 >= b.w + w || Math.abs(b.y - y) * 2 >= b.h + h)
    && pos.every(([vx, vy]) => Math.abs(vx - x) >= r + w / 2 || Math.abs(vy - y) >= r + h / 2);
  const ts = [t0, t0 - 0.08, t0 + 0.08, t0 + 0.16, t0 - 0.14, t0 + 0.24, t0 + 0.32];
  let best = null;
  for (const side of [1, -1]) {
    for (const t of ts) {
      if (t < 0.08 || t > 0.92) continue;
      const x = sx + dx * t - uy * 7 * side, y = sy + dy * t + ux * 7 * side;
      if (clear(x, y)) { best = [x, y]; break; }
    }
    if (best) break;
  }
  // Nowhere clear (a crowded graph): the first choice, as before.
  if (!best) best = [sx + dx * t0 - uy * 7, sy + dy * t0 + ux * 7];
  placed.push({ x: best[0], y: best[1], w, h });
  return best;
}

/**
 * A <figure> with the graph of the n×n matrix `m`: an edge i → j where
 * isEdge(m[i*n + j]) (i ≠ j). options: directed, weights (label the edges with
 * m's values, n ≤ 12), classes (Int32Array: class number per vertex), title.
 */
export function graphFigure(n, m, { directed = true, weights = false, classes = null, title = 'The graph', isEdge = (v) => v !== 0 && Number.isFinite(v) } = {}) {
  const caption = el('figcaption', {}, title);
  if (n > MAX_DRAWN) {
    return el('figure', { class: 'graph not-drawn' }, caption,
      el('p', { class: 'help' }, `n = ${n}: too many vertices to draw (the picture is drawn up to n = ${MAX_DRAWN}). The heatmap shows every entry.`));
  }
  const id = `g${++uid}`;
  const S = 320, c = S / 2, R = S / 2 - 26;
  const r = Math.max(6, Math.min(13, (Math.PI * R) / n * 0.55));
  const pos = Array.from({ length: n }, (_, i) => {
    const t = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return [c + R * Math.cos(t), c + R * Math.sin(t)];
  });
  const sizes = new Map();
  if (classes) for (const k of classes) sizes.set(k, (sizes.get(k) || 0) + 1);
  const bigClasses = [...sizes.entries()].filter(([, s]) => s > 1).map(([k]) => k).sort((a, b) => a - b);
  const colourOf = (i) => {
    if (!classes) return '#475569';
    const idx = bigClasses.indexOf(classes[i]);
    return idx < 0 ? '#94a3b8' : CLASS_COLOURS[idx % CLASS_COLOURS.length];
  };

  const edges = [];
  const labels = [];
  const placed = []; // label boxes so far, so that no two overlap
  let count = 0;
  const said = []; // the edges in words, for the text alternative
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j || !isEdge(m[i * n + j])) continue;
      const back = isEdge(m[j * n + i]);
      count++;
      if (directed || j > i) said.push(`${i}${directed ? '→' : '–'}${j}${weights ? ` (${String(+m[i * n + j].toPrecision(3)).replaceAll('-', '−')})` : ''}`);
      if (back && j < i && !weights) continue; // drawn once, from the smaller end
      const [xi, yi] = pos[i], [xj, yj] = pos[j];
      const dx = xj - xi, dy = yj - yi, len = Math.hypot(dx, dy);
      const ux = dx / len, uy = dy / len;
      const pad = r + (directed ? 2.5 : 0.5);
      let sx = xi + ux * pad, sy = yi + uy * pad, ex = xj - ux * pad, ey = yj - uy * pad;
      if (back && weights && directed) { // two arrows side by side
        const off = 2.5;
        sx -= uy * off; sy += ux * off; ex -= uy * off; ey += ux * off;
      }
      const arrowEnd = directed ? `url(#${id}-arrow)` : null;
      const arrowStart = directed && back && !weights ? `url(#${id}-arrow-start)` : null;
      edges.push(svg('line', { x1: sx.toFixed(1), y1: sy.toFixed(1), x2: ex.toFixed(1), y2: ey.toFixed(1), class: 'edge', 'marker-end': arrowEnd, 'marker-start': arrowStart }));
      if (weights && (directed || j > i)) {
        const text = String(+m[i * n + j].toPrecision(3)).replaceAll('-', '−');
        const [lx, ly] = placeLabel(text, [sx, sy, ex, ey], directed ? 0.3 : 0.5, placed, pos, r);
        labels.push(svg('text', { x: lx.toFixed(1), y: (ly + 3.5).toFixed(1), class: 'edge-weight', 'text-anchor': 'middle' }, text));
      }
    }
  }
  const nodes = pos.map(([x, y], i) => svg('g', { class: 'vertex' },
    svg('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r, fill: colourOf(i) }),
    n <= 30 ? svg('text', { x: x.toFixed(1), y: (y + r * 0.38).toFixed(1), 'text-anchor': 'middle', style: `font-size:${Math.max(7, r * 1.05).toFixed(1)}px` }, String(i)) : null));
  const marker = (name, path) => svg('marker', { id: `${id}-${name}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: 'auto-start-reverse' },
    svg('path', { d: path, class: 'arrow-head' }));
  const edgeWord = directed ? `${count} directed edge${count === 1 ? '' : 's'}` : `${count / 2} undirected edge${count === 2 ? '' : 's'}`;
  // What the colours mean, drawn in the picture so that a saved PNG or SVG keeps it.
  const dot = (colour) => (x, y) => [svg('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 5, fill: colour, class: 'key' })];
  const alone = classes ? [...sizes.values()].some((s) => s === 1) : false;
  const shown = bigClasses.slice(0, 3); // the key's swatch: the first colours
  const keys = !classes ? [] : bigClasses.length
    ? [{ marks: (x, y) => shown.flatMap((k, m) => dot(CLASS_COLOURS[m % CLASS_COLOURS.length])(x + 11 * (m - (shown.length - 1) / 2), y)), swatch: 11 * shown.length + 2,
      text: `one colour: vertices that reach each other (${directed ? 'a strongly connected component' : 'a connected component'})` },
    ...(alone ? [{ marks: dot('#94a3b8'), text: 'grey: in a component of its own' }] : [])]
    : [{ marks: dot('#94a3b8'), text: 'No two vertices reach each other both ways: every vertex is grey.' }];
  const legend = svgLegend(keys, { x: 8, top: S, width: S - 16, size: 11 });
  const pic = svg('svg', { viewBox: `0 0 ${S} ${S + legend.height + (keys.length ? 6 : 0)}`, role: 'img', class: 'graph-svg', 'aria-label': `${title}: ${n} vertices on a circle, numbered clockwise from the top, ${edgeWord}${said.length && said.length <= MAX_EDGES_SAID ? `: ${said.join(', ')}` : ''}.${keys.length ? ` Colours: ${keys.map((k) => k.text).join('; ')}.` : ''}` },
    svg('defs', {}, marker('arrow', 'M0,1 L10,5 L0,9 z'), marker('arrow-start', 'M0,1 L10,5 L0,9 z')),
    svg('g', { class: 'edges' }, edges), svg('g', { class: 'weights' }, labels), svg('g', {}, nodes), legend.group);
  return el('figure', { class: 'graph', 'data-edges': String(directed ? count : count / 2) }, caption, pic);
}
