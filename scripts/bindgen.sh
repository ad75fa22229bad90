#!/usr/bin/env bash
# Turns cargo's release wasm into the ES module + .wasm + .d.ts that the page (www/pkg)
# and the npm package (pkg/) ship:
#   scripts/bindgen.sh OUT_DIR
# 1. wasm-opt -Oz (Debian's binaryen) on cargo's output. -Oz, not -O3: measured the same
#    page speed and 20 KB smaller (bench/NOTES.md, "wasm size").
# 2. wasm-bindgen without the name and producers sections (names only served stack traces
#    of panics: 177 KB of the 1 MB file).
# 3. scripts/glue-freed.py on the JS glue: freed objects' calls are GpgpuError FREED.
# 4. wasm-opt -Oz again, on wasm-bindgen's output (its shims and the code its interpreter
#    left): 3.1 KB gzipped less. Binaryen 108 then points the export of wasm-bindgen's
#    externref table at the function table, which step 5 mends.
# 5. scripts/short-names.py: the imports from the glue and the exports to it renamed a, b,
#    ..., and the externref table's export pointed at that table again.
# Skips steps 1 and 4, saying so, where wasm-opt is missing (scripts/setup.sh installs it).
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
  && [ "$OUT/gpgpu_matrix_bg.wasm" -nt scripts/short-names.py ] \
  && [ -f "$OUT/gpgpu_matrix.js" ] && [ -f "$OUT/gpgpu_matrix.d.ts" ]; then
  exit 0
fi
# The file keeps its name: wasm-bindgen names the module after it.
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The features rustc turns on for wasm32-unknown-unknown (its target_features section).
optimise() {
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue "$1" -o "$2"
}
if command -v wasm-opt >/dev/null; then
  optimise "$WASM" "$TMP/gpgpu_matrix.wasm"
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
if command -v wasm-opt >/dev/null; then
  optimise "$OUT/gpgpu_matrix_bg.wasm" "$TMP/bound.wasm"
  mv "$TMP/bound.wasm" "$OUT/gpgpu_matrix_bg.wasm"
fi
# 5. The imports' 16-digit hashed names and module path, ~6 KB of the gzipped wasm; the
#    exports' names, 1.3 KB more; the externref table's export.
python3 scripts/short-names.py "$OUT"
