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
 * In the page (any engine's evaluate takes it): presses every Run button of every
 * section below the demo (the compute measurement at its smallest size only), one at a
 * time, each to its end. Returns the buttons' labels, the parts that ended in an error
 * (`id: text`) and the one still running after two minutes, if any.
 */
export async function everyPartInPage() {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  // The sections are built once the demo has run.
  for (const until = Date.now() + 120_000; !['done', 'error'].includes(document.body.dataset.status) && Date.now() < until;) await sleep(100);
  document.querySelectorAll('#compute input[type=checkbox][id^=compute-n-]').forEach((b, i) => { b.checked = i === 0; });
  const buttons = [...document.querySelectorAll('main button')]
    .filter((b) => /^(Run|Measure|Sweep|Eliminate|Solve|Compute|Square)\b/.test(b.textContent.trim()) && !b.closest('#run-panel, .not-in-lesson'));
  let stuck = null;
  for (const b of buttons) {
    b.click();
    // A part says running on its next frame; then its end.
    await sleep(100);
    const until = Date.now() + 120_000;
    while (document.querySelector('main [data-status=running]') && Date.now() < until) await sleep(100);
    stuck ??= document.querySelector('main [data-status=running]')?.id ?? null;
  }
  const failed = [...document.querySelectorAll('main [data-status=error]')]
    .map((e) => `${e.id}: ${e.textContent.trim().slice(0, 300)}`);
  return { ran: buttons.map((b) => b.textContent.trim()), failed, stuck };
}

/** Presses every part's Run button on `page` (see everyPartInPage); returns the labels. */
export async function runEveryPart(page) {
  const { ran, stuck } = await page.evaluate(everyPartInPage);
  if (stuck) throw new Error(`${stuck} was still running after two minutes`);
  return ran;
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
