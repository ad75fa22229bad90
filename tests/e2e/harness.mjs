// Shared set-up of the page tests: the repository served on a free local port,
// Debian's Chromium driven by playwright-core (never a downloaded browser), and a
// record of console errors and of every request's origin.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ARTIFACTS = join(ROOT, 'tests', 'e2e', 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/**
 * Chromium flags for WebGL2 on SwiftShader when there is no GPU, and WebGPU on its
 * SwiftShader adapter (a software fallback adapter, so backend=auto still picks WebGL2;
 * TOOLCHAIN.md).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader',
  '--ignore-gpu-blocklist', '--disable-gpu-watchdog', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--disable-background-timer-throttling', '--disable-renderer-backgrounding',
];

/**
 * Flags for the tests only, not the benches (which time what a page costs with GPU
 * compositing, as a visitor's browser does it): the page's own compositing in
 * software rather than through SwiftShader's GL. WebGL and WebGPU still run on
 * SwiftShader, and canvases are read back the same way. Measured on this 2-core machine:
 * the page tests 493 → 357 s, the WebGL browser suite 93 → 72 s.
 */
export const TEST_ONLY_ARGS = ['--disable-gpu-compositing'];

/** Starts scripts/serve.py on `port` (0 = any free one); resolves to its origin. */
export async function startServer(port = 0) {
  if (port === 0) port = 18000 + Math.floor(Math.random() * 2000);
  const proc = spawn('python3', [join(ROOT, 'scripts', 'serve.py'), '--port', String(port), '--quiet'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    proc.stdout.on('data', (d) => { if (String(d).includes('served at')) resolve(); });
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => proc.kill() };
}

/** Debian's Chromium, headless; `args`: CHROMIUM_ARGS alone for timing a page. */
export async function launchBrowser(args = [...CHROMIUM_ARGS, ...TEST_ONLY_ARGS]) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args,
  });
}

/**
 * A page that records console errors, page errors and the origin of every request.
 * `page.problems()` lists console errors and uncaught exceptions.
 * `options.init`: a function run in the page before its scripts (context.addInitScript),
 * e.g. to take WebGL2 away and see the page's error message.
 */
export async function openPage(browser, url, viewport = { width: 1280, height: 720 }, options = {}) {
  const context = await browser.newContext({ viewport });
  if (options.init) await context.addInitScript(options.init, options.initArg);
  await options.setup?.(context); // e.g. context.route(…) before the first request
  const page = await context.newPage();
  const errors = [];
  const origins = new Set();
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('request', (req) => origins.add(new URL(req.url()).origin));
  await page.goto(url);
  page.problems = () => errors.slice();
  page.origins = () => [...origins];
  return page;
}

/**
 * An empty page of the test server, for calling the library directly: a fresh
 * WebAssembly memory each time (its size only grows).
 */
export async function openBlankPage(browser, origin) {
  const blank = (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>blank</title>' });
  return openPage(browser, `${origin}/blank.html`, undefined, { setup: (c) => c.route('**/blank.html', blank) });
}

/**
 * Waits until the page sets body[data-status] to one of `states` (default: done or
 * error); returns which.
 */
export async function waitForStatus(page, timeout = 120_000, states = ['done', 'error']) {
  await page.waitForFunction(
    (s) => s.includes(document.body.dataset.status), states, { timeout, polling: 50 });
  return page.evaluate(() => document.body.dataset.status);
}

/** Whether a canvas has any opaque pixel (the library drew on it). */
export const drawnOn = (page, selector) => page.$eval(selector, (c) => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  for (let i = 3; i < d.length; i += 4) if (d[i] > 0) return true;
  return false;
});

/**
 * A page with two history entries of the demo: `?n=4&ref=0` loaded, then n = 5 run from
 * the form (so Back returns to the first). For the panels' Back / Forward tests.
 */
export async function pageWithHistory(browser, origin) {
  const page = await openPage(browser, `${origin}/index.html?n=4&ref=0`);
  await waitForStatus(page);
  await page.fill('#n', '5');
  await page.click('#run');
  await page.waitForFunction(() => document.body.dataset.status === 'done' && new URLSearchParams(location.search).get('n') === '5');
  return page;
}

/**
 * The accessible role and name Chromium computes for each element `selector` matches
 * (what a screen reader is given), through the DevTools protocol: [{ role, name }].
 */
export async function accessibleNames(page, selector) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector });
    const out = [];
    for (const nodeId of nodeIds) {
      const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
      out.push({ role: nodes[0]?.role?.value ?? '', name: nodes[0]?.name?.value ?? '' });
    }
    return out;
  } finally {
    await cdp.detach();
  }
}
