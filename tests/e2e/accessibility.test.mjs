// Accessibility measured: axe-core finds no serious or critical violation on the page with
// every section's parts run, on a screen and in projector mode (where its colour-contrast
// rule checks WCAG AA for text), and on the kernel lab after a failing and a passing
// check; every control is reached by Tab in reading order with a
// visible focus; the keyboard shortcuts dialog; reduced motion.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, openPage, startServer, waitForStatus } from './harness.mjs';
import { AXE_PAGES, assertAxeClean } from './a11y.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

for (const { page: what, url, states } of AXE_PAGES) {
  test(`axe-core: no serious or critical violation on ${what}`, async () => {
    const page = await openPage(browser, `${server.origin}${url}`);
    const seen = await assertAxeClean(page, what, states);
    if (seen.parts) {
      assert.ok(seen.parts.ran.length >= 20, `parts run: ${seen.parts.ran.join(', ')}`);
    }
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  });
}

test('Tab reaches every control in reading order, each with a visible focus', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4&ref=1`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  // Two parts run when scrolled to, their buttons disabled meanwhile: run them first.
  for (const part of ['partitioned-worked', 'batched-ransac']) {
    await page.locator(`#${part}`).scrollIntoViewIfNeeded();
    await page.waitForFunction((id) => document.getElementById(id).dataset.status === 'done', part, { timeout: 30_000 });
  }
  // Every control a keyboard can reach: visible, enabled, not taken out of the tab order.
  const expected = await page.evaluate(() => {
    const all = document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]');
    return [...all].filter((e) => e.tabIndex >= 0 && !e.disabled && e.checkVisibility({ visibilityProperty: true })
      && !e.closest('dialog:not([open]), [inert]') && !(e.type === 'radio' && !e.checked))
      .map((e, i) => { e.dataset.tabOrder = String(i); return i; }).length;
  });
  assert.ok(expected > 50, `${expected} controls`);
  const seen = [];
  for (let k = 0; k < expected + 20; k++) {
    await page.keyboard.press('Tab');
    const f = await page.evaluate(() => {
      const e = document.activeElement;
      if (!e || e === document.body) return null;
      const s = getComputedStyle(e);
      const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
      return { order: e.dataset.tabOrder ?? null, what: `${e.tagName} #${e.id} ${e.textContent.trim().slice(0, 30)}`, visible: outline || s.boxShadow !== 'none', matches: e.matches(':focus-visible') };
    });
    if (!f) break;
    assert.ok(f.order !== null, `Tab stopped on something unexpected: ${f.what}`);
    assert.ok(f.matches && f.visible, `no visible focus on ${f.what}`);
    if (seen.length && Number(f.order) <= seen[seen.length - 1]) break; // wrapped round
    seen.push(Number(f.order));
  }
  assert.deepEqual(seen, Array.from({ length: expected }, (_, i) => i), 'every control, in reading order');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('the keyboard shortcuts dialog opens by ? and by its button, closes by Esc, and lists the keys', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=4&ref=0`);
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  await page.focus('#run');
  await page.keyboard.press('?');
  assert.equal(await page.isVisible('dialog#shortcuts[open]'), true, '? opens it');
  const keys = await page.$$eval('#shortcuts tbody th', (th) => th.map((x) => x.textContent));
  for (const k of ['?', 'Esc', 'Tab, Shift+Tab', 'Enter', 'Home, End']) assert.ok(keys.includes(k), `${k} listed`);
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('dialog#shortcuts'), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'run', 'the focus is back');
  // ? typed in a field is a character, not a shortcut.
  await page.focus('#n');
  await page.keyboard.press('?');
  assert.equal(await page.isVisible('dialog#shortcuts'), false);
  // The button; P toggles projector mode; both single keys can be turned off.
  await page.click('#shortcuts-button');
  assert.equal(await page.isVisible('dialog#shortcuts[open]'), true);
  await page.click('#shortcuts-close');
  await page.focus('#run');
  await page.keyboard.press('p');
  assert.equal(await page.evaluate(() => document.body.classList.contains('projector')), true);
  assert.equal(new URL(page.url()).searchParams.get('projector'), '1');
  await page.keyboard.press('p');
  assert.equal(await page.evaluate(() => document.body.classList.contains('projector')), false);
  await page.click('#shortcuts-button');
  await page.uncheck('#shortcuts-single');
  await page.keyboard.press('Escape');
  await page.keyboard.press('?');
  assert.equal(await page.isVisible('dialog#shortcuts'), false, 'turned off');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('reduced motion: nothing on the page animates or scrolls smoothly', async () => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${server.origin}/index.html?n=4&ref=0`);
  await waitForStatus(page);
  // A rule that moves something is cancelled by the page's reduced-motion rule.
  await page.addStyleTag({ content: '#run { transition: opacity 2s; animation: spin 3s infinite; } @keyframes spin { to { opacity: 0.5; } }' });
  const moving = await page.evaluate(() => [...document.querySelectorAll('*')].filter((e) => {
    const s = getComputedStyle(e);
    return s.scrollBehavior === 'smooth' || s.animationDuration.split(',').some((d) => parseFloat(d) > 0) || s.transitionDuration.split(',').some((d) => parseFloat(d) > 0);
  }).map((e) => `${e.tagName}#${e.id}`));
  assert.deepEqual(moving, []);
  await context.close();
});
