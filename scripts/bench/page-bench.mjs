// One command line for the benches that run a suite of the bench page (scripts/bench-blocks.mjs,
// scripts/bench-batched.mjs, …): the page in Debian's headless Chromium (the page tests'
// harness, WebGL2 and WebGPU on SwiftShader), its progress lines streamed, its result
// written to bench/results/ (write-results.mjs with the page's own report and plot); or a
// result from the GPU post-processed; or the page staged for ../shared/gpu-browser.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ROOT, writeResults } from './write-results.mjs';
import { withDeveloperFeatures } from './gpu-script.mjs';
import { pkgFiles } from './page-files.mjs';

/** The bench page: every suite's (www/bench/index.html?suite=…). */
const PAGE = 'www/bench/index.html';

/** The page's query for suite `b`: suite= first, then `query` (a suite= in it is b's). */
function suiteQuery(b, query) {
  const q = new URLSearchParams({ suite: b.suite });
  for (const [k, v] of query) q.append(k, v);
  q.set('suite', b.suite);
  return q;
}

/** A script's header comment, the --help text. */
function helpOf(scriptUrl) {
  return readFileSync(new URL(scriptUrl), 'utf8').split('\n').slice(1)
    .filter((l, k, all) => all.slice(0, k + 1).every((m) => m.startsWith('//'))).map((l) => l.slice(3)).join('\n');
}

const WEBGPU_ARGS = ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--enable-webgpu-developer-features'];

function parseArgs(argv, timeoutMin) {
  const a = { query: new URLSearchParams(), timeoutMin };
  const take = (i) => { if (i + 1 >= argv.length) throw new Error(`${argv[i]} needs a value`); return argv[i + 1]; };
  for (let i = 0; i < argv.length; i++) {
    switch (argv[i]) {
      case '--query': for (const [k, v] of new URLSearchParams(take(i))) a.query.set(k, v); i++; break;
      case '--label': a.query.set('label', take(i)); i++; break;
      case '--timeout-min': a.timeoutMin = Number(take(i)); i++; break;
      case '--out': a.out = resolve(take(i)); i++; break;
      case '--from-json': a.fromJson = take(i); i++; break;
      case '--stage-gpu': a.stageGpu = true; break;
      case '--secs': a.secs = Number(take(i)); i++; break;
      case '-h': case '--help': a.help = true; break;
      case '': break;
      default: throw new Error(`unknown argument ${argv[i]} (see --help)`);
    }
  }
  return a;
}

function stageGpu(b, args) {
  const gc = process.env.GPUCHROME_DIR || join(ROOT, '.gpuchrome');
  if (!existsSync(join(gc, 'run-on-gpu.sh'))) throw new Error('.gpuchrome/ is not prepared: run `bash ../shared/gpu-browser/prepare.sh` first');
  if (!existsSync(join(ROOT, 'www', 'pkg', 'gpgpu_matrix.js'))) throw new Error('www/pkg is missing: run `make build` first');
  const dev = withDeveloperFeatures(readFileSync(join(gc, 'run-on-gpu.sh'), 'utf8'));
  writeFileSync(join(gc, 'run-on-gpu-bench.sh'), dev.script);
  rmSync(join(gc, 'extra'), { recursive: true, force: true });
  let bytes = 0;
  for (const f of pkgFiles()) {
    mkdirSync(dirname(join(gc, 'extra', f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(gc, 'extra', f));
    bytes += statSync(join(gc, 'extra', f)).size;
  }
  // The page and the modules it imports, so that it runs even where the carried checkout
  // lacks them (a helper's branch not merged yet).
  const modules = (dir) => readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.js')).map((f) => `${dir}/${f}`);
  const page = [PAGE, ...b.extraFiles, ...modules('www'), ...modules('www/bench')];
  for (const f of page) {
    mkdirSync(dirname(join(gc, 'extra', f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(gc, 'extra', f));
    bytes += statSync(join(gc, 'extra', f)).size;
  }
  const secs = args.secs || 540;
  const q = suiteQuery(b, args.query);
  if (!q.has('profile')) q.set('profile', 'gpu');
  q.set('post', '1');
  if (!q.has('deadline')) q.set('deadline', String(Math.max(60, secs - 150)));
  if (!q.has('watchdog')) q.set('watchdog', '150');
  if (!q.has('browserFlags')) q.set('browserFlags', dev.browserFlags.join(','));
  console.log(`staged www/pkg and the page (${(bytes / 2 ** 20).toFixed(1)} MiB) in .gpuchrome/extra`);
  console.log(`\nThen two device calls, the second within 30 s of the first:
  1. run  carry [".gpuchrome/gpuchrome.tar.xz.part-aa", ".gpuchrome/SHA256SUMS", ".gpuchrome/run-on-gpu-bench.sh", ".gpuchrome/serve.py"]
          command: bash .gpuchrome/run-on-gpu-bench.sh stash
  2. run  carry [".gpuchrome/gpuchrome.tar.xz.part-ab", ".gpuchrome/SHA256SUMS", ".gpuchrome/run-on-gpu-bench.sh", ".gpuchrome/serve.py", ".gpuchrome/extra"]
          command: bash .gpuchrome/run-on-gpu-bench.sh run "${PAGE}?${q}" ${secs}
  and post-process what comes back:  node scripts/${b.name}.mjs --from-json <files_at>/result.json`);
}

async function runLocal(b, args) {
  if (!existsSync(join(ROOT, 'www', 'pkg', 'gpgpu_matrix.js'))) throw new Error('www/pkg is missing: run `make build` first');
  const { startServer, openPage, CHROMIUM_ARGS } = await import('../../tests/e2e/harness.mjs');
  const { chromium } = await import('playwright-core');
  const t0 = Date.now();
  const server = await startServer();
  const chromiumArgs = [...new Set([...CHROMIUM_ARGS, ...WEBGPU_ARGS])];
  const query = suiteQuery(b, args.query);
  query.set('run', '1');
  if (!query.has('browserFlags')) query.set('browserFlags', WEBGPU_ARGS.join(','));
  let browser;
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: chromiumArgs });
    const url = `${server.origin}/${PAGE}?${query}`;
    console.log(`${b.name}: ${url}  (Chromium ${browser.version()})`);
    const page = await openPage(browser, url);
    page.on('crash', () => console.log(`${b.name}: the page crashed`));
    let printed = 0, status = '';
    while (true) {
      const { lines, st } = await page.evaluate((k) => ({ lines: (window.benchLog || []).slice(k), st: document.body.dataset.status || '' }), printed);
      for (const l of lines) console.log(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(5)}s] ${l}`);
      printed += lines.length;
      if (st === 'done' || st === 'error') { status = st; break; }
      if (Date.now() > t0 + args.timeoutMin * 60_000) { status = 'timeout'; break; }
      await new Promise((r) => setTimeout(r, 1000));
    }
    const result = await page.evaluate(() => window.benchResult);
    const problems = page.problems();
    if (problems.length) console.log(`${b.name}: page problems:\n  ${problems.join('\n  ')}`);
    if (status === 'timeout') { console.log(`${b.name}: gave up after ${args.timeoutMin} min; nothing written`); return 1; }
    if (!b.measured(result)) { console.log(`${b.name}: nothing was measured${result?.error ? ` (${result.error})` : ''}`); return 1; }
    result.env = { ...result.env, runner: `scripts/${b.name}.mjs`, chromiumVersion: browser.version(), chromiumArgs };
    writeResults(result, { outDir: args.out, ...b.render });
    b.after?.(result, args);
    return status === 'done' ? 0 : 1;
  } finally {
    await browser?.close();
    server.stop();
  }
}

async function main(b) {
  let args;
  try { args = parseArgs(process.argv.slice(2), b.timeoutMin); } catch (e) { console.error(`${b.name}: ${e.message}`); return 2; }
  if (args.help) { console.log(helpOf(b.script)); return 0; }
  if (args.fromJson) {
    const result = JSON.parse(readFileSync(args.fromJson, 'utf8'));
    writeResults(result, { outDir: args.out, ...b.render });
    b.after?.(result, args);
    return result.error ? 1 : 0;
  }
  const { problems } = b.readParams(`?${args.query}`);
  if (problems.length) { console.error(`${b.name}: ${problems.join('\n${b.name}: ')}`); return 2; }
  if (args.stageGpu) { stageGpu(b, args); return 0; }
  return runLocal(b, args);
}

/**
 * Runs a bench page's command line (`--query`, `--label`, `--from-json`, `--stage-gpu`, …,
 * documented in each script's header): `b` names the script (`name`, `script` = its
 * import.meta.url for --help), its suite of the bench page (www/bench/index.html), files the
 * page needs besides its modules, the default timeout, how to read the page's parameters, how to render its result,
 * whether a result measured anything, and (`after`, optional) what else to write from a result.
 */
export function runPageBench(b) {
  main(b).then((code) => process.exit(code), (e) => { console.error(`${b.name}: ${e?.stack || e}`); process.exit(1); });
}
