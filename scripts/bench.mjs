#!/usr/bin/env node
// `make bench`: serves the repository (scripts/serve.py), opens the bench page's systems
// suite (www/bench/index.html?suite=systems) in Debian's headless Chromium (playwright-core,
// the page tests' harness), streams the page's progress lines, collects its result JSON and
// writes bench/results/ (JSON, markdown, SVG plot; see scripts/bench/write-results.mjs). No
// --virtual-time-budget, background throttling off (tests/e2e/harness.mjs CHROMIUM_ARGS),
// WebGPU on SwiftShader (WEBGPU_ARGS).
//
//   node scripts/bench.mjs [--sizes 64,128,...] [--repeats 5 (at least)] [--cap 20] [--modes single,chain]
//       [--passes 4] [--systems S,...] [--skip S,...] [--webgpu] [--all-systems] [--no-async] [--no-compute]
//       [--min-sample 25] [--js-max 1024] [--seed 1] [--sample-rows 64]
//       [--query 'k=v&...' (any of the systems suite's parameters)]
//       [--label L] [--tag T] [--timeout-min 90] [--out DIR]
//     results go to bench/results/<day>-<label>.{json,md,svg} (-2, -3, … if that exists)
//     systems are matched by substring of their ids: gpgpu:<kernel>[:async] (WebGL), gpgpu-webgpu:<kernel>
//       (global, tiled16, register), tfjs-webgl[:async], tfjs-webgpu, tfjs-wasm, gpujs, js-f64;
//       e.g. --skip async,js-f64, or only the WebGPU systems: --systems webgpu --sizes 256,512
//     --webgpu: the WebGPU systems and WebGL blocked8 for contrast (--systems webgpu,gpgpu:blocked8
//       --skip blocked8:async), e.g. node scripts/bench.mjs --webgpu --sizes 256,512
//     without --systems / --skip the async twins of naive, packed and blocked4 are left out
//       (www/bench/systems-params.js DEFAULT_SKIP: a full SwiftShader run stays under ~25 min); --all-systems keeps them
//     --no-compute leaves out the chain's compute-only numbers (wall clock and GPU timestamps)
//   node scripts/bench.mjs --from-json RESULT.json [--tag T]   post-process a result (e.g. from the GPU)
//   node scripts/bench.mjs --stage-gpu [--sizes 1024,2048,4096 ...] [--secs 540]
//       copies the untracked files the page needs (www/pkg, node_modules/*/dist) into
//       .gpuchrome/extra/, writes .gpuchrome/run-on-gpu-bench.sh (run-on-gpu.sh with
//       --enable-webgpu-developer-features added) and prints the two device calls
//       (../shared/gpu-browser/README.md); the page starts no new configuration after
//       SECS - 90 s (?deadline=), so it always posts; it heats the GPU 1.5 s before each
//       compute-only sample (?heat=1500) unless the query says otherwise
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ROOT, writeResults } from './bench/write-results.mjs';
import { readParams } from '../www/bench/systems-params.js';
import { untrackedPageFiles } from './bench/page-files.mjs';
import { gpuQuery, withDeveloperFeatures } from './bench/gpu-script.mjs';

const HELP = readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(1)
  .filter((l, k, all) => all.slice(0, k + 1).every((m) => m.startsWith('//'))).map((l) => l.slice(3)).join('\n');

/**
 * WebGPU for a local run: SwiftShader's adapter, like WebGL's (TOOLCHAIN.md). Chromium
 * quantises WebGPU timestamp queries (Dawn's timestamp_quantization toggle: raw values
 * masked to multiples of 65 536 ns) only at its "safe" WebGPU level; --enable-unsafe-webgpu
 * and --enable-webgpu-developer-features each lift it. Both are passed, and the page checks
 * the raw timestamps itself (env.webgpuTimestamps in the result).
 */
const WEBGPU_ARGS = ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--enable-webgpu-developer-features'];

function parseArgs(argv) {
  const a = { query: new URLSearchParams(), timeoutMin: 90 };
  const take = (i) => {
    if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`);
    return argv[i + 1];
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const pass = { '--sizes': 'sizes', '--repeats': 'repeats', '--cap': 'cap', '--modes': 'modes',
      '--passes': 'passes', '--systems': 'systems', '--skip': 'skip', '--label': 'label', '--seed': 'seed',
      '--sample-rows': 'sampleRows', '--js-max': 'jsMax', '--min-sample': 'minSample' }[k];
    if (pass) { a.query.set(pass, take(i)); i++; continue; }
    switch (k) {
      case '--no-async': a.query.set('async', '0'); break;
      case '--no-compute': a.query.set('compute', '0'); break;
      case '--all-systems': a.query.set('skip', ''); break;
      case '--webgpu': a.query.set('systems', 'webgpu,gpgpu:blocked8'); a.query.set('skip', 'blocked8:async'); break;
      case '--query': for (const [qk, qv] of new URLSearchParams(take(i))) a.query.set(qk, qv); i++; break;
      case '--tag': a.tag = take(i); i++; break;
      case '--timeout-min': a.timeoutMin = Number(take(i)); i++; break;
      case '--out': a.out = resolve(take(i)); i++; break;
      case '--from-json': a.fromJson = take(i); i++; break;
      case '--stage-gpu': a.stageGpu = true; break;
      case '--secs': a.secs = Number(take(i)); i++; break;
      case '-h': case '--help': a.help = true; break;
      default:
        if (k === '') break;
        throw new Error(`unknown argument ${k} (see --help)`);
    }
  }
  return a;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const stamp = (t0) => `${((Date.now() - t0) / 1000).toFixed(0).padStart(5)}s`;

// --- the GPU machine: files the page loads that git does not track -------------------------------

function stageGpu(args) {
  const gc = process.env.GPUCHROME_DIR || join(ROOT, '.gpuchrome'); // (another folder: to try the staging)
  if (!existsSync(join(gc, 'run-on-gpu.sh'))) {
    throw new Error('.gpuchrome/ is not prepared: run `bash ../shared/gpu-browser/prepare.sh` first (see its README)');
  }
  if (!existsSync(join(ROOT, 'www', 'pkg', 'gpgpu_matrix.js'))) throw new Error('www/pkg is missing: run `make build` first');
  let bytes = 0;
  // The run script with --enable-webgpu-developer-features (scripts/bench/gpu-script.mjs).
  const dev = withDeveloperFeatures(readFileSync(join(gc, 'run-on-gpu.sh'), 'utf8'));
  if (!dev.added) console.log('WARNING: run-on-gpu.sh has no --enable-unsafe-webgpu to extend; run-on-gpu-bench.sh is a plain copy');
  writeFileSync(join(gc, 'run-on-gpu-bench.sh'), dev.script);
  const browserFlags = dev.browserFlags;
  rmSync(join(gc, 'extra'), { recursive: true, force: true });
  for (const f of untrackedPageFiles()) {
    const dst = join(gc, 'extra', f);
    mkdirSync(dirname(dst), { recursive: true });
    copyFileSync(join(ROOT, f), dst);
    bytes += statSync(dst).size;
    console.log(`staged ${f}`);
  }
  const secs = args.secs || 540;
  const q = gpuQuery(args.query, browserFlags, secs);
  const partB = statSync(join(gc, 'gpuchrome.tar.xz.part-ab')).size;
  console.log(`\n.gpuchrome/extra: ${(bytes / 2 ** 20).toFixed(1)} MiB (+ part-ab ${(partB / 2 ** 20).toFixed(1)} MiB; the device tool carries 64 MiB a call)`);
  console.log(`\nThen two device calls, the second within 30 s of the first:
  1. run  carry [".gpuchrome/gpuchrome.tar.xz.part-aa", ".gpuchrome/SHA256SUMS", ".gpuchrome/run-on-gpu-bench.sh", ".gpuchrome/serve.py"]
          command: bash .gpuchrome/run-on-gpu-bench.sh stash
  2. run  carry [".gpuchrome/gpuchrome.tar.xz.part-ab", ".gpuchrome/SHA256SUMS", ".gpuchrome/run-on-gpu-bench.sh", ".gpuchrome/serve.py", ".gpuchrome/extra"]
          command: bash .gpuchrome/run-on-gpu-bench.sh run "www/bench/index.html?suite=systems&${q}" ${secs}
  and post-process what comes back:  node scripts/bench-from-json.mjs <files_at>/result.json`);
}

// --- a local run -----------------------------------------------------------------------------------

async function runLocal(args) {
  if (!existsSync(join(ROOT, 'www', 'pkg', 'gpgpu_matrix.js'))) throw new Error('www/pkg is missing: run `make build` first');
  // Imported here so --from-json / --stage-gpu need no browser.
  const { startServer, openPage, CHROMIUM_ARGS } = await import('../tests/e2e/harness.mjs');
  const { chromium } = await import('playwright-core');
  const t0 = Date.now();
  const loadStart = loadavg().map((l) => +l.toFixed(2));
  const server = await startServer();
  const chromiumArgs = [...new Set([...CHROMIUM_ARGS, ...WEBGPU_ARGS])]; // (the harness may carry some of them)
  const query = new URLSearchParams(args.query);
  if (!query.has('browserFlags')) query.set('browserFlags', WEBGPU_ARGS.join(','));
  if (!query.has('sizes') && !query.has('post')) query.set('run', '1');
  let browser;
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: chromiumArgs });
    const url = `${server.origin}/www/bench/index.html?suite=systems&${query}`;
    console.log(`bench: ${url}  (Chromium ${browser.version()})`);
    const page = await openPage(browser, url);
    page.on('crash', () => console.log('bench: the page crashed'));
    let printed = 0, status = '';
    const deadline = t0 + args.timeoutMin * 60_000;
    while (true) {
      const { lines, st } = await page.evaluate(
        (k) => ({ lines: (window.benchLog || []).slice(k), st: document.body.dataset.status || '' }), printed);
      for (const l of lines) console.log(`[${stamp(t0)}] ${l}`);
      printed += lines.length;
      if (st === 'done' || st === 'error') { status = st; break; }
      if (Date.now() > deadline) { status = 'timeout'; break; }
      await sleep(1000);
    }
    const result = await page.evaluate(() => window.benchResult);
    const problems = page.problems();
    const foreign = page.origins().filter((o) => o !== server.origin);
    if (problems.length) console.log(`bench: page problems:\n  ${problems.join('\n  ')}`);
    if (foreign.length) console.log(`bench: WARNING: requests left the page's origin: ${foreign.join(', ')}`);
    if (status === 'timeout') {
      console.log(`bench: gave up after ${args.timeoutMin} min (--timeout-min); partial results are not written`);
      return 1;
    }
    if (!result) { console.log('bench: the page produced no result'); return 1; }
    if (!result.records?.length) { console.log(`bench: nothing was measured${result.error ? ` (${result.error})` : ''}; no results written`); return 1; }
    const host = { cpu: cpus()[0]?.model || 'unknown', cpus: cpus().length, loadStart, loadEnd: loadavg().map((l) => +l.toFixed(2)) };
    result.env = { ...result.env, runner: 'scripts/bench.mjs', chromiumVersion: browser.version(), chromiumArgs, offOriginRequests: foreign, host };
    writeResults(result, { outDir: args.out, tag: args.tag });
    return status === 'done' ? 0 : 1;
  } finally {
    await browser?.close();
    server.stop();
  }
}

async function main() {
  let args;
  try { args = parseArgs(process.argv.slice(2)); } catch (e) { console.error(`bench: ${e.message}`); return 2; }
  if (args.help) { console.log(HELP); return 0; }
  if (args.fromJson) {
    const result = JSON.parse(readFileSync(args.fromJson, 'utf8'));
    writeResults(result, { outDir: args.out, tag: args.tag });
    return result.error ? 1 : 0;
  }
  // A value the page would refuse stops here, before a browser starts.
  const { problems } = readParams(`?${args.query}`);
  if (problems.length) { console.error(`bench: ${problems.join('\nbench: ')}`); return 2; }
  if (args.stageGpu) { stageGpu(args); return 0; }
  return runLocal(args);
}

main().then((code) => process.exit(code), (e) => { console.error(`bench: ${e?.stack || e}`); process.exit(1); });

