#!/usr/bin/env bash
# `make pkg`: the npm package in pkg/, in wasm-pack's layout (--target web): the ES module,
# the .wasm, the .d.ts files, package.json, the guide as README.md with the references it links in docs/, and the licence files.
# `npm pack ./pkg` turns it into gpgpu-matrix-<version>.tgz. The .js/.wasm/.d.ts are the
# page's own build (www/pkg, from `make build`), so the page and the package never differ.
set -euo pipefail
cd "$(dirname "$0")/.."
for f in gpgpu_matrix.js gpgpu_matrix_bg.wasm gpgpu_matrix.d.ts gpgpu_matrix_bg.wasm.d.ts; do
  [ -f "www/pkg/$f" ] || { echo "no www/pkg/$f: run make build first" >&2; exit 1; }
done
rm -rf pkg
mkdir -p pkg
cp www/pkg/gpgpu_matrix.js www/pkg/gpgpu_matrix_bg.wasm www/pkg/gpgpu_matrix.d.ts \
  www/pkg/gpgpu_matrix_bg.wasm.d.ts pkg/
# wasm-bindgen's inline JS modules (the CPU backend's worker pool), imported by path
# from gpgpu_matrix.js.
[ -d www/pkg/snippets ] && cp -r www/pkg/snippets pkg/
# The package's README is the guide, not the repository's README: the guide is written
# for someone who installed the package (its examples are run from the installed tarball),
# while the README's commands are for a checkout. The references it links (api.md,
# rust.md, kernels.md) travel in docs/, their links rewritten for the package.
node scripts/pkg-docs.mjs pkg
cp LICENSE-MIT LICENSE-APACHE pkg/
node scripts/pkg-json.mjs > pkg/package.json
echo "== pkg/: $(node -p "require('./pkg/package.json').name + '@' + require('./pkg/package.json').version"), wasm $(stat -c %s pkg/gpgpu_matrix_bg.wasm) bytes ($(gzip -9 < pkg/gpgpu_matrix_bg.wasm | wc -c) gzipped)"
