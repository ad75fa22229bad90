#!/usr/bin/env bash
# Turns cargo's release wasm into the ES module + .wasm + .d.ts that the page (www/pkg)
# and the npm package (pkg/) ship:
#   scripts/bindgen.sh OUT_DIR
# 1. wasm-opt -Oz (Debian's binaryen) on cargo's output, BEFORE wasm-bindgen: binaryen 108
#    writes the export of a second table with the first table's index, which breaks
#    wasm-bindgen's externref table when run on wasm-bindgen's output ("WebAssembly.Table.set():
#    Argument 1 is invalid for table"); on cargo's output there is only the function table.
#    -Oz, not -O3: measured the same page speed and 20 KB smaller (bench/NOTES.md, "wasm size").
# 2. wasm-bindgen without the name and producers sections (names only served stack traces
#    of panics: 177 KB of the 1 MB file).
# 3. scripts/glue-freed.py on the JS glue: freed objects' calls are GpgpuError FREED.
# 4. scripts/short-imports.py: the imports from the glue renamed a, b, ... in both files.
# Skips step 1, saying so, where wasm-opt is missing (scripts/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: scripts/bindgen.sh OUT_DIR}
TARGET_DIR=${CARGO_TARGET_DIR:-target}
WASM="$TARGET_DIR/wasm32-unknown-unknown/release/gpgpu_matrix.wasm"
[ -f "$WASM" ] || { echo "no $WASM: run cargo build --release --target wasm32-unknown-unknown --lib first" >&2; exit 1; }
# Up to date (cargo's output and this script older than what they made): nothing to do,
# so that make test's build step does not pay wasm-opt's ~10 s again.
if [ "$OUT/gpgpu_matrix_bg.wasm" -nt "$WASM" ] && [ "$OUT/gpgpu_matrix_bg.wasm" -nt "$0" ] \
  && [ "$OUT/gpgpu_matrix_bg.wasm" -nt scripts/glue-freed.py ] \
  && [ "$OUT/gpgpu_matrix_bg.wasm" -nt scripts/short-imports.py ] \
  && [ -f "$OUT/gpgpu_matrix.js" ] && [ -f "$OUT/gpgpu_matrix.d.ts" ]; then
  exit 0
fi
# The file keeps its name: wasm-bindgen names the module after it.
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if command -v wasm-opt >/dev/null; then
  # The features rustc turns on for wasm32-unknown-unknown (its target_features section).
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$WASM" -o "$TMP/gpgpu_matrix.wasm"
else
  echo "== wasm-opt not found (Debian package binaryen): the wasm is left unoptimised" >&2
  cp "$WASM" "$TMP/gpgpu_matrix.wasm"
fi
wasm-bindgen --target web --remove-name-section --remove-producers-section \
  --out-dir "$OUT" "$TMP/gpgpu_matrix.wasm"
# 3. A freed object's calls throw a GpgpuError with code FREED, and a second free() does
#    nothing, instead of wasm-bindgen's plain "null pointer passed to rust" (the script
#    says how; it stops the build if wasm-bindgen's output no longer matches).
python3 scripts/glue-freed.py "$OUT/gpgpu_matrix.js"
# 4. The imports' 16-digit hashed names and module path, ~6 KB of the gzipped wasm.
python3 scripts/short-imports.py "$OUT"
