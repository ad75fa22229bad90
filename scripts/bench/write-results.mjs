// Writes one benchmark result (the JSON the page produced) as files under bench/results/:
//   <YYYY-MM-DD>-<label>.json   the whole result: environment, params, raw times, medians
//                               (-2, -3, … for a later run of the same day and label)
//   <YYYY-MM-DD>-<label>.md     the markdown report (also printed)
//   <YYYY-MM-DD>-<label>.svg    the log-log plot
//   latest.json                 { label: stem } of the newest result per label, so that
//                               www/bench/index.html?show=<label> finds it without a copy
// Used by scripts/bench.mjs (after a local run) and scripts/bench-from-json.mjs (a
// result.json fetched back from the GPU machine).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deriveLabel, markdownReport, resultDay } from '../../www/bench/systems-report.js';
import { renderPlot } from '../../www/bench/systems-plot.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RESULTS = join(ROOT, 'bench', 'results');

/** Label of a result: its own (set by ?label= or derived by the page), else from the renderer; `tag` appended. */
export function labelOf(result, tag) {
  const base = result.label || deriveLabel(result.env?.renderer);
  const clean = (s) => String(s).toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-+|-+$/g, '');
  return tag ? `${clean(base)}-${clean(tag)}` : clean(base);
}

/** latest.json with `label` pointing at `stem`, the other labels kept. */
function latestIndex(outDir, label, stem) {
  const path = join(outDir, 'latest.json');
  const index = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  index[label] = stem;
  const sorted = Object.fromEntries(Object.keys(index).sort().map((k) => [k, index[k]]));
  return `${JSON.stringify(sorted, null, 1)}\n`;
}

/** Writes the files; returns { markdown, files: [paths] }. `report` and `plot` render
 *  another bench's result (the block-sparse bench's: www/bench/blocks-report.js). */
export function writeResults(result, { outDir = RESULTS, tag = null, quiet = false, report = markdownReport, plot = renderPlot } = {}) {
  mkdirSync(outDir, { recursive: true });
  const label = labelOf(result, tag);
  // Never replace an earlier run's files (a quick run used to overwrite the day's full
  // run, which bench/NOTES.md cites): the second run of a day and label gets -2, …
  // The same result again (re-rendering its report and plot) keeps its name.
  const day = `${resultDay(result)}-${label}`;
  let stem = day;
  const json = `${JSON.stringify(result, null, 1)}\n`;
  for (let k = 2; existsSync(join(outDir, `${stem}.json`)) && readFileSync(join(outDir, `${stem}.json`), 'utf8') !== json; k++) {
    stem = `${day}-${k}`;
  }
  const markdown = report({ ...result, label });
  const svg = plot(result);
  const files = {
    [`${stem}.json`]: json,
    [`${stem}.md`]: markdown,
    // A bench whose table says it all draws no plot.
    ...(svg ? { [`${stem}.svg`]: svg } : {}),
    'latest.json': latestIndex(outDir, label, stem),
  };
  const written = [];
  for (const [name, text] of Object.entries(files)) {
    const p = join(outDir, name);
    writeFileSync(p, text);
    written.push(relative(ROOT, p));
  }
  if (!quiet) {
    process.stdout.write(`\n${markdown}\n`);
    process.stdout.write(`wrote ${written.join(', ')}\n`);
  }
  return { markdown, files: written, label, stem };
}
