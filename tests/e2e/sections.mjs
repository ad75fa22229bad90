// Checks of the page's sections shared by the page tests of several backends (a module,
// not a test file: node --test runs only *.test.mjs).
import assert from 'node:assert/strict';
import { drawnOn } from './harness.mjs';

/**
 * Runs the six application sections on `page` (whose demo runs on `backend`) through
 * their Async calls: each done, said to be on `name`, with its exact checks.
 */
export async function applicationChecks(page, backend, name) {
  for (const id of ['reachability', 'shortest-paths', 'fibonacci', 'inverse', 'eigen', 'jacobi']) {
    await page.click(`#${id}-run`);
    await page.waitForFunction((id) => document.getElementById(id).dataset.status !== 'running', id, { timeout: 60_000, polling: 50 });
    assert.equal(await page.getAttribute(`#${id}`, 'data-status'), 'done', await page.textContent(`#${id}-status`));
    assert.match(await page.textContent(`#${id}-status`), new RegExp(`On ${name}\\.$`));
    assert.equal(await page.evaluate((id) => window.__apps[id].backend, id), backend);
  }
  const apps = await page.evaluate(() => window.__apps);
  assert.equal(apps.reachability.mismatches, 0);
  assert.equal(apps.reachability.stepMismatches, 0);
  assert.equal(apps.fibonacci.firstInexact, 37);
  assert.equal(apps.fibonacci.lastExact, 36);
  assert.ok(await drawnOn(page, '#reachability figure.heatmap canvas'), 'R drawn by drawHeatmapAsync');
  assert.deepEqual(page.problems(), []);
}
