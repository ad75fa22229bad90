// A heatmap figure: a 2D canvas the library draws a matrix onto straight from its
// GPU texture (run.drawHeatmap) or from a JS array (gpu.drawHeatmap), a legend of
// the colour map and its range, an honest note when the matrix is downsampled,
// and a readout of the entry under the pointer or the keyboard cursor.
import { el, magnitude, short } from './format.js';
import { t } from '../i18n/index.js';
import { giveKey } from './canvas-key.js';
import { LIBRARY_DIVERGING, PROJECTOR_DIVERGING, gradient, recolour } from '../classroom/colours.js';

// The colours of glsl/heatmap/heatmap.frag, for the legend.
const BLUE = 'rgb(33,102,171)', WHITE = 'rgb(247,247,247)', RED = 'rgb(179,23,43)';
const SEQ = ['rgb(252,250,217)', 'rgb(237,115,64)', 'rgb(59,13,84)'];
const NAN = 'rgb(153,0,204)', POS_INF = 'rgb(230,159,0)', NEG_INF = 'rgb(0,158,115)'; // as glsl/heatmap/heatmap.frag

/** Canvas side in pixels: whole pixels per entry up to `target`, else `target` (downsampled). */
export function canvasSide(n, target) {
  return n <= target ? n * Math.floor(target / n) : target;
}

let described = 0;

/** Matrices up to this side can be read as a table of their numbers ("Show as table"). */
export const TABLE_MAX = 32;

/** The view of each heatmap canvas, for projector mode's recolouring (www/classroom/colours.js). */
const VIEWS = new WeakMap();
document.addEventListener('projectorchange', () => {
  for (const c of document.querySelectorAll('figure.heatmap canvas')) VIEWS.get(c)?.repaint();
});

export class HeatmapView {
  /**
   * title: heading; sequential: |value| colour map (for errors) instead of the diverging one;
   * target: canvas side to aim for; small: a thumbnail (no legend text, no readout line).
   */
  constructor({ title = '', sequential = false, target = 384, small = false, label = '', nanLabel = 'NaN' } = {}) {
    this.sequential = sequential;
    this.nanLabel = nanLabel;
    this.target = target;
    this.small = small;
    this.rows = 0;
    this.cols = 0;
    this.cursor = null;
    this.valueAt = null;
    /** The legend as entries for a saved PNG (www/ui/canvas-key.js); null before a draw. */
    this.key = null;
    this.title = el('span', { class: 'hm-title' }, title);
    // Blank until drawn: www/ui/figures.js offers no Save PNG of it meanwhile.
    this.canvas = el('canvas', { width: 1, height: 1, role: 'img', 'aria-label': label || title, 'data-figure-empty': '' });
    this.box = el('div', { class: 'hm-cursor', hidden: true });
    this.frame = el('div', { class: 'hm-frame' }, this.canvas, this.box);
    this.legend = el('div', { class: 'hm-legend' });
    this.sampling = el('p', { class: 'hm-sampling' });
    this.readout = el('p', { class: 'hm-readout', 'aria-live': 'polite' });
    // What the picture shows, in words, for a screen reader (updated with each draw).
    this.description = el('p', { class: 'visually-hidden hm-description', id: `hm-description-${++described}` });
    this.canvas.setAttribute('aria-describedby', this.description.id);
    // The numbers themselves, for a small matrix whose numbers the page has (setNumbers).
    this.tableBox = el('details', { class: 'hm-table', hidden: true, ontoggle: () => this.#fillTable() },
      el('summary', {}, t('heatmap.showTable')));
    this.element = el('figure', { class: `heatmap${small ? ' small' : ''}` },
      el('figcaption', {}, this.title), this.frame, this.legend, this.sampling, small ? null : this.readout, this.description,
      small ? null : this.tableBox);
    if (!small) this.#interactive();
    giveKey(this.canvas, () => this.key);
    VIEWS.set(this.canvas, this);
  }

  /** Projector mode changed: the drawn picture and its legend in the mode's colours. */
  repaint() {
    if (this.canvas.hasAttribute('data-figure-empty')) return;
    this.#palette();
    if (this.legendArgs) this.#legend(...this.legendArgs);
    if (this.describeArgs) this.#describe(...this.describeArgs);
  }

  /** Whether the signed map is shown in a projector's colours (body.projector). */
  get #projector() { return !this.sequential && document.body.classList.contains('projector'); }

  /** Puts the drawn canvas in the colours the page's mode wants (the library draws its own). */
  #palette() {
    const want = this.#projector ? 'projector' : 'library';
    const has = this.canvas.dataset.palette || 'library';
    if (want === has || this.sequential) return;
    // Back to the library's picture as it drew it (8-bit colours do not map back exactly).
    if (want === 'library') this.canvas.getContext('2d').putImageData(this.libraryPixels, 0, 0);
    else this.libraryPixels = recolour(this.canvas, LIBRARY_DIVERGING, PROJECTOR_DIVERGING);
    this.canvas.dataset.palette = want;
  }

  setTitle(text) { this.title.textContent = text; }

  /** Sizes the canvas for an rows×cols matrix; returns it for the library to draw on. */
  prepare(rows, cols) {
    this.rows = rows;
    this.cols = cols;
    const side = canvasSide(Math.max(rows, cols), this.target);
    this.canvas.width = cols >= rows ? side : Math.max(1, Math.round(side * cols / rows));
    this.canvas.height = rows >= cols ? side : Math.max(1, Math.round(side * rows / cols));
    this.canvas.style.maxWidth = `${Math.max(this.canvas.width, Math.min(this.target, 192))}px`;
    return this.canvas;
  }

  /**
   * Shows what a draw did: `drawn` = { blockRows, blockCols, stride } from the library,
   * `range` = the |value| at full colour, `stats` = { nan, inf } when known.
   */
  drawn(drawn, range, stats = null) {
    const { blockRows = 1, blockCols = 1, stride = 1 } = drawn || {};
    this.numbers = null; // a new picture: its numbers come with setNumbers, if the page has them
    this.#showNumbers();
    this.canvas.removeAttribute('data-figure-empty');
    this.canvas.dataset.palette = 'library';
    this.#palette();
    this.legendArgs = [range, stats];
    this.#legend(range, stats);
    this.describeArgs = [range, stats, blockRows > 1 || blockCols > 1];
    this.#describe(...this.describeArgs);
    // Shown with fewer CSS pixels than the picture has distinct cells, nearest-pixel
    // scaling would drop cells (moiré); smooth scaling averages them instead.
    const shown = this.canvas.clientWidth;
    const cells = Math.min(this.cols, this.canvas.width);
    const shrunk = shown > 0 && shown < cells;
    this.canvas.style.imageRendering = shrunk ? 'auto' : '';
    const onScreen = shrunk ? t('heatmap.blended', { shown, cells }) : '';
    if (blockRows > 1 || blockCols > 1) {
      // Pixel p covers entries [p·n/w, (p+1)·n/w): blocks of ⌊n/w⌋ or ⌈n/w⌉ entries.
      const side = (n, px) => (n % px === 0 ? `${n / px}` : `${Math.floor(n / px)}–${Math.ceil(n / px)}`);
      const block = `${side(this.rows, this.canvas.height)}×${side(this.cols, this.canvas.width)}`;
      let s = t('heatmap.downsampled', { rows: this.rows, cols: this.cols, w: this.canvas.width, h: this.canvas.height, block });
      if (stride > 1) s += t('heatmap.stride', { stride });
      this.sampling.textContent = `${s}.${onScreen}`;
      this.sampling.classList.add('downsampled');
    } else {
      const px = Math.floor(this.canvas.width / this.cols);
      this.sampling.textContent = this.small ? '' : `${t('heatmap.everyEntry', { px })}${onScreen}`;
      this.sampling.classList.remove('downsampled');
    }
  }

  /**
   * The numbers the picture shows (row-major, rows×cols), where the page has them: the
   * text alternative then says where the largest is, and a matrix up to TABLE_MAX a side
   * can be opened as a table. `error`: the numbers are errors (the largest error, not
   * |value|); `format` writes a cell. null: not known (not read back).
   */
  setNumbers(values, { error = false, format = (v) => short(v, 4) } = {}) {
    this.numbers = values ? { values, error, format } : null;
    this.#showNumbers();
  }

  #showNumbers() {
    const x = this.numbers;
    this.tableBox.hidden = !x || this.rows > TABLE_MAX || this.cols > TABLE_MAX;
    this.tableBox.querySelector('table')?.remove();
    this.#fillTable();
    if (this.describeArgs) this.#describe(...this.describeArgs);
  }

  /** The table, made when it is opened (a closed one costs nothing). */
  #fillTable() {
    const x = this.numbers;
    if (!x || !this.tableBox.open || this.tableBox.hidden || this.tableBox.querySelector('table')) return;
    const cols = Array.from({ length: this.cols }, (_, j) => j);
    const table = el('table', { class: 'hm-numbers' },
      el('caption', {}, t('heatmap.tableCaption', { title: this.title.textContent })),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('heatmap.corner')), cols.map((j) => el('th', { scope: 'col' }, String(j))))),
      el('tbody', {}, Array.from({ length: this.rows }, (_, i) => el('tr', {}, el('th', { scope: 'row' }, String(i)),
        cols.map((j) => el('td', {}, x.format(x.values[i * this.cols + j])))))));
    this.tableBox.append(el('div', { class: 'scroll-x' }, table));
  }

  /** Where the largest |value| (or error) is, in words: '' when the numbers are not known. */
  #largest() {
    const x = this.numbers;
    if (!x) return '';
    let at = -1;
    for (let k = 0; k < x.values.length; k++) {
      const v = Math.abs(x.values[k]);
      if (Number.isFinite(v) && (at < 0 || v > Math.abs(x.values[at]))) at = k;
    }
    if (at < 0 || x.values[at] === 0) return ''; // all zero: no place stands out
    const where = { value: x.format(x.values[at]), i: Math.floor(at / this.cols), j: at % this.cols };
    return `; ${t(x.error ? 'heatmap.largestError' : 'heatmap.largest', where)}`;
  }

  /** `fn(i, j)` → readout text for entry (i, j); null turns the readout off. */
  setValues(fn, hint = '') {
    this.valueAt = fn;
    if (!this.small) this.readout.textContent = hint || (fn ? t('heatmap.hint') : '');
    if (this.cursor) this.#show(this.cursor.i, this.cursor.j);
  }

  clear() {
    this.legendArgs = null;
    this.describeArgs = null;
    this.libraryPixels = null;
    const ctx = this.canvas.getContext('2d');
    ctx?.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.canvas.setAttribute('data-figure-empty', '');
    this.sampling.textContent = '';
    this.legend.replaceChildren();
    this.description.textContent = '';
    this.numbers = null;
    this.tableBox.hidden = true;
    this.key = null;
    this.valueAt = null;
    this.readout.textContent = '';
    this.box.hidden = true;
  }

  /** The text alternative: shape, colour scale, NaN and ±Inf counts, how it is drawn. */
  #describe(range, stats, downsampled) {
    const r = magnitude(range);
    const scale = t(`heatmap.scale.${this.#scaleName()}`, { r });
    const special = stats ? t('heatmap.special', { nan: stats.nan || 0, what: this.nanLabel === 'NaN' ? 'NaN' : `“${this.nanLabel}”`, inf: stats.inf || 0 }) : t('heatmap.specialNone');
    const how = t(downsampled ? 'heatmap.howDownsampled' : 'heatmap.howEvery');
    const keys = this.small ? '' : t('heatmap.howKeys');
    this.description.textContent = t('heatmap.description', { rows: this.rows, cols: this.cols, scale, special, largest: this.#largest(), how, keys });
  }

  /** Which colour scale is drawn: the error map's, the projector's or the screen's. */
  #scaleName() {
    return this.sequential ? 'sequential' : this.#projector ? 'projector' : 'screen';
  }

  #legend(range, stats) {
    // The legend promises "scaled to the largest |value|": that value itself.
    const r = magnitude(range);
    // With no finite entry there is no scale: only the NaN / ±Inf colours mean anything.
    const noFinite = !!stats && this.rows > 0 && (stats.nan || 0) + (stats.inf || 0) >= this.rows * this.cols;
    const bar = el('span', { class: 'hm-bar' });
    const signed = this.#projector ? PROJECTOR_DIVERGING.map(([, c]) => `rgb(${c.join(',')})`) : [BLUE, WHITE, RED];
    bar.style.background = this.sequential
      ? `linear-gradient(to right, ${SEQ[0]}, ${SEQ[1]}, ${SEQ[2]})`
      : gradient(this.#projector ? PROJECTOR_DIVERGING : LIBRARY_DIVERGING);
    const items = this.sequential
      ? (range > 0 ? [el('span', {}, '0'), bar, el('span', {}, r)] : [el('span', {}, !stats || !stats.nan ? 'all 0: every entry correctly rounded' : stats.compared ? 'every entry finite on both sides is correctly rounded' : 'no entry is finite on both sides')])
      : noFinite ? [el('span', {}, 'no finite entry: no colour scale')]
        : [el('span', {}, `−${r}`), bar, el('span', {}, `+${r}`)];
    const swatch = (colour, text) => el('span', { class: 'hm-swatch' }, el('i', { style: `background:${colour}` }), text);
    const extras = [];
    if (!this.small || (stats && (stats.nan || stats.inf))) {
      extras.push([NAN, this.nanLabel]);
      if (this.nanLabel === 'NaN') extras.push([POS_INF, '+Inf'], [NEG_INF, '−Inf']);
    }
    const shownExtras = this.small ? [] : extras;
    this.legend.replaceChildren(el('span', { class: 'hm-scale' }, ...items), ...shownExtras.map(([c, t]) => swatch(c, t)));
    // The same key for a saved PNG: the scale's colours and ends, or its one line of text.
    const scale = items.length === 3
      ? { colours: this.sequential ? SEQ : signed, from: items[0].textContent, to: items[2].textContent }
      : { text: items[0].textContent };
    this.key = [scale, ...shownExtras.map(([colour, text]) => ({ colour, text }))];
    this.legend.title = t(`heatmap.legend.${this.#scaleName()}`, { r });
  }

  #interactive() {
    this.canvas.tabIndex = 0;
    const at = (ev) => {
      const r = this.canvas.getBoundingClientRect();
      if (!this.rows || r.width === 0) return null;
      const j = Math.min(this.cols - 1, Math.max(0, Math.floor((ev.clientX - r.left) / r.width * this.cols)));
      const i = Math.min(this.rows - 1, Math.max(0, Math.floor((ev.clientY - r.top) / r.height * this.rows)));
      return { i, j };
    };
    this.canvas.addEventListener('pointermove', (ev) => { const c = at(ev); if (c) this.#show(c.i, c.j); });
    this.canvas.addEventListener('pointerdown', (ev) => { const c = at(ev); if (c) this.#show(c.i, c.j); });
    this.canvas.addEventListener('focus', () => { if (this.rows) this.#show(this.cursor?.i ?? 0, this.cursor?.j ?? 0); });
    this.canvas.addEventListener('keydown', (ev) => {
      if (!this.rows) return;
      const big = ev.shiftKey ? Math.max(1, Math.round(this.rows / 10)) : 1;
      let { i, j } = this.cursor || { i: 0, j: 0 };
      switch (ev.key) {
        case 'ArrowUp': i -= big; break;
        case 'ArrowDown': i += big; break;
        case 'ArrowLeft': j -= big; break;
        case 'ArrowRight': j += big; break;
        case 'Home': i = 0; j = 0; break;
        case 'End': i = this.rows - 1; j = this.cols - 1; break;
        default: return;
      }
      ev.preventDefault();
      this.#show(Math.min(this.rows - 1, Math.max(0, i)), Math.min(this.cols - 1, Math.max(0, j)));
    });
  }

  #show(i, j) {
    if (i >= this.rows || j >= this.cols) return;
    this.cursor = { i, j };
    const b = this.box;
    b.hidden = false;
    b.style.left = `${(j / this.cols) * 100}%`;
    b.style.top = `${(i / this.rows) * 100}%`;
    b.style.width = `${100 / this.cols}%`;
    b.style.height = `${100 / this.rows}%`;
    if (this.valueAt) this.readout.textContent = this.valueAt(i, j);
  }
}
