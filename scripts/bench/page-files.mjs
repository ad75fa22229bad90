// The files the benchmark page loads that git does not track, which the GPU machine
// (no npm, no build) must be sent: used by `scripts/bench.mjs --stage-gpu`.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PEER_FILES, PEER_SCRIPTS } from '../../www/bench/systems-params.js';
import { ROOT } from './write-results.mjs';

/** The peers' scripts (the page loads them on a run; www/bench/index.html names none since it
 *  shows stored results without them: TF.js core, WebGL, WebGPU and WASM backends, gpu.js),
 *  the package.json files it reads versions from, the TF.js .wasm files, www/pkg/. */
export function untrackedPageFiles() {
  const files = [...PEER_SCRIPTS, ...PEER_FILES].map((src) => src.replace(/^\.\.\//, ''));
  const wasmDir = 'node_modules/@tensorflow/tfjs-backend-wasm/dist';
  for (const f of readdirSync(join(ROOT, wasmDir))) if (f.endsWith('.wasm')) files.push(`${wasmDir}/${f}`);
  files.push(...pkgFiles());
  return files;
}

/** www/pkg/'s files, relative to the root, its folders walked (wasm-bindgen puts the
 *  JS snippets a crate imports, such as the CPU backend's worker pool, under snippets/). */
export function pkgFiles(dir = 'www/pkg') {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir)).flatMap((f) => {
    const rel = `${dir}/${f}`;
    return statSync(join(ROOT, rel)).isDirectory() ? pkgFiles(rel) : [rel];
  });
}
