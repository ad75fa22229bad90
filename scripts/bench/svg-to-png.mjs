#!/usr/bin/env node
// Renders benchmark SVGs to PNG with the same headless Chromium the page tests use
// (no rsvg/ImageMagick needed), to look at a plot: bench/results/*.png is git-ignored.
//   node scripts/bench/svg-to-png.mjs bench/results/2026-11-22-swiftshader.svg [more.svg ...]
import { readFileSync } from 'node:fs';
import { launchBrowser } from '../../tests/e2e/harness.mjs';

const files = process.argv.slice(2);
if (!files.length) { console.error('usage: node scripts/bench/svg-to-png.mjs FILE.svg ...'); process.exit(2); }
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  for (const f of files) {
    await page.setContent(`<!doctype html><body style="margin:0">${readFileSync(f, 'utf8')}</body>`);
    const out = f.replace(/\.svg$/, '') + '.png';
    await page.locator('svg').first().screenshot({ path: out });
    console.log(`wrote ${out}`);
  }
} finally {
  await browser.close();
}
