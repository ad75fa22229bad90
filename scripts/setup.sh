#!/usr/bin/env bash
# Installs what the build and the tests need, skipping what is already there.
#   scripts/setup.sh build    rust wasm target + the pinned wasm-bindgen-cli
#   scripts/setup.sh test     the above + Debian chromium/chromedriver, firefox-esr, webkit2gtk-driver
#                             and xvfb, geckodriver (crates.io) + npm packages
set -euo pipefail
cd "$(dirname "$0")/.."
WASM_BINDGEN_VERSION=0.2.130
export PATH="$HOME/.cargo/bin:$PATH"

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "== installing the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  # No --locked: its lockfile wants a webpki-roots the registry mirror lacks.
  echo "== installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi
if ! command -v wasm-opt >/dev/null; then
  # Shrinks the wasm (scripts/bindgen.sh); Debian's binaryen.
  echo "== installing binaryen (wasm-opt) from Debian"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q binaryen
fi
# The kernel lab's editor, CodeMirror 6, which www/lab.html serves from node_modules
# (an import map: no CDN, so the page works offline); npm ci also brings the test tools.
if [ ! -d node_modules/@codemirror/view ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== installing npm packages (CodeMirror for the kernel lab, playwright-core for the tests)"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
fi
[ "${1:-build}" = test ] || exit 0

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  echo "== installing chromium and chromium-driver from Debian"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver
fi
# Firefox ESR: one of the engines the page tests run in (tests/e2e/engines.mjs).
if ! command -v firefox-esr >/dev/null; then
  echo "== installing firefox-esr from Debian"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q firefox-esr
fi
# WebKitGTK: WebKitWebDriver and MiniBrowser, under Xvfb (tests/e2e/engines.mjs).
if ! command -v WebKitWebDriver >/dev/null || ! command -v xvfb-run >/dev/null; then
  echo "== installing webkit2gtk-driver and xvfb from Debian"
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q webkit2gtk-driver xvfb
fi
# geckodriver: wasm-bindgen-test-runner drives Firefox through it (make test-browser-firefox).
# Not in Debian 12; crates.io's, about 10 minutes to build on 2 cores.
if ! command -v geckodriver >/dev/null; then
  echo "== installing geckodriver from crates.io (about 10 minutes)"
  cargo install geckodriver --locked
fi
# Every devDependency (playwright-core drives Debian's chromium; axe-core checks the page's
# accessibility): a node_modules from before one was added lacks it.
missing=$(node -e 'const p = require("./package.json"), fs = require("fs");
  console.log(Object.keys(p.devDependencies).filter((d) => !fs.existsSync(`node_modules/${d}/package.json`)).join(" "))')
if [ -n "$missing" ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== installing npm packages${missing:+ (missing: $missing)}"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
fi
