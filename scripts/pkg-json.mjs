// Prints pkg/package.json (scripts/pkg.sh): name, version, description and licence come
// from Cargo.toml, so a release changes one place.
import { readFileSync } from 'node:fs';

const cargo = readFileSync(new URL('../Cargo.toml', import.meta.url), 'utf8');
const pkgSection = cargo.split(/^\[/m).find((s) => s.startsWith('package]'));
const field = (name) => {
  const m = pkgSection.match(new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, 'm'));
  if (!m) throw new Error(`Cargo.toml's [package] has no ${name}`);
  return m[1];
};

const json = {
  name: field('name'),
  version: field('version'),
  description: field('description'),
  license: field('license'),
  type: 'module',
  // What wasm-pack --target web writes, plus `exports` (which also lets a bundler or a
  // server find the .wasm by its package path).
  files: ['gpgpu_matrix_bg.wasm', 'gpgpu_matrix.js', 'gpgpu_matrix.d.ts', 'gpgpu_matrix_bg.wasm.d.ts', 'snippets/', 'docs/', 'LICENSE-MIT', 'LICENSE-APACHE'],
  module: 'gpgpu_matrix.js',
  types: 'gpgpu_matrix.d.ts',
  exports: {
    '.': { types: './gpgpu_matrix.d.ts', default: './gpgpu_matrix.js' },
    './gpgpu_matrix_bg.wasm': './gpgpu_matrix_bg.wasm',
    './package.json': './package.json',
  },
  // Importing the module runs nothing but definitions (init() does the work).
  sideEffects: false,
  keywords: ['webgl2', 'webgpu', 'gpgpu', 'matrix', 'wasm'],
};
process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
