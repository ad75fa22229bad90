// Accessibility checks shared by the page tests (a module, not a test file): axe-core,
// from npm, injected into the page; and every section's parts run, for a page that
// shows everything it can show.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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

/**
 * axe-core's violations on the page as it is: [{ id, impact, nodes: [target, …] }].
 * `tab`: anything with `evaluate(fn, arg)` running fn in the page (a Playwright page, or
 * an engine's tab of engines.mjs); axe's source goes in through it, so every engine
 * takes it the same way. `options`: axe.run's (e.g. { runOnly: ['color-contrast'] }).
 */
export async function axeViolations(tab, options = {}) {
  if (!(await tab.evaluate(() => 'axe' in window))) {
    // Indirect eval: axe's UMD wrapper then sets window.axe, as a <script> would.
    await tab.evaluate((src) => { (0, eval)(src); return true; }, axeSource ??= readFileSync(AXE, 'utf8'));
  }
  return tab.evaluate(async (o) => {
    const r = await window.axe.run(document, o);
    return {
      passes: r.passes.map((p) => p.id),
      violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\n')[1]?.trim()}`) })),
    };
  }, options);
}
let axeSource;

/** In the page: waits until body[data-status] is one of `states`; returns it. */
export async function statusInPage([states, timeout]) {
  for (const until = Date.now() + timeout; !states.includes(document.body.dataset.status) && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return document.body.dataset.status;
}

/** In the page: presses the lab's Check and waits for its verdict (www/lab/main.js: body[data-verdict]). */
async function checkLabInPage() {
  delete document.body.dataset.verdict;
  document.getElementById('lab-check').click();
  for (const until = Date.now() + 120_000; (document.body.dataset.status === 'checking' || !document.body.dataset.verdict) && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 50));
  }
  return document.body.dataset.verdict;
}

/**
 * In the page: shows the lab's reference solution and waits until the editor holds it
 * (it is fetched: a Check pressed before would check the starter, as Firefox showed).
 */
async function showSolutionInPage() {
  const text = () => document.querySelector('#lab-editor .cm-content')?.textContent;
  const before = text();
  document.getElementById('lab-show-solution').click();
  for (const until = Date.now() + 10_000; text() === before && Date.now() < until;) await new Promise((r) => setTimeout(r, 50));
  return text() !== before;
}

/** In the page: clicks the element `selector` (a check box toggles, a summary opens). */
const clickInPage = (selector) => { document.querySelector(selector).click(); return true; };
const twoFramesInPage = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));
const narrowInPage = ([selector, width]) => { document.querySelector(selector).style.maxWidth = width; return true; };

/**
 * The pages axe-core measures, each brought to the state that shows the most, in any
 * engine (only through `tab.evaluate`): `states(tab, seen)` yields a name for each state
 * to measure, after bringing the page to it; `seen.parts` is what running every part
 * gave ({ ran, failed, stuck }), for the test to judge (engines differ in what runs).
 */
export const AXE_PAGES = [
  {
    page: 'the teaching page with every part run',
    url: `/index.html?${SMALL_PARTS}`,
    async *states(tab, seen) {
      assert.equal(await tab.evaluate(statusInPage, [['done', 'error'], 120_000]), 'done');
      seen.parts = await tab.evaluate(everyPartInPage);
      if (seen.parts.stuck) throw new Error(`${seen.parts.stuck} was still running after two minutes`);
      await tab.evaluate(clickInPage, '#lesson-links summary'); // the link builder's controls too
      // A heatmap's numbers as a table, too.
      await tab.evaluate(clickInPage, '#heatmaps figure:nth-child(2) details.hm-table summary');
      yield 'a screen';
      // The table wider than its box, as on a phone: the box scrolls, so it must take the
      // keyboard's focus (www/classroom/scrollable.js gives it that while it overflows).
      await tab.evaluate(narrowInPage, ['#heatmaps figure:nth-child(2) .hm-table .scroll-x', '6rem']);
      yield 'a heatmap table that scrolls';
      await tab.evaluate(narrowInPage, ['#heatmaps figure:nth-child(2) .hm-table .scroll-x', '']);
      await tab.evaluate(clickInPage, '#projector-switch');
      assert.equal(await tab.evaluate(() => document.body.classList.contains('projector')), true);
      yield 'a projector';
    },
  },
  {
    page: 'the kernel lab after a check that fails and one that passes',
    url: '/www/lab.html?exercise=square&solutions=1',
    async *states(tab) {
      assert.equal(await tab.evaluate(statusInPage, [['ready'], 60_000]), 'ready');
      assert.equal(await tab.evaluate(checkLabInPage), 'fail', 'the starter fails');
      yield 'a failing check';
      assert.equal(await tab.evaluate(showSolutionInPage), true, 'the solution is in the editor');
      assert.equal(await tab.evaluate(checkLabInPage), 'pass', 'the reference solution passes');
      yield 'a passing check';
    },
  },
];

/**
 * Measures `states` of one of AXE_PAGES with axe-core: no serious or critical violation,
 * and WCAG AA text contrast measured, not skipped. `log`: the counts by impact per state.
 */
export async function assertAxeClean(tab, what, states, seen = {}, log = console.log) {
  for await (const state of states(tab, seen)) {
    // The page's frame callbacks first: a box that has just begun to scroll takes the
    // keyboard's focus on the next frame (scrollable.js). WebKit's axe-core once measured
    // a heatmap's table box between its overflow and that frame.
    await tab.evaluate(twoFramesInPage);
    const { passes, violations } = await axeViolations(tab);
    log(`axe-core on ${what}, ${state}: ${JSON.stringify(byImpact(violations))}`);
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(bad, [], `${state}: ${JSON.stringify(bad, null, 1)}`);
    assert.ok(passes.includes('color-contrast'), `${state}: color-contrast ran`);
  }
  return seen;
}

/** Violations counted by impact: { critical, serious, moderate, minor }. */
export function byImpact(violations) {
  const count = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of violations) count[v.impact] += v.nodes.length;
  return count;
}
