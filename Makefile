# gpgpu-matrix. The two commands of the README:
#   make serve   build the wasm and serve the page on http://127.0.0.1:8000/
#   make test    every check: fmt, clippy (host + wasm), native tests, browser tests (Chromium,
#                Firefox, WebKit), page tests
SHELL := /bin/bash
export PATH := $(HOME)/.cargo/bin:$(PATH)
WASM_TARGET := wasm32-unknown-unknown
# cargo's output folder (CARGO_TARGET_DIR when set, as in a worktree sharing a build folder)
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
PORT ?= 8000

# Browser tests: Debian's chromedriver, SwiftShader flags from webdriver.json.
export CHROMEDRIVER ?= /usr/bin/chromedriver
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER := wasm-bindgen-test-runner
export WASM_BINDGEN_TEST_WEBDRIVER_JSON := $(CURDIR)/webdriver.json
# The runner's timeout covers a whole test crate, not one test (measured: 0.2.130 in
# headless mode), and the suites are gathered into one crate per backend
# (tests/browser_webgl.rs, tests/browser_webgpu.rs) that run for minutes on SwiftShader.
export WASM_BINDGEN_TEST_TIMEOUT ?= 1200
# The same test binaries in the other engines, on an Xvfb display (xvfb-run -a): Firefox
# ESR through geckodriver (crates.io; its WebGL2 needs a display even headless, its
# WebGPU the preferences in webdriver-firefox.json), WebKitGTK through WebKitWebDriver,
# which the runner drives as it drives safaridriver (it sends no capabilities; the
# driver's default browser is MiniBrowser in automation mode). WebKitGTK has no WebGPU.
GECKODRIVER ?= $(HOME)/.cargo/bin/geckodriver
# Firefox runs every suite whole. Its WebGPU answers each wait (mapAsync,
# onSubmittedWorkDone) on a 100 ms timer in its GPU process, or when work is submitted
# (Mozilla bug 1870699): before the library nudged it with empty command buffers while a
# wait lasts (src/webgpu/nudge.rs), each async round trip took about 100 ms on lavapipe,
# the whole WebGPU suite 13½ minutes and a leak check of a thousand calls 101 s; now
# 1.1 s, and the suite's 190 tests 86 s (123 s in a busier spell; the 35 of the sample
# it replaces took about 60 s). This target took 246 s here, its build and the npm
# check included: CPU 34 s, WebGL 62 s, WebGPU 86 s of tests.
# The whole suite found what Chromium's SwiftShader does not: lavapipe ends a shader's
# loops after 65,535 iterations in all, silently, so a product whose k ran longer lacked
# its last terms (the register kernel's CPU form splits k into passes; global and
# tiled16, which loop once per k, get k cut into tiles: products::a_long_k_is_summed_in_full;
# a run, holding its matrices whole, refuses such a k:
# products::a_run_of_a_teaching_kernel_refuses_a_k_a_software_adapter_cuts_short); Firefox fails a
# destroyed device's mapAsync ("Buffer unmapped", "Invalid buffer") before its loss is
# seen, which reads called WEBGPU_ERROR, not DEVICE_LOST (now given the loss's moment:
# device::a_destroyed_device_is_device_lost_and_the_next_call_gets_a_new_one), and
# reports the queue's work done before the loss, so a run's whenDone in flight then
# resolves (device::a_runs_reads_in_flight_at_a_loss_are_device_lost; its reads are
# DEVICE_LOST); lavapipe gives the 1 GiB buffer that SwiftShader refuses, so the
# OUT_OF_MEMORY check is skipped there, saying why. The page tests run both
# backends in Firefox. Its WebGL suite once hung with nothing using the CPU in
# leaks::a_thousand_blocking_calls_leave_the_same_live_objects_as_one (1,000 blocking
# products, each a synchronous readPixels), cause not found; since a freed engine's
# context goes to the next engine it passed 3 runs of 3 (70-92 s), the hang not seen
# again. Each Firefox suite runs in about 2 minutes: a hang fails after 10, not 20.
FIREFOX_SUITES := browser_cpu browser_panic_hook browser_webgl browser_webgpu
FIREFOX_ENV = GECKODRIVER=$(GECKODRIVER) WASM_BINDGEN_TEST_TIMEOUT=600 \
	WASM_BINDGEN_TEST_WEBDRIVER_JSON=$(CURDIR)/webdriver-firefox.json
# WebKitGTK's WebGL suite found that WebKit counts a context lost through
# WEBGL_lose_context until it is garbage collected (38 of its 150 tests were CONTEXT_LOST
# until a freed engine's context went to the next engine: src/gl/context.rs).
WEBKIT_SUITES := browser_cpu browser_webgl
# --nocapture shows each skipped test's reason (common::skipped_without); the lines it
# also shows for every test (its start, its time) are dropped.
# $(1): the driver's variables, $(2): the suites, $(3): more of the runner's arguments.
OTHER_ENGINE = set -o pipefail; $(1) xvfb-run -a cargo test --target $(WASM_TARGET) \
	$(foreach t,$(2),--test $(t)) -- --nocapture $(3) 2>&1 | grep -Ev '^(Invoking test: |\s*browser_[a-z_]+::\S+: [0-9]+ ms$$)'

.PHONY: setup setup-test build pkg serve test lint test-native test-browser test-browser-firefox test-browser-webkit test-e2e bench bench-blocks bench-batched bench-devices report clean bench-lu bench-sparse bench-lab

setup:
	@scripts/setup.sh build

setup-test:
	@scripts/setup.sh test

# wasm-opt -Oz, wasm-bindgen without the name section, wasm-opt again (scripts/bindgen.sh says why).
build: setup
	cargo build --release --target $(WASM_TARGET) --lib
	scripts/bindgen.sh www/pkg

# The npm package in pkg/ (wasm-pack's layout; `npm pack ./pkg` makes the tarball).
pkg: build
	scripts/pkg.sh

serve: build
	python3 scripts/serve.py --port $(PORT)

lint: setup
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy --workspace --all-targets --target $(WASM_TARGET) -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet
	@# A syntax error in one page module stops the whole page: catch it in a second.
	@# (In git's pathspecs * crosses /: www/*.js takes www/app/, www/bench/, … too.)
	@for f in $$(git ls-files 'www/*.js' 'scripts/*.mjs' 'scripts/bench/*.mjs' 'tests/e2e/*.mjs'); do \
	  node --check "$$f" || exit 1; done

test-native:
	cargo test --workspace --lib
	cargo test --workspace --doc

test-browser: setup-test
	cargo test --target $(WASM_TARGET) --test '*'

test-browser-firefox: setup-test
	$(call OTHER_ENGINE,$(FIREFOX_ENV),$(FIREFOX_SUITES))

test-browser-webkit: setup-test
	$(call OTHER_ENGINE,SAFARIDRIVER=/usr/bin/WebKitWebDriver,$(WEBKIT_SUITES))

test-e2e: setup-test pkg
	node tests/e2e/run.mjs

test: setup-test lint test-native test-browser test-browser-firefox test-browser-webkit test-e2e
	@echo "== all tests passed"

# Benchmarks (not part of `make test`), each a suite of the bench page www/bench/index.html
# (?suite=systems, the default, for make bench): make bench ARGS="--sizes 64,128,256"
bench: setup-test build
	node scripts/bench.mjs $(ARGS)

# The block-sparse bench (www/bench/index.html?suite=blocks: t against P, crossover density,
# the CUDA report's table): make bench-blocks ARGS="--query 'parts=fit&blocks=8'"
bench-blocks: setup-test build
	node scripts/bench-blocks.mjs $(ARGS)

# The batched small-matrix bench (www/bench/index.html?suite=batched: RANSAC's fit and
# scoring passes, the batched SVD against the exact solve, SVDs/s, k×k products):
# make bench-batched ARGS="--query 'parts=ransac'"
bench-batched: setup-test build
	node scripts/bench-batched.mjs $(ARGS)

# The several-devices bench (www/bench/index.html?suite=devices: the CPU backend against
# TF.js WASM at the same thread count, the course report's ratio sweep, 'auto' against the
# best ratio): make bench-devices ARGS="--query 'parts=cpu&sizes=1024'"
bench-devices: setup-test build
	node scripts/bench-devices.mjs $(ARGS)

# The LU bench (www/bench/index.html?suite=lu: gpu.luAsync GFLOP/s against n on both
# backends, with the float64 residual): make bench-lu ARGS="--query 'sizes=64,256&backends=webgpu'"
bench-lu: setup-test build
	node scripts/bench-lu.mjs $(ARGS)

# The kernel lab's reference solutions against the library's kernels, as GFLOP/s and ratio
# (checkKernelAsync, timed at the size it picks): make bench-lab ARGS="--query 'exercises=tiled'"
bench-lab: setup-test build
	node scripts/bench-lab.mjs $(ARGS)

# The SpMV bench (www/bench/index.html?suite=sparse: GB/s against nnz beside the same
# device's streaming ceiling): make bench-sparse ARGS="--query 'nnzMax=1e6'"
bench-sparse: setup-test build
	node scripts/bench-sparse.mjs $(ARGS)

# The teaching page headless with one configuration: prints the comparison table and
# saves a screenshot under reports/ (make report ARGS="n=512&op=power&p=5").
report: setup-test build
	node scripts/report.mjs "$(ARGS)"

clean:
	cargo clean
	rm -rf www/pkg pkg
