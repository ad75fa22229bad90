// Accessibility checks shared by the page tests (a module, not a test file): axe-core,
// from npm, injected into the page; and every section's parts run, for a page that
// shows everything it can show.
import { createRequire } from 'node:module';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * The parts' sizes for a quick run of all of them on SwiftShader (about 20 s in all):
 * the demo at n = 8 and each panel's smallest useful problem.
 */
export const SMALL_PARTS = 'n=8&sparseN=16&sparseBlock=4&meshN=4&meshQ=2&ransacIters=64&prodBatch=16&svdBatch=16&cmpN=8&devN=128&sjN=100&luN=4';

/**
 * Presses every Run button of every section below the demo (the compute measurement at
 * its smallest size only), one at a time, each to its end; returns what it pressed.
 */
export async function runEveryPart(page) {
  await page.evaluate(() => document.querySelectorAll('#compute input[type=checkbox][id^=compute-n-]').forEach((b, i) => { b.checked = i === 0; }));
  const labels = await page.evaluate(() => [...document.querySelectorAll('main button')]
    .filter((b) => /^(Run|Measure|Sweep|Eliminate|Solve|Compute|Square)\b/.test(b.textContent.trim()) && !b.closest('#run-panel, .not-in-lesson'))
    .map((b, i) => { b.dataset.partRun = String(i); return b.textContent.trim(); }));
  for (let i = 0; i < labels.length; i++) {
    await page.click(`[data-part-run="${i}"]`);
    // A part says running on its next frame; then its end.
    await page.waitForTimeout(100);
    await page.waitForFunction(() => !document.querySelector('main [data-status=running]'), null, { timeout: 120_000, polling: 100 });
  }
  return labels;
}

/**
 * axe-core's violations on the page as it is: [{ id, impact, nodes: [target, …] }].
 * `options`: axe.run's (e.g. { runOnly: ['color-contrast'] }).
 */
export async function axeViolations(page, options = {}) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async (o) => {
    const r = await window.axe.run(document, o);
    return {
      passes: r.passes.map((p) => p.id),
      violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\n')[1]?.trim()}`) })),
    };
  }, options);
}

/** Violations counted by impact: { critical, serious, moderate, minor }. */
export function byImpact(violations) {
  const count = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of violations) count[v.impact] += v.nodes.length;
  return count;
}
