#!/usr/bin/env node
// Post-processes a benchmark result fetched back from another machine (the GPU run of
// ../shared/gpu-browser: the page POSTs its JSON to /result, which comes back as
// result.json): writes bench/results/<date>-<label>.{json,md,svg} and updates latest.json,
// and prints the markdown table, exactly as a local `make bench` does.
//
//   node scripts/bench-from-json.mjs RESULT.json [--tag T] [--out DIR]
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeResults } from './bench/write-results.mjs';

const argv = process.argv.slice(2);
const opts = {};
let file = null;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--tag') opts.tag = argv[++i];
  else if (argv[i] === '--out') opts.outDir = resolve(argv[++i]);
  else if (!file && !argv[i].startsWith('--')) file = argv[i];
  else { console.error(`bench-from-json: unknown argument ${argv[i]}`); process.exit(2); }
}
if (!file) { console.error('usage: node scripts/bench-from-json.mjs RESULT.json [--tag T] [--out DIR]'); process.exit(2); }
const result = JSON.parse(readFileSync(file, 'utf8'));
writeResults(result, opts);
if (result.error) { console.error(`bench-from-json: the run ended with an error: ${result.error}`); process.exit(1); }
