// "Fragment shader or compute shader": what changes when the product runs as a
// WebGPU compute shader (invocations, workgroups, workgroup memory and barriers),
// the chapter's CUDA shared-memory kernel beside the WGSL one (cuda-wgsl.js), and a
// table measured on the visitor's own device on a button press: the three WebGPU
// kernels and WebGL's blocked8 and naive at a few n (compute-measure.js), next to
// the course report's K40 figures.
//
//   section#compute[data-status]   idle | running | done | cancelled | error
//   window.__compute               the last measurement: { status, sizes, cells: [...], ratios }
import { clockMs, clockNote, el, int, ms, rate, registerForm } from '../ui/format.js';
import { sideBySide } from './cuda-wgsl.js';
import { K40, KERNELS, MAX_BATCH, measure, signedPermutation } from './compute-measure.js';
import { disableWhileBusy, nextFrame, stoppedText } from './common.js';
import { t, tn } from '../i18n/index.js';

const ID = 'compute';
/** The sizes offered: the course report's (BRIEF.md §5), so every row has its K40 figures. */
const SIZES = [32, 64, 128, 320, 1024, 3072, 5120];
/** Ticked at first: small on a software GPU (this is the CPU), larger on a real one. */
const DEFAULT_MAX = { software: 128, hardware: 1024 };

function intro() {
  return [
    el('p', {}, 'A fragment shader is drawn: the page renders a quad over the output texture and the rasteriser starts one fragment per texel. Each fragment computes its own output from textures it may only read, writes only its own pixel, and cannot see what its neighbours fetched. A ',
      el('strong', {}, 'compute shader'), ' is dispatched: no geometry, no rasteriser, no textures. The GPU runs a grid of ',
      el('strong', {}, 'workgroups'), ', each of a fixed number of ', el('strong', {}, 'invocations'),
      ' (CUDA\'s blocks of threads); every invocation knows its number, reads and writes plain arrays in ', el('strong', {}, 'storage buffers'),
      ' at any index, and shares ', el('strong', {}, 'workgroup memory'), ' with the other invocations of its workgroup: a few KiB on the chip, much faster than global memory, made safe by ',
      el('strong', {}, 'barriers'), ' (workgroupBarrier(): nobody goes on until all have arrived).'),
    el('p', {}, 'That is what the chapter\'s CUDA kernels use, and what WebGL cannot express. There is one price: WebGPU never blocks. Results come back through a promise (a copy to a mappable buffer, then mapAsync), so the library\'s blocking calls throw NEEDS_ASYNC there and the page uses the Async forms (squareAsync, run.resultAsync, run.drawHeatmapAsync, …) on both backends.'),
  ];
}

function termsTable() {
  const rows = [
    ['one unit of work', 'thread', 'invocation', 'fragment'],
    ['a group of them', 'block (blockDim)', 'workgroup (@workgroup_size)', '— (none you can see)'],
    ['all of them', 'grid', 'dispatch of workgroups', 'the quad, rasterised'],
    ['which one am I', 'blockIdx, threadIdx', 'workgroup_id, local_invocation_id', 'gl_FragCoord, the texture coordinate'],
    ['the matrices', 'global memory (float *A)', 'storage buffers (array<f32>)', 'textures (texelFetch)'],
    ['fast shared memory', '__shared__', 'var<workgroup>', '— (only the texture cache)'],
    ['wait for the others', '__syncthreads()', 'workgroupBarrier()', '— (no way)'],
    ['writes', 'anywhere', 'anywhere in a read_write buffer', 'only its own pixel(s)'],
  ];
  return el('div', { class: 'scroll-x' }, el('table', { class: 'app-table compute-terms' },
    el('caption', {}, 'The same ideas in CUDA, WebGPU (WGSL) and a WebGL2 fragment shader'),
    el('thead', {}, el('tr', {}, ['', 'CUDA', 'WebGPU (WGSL)', 'WebGL2 fragment shader'].map((h, i) => el('th', { scope: 'col' }, i ? h : el('span', { class: 'visually-hidden' }, t('sec.compute.concept')))))),
    el('tbody', {}, rows.map(([what, ...cells]) => el('tr', {}, el('th', { scope: 'row' }, what), cells.map((c) => el('td', {}, c)))))));
}

function kernelsList(ctx) {
  const info = ctx.backends.ready('webgpu')?.info();
  const form = info?.registerKernel ? ` On this device's WebGPU adapter: ${registerForm(info)}.` : '';
  return el('ol', { class: 'compute-kernels' },
    el('li', {}, el('strong', {}, 'One invocation per element (global). '),
      'The fragment shader\'s model, as a compute shader: invocation (i, j) loops over k and reads row i of A and column j of B from global memory, 2n reads for its n multiply-adds. Memory, not arithmetic, sets the speed. (The chapter\'s first CUDA kernel.)'),
    el('li', {}, el('strong', {}, 'A tile per workgroup (tiled16). '),
      'A workgroup of 16 × 16 invocations computes a 16 × 16 tile of C. For each slice of k, every invocation copies one element of A and one of B into workgroup memory, a barrier waits for all 256, and then each does 16 multiply-adds from there: global memory is read 16 times less. (The chapter\'s shared-memory kernel, below.)'),
    el('li', {}, el('strong', {}, 'A register tile per invocation (register). '),
      `Each invocation computes a whole block of C (say 8 × 8) and keeps its sums in registers, the fastest memory there is; each value it reads feeds a whole row or column of its block. That is how fast matrix libraries work. A WebGL fragment shader can do a little of it too: blocked8 writes 8 × 4 outputs through 8 render targets.${form}`),
    el('li', {}, el('strong', {}, 'Waves, and the last one shared out (stream-K). '),
      'A GPU runs only so many workgroups at once (the H200 runs 264 of the register kernel\'s: 2 on each of its 132 cores); the rest wait their turn, in waves. At n = 4096 the 1024 tiles of 128 × 128 make three full waves and a last one of 232, which takes as long as a full one while 32 places idle: 3 % of the time. So the library counts, once, how many workgroups the GPU runs at once (an atomic counter in the kernel), computes the full waves\' tiles as before, and shares the last tiles\' k out, slice by slice, among that many workgroups; a second, small pass adds the pieces of each tile. At n = 3072 (two waves and 48 tiles) that made the product 37 % faster on the H200.'));
}

export default {
  id: ID,
  title: 'Fragment shader or compute shader',
  mount(container, ctx) {
    const section = container.closest('section') || container;
    section.dataset.status = 'idle';
    const webgpu = ctx.backends.webgpu;
    const noWebgpu = !webgpu || webgpu.state === 'none' || webgpu.state === 'no-adapter';
    const software = webgpu && webgpu.state === 'software';
    const kernelsSlot = el('div', {}, kernelsList(ctx));
    let listing;
    try {
      listing = sideBySide(ctx.Gpgpu.kernelSource('tiled16'), ctx.Gpgpu.kernelSource('global'));
    } catch (err) {
      listing = el('p', { class: 'error' }, `The WGSL files could not be read: ${ctx.describeError(err).message}`);
    }
    const measureUi = measurement(section, ctx, { noWebgpu, software, webgpu, onMeasured: () => kernelsSlot.replaceChildren(kernelsList(ctx)) });
    container.replaceChildren(
      el('div', { class: 'app-intro' }, intro()),
      termsTable(),
      el('h3', {}, 'Three ways to share out C = A·B'),
      kernelsSlot,
      el('h3', {}, 'The chapter\'s shared-memory kernel, in CUDA and in WGSL'),
      listing,
      el('h3', { id: 'compute-measure-h' }, 'Measured on this device'),
      measureUi);
  },
};

/** The measurement: sizes, Measure and Stop, status, the table. */
function measurement(section, ctx, { noWebgpu, software, webgpu, onMeasured }) {
  const max = software || noWebgpu ? DEFAULT_MAX.software : DEFAULT_MAX.hardware;
  const boxes = SIZES.map((n) => el('label', { class: 'size' },
    el('input', { type: 'checkbox', id: `compute-n-${n}`, value: String(n), checked: n <= max }), ` ${int(n)}`));
  const run = el('button', { type: 'button', class: 'primary', id: 'compute-run' }, t('sec.compute.measure'));
  const stop = el('button', { type: 'button', id: 'compute-stop', disabled: true }, t('sec.stop'));
  const status = el('p', { class: 'status app-status idle', role: 'status', id: 'compute-status' }, t('sec.compute.idle'));
  const tableSlot = el('div', { class: 'scroll-x', id: 'compute-table-box' });
  // `underway`: the measurement a running line names, for what Stop says.
  const set = (state, text, tone = '', underway = '') => {
    section.dataset.status = state;
    status.textContent = text;
    status.dataset.underway = underway;
    status.className = `status app-status ${state}${tone ? ` ${tone}` : ''}`;
  };
  const note = noWebgpu
    ? el('p', { class: 'note-box warn', id: 'compute-no-webgpu' }, `No WebGPU here: ${webgpu ? webgpu.text : 'this browser has no WebGPU'}. The compute-shader kernels cannot run in this browser, so the table measures the WebGL kernels only; everything else on the page works with WebGL2. (WebGPU is in current Chrome and Edge, Safari 26 and Firefox 141 on Windows.)`)
    : software
      ? el('p', { class: 'note-box info', id: 'compute-software' }, `Here ${webgpu.text}. A software adapter emulates the GPU on the CPU: workgroup memory is ordinary memory and a barrier halts every lane, so tiled16 can be slower than global, and nothing below says how a real GPU compares (the K40 columns do).`)
      : null;
  let stopAsked = false;
  run.addEventListener('click', async () => {
    const sizes = boxes.map((b) => b.querySelector('input')).filter((i) => i.checked).map((i) => Number(i.value));
    if (!sizes.length) { set('error', t('sec.compute.noSize')); return; }
    stopAsked = false;
    set('running', t('sec.compute.preparing'));
    const fromMeasure = document.activeElement === run;
    const release = disableWhileBusy([run, ...boxes.map((b) => b.querySelector('input'))]);
    stop.disabled = false;
    // Measure is disabled under the keyboard's focus: Stop is what it can press now.
    if (fromMeasure) stop.focus();
    try {
      const out = await measureAll(ctx, sizes, { noWebgpu, tableSlot, set, stopped: () => stopAsked });
      onMeasured();
      window.__compute = out;
      const count = out.cells.filter((c) => c.ms !== null).length;
      const measurements = tn('sec.compute.measurements', count);
      const wrong = out.cells.some((c) => c.wrong);
      if (out.status === 'cancelled') set('cancelled', t('sec.compute.cancelled', { measurements }));
      else set('done', t(wrong ? 'sec.compute.doneWrong' : 'sec.compute.done', { measurements, sizes: sizes.join(', ') }), wrong ? 'warn' : '');
    } catch (err) {
      const d = ctx.describeError(err);
      set('error', stoppedText(d));
      window.__compute = { status: 'error', error: { code: d.code, message: d.message } };
    } finally {
      stop.disabled = true;
      stop.removeAttribute('aria-disabled');
      release(); // after Stop is disabled: a focus it held goes back to Measure
    }
  });
  // Stop takes effect between two measurements, and one at n = 1024 takes a minute on a
  // software GPU: say so at once, and keep the button (and a keyboard's focus) until then.
  stop.addEventListener('click', () => {
    if (stopAsked || stop.disabled) return;
    stopAsked = true;
    stop.setAttribute('aria-disabled', 'true');
    const now = status.dataset.underway;
    set('running', now ? t('sec.compute.stopping', { now }) : t('sec.stopping'));
  });
  return el('div', { class: 'compute-measure' },
    el('p', {}, 'Square a matrix with each kernel at a few sizes, here, and compare with the course report\'s CUDA kernels on an NVIDIA K40 (global memory vs shared memory): on a real GPU staging tiles in shared memory pays 3 to 4.7 times at n ≤ 1024.'),
    el('p', { class: 'help' }, `For comparison, this table measured once in headless Chromium on an NVIDIA H100 (GPU times, November 2026): global ÷ shared 2.9 at n = 1024 and 5.3 at n = 3072 and 5120; at n = 5120 the register kernel ran at about ${int(30000)} GFLOP/s, tiled16 at ${int(8000)}, global at ${int(1500)}, WebGL's blocked8 at 680 and naive at 62.`),
    note,
    el('fieldset', { class: 'compute-sizes' }, el('legend', {}, t('sec.compute.sizes')), boxes),
    el('p', { class: 'help', id: 'compute-sizes-help' }, software || noWebgpu
      ? 'On a software GPU (such as SwiftShader) n = 1024 takes about a minute and 3072 or 5120 much longer: the naive kernel alone needs seconds per product there.'
      : 'n = 3072 and 5120 take a while with the naive kernel (n³ multiply-adds per product, one output per fragment).'),
    el('div', { class: 'buttons' }, run, stop),
    status,
    tableSlot,
    el('p', { class: 'help' }, `How it is timed: for each kernel and n, a chain of squarings of one matrix runs on the GPU. Its first product is a warm-up (compiling the kernel, allocating at this size), the second is timed alone to choose a batch size, then a batch of up to ${MAX_BATCH} products is issued back to back and closed by one `,
      el('code', {}, 'await run.whenDone()'), '. The first figure of a cell is the GPU\'s own time per product: the median of the batch\'s passes from ',
      el('code', {}, 'run.gpuTimes()'), ' (timestamp queries on WebGPU, EXT_disjoint_timer_query_webgl2 on WebGL), which is what the K40\'s kernel times measure too; GFLOP/s = 2n³ / that time. "wall" is the batch\'s wall time divided by its size: it also holds handing each product to the GPU and waiting for the answer, which on a fast GPU is most of it below n ≈ 1000. A device without a GPU timer gets the wall time alone (so marked), and the global ÷ shared ratio compares times of one kind. The matrix is a random signed permutation: its powers stay 0 and ±1, so no chain overflows and every answer is checked exactly (✓); every kernel still does all n³ multiply-adds. Other work on the page at the same time (the demo above) slows it down.'));
}

/** Measures every kernel at every size, filling the table as it goes. */
async function measureAll(ctx, sizes, { noWebgpu, tableSlot, set, stopped }) {
  const gpus = {};
  const unavailable = {};
  for (const backend of ['webgpu', 'webgl']) {
    if (backend === 'webgpu' && noWebgpu) { unavailable.webgpu = 'no WebGPU'; continue; }
    try {
      gpus[backend] = await ctx.backends.get(backend);
    } catch (err) {
      unavailable[backend] = `no ${backend === 'webgpu' ? 'WebGPU' : 'WebGL2'} (${ctx.describeError(err).code})`;
    }
  }
  const table = resultsTable(sizes, gpus);
  tableSlot.replaceChildren(table.element);
  const cells = [];
  const total = sizes.length * KERNELS.length;
  let done = 0;
  let status = 'done';
  outer:
  for (const n of sizes) {
    const perm = signedPermutation(n, 2026 + n);
    for (const k of KERNELS) {
      if (stopped()) { status = 'cancelled'; break outer; }
      const gpu = gpus[k.backend];
      const cell = { n, kernel: k.name, backend: k.backend, ms: null, gflops: null, gpuMs: null, count: 0, wrong: null, error: null };
      cells.push(cell);
      done++;
      if (!gpu) {
        cell.error = unavailable[k.backend];
        table.fill(n, k.name, cell);
        continue;
      }
      const what = `${k.name} (${k.backend === 'webgpu' ? 'WebGPU' : 'WebGL2'}) ${t('sec.compute.atN', { n })}`;
      set('running', t('sec.compute.measuring', { what, done, total }), '', what);
      table.pending(n, k.name);
      await nextFrame();
      try {
        Object.assign(cell, await measure(gpu, k.name, n, perm));
      } catch (err) {
        const d = ctx.describeError(err);
        cell.error = d.code;
        cell.message = d.message;
      }
      table.fill(n, k.name, cell);
      table.ratio(n, cells);
    }
  }
  // Stopped: the cells it did not reach say so, rather than go on showing "…".
  if (status === 'cancelled') table.stopped();
  const ratios = Object.fromEntries(sizes.map((n) => [n, ratioAt(n, cells)?.ratio ?? null]));
  return { status, sizes, cells, ratios, unavailable };
}

/**
 * The time a cell shows first: the GPU's own time per product where the device has a
 * timer (what the K40's kernel times measure too), else the wall time.
 */
export function shownTime(c) {
  return c.gpuMs !== null && c.gpuMs > 0 ? { ms: c.gpuMs, kind: 'GPU timer' } : { ms: c.ms, kind: 'wall' };
}

/** time(global) / time(tiled16) at n, from times of one kind (GPU timer or wall), or null. */
function ratioAt(n, cells) {
  const g = cells.find((c) => c.n === n && c.kernel === 'global' && c.ms !== null);
  const t = cells.find((c) => c.n === n && c.kernel === 'tiled16' && c.ms !== null);
  if (!g || !t) return null;
  const [a, b] = [shownTime(g), shownTime(t)];
  return a.kind === b.kind ? { ratio: a.ms / b.ms, kind: a.kind } : { ratio: g.ms / t.ms, kind: 'wall' };
}

/** Cell `c`'s wall time per product, to the clock's step over its batch (the caption says the resolution). */
const wall = (c) => clockMs(c.ms, { bare: true, over: c.count });

const gflopsOf = (n, millis) => (2 * n ** 3) / (millis * 1e6);

/**
 * The table's data for Copy as CSV: one row per n and kernel (then the K40's two), one
 * number a column with its unit in the head; what was not measured says why in "note".
 * The table's two ratio columns (global ÷ shared here, and on the K40) are values of
 * their n: every row of that n carries them.
 */
function dataRows(sizes, measured) {
  const round = (x) => (x === null || x === undefined ? '' : Number(x.toPrecision(4)));
  const api = { webgpu: 'WebGPU', webgl: 'WebGL2' };
  const rows = [['n', 'API', 'kernel', 'time per product (ms)', 'time measured by', 'GFLOP/s', 'wall time per product (ms)', 'products timed', 'result exact', 'note',
    'global ÷ shared here (this n)', 'global ÷ shared here, times measured by', 'global ÷ shared on the K40 (this n)']];
  for (const n of sizes) {
    const k40 = K40[n];
    const here = ratioAt(n, [...measured.values()]);
    const ratios = [round(here?.ratio), here?.kind ?? '', k40 ? round(k40[0] / k40[1]) : ''];
    for (const k of KERNELS) {
      const c = measured.get(`${n}/${k.name}`);
      if (!c || c.ms === null) {
        rows.push([n, api[k.backend], k.name, '', '', '', '', '', '', c ? c.error || 'not measured' : 'not measured', ...ratios]);
        continue;
      }
      const shown = shownTime(c);
      rows.push([n, api[k.backend], k.name, round(shown.ms), shown.kind, round(gflopsOf(n, shown.ms)), round(c.ms), c.count, c.wrong ? 'no' : 'yes', c.wrong ? `${c.wrong} entries wrong` : '', ...ratios]);
    }
    if (k40) {
      for (const [i, kernel] of [[0, 'global'], [1, 'shared']]) {
        rows.push([n, 'CUDA on an NVIDIA K40 (course report)', kernel, round(k40[i] / 1000), 'kernel time', round(gflopsOf(n, k40[i] / 1000)), '', '', '', '', ...ratios]);
      }
    }
  }
  return rows;
}

/** The table: one row per n, one column per kernel, the ratio, and the K40 columns. */
function resultsTable(sizes, gpus) {
  const byKey = new Map();
  const ratioCells = new Map();
  const name = (b) => (b === 'webgpu' ? 'WebGPU compute shaders' : 'WebGL2 fragment shaders');
  const adapter = gpus.webgpu ? [gpus.webgpu.info().vendor, gpus.webgpu.info().architecture].filter(Boolean).join(' ') : '';
  const head1 = el('tr', {},
    el('th', { scope: 'col', rowspan: '2' }, 'n'),
    el('th', { scope: 'colgroup', colspan: '3' }, `${name('webgpu')}${adapter ? ` (${adapter})` : ''}`),
    el('th', { scope: 'colgroup', colspan: '2' }, name('webgl')),
    el('th', { scope: 'col', rowspan: '2', title: t('sec.compute.ratioHelp') }, t('sec.compute.ratioHere')),
    el('th', { scope: 'colgroup', colspan: '3' }, t('sec.compute.k40')));
  const head2 = el('tr', {},
    KERNELS.map((k) => el('th', { scope: 'col', title: k.what }, k.name === 'tiled16' ? 'tiled16 (shared)' : k.name)),
    el('th', { scope: 'col' }, 'global'), el('th', { scope: 'col' }, 'shared'), el('th', { scope: 'col' }, t('sec.ratio')));
  const body = el('tbody', {}, sizes.map((n) => {
    const k40 = K40[n];
    const ratio = el('td', { class: 'num ratio', 'data-ratio': '' }, '—');
    ratioCells.set(n, ratio);
    return el('tr', { 'data-n': String(n) },
      el('th', { scope: 'row' }, int(n)),
      KERNELS.map((k) => {
        const td = el('td', { class: 'num cell', 'data-kernel': k.name, 'data-backend': k.backend }, '…');
        byKey.set(`${n}/${k.name}`, td);
        return td;
      }),
      ratio,
      k40 ? [
        el('td', { class: 'num k40' }, ms(k40[0] / 1000), el('span', { class: 'sub' }, `${rate(gflopsOf(n, k40[0] / 1000))} GFLOP/s`)),
        el('td', { class: 'num k40' }, ms(k40[1] / 1000), el('span', { class: 'sub' }, `${rate(gflopsOf(n, k40[1] / 1000))} GFLOP/s`)),
        el('td', { class: 'num k40' }, (k40[0] / k40[1]).toFixed(1)),
      ] : [el('td', { class: 'num' }, '—'), el('td', { class: 'num' }, '—'), el('td', { class: 'num' }, '—')]);
  }));
  const element = el('table', { class: 'app-table compute-table', id: 'compute-table' },
    el('caption', {}, 'Time per product (C = M·M, float32; the GPU\'s own time where it has a timer) and GFLOP/s on this device, beside the K40\'s CUDA kernels. ', el('span', { class: 'clock-note' }, `${clockNote()} A wall time per product is a batch's over its size, so its step is the resolution over the batch size.`)),
    el('thead', {}, head1, head2), body);
  const measured = new Map();
  // A cell holds a time, its GFLOP/s and a wall time: a spreadsheet wants one number a column.
  element.figureData = () => dataRows(sizes, measured);
  return {
    element,
    pending(n, kernel) {
      const td = byKey.get(`${n}/${kernel}`);
      td.textContent = t('sec.compute.cellMeasuring');
      td.classList.add('pending');
    },
    fill(n, kernel, c) {
      const td = byKey.get(`${n}/${kernel}`);
      measured.set(`${n}/${kernel}`, c);
      td.classList.remove('pending');
      if (c.ms === null) {
        td.textContent = c.error || '—';
        td.classList.add('na');
        if (c.message) td.title = c.message;
        return;
      }
      const shown = shownTime(c);
      td.dataset.ms = String(c.ms);
      td.dataset.shownMs = String(shown.ms);
      td.dataset.kind = shown.kind;
      td.replaceChildren(
        el('span', { class: 'main' }, shown.kind === 'wall' ? wall(c) : ms(shown.ms), ' ', c.wrong ? el('span', { class: 'bad', title: `${int(c.wrong)} entries differ from the exact answer` }, '✗') : el('span', { class: 'ok', title: 'the result equals the exact answer' }, '✓')),
        el('span', { class: 'sub' }, `${rate(gflopsOf(n, shown.ms))} GFLOP/s`),
        el('span', { class: 'sub wall' }, shown.kind === 'wall' ? 'wall (no GPU timer)' : `wall ${wall(c)}`));
      td.title = `${shown.kind === 'wall' ? 'wall time per product' : 'GPU time per product (median of the batch\'s passes)'}; batch of ${c.count} product${c.count === 1 ? '' : 's'}, wall time per product ${wall(c)}`;
    },
    /** After Stop: every cell not measured (still "…", or "measuring…") says it was not. */
    stopped() {
      for (const td of byKey.values()) {
        if (td.dataset.ms || td.classList.contains('na')) continue;
        td.classList.remove('pending');
        td.classList.add('na');
        td.textContent = t('sec.compute.cellStopped');
        td.title = t('sec.compute.cellStoppedWhy');
      }
    },
    ratio(n, cells) {
      const got = ratioAt(n, cells);
      const td = ratioCells.get(n);
      if (got === null) return;
      const { ratio: r, kind } = got;
      td.replaceChildren(r.toPrecision(2), el('span', { class: 'sub' }, kind === 'wall' ? 'wall times' : 'GPU times'));
      td.dataset.ratio = String(r);
      td.title = `${r >= 1 ? 'the shared-memory kernel is faster here' : 'the shared-memory kernel is slower here'} (${kind === 'wall' ? 'wall times' : 'GPU timer times'})`;
    },
  };
}
