// Timing a split product (Devices.multiplySplitAsync) at one ratio, for the devices
// bench and the page's "Several devices" section alike: one call on a shared CPU is
// mostly noise, so a point is the median of several timed calls after a warm-up.
import { median } from './bench/devices-report.js';

/** Lets the page paint and other tasks run between timed calls. */
const yieldToPage = () => new Promise((r) => setTimeout(r, 0));

/** One warm-up call (compiling kernels, starting workers), then `repeats` timed ones; returns their results. */
export async function timedSplits(devices, n, a, b, ratios, repeats) {
  await devices.multiplySplitAsync(n, n, n, a, b, { ratios });
  const runs = [];
  for (let r = 0; r < repeats; r++) {
    await yieldToPage();
    runs.push(await devices.multiplySplitAsync(n, n, n, a, b, { ratios }));
  }
  return runs;
}

/**
 * Split results as one point: the medians of each part's ms and of the total, the last
 * run's rows and ratios, and every total as `samplesMs` (what the medians are of).
 */
export function splitSummary(runs) {
  const last = runs[runs.length - 1];
  return {
    rows: last.parts.map((p) => p.rows),
    ms: last.parts.map((_, i) => median(runs.map((x) => x.parts[i].ms))),
    totalMs: median(runs.map((x) => x.totalMs)),
    ratios: last.ratios,
    samplesMs: runs.map((x) => x.totalMs),
  };
}
