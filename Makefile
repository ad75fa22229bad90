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
# Firefox's WebGPU suite runs a sample, FIREFOX_WEBGPU_TESTS (one to three tests of each
# module), the rest are Chromium's: on lavapipe each async round trip takes about 110 ms,
# and the whole suite (181 tests) took 13½ minutes here, each leak check of a thousand
# calls about 105 s; the sample's 35 took about 60 s, 65-70 with Firefox's start. The
# whole suite found that lavapipe ends a shader's loops after 65,535 iterations in all,
# silently: a product whose k ran longer lacked its last terms (the register kernel's
# CPU form now splits k: products::a_long_k_is_summed_in_full), and that Firefox fails
# a destroyed device's mapAsync ("Buffer unmapped", "Invalid buffer") before its loss
# is seen, which reads called WEBGPU_ERROR, not DEVICE_LOST (now given the loss's
# moment: device::a_destroyed_device_is_device_lost_and_the_next_call_gets_a_new_one).
# Left out of the sample, failing in Firefox only, open:
# errors::the_largest_dimension_works_and_one_more_is_tiled (the same loop limit in the
# teaching kernel global, kept line for line with its CUDA, at k = 1,048,560),
# device::a_runs_reads_in_flight_at_a_loss_are_device_lost (its whenDone resolves: the
# queue's work done is reported before the loss),
# a_buffer_the_gpu_cannot_hold_is_out_of_memory_and_the_next_call_works (lavapipe holds
# it) and nudged_readbacks_resolve_and_the_nudging_stops_when_nothing_waits (it asks for
# Chromium's brand). The page tests run both
# backends in Firefox. Its WebGL suite once hung with nothing using the CPU in
# leaks::a_thousand_blocking_calls_leave_the_same_live_objects_as_one (1,000 blocking
# products, each a synchronous readPixels), cause not found; since a freed engine's
# context goes to the next engine it passed 3 runs of 3 (70-92 s), the hang not seen
# again. Each Firefox suite runs in about 2 minutes: a hang fails after 10, not 20.
FIREFOX_SUITES := browser_cpu browser_panic_hook browser_webgl
FIREFOX_WEBGPU_TESTS := \
	applications::inverse_and_eigen_refuse_unbounded_counts \
	async_and_runs::an_array_over_wasm_memory_is_read_when_its_copy_grows_memory \
	async_and_runs::stats_count_nan_and_infinity \
	async_and_runs::heatmaps_are_drawn_from_gpu_memory_with_row_zero_on_top \
	async_and_runs::a_run_steps_pass_by_pass_with_stats_and_timers \
	batched::batched_products_match_the_reference \
	blocks::tiled_products_match_the_reference \
	boolean_staged::boolean_products_at_n_257 \
	chains::powers_by_binary_exponentiation \
	device::a_destroyed_device_is_device_lost_and_the_next_call_gets_a_new_one \
	device::a_replacement_that_fails_is_the_next_calls_error \
	device::a_wgsl_error_is_shader_compile_with_the_compilers_messages \
	device::large_transfers_reuse_their_staging_buffers_with_fresh_data \
	errors::lengths_counts_and_arguments_are_checked \
	graphs::shortest_paths_match_floyd_warshall \
	iterations::jacobi_records_x_when_asked \
	lab::lab_a_loss_during_a_check_is_its_error_and_the_next_check_passes \
	lab::lab_compile_errors_land_on_their_line \
	linear::factorizations_match_the_reference \
	mesh::cannon_nodes_hold_a_i_i_plus_j_and_b_i_plus_j_j_after_the_skew \
	min_plus_staged::min_plus_products_at_n_257 \
	products::multiply_matches_the_f64_reference \
	products::a_long_k_is_summed_in_full \
	products::non_square_products \
	products_double::whole_tiles_run_the_double_buffered_pipeline \
	products_narrow::square_matches_the_f64_reference \
	products_staged::multiply_matches_the_f64_reference \
	products_staged64::square_matches_the_f64_reference \
	products_stream_k::stream_k_products_match_the_reference \
	programs::supplied_products_match_the_reference \
	ransac::outliers_and_noise_leave_the_true_inliers \
	semirings::min_plus_products_at_n_257 \
	semirings::boolean_products_in_every_kernel \
	sparse::spmv_matches_the_float64_reference \
	svd::svds_match_the_reference
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

# wasm-opt -Oz, then wasm-bindgen without the name section (scripts/bindgen.sh says why).
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

# The WebGPU sample: the runner takes one filter, so every other test of the crate (its
# --list) is skipped by name; the list left must be the sample exactly (a renamed test
# fails here, not silently).
test-browser-firefox: setup-test
	$(call OTHER_ENGINE,$(FIREFOX_ENV),$(FIREFOX_SUITES))
	@list() { cargo test --target $(WASM_TARGET) --test browser_webgpu -- --list "$$@" 2>/dev/null \
	    | sed -n 's/: test$$//p' | sort; }; \
	want=$$(printf '%s\n' $(FIREFOX_WEBGPU_TESTS) | sort); all=$$(list); \
	skip=$$(comm -23 <(echo "$$all") <(echo "$$want") | sed 's/^/--skip /'); \
	if [ "$$(list $$skip)" != "$$want" ]; then \
	  echo "FIREFOX_WEBGPU_TESTS is not what --skip leaves:"; diff <(list $$skip) <(echo "$$want"); exit 1; fi; \
	echo "Firefox WebGPU: $(words $(FIREFOX_WEBGPU_TESTS)) of $$(echo "$$all" | wc -l) tests, the rest are Chromium's: each async call takes ~110 ms on lavapipe"; \
	$(call OTHER_ENGINE,$(FIREFOX_ENV),browser_webgpu,$$skip)

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
