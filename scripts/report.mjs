#!/usr/bin/env node
// `make report ARGS="n=512&op=power&p=5"`: opens the teaching page (index.html) in
// Debian's headless Chromium with that configuration, waits until it finishes,
// prints the comparison table (GPU time, JS time, GFLOP/s, error metrics, renderer),
// saves a screenshot PNG under reports/ and exits non-zero if the page reports an error.
//
//   node scripts/report.mjs "QUERY" [--out DIR] [--timeout-min M] [--width W --height H]
//     QUERY: the page's URL parameters (n, input, seed, prob, op, k, p, bInput, bSeed,
//            bProb, kernel, ref), with or without a leading '?'. mode=step is run as mode=run.
import { mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { launchBrowser, openPage, ROOT, startServer } from '../tests/e2e/harness.mjs';

function parseArgs(argv) {
  const a = { query: '', out: join(ROOT, 'reports'), timeoutMin: 30, width: 1280, height: 900 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const take = () => { if (i + 1 >= argv.length) throw new Error(`${k} needs a value`); return argv[++i]; };
    if (k === '--out') a.out = resolve(take());
    else if (k === '--timeout-min') a.timeoutMin = Number(take());
    else if (k === '--width') a.width = Number(take());
    else if (k === '--height') a.height = Number(take());
    else if (k === '-h' || k === '--help') a.help = true;
    else if (k.startsWith('--')) throw new Error(`unknown option ${k}`);
    else a.query = [a.query, k.replace(/^\?/, '')].filter(Boolean).join('&');
  }
  return a;
}

const pad = (s, w) => String(s).padEnd(w);
const padl = (s, w) => String(s).padStart(w);
const fmtMs = (v) => (v === null || v === undefined ? '—' : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v.toFixed(v >= 100 ? 0 : v >= 1 ? 1 : 3)} ms`);
const fmtSci = (v) => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : v === 0 ? '0' : v.toExponential(2));
const fmtRate = (v) => (v === null || v === undefined ? '—' : v.toFixed(v >= 10 ? 1 : 3));

function table(r) {
  const lines = [];
  const row = (k, v) => lines.push(`  ${pad(k, 26)} ${v}`);
  const t = r.totals || {};
  const c = r.config || {};
  row('renderer', r.renderer ?? '—');
  row('configuration', r.query ?? '—');
  row('kernel', `${r.kernel ?? '—'}${c.kernel === 'auto' ? ' (auto)' : ''}, ${r.passCount ?? '?'} pass(es)`);
  if (r.passes?.length) {
    lines.push('');
    lines.push(`  ${pad('pass', 5)} ${pad('computes', 22)} ${padl('GPU time', 11)} ${padl('wall time', 11)} ${padl('GFLOP/s', 9)} ${padl('max |value|', 12)} ${padl('NaN/Inf', 9)} ${padl('err vs f64', 10)}`);
    const flops = r.passCount ? t.flops / r.passCount : 0;
    r.passes.forEach((p, i) => {
      const ms = p.gpuMs ?? p.wallMs;
      lines.push(`  ${pad(i + 1, 5)} ${pad(p.label, 22)} ${padl(fmtMs(p.gpuMs), 11)} ${padl(fmtMs(p.wallMs), 11)} ${padl(fmtRate(flops / (ms * 1e6)), 9)} ${padl(fmtSci(p.maxAbs), 12)} ${padl(`${p.nan}/${p.inf}`, 9)} ${padl(fmtSci(p.relFrobenius), 10)}`);
    });
    lines.push('');
  }
  row('GPU time', r.passCount ? `${fmtMs(t.gpuMs)} (${t.gpuTimeKind})` : '— (no pass)');
  row('GPU wall time', `${fmtMs(t.gpuWallMs)} (upload ${fmtMs(r.uploadMs)} + passes + readPixels ${fmtMs(r.readbackMs)})`);
  row('JS float64 time', t.jsMs !== null && t.jsMs !== undefined ? `${fmtMs(t.jsMs)} (Web Worker)` : `— (reference ${r.reference})`);
  row('GFLOP/s', `GPU ${fmtRate(t.gpuGflops)}   JS ${fmtRate(t.jsGflops)}   (2n³ per pass)`);
  const m = r.metrics;
  row('max abs error', m ? fmtSci(m.maxAbs) : '—');
  row('max relative error', m ? fmtSci(m.maxRel) : '—');
  row('relative Frobenius error', m ? fmtSci(m.relFrobenius) : '—');
  row('exact entries', m ? `${m.exact} of ${m.total}` : '—');
  if (m?.nonfiniteMismatch) row('NaN/Inf mismatches', m.nonfiniteMismatch);
  for (const w of r.warnings || []) lines.push(`  [${w.level}] ${w.text}`);
  return lines.join('\n');
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  if (a.help) {
    console.log('usage: node scripts/report.mjs "n=512&op=power&p=5" [--out DIR] [--timeout-min M]');
    return 0;
  }
  const q = new URLSearchParams(a.query);
  if (q.get('mode') === 'step') { console.log('note: mode=step waits for clicks; running every pass instead (mode=run)'); q.set('mode', 'run'); }
  const server = await startServer();
  let browser;
  const stop = async () => { await browser?.close().catch(() => {}); server.stop(); };
  process.once('SIGINT', () => { stop().then(() => process.exit(130)); });
  try {
    browser = await launchBrowser();
    const url = `${server.origin}/index.html${q.toString() ? `?${q}` : ''}`;
    console.log(`gpgpu-matrix report: ${url}`);
    const t0 = Date.now();
    const page = await openPage(browser, url, { width: a.width, height: a.height });
    // Follow the page's status line while it works.
    let last = '';
    const deadline = t0 + a.timeoutMin * 60_000;
    for (;;) {
      const { status, text } = await page.evaluate(() => ({
        status: document.body.dataset.status, text: document.getElementById('status')?.textContent ?? '' }));
      if (text !== last) { console.log(`  [${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${text}`); last = text; }
      if (['done', 'error', 'cancelled', 'paused'].includes(status)) break;
      if (Date.now() > deadline) throw new Error(`the page did not finish within ${a.timeoutMin} minutes`);
      await new Promise((r) => setTimeout(r, 250));
    }
    const results = await page.evaluate(() => window.__results || JSON.parse(document.getElementById('results').textContent || '{}'));
    mkdirSync(a.out, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace('T', '_').slice(0, 19);
    const png = join(a.out, `report-${stamp}.png`);
    await page.screenshot({ path: png, fullPage: true });
    console.log('');
    for (const n of results.notes || []) console.log(`  note: ${n.param}=${n.value} ignored: ${n.why}`);
    console.log(table(results));
    console.log(`\n  screenshot: ${relative(process.cwd(), png) || png}`);
    const problems = page.problems();
    for (const p of problems) console.log(`  browser console: ${p}`);
    if (results.status !== 'done') {
      const e = results.error;
      console.error(`\nthe page reports ${results.status}${e ? `: ${e.code}: ${e.message}` : ''}`);
      return 1;
    }
    return 0;
  } finally {
    await stop();
  }
}

main().then((code) => process.exit(code), (err) => { console.error(`report failed: ${err.message}`); process.exit(2); });
