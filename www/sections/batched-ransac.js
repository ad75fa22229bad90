// Part 1 of "Many small problems at once": a homography found by RANSAC on the GPU
// (the developer's log, BRIEF.md §4). A planar scene (the corners of a 20×15
// checkerboard on a sheet) seen under a known homography, with noise and a share of
// wrong matches; gpu.ransacHomographyAsync fits a batch of 4-point hypotheses in one
// pass and scores them all against every correspondence in another; everything it
// returns is checked here in float64.
import { el, int, ms, sci } from '../ui/format.js';
import { mulberry32 } from '../reference.js';
import { backendName, msText, nextFrame, timedAsync, untimedWhy, devName } from './common.js';
import { numberField, partitionedGrid, pct, readNumber } from './partitioned-ui.js';
import { applyH, barChart, homographyFrom4, publishBatched, readFields, svg } from './batched-ui.js';
import { fieldGroup, partRunner } from './part-runner.js';
import { svgLegend } from './svg-legend.js';
import { t } from '../i18n/index.js';

/** The sheet (source image) and the view of it (destination image), in pixels. */
export const SHEET = { w: 400, h: 300 };
export const VIEW = { w: 480, h: 360 };
/** Where the sheet's corners land in the view: a perspective view of the sheet. */
const VIEW_CORNERS = [[86, 52], [418, 88], [452, 318], [38, 286]];
const SHEET_CORNERS = [[0, 0], [SHEET.w, 0], [SHEET.w, SHEET.h], [0, SHEET.h]];
/** The checkerboard's corners: 20 × 15 = 300 points, 20 px apart. */
const GRID = { cols: 20, rows: 15, step: 20, margin: 10 };
/** A drawing on the sheet (a house), drawn in both images: polylines. */
const DRAWING = [
  SHEET_CORNERS.concat([SHEET_CORNERS[0]]),
  [[120, 250], [120, 150], [280, 150], [280, 250]],
  [[105, 160], [200, 80], [295, 160]],
  [[180, 250], [180, 195], [220, 195], [220, 250]],
];

/** The true homography of the scene (float64, h33 = 1). */
export const TRUE_H = homographyFrom4(SHEET_CORNERS, VIEW_CORNERS);

/**
 * The correspondences: the grid's points (exact) and their images under TRUE_H
 * with Gaussian noise of σ = noise px on each axis; round(share·n) of them, chosen
 * by the seed, replaced by a uniform random point of the view (wrong matches).
 */
export function makeScene(noise, outlierShare, seed) {
  const next = mulberry32(seed);
  const gauss = () => {
    const u = Math.max(next(), 1e-12), v = next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const n = GRID.cols * GRID.rows;
  const src = new Float32Array(2 * n), dst = new Float32Array(2 * n), exact = new Float64Array(2 * n);
  const truth = new Uint8Array(n).fill(1);
  for (let j = 0, k = 0; j < GRID.rows; j++) {
    for (let i = 0; i < GRID.cols; i++, k++) {
      const x = GRID.margin + i * GRID.step, y = GRID.margin + j * GRID.step;
      const [u, v] = applyH(TRUE_H, x, y);
      src[2 * k] = x; src[2 * k + 1] = y;
      exact[2 * k] = u; exact[2 * k + 1] = v;
      dst[2 * k] = u + noise * gauss(); dst[2 * k + 1] = v + noise * gauss();
    }
  }
  // Which are wrong: the first `outliers` of a seeded shuffle.
  const outliers = Math.round(outlierShare * n);
  const order = Array.from({ length: n }, (_, k) => k);
  for (let k = 0; k < outliers; k++) {
    const r = k + Math.floor(next() * (n - k));
    [order[k], order[r]] = [order[r], order[k]];
    const i = order[k];
    truth[i] = 0;
    dst[2 * i] = next() * VIEW.w;
    dst[2 * i + 1] = next() * VIEW.h;
  }
  return { n, src, dst, exact, truth, outliers };
}

/** The chance that 4 distinct correspondences drawn from n hold no wrong one. */
function cleanChance(n, outliers) {
  let p = 1;
  for (let k = 0; k < 4; k++) p *= (n - outliers - k) / (n - k);
  return Math.max(0, p);
}

export function ransacPart(ctx, state, lock) {
  const part = el('div', { class: 'part', id: 'batched-ransac' });
  const f = {
    ransacNoise: numberField('ransacNoise', t('sec.f.noise'), { min: 0, max: 20, step: 0.1, value: state.ransacNoise }),
    ransacOutliers: numberField('ransacOutliers', t('sec.f.outliers'), { min: 0, max: 80, step: 1, value: state.ransacOutliers }),
    ransacIters: numberField('ransacIters', t('sec.f.hypotheses'), { min: 1, max: 100000, value: state.ransacIters }),
    ransacThreshold: numberField('ransacThreshold', t('sec.f.threshold'), { min: 0.1, max: 50, step: 0.1, value: state.ransacThreshold }),
    ransacSeed: numberField('ransacSeed', t('sec.f.seed'), { min: 0, max: 4294967295, value: state.ransacSeed }),
  };
  const button = el('button', { type: 'button', class: 'primary', id: 'batched-ransac-run' }, t('sec.batched.ransac'));
  const output = el('div', { class: 'part-output', id: 'batched-ransac-output' });
  const runner = partRunner(ctx, part, 'batched-ransac-status', t('sec.batched.ransacIdle'), {
    buttons: [button],
    output,
    lock,
    name: 'RANSAC',
    onError: (record) => publishBatched('ransac', record),
    read: () => readFields({
      ransacNoise: [f.ransacNoise.input, 0, 20, false],
      ransacOutliers: [f.ransacOutliers.input, 0, 80, false],
      ransacIters: [f.ransacIters.input, 1, 100000, true],
      ransacThreshold: [f.ransacThreshold.input, 0.1, 50, false],
      ransacSeed: [f.ransacSeed.input, 0, 4294967295, true],
    }, readNumber),
    work: (s) => ransacDemo(ctx, s, output),
  });
  button.addEventListener('click', runner.run);

  part.append(
    el('h3', { id: 'batched-ransac-h' }, 'RANSAC: a homography from matches, two thousand guesses at once'),
    el('p', {}, 'Two photos of a flat object are related by a homography H, a 3×3 matrix up to scale: a point (x, y) of one lands at (u, v) = ((h₁₁x + h₁₂y + h₁₃)/w, (h₂₁x + h₂₂y + h₂₃)/w), w = h₃₁x + h₃₂y + h₃₃, in the other. Four matches fix it. Feature matching gives hundreds of matches, some wrong; RANSAC guesses H from many random 4-point samples and keeps the guess most matches agree with. Each guess is a tiny independent problem: the GPU makes thousands of them in one go.'),
    el('p', {}, `Here the sheet is a checkerboard of ${GRID.cols}×${GRID.rows} = ${GRID.cols * GRID.rows} corners, seen under a known H (the blue dashed outline); every match gets Gaussian noise, and a share of them is replaced by a random point of the view (a wrong match).`),
    el('ol', { class: 'batched-steps' },
      el('li', {}, el('strong', {}, 'Seeded 4-point samples. '), 'The CPU draws 4 distinct correspondences for each hypothesis from one generator seeded by the seed, and uploads the indices with the matches: the same seed, the same samples, the same answer.'),
      el('li', {}, el('strong', {}, 'Hartley normalisation. '), 'Each sample\'s points are moved to their centroid and scaled to a mean distance √2, in both images, so the equations\' coefficients (x, y, 1, ux, uy, …) are of similar size and float32 elimination keeps its digits; H is scaled back afterwards.'),
      el('li', {}, el('strong', {}, 'Degenerate samples rejected. '), 'When three of the four points are (nearly) collinear in either image, no unique H exists: the hypothesis is all zeros and scores 0.'),
      el('li', {}, el('strong', {}, 'One pass fits every hypothesis. '), 'Eight equations (two per match) in the eight unknowns of H with h₃₃ = 1, solved by Gaussian elimination with partial pivoting in private memory: on WebGPU one invocation per hypothesis (', el('code', {}, 'wgsl/ransac/fit.wgsl'), '), on WebGL one fragment per entry of H, each repeating its hypothesis\'s solve and keeping one entry (a fragment has one output; ', el('code', {}, 'glsl/ransac/fit.frag'), ').'),
      el('li', {}, el('strong', {}, 'One pass scores every hypothesis against every correspondence. '), 'A match is an inlier when ‖(u, v) − H(x, y)‖ ≤ the threshold. WebGPU: a workgroup of 64 invocations per hypothesis, each counting every 64th match, then the 64 counts added in workgroup memory by a tree reduction (32, 16, …, 1 with a barrier between steps; ', el('code', {}, 'wgsl/ransac/score.wgsl'), '). WebGL: one fragment per hypothesis loops over all matches. Only the counts come back, one number per hypothesis.'),
      el('li', {}, el('strong', {}, 'Refit on the inliers. '), 'The best hypothesis\'s inliers give an over-determined system; the CPU solves it in float64 by least squares (the same normalised DLT with h₃₃ = 1) and recounts the inliers under the refitted h.')),
    fieldGroup('batched-ransac-h', ...Object.values(f).map((x) => x.element)),
    el('div', { class: 'buttons' }, button),
    runner.status.element, output);

  return {
    element: part,
    run: runner.run,
    get done() { return part.dataset.status === 'done'; },
    set(s) {
      for (const [k, x] of Object.entries(f)) x.input.value = String(s[k]);
      runner.follow(s);
    },
  };
}

async function ransacDemo(ctx, s, output) {
  const { gpu } = ctx;
  const scene = makeScene(s.ransacNoise, s.ransacOutliers / 100, s.ransacSeed);
  const opts = { iterations: s.ransacIters, threshold: s.ransacThreshold, seed: s.ransacSeed };
  // The two shaders compiled on a tiny batch first, so that the wall time is the run's.
  await gpu.ransacHomographyAsync(scene.src, scene.dst, { iterations: 4, threshold: s.ransacThreshold, seed: s.ransacSeed });
  await nextFrame();
  const [r, wallMs] = await timedAsync(() => gpu.ransacHomographyAsync(scene.src, scene.dst, opts));
  await nextFrame();
  const check = checkRansac(scene, r, s.ransacThreshold);
  const good = r.h !== null && check.trueMapError < 2;
  const record = {
    status: 'done', backend: gpu.backend, n: scene.n, outliers: scene.outliers, noise: s.ransacNoise, seed: s.ransacSeed,
    threshold: s.ransacThreshold, iterations: r.iterations, best: r.best, bestCount: r.bestCount,
    h: r.h ? Array.from(r.h) : null, trueH: TRUE_H, degenerate: check.degenerate,
    trueInliers: scene.n - scene.outliers, trueFound: check.trueFound, falseAccepted: check.falseAccepted, inliers: check.inliers,
    trueMapError: check.trueMapError, measuredError: check.measuredError, cornerError: check.cornerError,
    countDiff: check.countDiff, winnerCount64: check.winnerCount64,
    fitMs: r.fitMs ?? null, scoreMs: r.scoreMs ?? null, wallMs, timed: r.fitMs != null && r.scoreMs != null,
  };
  output.replaceChildren(...ransacView(scene, r, check, record, ctx));
  publishBatched('ransac', record);
  const times = record.timed ? `fit pass ${ms(r.fitMs)}, scoring pass ${ms(r.scoreMs)} (GPU timers)` : `the passes not timed (${untimedWhy(gpu)})`;
  return r.h === null
    ? `Done on ${backendName(gpu)}: every sample was degenerate, no homography.`
    : `Done on ${backendName(gpu)}: ${int(r.iterations)} ${r.iterations === 1 ? 'hypothesis' : 'hypotheses'}, the best with ${r.bestCount} inliers; ${check.trueFound} of ${scene.n - scene.outliers} true inliers found; the found map within ${px(check.trueMapError)} of the true one${good ? '' : ' (not within 2 px)'}; ${times}; ${msText(wallMs)} in all.`;
}

/** Everything the GPU returned, checked in float64. */
function checkRansac(scene, r, threshold) {
  const { n, src, dst, exact, truth } = scene;
  const h = r.h;
  let trueFound = 0, falseAccepted = 0, inliers = 0, trueMapError = 0, measuredError = 0;
  for (let i = 0; i < n; i++) {
    if (r.inliers[i]) { inliers++; if (truth[i]) trueFound++; else falseAccepted++; }
    if (!truth[i] || !h) continue;
    const p = applyH(h, src[2 * i], src[2 * i + 1]);
    const e1 = p ? Math.hypot(p[0] - exact[2 * i], p[1] - exact[2 * i + 1]) : Infinity;
    const e2 = p ? Math.hypot(p[0] - dst[2 * i], p[1] - dst[2 * i + 1]) : Infinity;
    trueMapError = Math.max(trueMapError, e1);
    measuredError = Math.max(measuredError, e2);
  }
  let cornerError = h ? 0 : Infinity;
  if (h) {
    for (const [x, y] of SHEET_CORNERS) {
      const p = applyH(h, x, y), q = applyH(TRUE_H, x, y);
      cornerError = Math.max(cornerError, p ? Math.hypot(p[0] - q[0], p[1] - q[1]) : Infinity);
    }
  }
  // Every hypothesis's count again in float64 (its float32 entries, the float32
  // points): a match right at the threshold may fall either way in float32.
  let countDiff = 0, degenerate = 0, winnerCount64 = 0;
  const t2 = threshold * threshold;
  for (let k = 0; k < r.iterations; k++) {
    const m = r.hypotheses.subarray(9 * k, 9 * k + 9);
    if (m.every((v) => v === 0)) degenerate++;
    let c = 0;
    for (let i = 0; i < n; i++) {
      const x = src[2 * i], y = src[2 * i + 1];
      const w = m[6] * x + m[7] * y + m[8];
      if (!(Math.abs(w) > 1e-12)) continue;
      const du = (m[0] * x + m[1] * y + m[2]) / w - dst[2 * i], dv = (m[3] * x + m[4] * y + m[5]) / w - dst[2 * i + 1];
      if (du * du + dv * dv <= t2) c++;
    }
    if (k === r.best) winnerCount64 = c;
    countDiff = Math.max(countDiff, Math.abs(c - r.counts[k]));
  }
  return { trueFound, falseAccepted, inliers, trueMapError, measuredError, cornerError, countDiff, degenerate, winnerCount64 };
}

const px = (v) => (Number.isFinite(v) ? `${v < 0.01 ? sci(v) : v.toFixed(v < 10 ? 3 : 1)} px` : '—');

function ransacView(scene, r, check, record, ctx) {
  const { n, outliers } = scene;
  const clean = cleanChance(n, outliers);
  const expected = clean * r.iterations;
  const none = Math.pow(1 - clean, r.iterations);
  const timer = (v) => (v == null ? 'not timed' : ms(v)); // GPU timers: their own precision
  const why = untimedWhy(ctx.gpu);
  const ok = (b) => (b ? 'ok' : 'bad');
  const fmtH = (v) => (Math.abs(v) < 0.01 && v !== 0 ? v.toExponential(2) : v.toFixed(3)).replaceAll('-', '−');
  return [
    el('div', { class: 'batched-scene' }, scenePicture('The sheet: the points (x, y)', scene, r, 'src'), scenePicture('The view: the matches (u, v)', scene, r, 'dst')),
    countsHistogram(r, n),
    el('div', { class: 'scroll-x' }, el('table', { class: 'app-results', id: 'batched-ransac-table' },
      el('caption', {}, `${int(n)} correspondences, ${int(outliers)} of them wrong (${pct(outliers / n)}), noise σ = ${record.noise} px, threshold ${record.threshold} px`),
      el('tbody', {}, [
        ['hypotheses', `${int(r.iterations)} (${int(check.degenerate)} degenerate samples rejected)`, `one ${devName(ctx.gpu)} pass fits them all`],
        ['clean samples expected', `${expected < 10 ? expected.toFixed(2) : int(Math.round(expected))} (P(a sample is clean) = ${pct(clean)}; P(none is) = ${none < 1e-6 ? sci(none) : pct(none)})`, 'samples of 4 true matches: only they give the true H'],
        ['best count', `${int(r.bestCount)} inliers of ${int(n)}, hypothesis #${int(r.best)}`, `float64 recount of its float32 H: ${int(check.winnerCount64)}; every hypothesis's ${devName(ctx.gpu)} count within ${check.countDiff} of float64's`, ok(check.countDiff <= 3)],
        ['true inliers found', `${int(check.trueFound)} of ${int(n - outliers)} (${int(check.falseAccepted)} wrong matches accepted)`, 'inliers of the refitted h against the scene\'s truth'],
        ['max error of the true inliers under h, against the true H', px(check.trueMapError), 'max ‖h(x, y) − H(x, y)‖ over the true matches, float64: how far the found map is from the true one', ok(check.trueMapError < 2)],
        ['max reprojection error of the true inliers', px(check.measuredError), 'max ‖h(x, y) − (u, v)‖ over the true matches (their noise included), float64'],
        ['sheet corners, h against H', px(check.cornerError), 'the outline\'s corners (the drawing\'s extremes)'],
        [`${devName(ctx.gpu)} time, fit pass`, timer(r.fitMs), r.fitMs == null ? `not timed: ${why}` : `${int(r.iterations)} hypotheses, ${ctx.gpu.backend === 'webgpu' ? 'timestamp queries' : 'a timer query'} around the pass`],
        [`${devName(ctx.gpu)} time, scoring pass`, timer(r.scoreMs), `${int(r.iterations)} × ${int(n)} = ${int(r.iterations * n)} reprojections${r.scoreMs == null ? `; not timed: ${why}` : ''}`],
        ['wall time of the call', msText(record.wallMs), 'await gpu.ransacHomographyAsync(…): uploads, both passes, reading back the hypotheses and counts, the float64 refit'],
        ['the developer\'s log', '≈ 3.5–4 ms for a batch of 2000; ≈ 140 µs for the inlier check', 'its whole batch (9×9 SVDs and homographies) with CUDA on 2012 hardware'],
      ].map(([k, v, note, cls]) => el('tr', { 'data-key': k }, el('th', { scope: 'row' }, k, el('span', { class: 'what' }, note)), el('td', { class: cls || null }, v)))))),
    r.h ? el('div', { class: 'part-figures' },
      partitionedGrid('the found h (h₃₃ = 1)', 3, 3, Array.from(r.h), { fmt: fmtH, id: 'batched-ransac-h' }),
      partitionedGrid('the true H', 3, 3, TRUE_H, { fmt: fmtH, id: 'batched-ransac-true-h' })) : null,
    el('p', {}, 'What differs from the log: its times are its whole batch, SVD and homography, on a 2012 GPU; ours are each pass alone as this device\'s GPU timer reports it (on a software renderer such as SwiftShader, a CPU pretending to be a GPU, far slower). And our fit pass solves the 8×8 DLT exactly with h₃₃ = 1 per hypothesis instead of taking an SVD of the 9×9 system (the eight equations padded with a zero row): both find the H that sends the four points exactly where they go, the SVD as the singular vector of the zero singular value (which works also if h₃₃ should be 0), the solve by fixing the scale with h₃₃ = 1 (h₃₃ is 0 only for a view that sends the sample\'s centroid to infinity). Elimination ends after a fixed number of steps, so it needs no iteration and no test of convergence; Jacobi rotations sweep until the columns are orthogonal.'),
  ];
}

/** The sheet or the view as SVG: the points coloured by what RANSAC made of them, and the outlines. */
function scenePicture(title, scene, r, which) {
  const { n, src, dst, truth } = scene;
  const box = which === 'src' ? SHEET : VIEW;
  const pad = 12;
  const pts = which === 'src' ? src : dst;
  const outline = (h, cls) => DRAWING.map((line) => {
    const p = line.map(([x, y]) => (h ? applyH(h, x, y) : [x, y]));
    if (p.some((q) => !q || !Number.isFinite(q[0]) || !Number.isFinite(q[1]))) return null;
    return svg('polyline', { points: p.map((q) => `${q[0].toFixed(1)},${q[1].toFixed(1)}`).join(' '), class: cls });
  });
  const dots = [];
  for (let i = 0; i < n; i++) {
    const cls = truth[i] ? (r.inliers[i] ? 'in' : 'missed') : (r.inliers[i] ? 'false' : 'out');
    dots.push(point(`pt ${cls}`, pts[2 * i], pts[2 * i + 1]));
  }
  const lines = which === 'src'
    ? outline(null, 'line-sheet')
    : [...outline(TRUE_H, 'line-true'), ...(r.h ? outline(Array.from(r.h), 'line-found') : [])];
  // The key is drawn in the picture, with the picture's own marks, so that a saved
  // PNG or SVG of it says what they mean.
  const line = (cls) => (x, y) => [svg('line', { x1: x - 12, x2: x + 12, y1: y, y2: y, class: cls })];
  const keys = [
    ...[['in', 'true match, found inlier'], ['missed', 'true match, missed'], ['out', 'wrong match, rejected'], ['false', 'wrong match, accepted']]
      .map(([cls, text]) => ({ marks: (x, y) => [point(`key ${cls}`, x, y, 1.6)], text })),
    ...(which === 'src' ? [{ marks: line('line-sheet'), swatch: 24, text: 'the sheet\'s outline' }]
      : [{ marks: line('line-true'), swatch: 24, text: 'the sheet under the true H' }, ...(r.h ? [{ marks: line('line-found'), swatch: 24, text: 'under the found h' }] : [])]),
  ];
  const legend = svgLegend(keys, { top: box.h + pad, width: box.w, size: 15 });
  return el('figure', { class: 'batched-picture', id: `batched-ransac-${which}` },
    el('figcaption', {}, title),
    svg('svg', { viewBox: `${-pad} ${-pad} ${box.w + 2 * pad} ${box.h + 2 * pad + legend.height}`, role: 'img', class: 'batched-svg', 'aria-label': `${title}: ${n} points, ${r.inliers.reduce((a, b) => a + b, 0)} inliers; ${keys.map((k) => k.text).join(', ')}` },
      svg('rect', { x: 0, y: 0, width: box.w, height: box.h, class: 'frame' }), lines, dots, legend.group));
}

/**
 * A correspondence as the pictures mark it (`cls`: 'pt in', 'key out', …), `scale`
 * times the size: a × if rejected as wrong, else a dot.
 */
function point(cls, x, y, scale = 1) {
  const h = 2.5 * scale;
  return cls.endsWith(' out')
    ? svg('path', { d: `M${(x - h).toFixed(1)},${(y - h).toFixed(1)}l${2 * h},${2 * h}m0,${-2 * h}l${-2 * h},${2 * h}`, class: cls })
    : svg('circle', { cx: x.toFixed(1), cy: y.toFixed(1), r: 2.6 * scale, class: cls });
}

/** The batch's inlier counts as a histogram (log heights), the winner's bin marked. */
function countsHistogram(r, n) {
  const bins = 30;
  const width = Math.max(1, Math.ceil(n / bins));
  const counts = new Array(Math.floor(n / width) + 1).fill(0);
  for (const c of r.counts) counts[Math.floor(c / width)]++;
  const winner = Math.floor(r.bestCount / width);
  const bars = counts.map((v, b) => ({ label: `${b * width}`, value: v, mark: b === winner ? `best: ${r.bestCount}` : null }));
  return barChart(`The batch: how many hypotheses got how many inliers (bins of ${width}; heights log(1 + hypotheses))`, bars,
    { log: true, xLabel: 'inliers of a hypothesis', id: 'batched-ransac-hist', ariaLabel: `histogram of ${r.iterations} inlier counts; the best has ${r.bestCount}` });
}
