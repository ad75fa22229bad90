// The library in WebKitGTK's MiniBrowser (Debian's webkit2gtk-driver, driven over W3C
// WebDriver by WebKitWebDriver under Xvfb; no browser download). WebKitGTK has no
// WebGPU here; these tests run the CPU backend, whose Web Workers failed in WebKit
// ("null is not an object (evaluating 'wasm.gpgpu_cpu_alloc')": a job reached a worker
// before its instance was made).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startServer } from './harness.mjs';
import { checkProduct, DIMS, inPage } from './cpu-product.mjs';

const DRIVER = '/usr/bin/WebKitWebDriver';
const BROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB = '/usr/bin/xvfb-run';
const missing = [DRIVER, BROWSER, XVFB].find((f) => !existsSync(f));
const skip = missing ? `WebKitGTK is not installed (${missing}; scripts/setup.sh test installs webkit2gtk-driver and xvfb)` : false;

let server, driver, base, session;

async function call(method, path, body) {
  const r = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const json = await r.json();
  // A WebDriver error comes with a non-2xx status (a script's own result may hold an `error`).
  if (!r.ok) throw new Error(`WebDriver ${path}: ${json.value?.error}: ${json.value?.message}`);
  return json.value;
}

before(async () => {
  if (skip) return;
  server = await startServer();
  const port = 20000 + Math.floor(Math.random() * 2000);
  base = `http://127.0.0.1:${port}`;
  // Its own process group: xvfb-run starts Xvfb and the driver, which starts the browser.
  driver = spawn(XVFB, ['-a', DRIVER, `--port=${port}`], { detached: true, stdio: 'ignore' });
  for (let i = 0; ; i++) {
    try {
      if ((await call('GET', '/status')).ready) break;
    } catch (e) {
      if (i > 100) throw e;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const made = await call('POST', '/session', {
    capabilities: { alwaysMatch: { 'webkitgtk:browserOptions': { binary: BROWSER, args: ['--automation'] } } },
  });
  session = `/session/${made.sessionId}`;
  await call('POST', `${session}/timeouts`, { script: 120_000 });
});

after(async () => {
  if (session) await call('DELETE', session).catch(() => {});
  if (driver) process.kill(-driver.pid);
  server?.stop();
});

test('the CPU backend multiplies on its Web Workers in WebKit, as the float64 reference does', { skip }, async () => {
  await call('POST', `${session}/url`, { url: `${server.origin}/index.html?backend=cpu&n=4` });
  const got = await call('POST', `${session}/execute/async`, {
    args: [DIMS],
    script: `const done = arguments[arguments.length - 1];
      (${inPage})(arguments[0]).then(done, (e) => done({ error: 'threw: ' + e }));`,
  });
  checkProduct(got);
});
