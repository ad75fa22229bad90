// The kernel lab when a kernel loses the GPU (an endless loop, in a browser with a GPU
// watchdog): the check says so with the library's code (DEVICE_LOST, CONTEXT_LOST) in
// window.labResult.error and in plain words on the page, and the next check on the same
// page works. The loss is provoked where it is certain: an init script (lose.mjs) destroys
// the WebGPU device (as a driver reset does) or loses the WebGL context
// (WEBGL_lose_context) at the third submission or draw of the check, inside its first
// case. A real endless loop is no test here: the suites run Chromium without its GPU
// watchdog (harness.mjs), so one would hang; and with the watchdog on, an endless WGSL
// loop on SwiftShader was not lost within 20 s: the page stopped answering instead.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { ROOT, launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';
import { loseOnCue } from './lose.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const file = (name) => readFileSync(join(ROOT, 'www', 'lab', 'exercises', name), 'utf8');
const encode = (text) => deflateRawSync(Buffer.from(text, 'utf8')).toString('base64url');

async function check(page) {
  await page.evaluate(() => { delete document.body.dataset.verdict; });
  await page.click('#lab-check');
  await page.waitForFunction(() => document.body.dataset.status !== 'checking' && document.body.dataset.verdict);
  return waitForStatus(page);
}

const CASES = [
  { id: 'global', ext: 'wgsl', code: 'DEVICE_LOST', locale: 'en',
    words: /Your kernel made the GPU stop responding \(DEVICE_LOST\), for example with an endless loop.*The page has recovered: fix the loop and check again\./ },
  { id: 'square', ext: 'glsl', code: 'CONTEXT_LOST', locale: 'it',
    words: /Il tuo kernel ha bloccato la GPU \(CONTEXT_LOST\), per esempio con un ciclo infinito.*La pagina ha ripreso a funzionare: correggi il ciclo e verifica di nuovo\./ },
];

for (const { id, ext, code, locale, words } of CASES) {
  test(`${id}: a loss during the check is ${code}, said in plain words (${locale}); the next check passes`, async () => {
    const solution = encode(file(`${id}.solution.${ext}`));
    const page = await openPage(browser, `${server.origin}/www/lab.html?exercise=${id}&locale=${locale}&code=${solution}`,
      undefined, { init: loseOnCue });
    await waitForStatus(page, 60_000, ['ready']);
    await page.evaluate(() => { window.loseAfter = 3; });
    assert.equal(await check(page), 'error');
    assert.equal(await page.evaluate(() => window.lost), true, 'the loss happened during the check');
    const r = await page.evaluate(() => window.labResult);
    assert.equal(r.verdict, 'fail');
    assert.deepEqual(r.cases, []);
    assert.equal(r.error.code, code, JSON.stringify(r.error));
    assert.equal(r.error.recovered, true, JSON.stringify(r.error));
    const notice = page.locator('#lab-notice');
    assert.match(await notice.textContent(), words);
    assert.equal(await notice.getAttribute('role'), 'alert');
    assert.equal(await page.isDisabled('#lab-check'), false);

    // The same page checks the reference solution again, on the GPU it got back.
    assert.equal(await check(page), 'done');
    const again = await page.evaluate(() => window.labResult);
    assert.equal(again.verdict, 'pass', JSON.stringify(again.cases));
    assert.ok(again.cases.length >= 5 && again.cases.every((c) => c.firstWrong === null));
    assert.ok(again.timing.gflops > 0 && again.timing.reference.gflops > 0, JSON.stringify(again.timing));
    assert.equal(again.error, undefined);
    assert.equal(await notice.isVisible(), false);
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  });
}
