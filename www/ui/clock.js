// performance.now()'s resolution in this browser, measured once at start-up, and the
// wall-clock figures rounded to it. Browsers coarsen the clock against timing attacks:
// Chromium to 100 µs (5 µs when the page is cross-origin isolated), Firefox to 1 ms
// (finer when isolated), Safari to about 1 ms; a figure printed finer than the clock's
// step would claim digits the browser never gave. GPU-timed figures (timer queries,
// timestamps) are not wall-clock and keep their precision (format.js ms()).
// Pure apart from the clock: Node (the bench reports) imports it too.

/** Sampling stops after this many steps of the clock… */
const STEPS = 4;
/** …or this long once one step was seen (a 16.7 ms clock shows one step only)… */
const SAMPLE_MS = 5;
/** …or this long by Date.now() with no step at all: the resolution is then at least this. */
const CAP_MS = 50;

/**
 * The smallest nonzero step of `now()` seen in a short busy loop (about 0.4 ms on
 * Chromium's 100 µs clock, 4 ms on a 1 ms one), to two significant digits; CAP_MS when
 * the clock did not move within CAP_MS. `now` and `wall` are parameters for the tests.
 */
export function measureResolution(now = () => performance.now(), wall = () => Date.now()) {
  const start = now();
  const began = wall();
  let last = start;
  let least = Infinity;
  let steps = 0;
  for (;;) {
    const v = now();
    if (v > last) {
      least = Math.min(least, v - last);
      steps += 1;
      last = v;
    }
    if (steps >= STEPS || (steps > 0 && last - start >= SAMPLE_MS) || wall() - began >= CAP_MS) break;
  }
  // 0.1 − ε from the subtraction of two large timestamps reads as 0.1.
  return steps ? Number(least.toPrecision(2)) : CAP_MS;
}

let measured = null;

/** This browser's timer resolution in ms: measured on the first call (the page calls it at start-up). */
export function timerResolutionMs() {
  if (measured === null) measured = measureResolution();
  return measured;
}

/** Decimals that show steps of `res` ms and nothing finer: 1 → 0, 0.1 → 1, 0.005 → 3. */
const decimalsOf = (res) => Math.max(0, Math.ceil(-Math.log10(res) - 1e-9));

/** The resolution as the page states it: "1 ms", "0.1 ms", "0.005 ms". */
export function resolutionText(res = timerResolutionMs()) {
  return `${Number(res.toPrecision(2))} ms`;
}

/**
 * A wall-clock time in ms, rounded to steps of `res` and printed no finer than them
 * (and no finer than format.js ms() would for its size): "12 ms" for 12.3 with a 1 ms
 * clock, "12.3 ms" with a 0.1 ms one; "< 1 ms" below one step. A mean over `over`
 * readings (a batch timed as one, divided by its size) has steps of res / over.
 */
export function wallMs(v, { res = timerResolutionMs(), over = 1 } = {}) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  if (v >= 10000 && res / over <= 100) return `${(v / 1000).toFixed(1)} s`;
  return `${wallNumber(v, { res, over })} ms`;
}

/** wallMs's number alone, in ms, for a column or chart whose head gives the unit: "12", "< 1". */
export function wallNumber(v, { res = timerResolutionMs(), over = 1 } = {}) {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  const step = res / over;
  if (v < step) return `< ${step.toFixed(decimalsOf(step))}`;
  // ms()'s digits by size: none from 100 ms, one from 1 ms, three significant below.
  const size = v >= 100 ? 0 : v >= 1 ? 1 : decimalsOf(v) + 2;
  return (Math.round(v / step) * step).toFixed(Math.min(size, decimalsOf(step)));
}
