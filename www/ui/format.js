// Number formatting shared by the page's panels.
import { t } from '../i18n/index.js';
import { resolutionText, wallMs } from './clock.js';

/** A value as the page shows it: exact integers whole, others to `digits` significant digits. */
export function num(v, digits = 7) {
  if (v === null || v === undefined) return '—';
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '−Inf';
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v).replaceAll('-', '−');
  const a = Math.abs(v);
  const s = a !== 0 && (a < 1e-4 || a >= 1e9) ? v.toExponential(digits - 1) : v.toPrecision(digits);
  return s.replaceAll('-', '−');
}

/** An error metric: three significant digits, exponent form. */
export function sci(v) {
  if (v === null || v === undefined) return '—';
  if (v === 0) return '0';
  if (!Number.isFinite(v)) return num(v);
  // A whole number (an error of integer results) reads better as itself: 28, not 2.80e+1.
  if (Number.isInteger(v) && Math.abs(v) < 1e6) return String(v).replaceAll('-', '−');
  // 4.00, not 4.00e+0: an exponent of zero says nothing.
  return v.toExponential(2).replace(/e\+0$/, '').replaceAll('-', '−');
}

/** Text from the library (messages) with typographic minus signs in its numbers. */
export function minusSigns(text) {
  return text.replace(/(?<=\d[eE])-(?=\d)|(?<=^|[\s(=:,≈<>])-(?=\.?\d)/g, '−');
}

/** Milliseconds: adapts the precision to the size. */
export function ms(v) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  if (v >= 10000) return `${(v / 1000).toFixed(1)} s`;
  if (v >= 100) return `${v.toFixed(0)} ms`;
  if (v >= 1) return `${v.toFixed(1)} ms`;
  if (v >= 0 && v < 0.0005) return '< 0.001 ms';
  return `${v.toFixed(3)} ms`;
}

/**
 * A time measured with performance.now() (wall clock), rounded to this browser's timer
 * resolution (clock.js) and saying it: "12 ms (timer resolution 1 ms)". `bare`: the
 * figure alone, for a table whose caption states the resolution once (clockNote()).
 * `over`: the figure is a mean over that many readings of one clock (clock.js wallMs).
 * GPU timer-query times go through ms().
 */
export function clockMs(v, { bare = false, over = 1 } = {}) {
  const time = wallMs(v, { over });
  if (bare || time === '—') return time;
  return t('clock.figure', { time, res: resolutionText() });
}

/** The sentence a table of wall-clock figures (clockMs(v, { bare: true })) carries once. */
export function clockNote() {
  return t('clock.note', { res: resolutionText() });
}

/** A flop count: "128 flop", "33.55 MFLOP", "2.147 GFLOP". */
export function flops(v) {
  if (v >= 1e9) return `${num(v / 1e9, 4)} GFLOP`;
  if (v >= 1e6) return `${num(v / 1e6, 4)} MFLOP`;
  return `${int(v)} flop`;
}

/** GFLOP/s from a flop count and milliseconds. */
export function gflops(flops, millis) {
  if (!millis || !Number.isFinite(millis) || millis <= 0) return null;
  return flops / (millis * 1e6);
}

export function rate(v) {
  if (v === null || v === undefined) return '—';
  return (v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toPrecision(2)).replaceAll('-', '−');
}

/** Thousands separated by narrow no-break spaces (U+202F), so a number never wraps. */
export function int(v) {
  return String(v).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202F');
}

/** "1 step", "3 steps": a count with its noun in the right number. */
export function count(k, one, many = `${one}s`) {
  return `${int(k)} ${k === 1 ? one : many}`;
}

/** The spacing of float32 values around x (one unit in the last place). */
export function ulp32(x) {
  const a = Math.abs(x);
  if (!Number.isFinite(a)) return NaN;
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
}

/** Creates an element with attributes and children: el('td', { class: 'x' }, 'text'). */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

/** A short label (legends): `digits` significant digits (3), exponent form when large or tiny. */
/** A largest |value| as legends and tables give it: a whole number in full (9596, not
 *  9600, which would not be the largest), anything else to four digits. */
export function magnitude(v) {
  return Number.isInteger(v) && Math.abs(v) < 1e7 ? String(v).replaceAll('-', '−') : short(v, 4);
}

export function short(v, digits = 3) {
  if (!Number.isFinite(v)) return num(v);
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e5 || a < 1e-3)) return v.toExponential(digits - 1).replaceAll('-', '−').replace('e+', 'e');
  return Number(v.toPrecision(digits)).toString().replaceAll('-', '−');
}

/**
 * info().registerKernel of a WebGPU Gpgpu as a sentence for the page, saying so where the
 * form is the one for a software adapter (which is the WebGPU kernel running on the CPU,
 * not the CPU backend). '' when there is none.
 */
export function registerForm(info) {
  if (!info?.registerKernel) return '';
  const software = info.fallbackAdapter || /^CPU form/.test(info.registerKernel);
  return `${info.registerKernel}${software ? ' (the WebGPU kernel\'s form for a software adapter, which runs it on the CPU; not the CPU backend)' : ''}`;
}
