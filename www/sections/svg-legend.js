// A legend drawn inside an SVG picture, as the plots draw theirs (www/ui/plot.js): a
// saved PNG or SVG of the picture (www/ui/figures.js) then still says what its colours
// and marks mean, where an HTML legend beside it would stay behind on the page.
import { svg } from './batched-ui.js';

/**
 * Keys in rows as wide as `width`, from (`x`, `top`), at font size `size`: each entry
 * is { marks(cx, cy) → SVG elements drawn in a box `swatch` wide centred at (cx, cy),
 * swatch, text }. A text wider than a row wraps by words. Returns { group, height }:
 * a <g class="svg-legend"> and the height it takes.
 */
export function svgLegend(entries, { x = 0, top = 0, width, size = 12 }) {
  // Characters are about 0.58 em wide in the page's sans-serif (measured before the
  // picture is on the page, so that a hidden section lays out the same).
  const charW = 0.58 * size, row = Math.round(size * 1.5), gap = size;
  const parts = [];
  let cx = x, y = top;
  for (const e of entries) {
    const swatch = e.swatch ?? size * 1.2;
    const room = width - swatch - size * 0.4;
    const lines = wrap(e.text, Math.max(8, Math.floor(room / charW)));
    const w = swatch + size * 0.4 + Math.max(...lines.map((l) => l.length)) * charW;
    if (cx > x && cx + w > x + width) { cx = x; y += row; }
    const mid = y + row / 2;
    parts.push(...e.marks(cx + swatch / 2, mid));
    parts.push(svg('text', { x: (cx + swatch + size * 0.4).toFixed(1), y: (mid + size * 0.35).toFixed(1), 'font-size': size, class: 'svg-legend-text' },
      lines.map((l, k) => svg('tspan', { x: (cx + swatch + size * 0.4).toFixed(1), dy: k ? row : null }, l))));
    y += (lines.length - 1) * row;
    cx = lines.length > 1 ? x + width : cx + w + gap; // a wrapped entry ends its row
  }
  return { group: svg('g', { class: 'svg-legend' }, parts), height: entries.length ? y + row - top : 0 };
}

/** `text` in lines of at most `max` characters, broken between words. */
function wrap(text, max) {
  const lines = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > max) { lines.push(line); line = word; } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}
