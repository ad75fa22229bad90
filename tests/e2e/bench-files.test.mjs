// The benchmark's command-line checks and result files, without a browser.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_SIZES, PEER_SCRIPTS, readParams } from '../../www/bench-params.js';
import { untrackedPageFiles } from '../../scripts/bench/page-files.mjs';
import { RESULTS, ROOT, writeResults } from '../../scripts/bench/write-results.mjs';

test('parameters that do not parse are problems, not silent defaults', () => {
  assert.deepEqual(readParams('?sizes=64,128&repeats=7').problems, []);
  assert.deepEqual(readParams('?sizes=64,128').sizes, [64, 128]);
  assert.deepEqual(readParams('').sizes, DEFAULT_SIZES);
  for (const [query, problem] of [
    ['?sizes=abc', /sizes: "abc"/], ['?sizes=64;128', /sizes: "64;128"/], ['?sizes=0', /sizes: "0"/],
    ['?sizes=1.5', /sizes: "1.5"/], ['?modes=singel', /modes: "singel"/], ['?repeats=0', /repeats=0/],
    ['?repeats=3', /repeats=3: expected a whole number from 5/], ['?cap=soon', /cap=soon/], ['?passes=0', /passes=0/],
  ]) {
    const { problems } = readParams(query);
    assert.equal(problems.length, 1, `${query}: ${problems.join('; ')}`);
    assert.match(problems[0], problem);
  }
});

test('a second result of the same day and label gets new files; the same result keeps its own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-results-'));
  try {
    const result = JSON.parse(readFileSync(join(RESULTS, '2026-11-23-swiftshader.json'), 'utf8'));
    const first = writeResults(result, { outDir: dir, quiet: true });
    const quick = writeResults({ ...result, params: { ...result.params, sizes: [64] } }, { outDir: dir, quiet: true });
    const again = writeResults(result, { outDir: dir, quiet: true });
    assert.equal(first.stem, '2026-11-23-swiftshader');
    assert.equal(quick.stem, '2026-11-23-swiftshader-2');
    assert.equal(again.stem, first.stem);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, `${first.stem}.json`), 'utf8')).params.sizes, result.params.sizes);
    assert.equal(readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'latest.json').length, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--stage-gpu sends every peer script the page loads (the GPU machine has no npm)', () => {
  const files = untrackedPageFiles();
  for (const src of PEER_SCRIPTS) {
    const path = src.replace(/^\.\.\//, '');
    assert.ok(files.includes(path), `${path} is staged`);
    assert.ok(existsSync(join(ROOT, path)), `${path} exists (npm ci)`);
  }
  assert.ok(files.some((f) => f.endsWith('.wasm') && f.includes('tfjs-backend-wasm')), 'TF.js WASM binaries');
});
