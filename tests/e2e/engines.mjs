// The browser engines beside Chromium, each behind one small interface so that a test is
// written once and run in every engine: `start()`, `open(url)` giving a tab with
// `evaluate(fn, arg)` (fn runs in the page; async allowed), `click(selector)` (the user's
// click, with the activation a script's click lacks) and `close()`, and `stop()`.
// Each engine says which backends it has here, and why not where it has none, so that a
// skipped test names its reason.
//
// Firefox ESR: Debian's firefox-esr driven by puppeteer-core over WebDriver BiDi, on an
// Xvfb display (with a display, its headless mode has WebGL2 on llvmpipe; without one,
// none), WebGPU through the preferences that turn it on (wgpu on Mesa's lavapipe).
// WebKitGTK: Debian's webkit2gtk-driver (WebKitWebDriver driving MiniBrowser) under
// xvfb-run, over plain W3C WebDriver; WebKitGTK has no WebGPU on Linux.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const XVFB = '/usr/bin/Xvfb';
const XVFB_RUN = '/usr/bin/xvfb-run';
const FIREFOX = '/usr/bin/firefox-esr';
const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

const missing = (files, how) => {
  const absent = files.find((f) => !existsSync(f));
  return absent ? `${absent} is not installed (${how})` : false;
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** An Xvfb display of its own, in its own process group. */
async function display() {
  const number = 100 + Math.floor(Math.random() * 400);
  const proc = spawn(XVFB, [`:${number}`, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { detached: true, stdio: 'ignore' });
  await sleep(500);
  return { name: `:${number}`, stop: () => process.kill(-proc.pid) };
}

export const firefox = {
  name: 'Firefox ESR',
  skip: missing([FIREFOX, XVFB], 'scripts/setup.sh test installs firefox-esr and xvfb'),
  backends: { webgl: false, webgpu: false, cpu: false },
  async start() {
    const { default: puppeteer } = await import('puppeteer-core');
    this.display = await display();
    this.browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless: true,
      protocol: 'webDriverBiDi',
      env: { ...process.env, DISPLAY: this.display.name },
      extraPrefsFirefox: { 'dom.webgpu.enabled': true, 'gfx.webgpu.ignore-blocklist': true, 'gfx.webgpu.force-enabled': true },
    });
  },
  async open(url) {
    const page = await this.browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    return { errors, evaluate: (fn, arg) => page.evaluate(fn, arg), click: (selector) => page.click(selector), close: () => page.close() };
  },
  async stop() {
    await this.browser?.close();
    this.display?.stop();
  },
};

export const webkit = {
  name: 'WebKitGTK',
  skip: missing([WEBKIT_DRIVER, MINIBROWSER, XVFB_RUN], 'scripts/setup.sh test installs webkit2gtk-driver and xvfb'),
  backends: { webgl: false, webgpu: 'WebKitGTK on Linux has no WebGPU (navigator.gpu is missing)', cpu: false },
  async call(method, path, body) {
    const r = await fetch(this.base + path, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    const json = await r.json();
    // A WebDriver error comes with a non-2xx status (a script's own result may hold an `error`).
    if (!r.ok) throw new Error(`WebDriver ${path}: ${json.value?.error}: ${json.value?.message}`);
    return json.value;
  },
  async start() {
    const port = 20000 + Math.floor(Math.random() * 2000);
    this.base = `http://127.0.0.1:${port}`;
    // Its own process group: xvfb-run starts Xvfb and the driver, which starts the browser.
    this.driver = spawn(XVFB_RUN, ['-a', WEBKIT_DRIVER, `--port=${port}`], { detached: true, stdio: 'ignore' });
    for (let i = 0; ; i++) {
      try {
        if ((await this.call('GET', '/status')).ready) break;
      } catch (e) {
        if (i > 100) throw e;
      }
      await sleep(100);
    }
    const made = await this.call('POST', '/session', {
      capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } } },
    });
    this.session = `/session/${made.sessionId}`;
    await this.call('POST', `${this.session}/timeouts`, { script: 180_000 });
  },
  // One window: a tab is the session's page at `url` (WebDriver has no page-error events;
  // a test reads errors from the page itself).
  async open(url) {
    await this.call('POST', `${this.session}/url`, { url });
    const evaluate = (fn, arg) => this.call('POST', `${this.session}/execute/async`, {
      args: [arg],
      script: `const done = arguments[arguments.length - 1];
        Promise.resolve().then(() => (${fn})(arguments[0])).then(done, (e) => done({ error: 'threw: ' + e }));`,
    });
    // A click through WebDriver is the user's (an element.click() from a script is not:
    // the clipboard refuses it).
    const click = async (selector) => {
      const found = await this.call('POST', `${this.session}/element`, { using: 'css selector', value: selector });
      await this.call('POST', `${this.session}/element/${Object.values(found)[0]}/click`, {});
    };
    return { errors: [], evaluate, click, close: async () => {} };
  },
  async stop() {
    if (this.session) await this.call('DELETE', this.session).catch(() => {});
    if (this.driver) process.kill(-this.driver.pid);
  },
};

// Chromium behind the same interface, for running the engines' checks there too
// (E2E_ENGINES=chromium,firefox,webkit): its own test files cover it in make test.
export const chromium = {
  name: 'Chromium',
  skip: false,
  backends: { webgl: false, webgpu: false, cpu: false },
  async start() {
    const { launchBrowser } = await import('./harness.mjs');
    this.browser = await launchBrowser();
  },
  async open(url) {
    const { openPage } = await import('./harness.mjs');
    const page = await openPage(this.browser, url);
    return {
      get errors() { return page.problems(); },
      evaluate: (fn, arg) => page.evaluate(fn, arg),
      click: (selector) => page.click(selector),
      close: () => page.context().close(),
    };
  },
  async stop() { await this.browser?.close(); },
};

const BY_NAME = { chromium, firefox, webkit };
/** The engines engines.test.mjs runs: E2E_ENGINES (names, comma-separated), else Firefox and WebKit. */
export const ENGINES = (process.env.E2E_ENGINES || 'firefox,webkit').split(',').map((n) => {
  if (!BY_NAME[n.trim()]) throw new Error(`E2E_ENGINES: no engine ${n} (${Object.keys(BY_NAME).join(', ')})`);
  return BY_NAME[n.trim()];
});
