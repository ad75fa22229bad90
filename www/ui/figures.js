// Figures to take away: every picture of a page gets "Save PNG" (and "Save SVG" where
// it is drawn as vectors), every table "Copy as CSV" and "Copy as Markdown".
//
// mountFigureTools(root) decorates what `root` holds now and, through a MutationObserver,
// whatever is added under it later, so a section needs to do nothing to get the tools:
// use plain <canvas>, <svg> and <table> elements (a picture inside a <figure> gets one
// toolbar for the figure, saving its largest picture, so a legend or swatch beside it is
// not offered on its own). Left out: <svg> inside another <svg>, anything aria-hidden,
// and anything inside [data-figure-tools="off"]. A table that is also a picture gives
// itself a `figureSvg()` method returning an SVG element of it (www/ui/timeline.js), and
// gets Save PNG / Save SVG beside its Copy buttons. A canvas whose key is HTML beside it
// gives itself a `figurePicture()` method returning a canvas with the key drawn in
// (www/ui/canvas-key.js), which Save PNG saves instead. A table whose cells hold several
// figures with their units (a time, its GFLOP/s, a wall time) gives itself a
// `figureData()` method returning rows of one value a cell, units in the head, which
// Copy as CSV copies instead of the cells' text (Markdown keeps the table as shown).
// A table's Copy buttons are named after it ("Copy <caption> as CSV"; tableName says how).
// A canvas not drawn yet (or cleared) carries data-figure-empty: there is nothing to
// save, so its Save PNG stays hidden, as the tools of an empty table or svg do.
//
// The pure parts (tableRows, toCsv, toMarkdown, svgMarkup) are exported for the tests.

import { t } from '../i18n/index.js';

const TOOLS = 'figure-tools';
/** PNGs of vector pictures are drawn at this many pixels per CSS pixel (slides are big). */
export const SVG_PNG_SCALE = 2;
/** The presentation properties an SVG needs to look the same outside the page's CSS. */
const SVG_STYLE = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity',
  'opacity', 'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'dominant-baseline',
  'visibility', 'display'];

const INHERITED = new Set(['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-opacity',
  'font-family', 'font-size', 'font-weight', 'font-style', 'text-anchor', 'visibility']);

function button(label, title, onclick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.title = title;
  b.addEventListener('click', onclick);
  return b;
}

function skipped(node) {
  return node.closest(`.${TOOLS}, [data-figure-tools="off"], [aria-hidden="true"]`) !== null;
}

/**
 * A file name: the host's data-figure-name where it gives one, else the first sentence of
 * its caption or accessible name, cut at a word (60 characters at most). The timeline's
 * whole caption cut at 60 ended its PNG's name mid-way ("…-product-2-05-kflop-").
 */
function fileName(host, fallback) {
  const text = host.dataset?.figureName || firstSentence(host.querySelector?.(':scope > figcaption, :scope > caption')?.textContent
    || host.getAttribute?.('aria-label') || host.querySelector?.('[aria-label]')?.getAttribute('aria-label')
    // A bench plot has none of those: its heading (every plot was "picture.png").
    || headingBefore(host)?.textContent || fallback);
  const slug = text.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const cut = slug.length <= 60 ? slug : slug.slice(0, 61).replace(/-[^-]*$/, '') || slug.slice(0, 60);
  return cut || fallback;
}

function download(blob, name) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** Briefly says on `b` that it worked (or why not), for sighted and screen-reader users. */
function flash(b, text) {
  const label = b.dataset.label || b.textContent;
  b.dataset.label = label;
  b.textContent = text;
  b.dataset.done = text;
  announce(`${b.getAttribute('aria-label') || label}: ${text.toLowerCase()}`);
  clearTimeout(b.flashTimer);
  b.flashTimer = setTimeout(() => { b.textContent = label; }, 1500);
}

/**
 * Says `text` in the page's one polite live region: a button's new label alone is not
 * announced by every screen reader.
 */
function announce(text) {
  let region = document.getElementById('figure-tools-said');
  if (!region) {
    region = document.createElement('p');
    region.id = 'figure-tools-said';
    region.className = 'visually-hidden';
    region.setAttribute('role', 'status');
    document.body.append(region);
  }
  region.textContent = text;
}

// ---------------------------------------------------------------------------------
// Pictures

/** The picture a figure's Save buttons mean: its largest canvas or svg on screen. */
function mainPicture(host) {
  if (host.matches('canvas, svg')) return host;
  let best = null, area = -1;
  for (const p of host.querySelectorAll('canvas, svg')) {
    if (p.parentElement.closest('svg') || skipped(p)) continue;
    const r = p.getBoundingClientRect();
    const a = p instanceof HTMLCanvasElement ? Math.max(r.width * r.height, p.width * p.height) : r.width * r.height;
    if (a > area) { best = p; area = a; }
  }
  return best;
}

/**
 * Whether a host's pictures are all SVG (then it gets Save SVG). Decided without layout
 * (mainPicture measures, which would force a reflow for every figure a run adds).
 */
function drawnAsVectors(host) {
  if (host.matches('canvas, svg')) return host instanceof SVGElement;
  const pictures = [...host.querySelectorAll('canvas, svg')].filter((p) => !p.parentElement.closest('svg') && !skipped(p));
  return pictures.length > 0 && pictures.every((p) => p instanceof SVGElement);
}

/** The size the PNG of `svg` has: its size on screen (else its viewBox), times SVG_PNG_SCALE. */
export function svgPngSize(svg) {
  const r = svg.getBoundingClientRect();
  const box = svg.viewBox?.baseVal;
  const w = r.width || box?.width || Number(svg.getAttribute('width')) || 300;
  const h = r.height || box?.height || Number(svg.getAttribute('height')) || 150;
  return { width: Math.max(1, Math.round(w * SVG_PNG_SCALE)), height: Math.max(1, Math.round(h * SVG_PNG_SCALE)), cssWidth: w, cssHeight: h };
}

/**
 * A standalone SVG document of `svg`: the page's CSS is written onto each element as
 * presentation attributes (computed values, so classes and custom properties resolve),
 * with its size on screen.
 */
export function svgMarkup(svg) {
  const copy = svg.cloneNode(true);
  const from = [svg, ...svg.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  const styles = from.map((node) => getComputedStyle(node));
  from.forEach((node, i) => {
    const cs = styles[i];
    // What an element inherits from its parent unchanged is written once, on the parent.
    const parent = i ? styles[from.indexOf(node.parentElement)] : null;
    const style = SVG_STYLE.map((p) => [p, cs.getPropertyValue(p)])
      .filter(([p, v]) => v && v !== 'normal' && v !== 'auto' && !(p === 'display' && v !== 'none')
        && !(p === 'visibility' && v === 'visible') && !(parent && INHERITED.has(p) && parent.getPropertyValue(p) === v))
      .map(([p, v]) => `${p}:${v}`).join(';');
    if (style) to[i].setAttribute('style', `${style};${to[i].getAttribute('style') || ''}`);
    to[i].removeAttribute('class');
  });
  const { cssWidth, cssHeight } = svgPngSize(svg);
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute('width', String(Math.round(cssWidth)));
  copy.setAttribute('height', String(Math.round(cssHeight)));
  if (!copy.getAttribute('viewBox')) copy.setAttribute('viewBox', `0 0 ${cssWidth} ${cssHeight}`);
  const bg = getComputedStyle(svg.closest('.panel') || document.body).backgroundColor;
  if (bg && bg !== 'rgba(0, 0, 0, 0)') copy.setAttribute('style', `background:${bg};${copy.getAttribute('style') || ''}`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`;
}

function canvasBlob(canvas) {
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the picture could not be encoded'))), 'image/png'));
}

/**
 * The PNG of a canvas (its pixels, at its own size, with the key its figurePicture()
 * draws under it where it has one: www/ui/canvas-key.js) or an svg (drawn at SVG_PNG_SCALE).
 */
export async function pngBlob(picture) {
  if (picture instanceof HTMLCanvasElement) return canvasBlob(picture.figurePicture?.() ?? picture);
  const { width, height } = svgPngSize(picture);
  const url = URL.createObjectURL(new Blob([svgMarkup(picture)], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = width;
    c.height = height;
    c.getContext('2d').drawImage(img, 0, 0, width, height);
    return canvasBlob(c);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * `pick()`: the picture the buttons save when clicked (default: the host's largest canvas
 * or svg); `vector`: whether it is drawn as vectors (Save SVG).
 */
function pictureTools(host, compact, pick = () => mainPicture(host), vector = drawnAsVectors(host)) {
  const bar = document.createElement('div');
  bar.className = `${TOOLS}${compact ? ' compact' : ''}`;
  bar.setAttribute('role', 'group');
  bar.setAttribute('aria-label', t('figure.saveGroup'));
  const png = button(compact ? 'PNG' : t('figure.savePNG'), t('figure.pngTitle'), async () => {
    const p = pick();
    if (!p) return;
    try {
      download(await pngBlob(p), `${fileName(host, 'picture')}.png`);
      flash(png, t('figure.saved'));
    } catch (err) {
      flash(png, t('figure.failed'));
      console.warn('gpgpu-matrix: Save PNG:', err);
    }
  });
  png.dataset.action = 'png';
  bar.append(png);
  // Save SVG only where the picture is drawn as vectors (checked when clicked too: a
  // figure can change what it holds).
  if (vector) {
    const svgButton = button(compact ? 'SVG' : t('figure.saveSVG'), t('figure.svgTitle'), () => {
      const p = pick();
      if (!(p instanceof SVGElement)) return;
      download(new Blob([svgMarkup(p)], { type: 'image/svg+xml' }), `${fileName(host, 'picture')}.svg`);
      flash(svgButton, t('figure.saved'));
    });
    svgButton.dataset.action = 'svg';
    bar.append(svgButton);
  }
  return bar;
}

// ---------------------------------------------------------------------------------
// Tables

/** A cell's text as a spreadsheet reads it: numbers with ASCII minus and no group spaces. */
export function cellText(cell) {
  const copy = cell.cloneNode(true);
  // What the page's CSS lays out as a block (a time's GFLOP/s line under it, say) is a
  // line of its own on screen: keep a space on each side, or "1.4 ms" and "0.047" run together.
  if (cell.isConnected) {
    const live = cell.querySelectorAll('*');
    const copies = copy.querySelectorAll('*');
    live.forEach((x, i) => {
      if (/^(inline|none|contents)/.test(getComputedStyle(x).display)) return;
      copies[i].before(' ');
      copies[i].after(' ');
    });
  }
  for (const x of copy.querySelectorAll(`.${TOOLS}, [aria-hidden="true"], script, style, button`)) x.remove();
  // Code keeps its lines (CSV quotes them, Markdown writes <br>): joined with spaces, a
  // "//" comment hid the code after it.
  if (copy.querySelector('pre')) {
    const lines = copy.textContent.split('\n').map((l) => l.trimEnd());
    while (lines.length && !lines[lines.length - 1]) lines.pop();
    while (lines.length && !lines[0]) lines.shift();
    return lines.join('\n');
  }
  // A line break or block inside a cell separates words on screen: keep a space there.
  for (const x of copy.querySelectorAll('br, div, p, li')) x.after(' ');
  // So do a row's description beside its label, and a heatmap legend's parts.
  for (const x of copy.querySelectorAll('.what')) x.before(' ');
  for (const x of copy.querySelectorAll('.hm-scale > *, .hm-swatch')) x.after(' ');
  const text = copy.textContent.replace(/\s+/g, ' ').trim();
  const number = text.replace(/[\u2212\u2012\u2013]/g, '-').replace(/(\d)[\s\u00a0\u202f\u2009](?=\d{3}\b)/g, '$1');
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(number) || /^[-+]?(Infinity|NaN)$/.test(number) ? number : text.replace(/\u2212/g, '-');
}

/**
 * The rows of `table` (head, bodies, foot) as arrays of cell texts, laid out as the table
 * is: a cell spanning several columns or rows (a heading over three kernels, say) takes
 * its text into the first of them and leaves the others empty, so every column below
 * stays under its own heading.
 */
export function tableRows(table) {
  const rows = [...table.rows].filter((r) => r.closest('table') === table);
  const grid = rows.map(() => []);
  rows.forEach((row, i) => {
    let col = 0;
    for (const cell of row.cells) {
      while (grid[i][col] !== undefined) col++;
      const text = cellText(cell);
      const across = Math.max(1, cell.colSpan);
      // rowspan="0" spans the rest of the table.
      const down = cell.rowSpan === 0 ? rows.length - i : Math.max(1, cell.rowSpan);
      for (let r = i; r < Math.min(rows.length, i + down); r++) {
        for (let c = col; c < col + across; c++) grid[r][c] = r === i && c === col ? text : '';
      }
      col += across;
    }
  });
  return grid.map((r) => Array.from(r, (x) => x ?? ''));
}

export function toCsv(rows) {
  const quote = (s) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  return `${rows.map((r) => r.map(quote).join(',')).join('\r\n')}\r\n`;
}

export function toMarkdown(rows, caption = '') {
  if (!rows.length) return '';
  const width = Math.max(...rows.map((r) => r.length));
  const pad = (r) => [...r, ...Array(width - r.length).fill('')];
  // Markdown's own characters escaped (`__shared__` turned bold, `var<workgroup>` into a
  // tag), a cell's lines joined with <br>, code's indentation kept.
  const esc = (s) => s.split('\n')
    .map((l) => l.replace(/[\\`*_[\]<>|]/g, '\\$&').replace(/^ +/, (sp) => '&nbsp;'.repeat(sp.length)))
    .join('<br>');
  const line = (r) => `| ${pad(r).map(esc).join(' | ')} |`;
  const [head, ...body] = rows;
  return `${caption ? `${caption}\n\n` : ''}${[line(head), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n')}\n`;
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No async clipboard (a page on plain http from another host, a denied permission):
    // the old way, from a selected textarea.
    const t = document.createElement('textarea');
    t.value = text;
    t.setAttribute('readonly', '');
    t.style.position = 'fixed';
    t.style.opacity = '0';
    document.body.append(t);
    t.select();
    const ok = document.execCommand('copy');
    t.remove();
    if (!ok) throw new Error('the browser refused to copy');
  }
}

const HEADING = 'h1, h2, h3, h4, h5, h6';

/** The last heading before `node` in the document (the one whose part it is under), or null. */
function headingBefore(node) {
  for (let x = node; x && x !== document.body; x = x.parentElement) {
    for (let s = x.previousElementSibling; s; s = s.previousElementSibling) {
      if (s.matches(HEADING)) return s;
      const inside = s.querySelectorAll(HEADING);
      if (inside.length) return inside[inside.length - 1];
    }
  }
  return null;
}

/**
 * What a table is called, for its Copy buttons' names: its caption's first sentence
 * (the pass timeline's goes on to explain its columns), else its own accessible name,
 * else the heading it stands under.
 */
export function tableName(table) {
  const labelled = table.getAttribute('aria-labelledby')?.split(/\s+/).map((id) => document.getElementById(id)?.textContent).filter(Boolean).join(' ');
  const text = table.caption?.textContent.trim() || table.getAttribute('aria-label') || labelled
    || headingBefore(table)?.textContent || 'this table';
  return firstSentence(text);
}

/**
 * What a picture is called, for its Save buttons' names: its figure's caption's first
 * sentence, else the figure's or the picture's own accessible name (or an svg's title),
 * else the heading it stands under.
 */
export function pictureName(host) {
  const picture = host.matches?.('canvas, svg') ? host : host.querySelector?.('canvas, svg');
  const text = host.querySelector?.(':scope > figcaption')?.textContent.trim()
    || host.getAttribute?.('aria-label') || picture?.getAttribute('aria-label')
    || picture?.querySelector?.(':scope > title')?.textContent.trim()
    || headingBefore(host)?.textContent || 'this picture';
  return firstSentence(text);
}

function firstSentence(text) {
  return text.replace(/\s+/g, ' ').trim().split(/(?<=\.) /)[0].replace(/\.$/, '');
}

/**
 * Names the Save buttons in `bar` after `name` ("Save PNG: <caption>"), as the Copy ones:
 * the name starts with the words the button shows, so speech input ("click Save PNG")
 * finds it (WCAG 2.5.3, label in name).
 */
function nameSaveButtons(bar, name) {
  for (const b of bar.querySelectorAll('[data-action=png], [data-action=svg]')) {
    b.setAttribute('aria-label', `${t(`figure.save${b.dataset.action.toUpperCase()}`)}: ${name}`);
  }
}

/** Names a picture's Save buttons after it; run again when the page changes, as for tables. */
function namePictureTools(host, bar) {
  const name = pictureName(host);
  if (bar.dataset.named === name) return;
  bar.dataset.named = name;
  bar.setAttribute('aria-label', t('figure.saveNamed', { name }));
  nameSaveButtons(bar, name);
}

/**
 * Names the Copy buttons of `table` after it ("Copy as CSV: <caption>"): the page has a
 * pair for every table, and "Copy as CSV" twenty times over tells a screen reader's
 * list of buttons nothing. Run again when the page changes (a caption is filled in later).
 */
function nameTableTools(table, bar) {
  const name = tableName(table);
  if (bar.dataset.named === name) return;
  bar.dataset.named = name;
  bar.setAttribute('aria-label', t('figure.copyNamed', { name }));
  for (const b of bar.querySelectorAll('[data-format]')) b.setAttribute('aria-label', `${t('figure.copyAs', { format: b.dataset.format })}: ${name}`);
  // A table that is also a picture (the pass timeline) has Save buttons in the same bar.
  nameSaveButtons(bar, name);
}

function tableTools(table) {
  const bar = document.createElement('div');
  bar.className = TOOLS;
  bar.setAttribute('role', 'group');
  const caption = () => (table.caption ? cellText(table.caption) : '');
  for (const [action, format, make] of [
    ['csv', 'CSV', () => toCsv(typeof table.figureData === 'function' ? table.figureData().map((r) => r.map(String)) : tableRows(table))],
    ['markdown', 'Markdown', () => toMarkdown(tableRows(table), caption())],
  ]) {
    const label = t('figure.copyAs', { format });
    const b = button(label, t('figure.copyTitle', { format }), async () => {
      try {
        await copyText(make());
        flash(b, t('figure.copied'));
      } catch (err) {
        flash(b, t('figure.notCopied'));
        console.warn('gpgpu-matrix: copy:', err);
      }
    });
    b.dataset.action = action;
    b.dataset.format = format;
    bar.append(b);
  }
  nameTableTools(table, bar);
  return bar;
}

// ---------------------------------------------------------------------------------
// Decorating a page

const done = new WeakSet();
/** Toolbars by what they serve: hidden while it is empty; one placed beside it (not inside) goes when it does. */
const beside = new Map();

/**
 * Puts `bar` right after `host`. Where `host` is an item of a grid or flex layout (a
 * results table beside a plot, A · B = C in a row), the bar would become an item of
 * its own, taking a column or splitting the row: there `host` and its bar go into a box
 * that takes the host's place, the bar under the host.
 */
function place(target, host, bar) {
  const parent = host.parentElement;
  if (parent && /^(inline-)?(grid|flex)$/.test(getComputedStyle(parent).display)) {
    const box = document.createElement('div');
    box.className = 'figure-box';
    host.replaceWith(box);
    box.append(host, bar);
  } else {
    host.after(bar);
  }
  beside.set(target, bar);
}

/**
 * Whether a table or picture holds nothing yet (a section's table before its first run,
 * an svg it will draw into, a canvas marked data-figure-empty), or a figure only such
 * pictures: there is nothing to copy or save, so its tools stay hidden.
 */
function empty(target) {
  if (target instanceof HTMLTableElement) return ![...target.rows].some((r) => r.cells.length);
  if (target instanceof SVGElement) return !target.querySelector(':scope > :not(defs, title, desc, style)');
  if (target instanceof HTMLCanvasElement) return target.hasAttribute('data-figure-empty');
  const pictures = [...target.querySelectorAll('canvas, svg')].filter((p) => !p.parentElement.closest('svg') && !skipped(p));
  return pictures.length > 0 && pictures.every(empty);
}

/** Removes the tools of what left the page; shows those of what holds something. */
function tidy() {
  for (const [target, bar] of beside) {
    if (!target.isConnected) { bar.remove(); beside.delete(target); continue; }
    bar.hidden = empty(target);
    if (bar.hidden) continue;
    if (target instanceof HTMLTableElement) nameTableTools(target, bar);
    else namePictureTools(target, bar);
  }
}

function decorate(node) {
  if (!(node instanceof Element) || skipped(node)) return;
  const found = node.matches('canvas, svg, table') ? [node] : [];
  found.push(...node.querySelectorAll('canvas, svg, table'));
  for (const x of found) {
    if (skipped(x)) continue;
    if (x instanceof HTMLTableElement) {
      if (done.has(x)) continue;
      done.add(x);
      const host = x.parentElement?.classList.contains('scroll-x') ? x.parentElement : x;
      const bar = tableTools(x);
      // A table that is also a picture (the pass timeline) says how to draw it.
      if (typeof x.figureSvg === 'function') {
        bar.append(...pictureTools(x, false, () => x.figureSvg(), true).children);
        nameSaveButtons(bar, tableName(x));
      }
      place(x, host, bar);
      continue;
    }
    if (x.parentElement?.closest('svg')) continue;
    const host = x.closest('figure') || x;
    if (done.has(host)) continue;
    done.add(host);
    const compact = host.closest('td, th') !== null;
    const bar = pictureTools(host, compact);
    namePictureTools(host, bar);
    if (host === x) place(x, x, bar);
    else {
      host.append(bar);
      beside.set(host, bar);
    }
  }
}

/**
 * Gives every picture and table under `root` its tools, now and whenever one is added.
 * Returns the observer (disconnect() stops it).
 */
export function mountFigureTools(root = document.body) {
  decorate(root);
  tidy();
  const observer = new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) decorate(n);
    tidy();
  });
  // A canvas's drawing changes no node: its data-figure-empty mark says when it is drawn.
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['data-figure-empty'] });
  return observer;
}
