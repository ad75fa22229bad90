// Every library error reaches the page as a clear message: n over the device limit,
// no WebGL2, no float render target, a lost (and restored) context. And without a
// GPU timer the timeline says its times are wall times.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { ARTIFACTS, launchBrowser, openBlankPage, openPage, startServer, waitForStatus } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

const banner = (page) => page.evaluate(() => {
  const b = document.getElementById('banner');
  return { hidden: b.hidden, code: b.dataset.code, text: b.textContent };
});

test('n larger than the device allows: SIZE_OVER_LIMIT on the page', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=9000`);
  assert.equal(await waitForStatus(page), 'error');
  const b = await banner(page);
  assert.equal(b.hidden, false);
  assert.equal(b.code, 'SIZE_OVER_LIMIT');
  assert.match(b.text, /n is larger than this GPU allows/);
  assert.match(b.text, /8192|limit/);
  const r = await page.evaluate(() => window.__results);
  assert.equal(r.error.code, 'SIZE_OVER_LIMIT');
  await page.screenshot({ path: join(ARTIFACTS, 'error-size.png') });
  // Dismissed from the keyboard, the banner hands the focus to n, not to the page body.
  await page.focus('#banner button');
  await page.keyboard.press('Enter');
  assert.equal((await banner(page)).hidden, true);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'n');
  // Fixing n in the form and running works.
  await page.fill('#n', '8');
  await page.click('#run');
  assert.equal(await waitForStatus(page), 'done');
  assert.equal((await banner(page)).hidden, true, 'the banner goes away');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('n past what a run takes, up to the page cap: SIZE_OVER_LIMIT at once, before any input is built', async () => {
  // n = 65536 was "Array buffer allocation failed" (PAGE_ERROR: 16 GiB of float32 built
  // before the library was asked); 46340 on WebGL and 40000 on WebGPU built 8 GiB for
  // ~50 s before SIZE_OVER_LIMIT; the CPU's refusal spoke of a GPU.
  const cases = [
    ['n=65536', 'webgl', /n = 65536 is larger than this device's limit of 8192/, /this GPU/],
    ['n=65536&backend=webgpu', 'webgpu', /65536x65536 matrix needs 16 GiB \(17,179,869,184 bytes\), over this WebGPU device's max/, /this GPU/],
    ['n=46340', 'webgl', /n = 46340 is larger than this device's limit/, /this GPU/],
    ['n=40000&backend=webgpu', 'webgpu', /maxStorageBufferBindingSize/, /this GPU/],
    ['n=23000&backend=cpu', 'cpu', /n = 23000 needs 23000 rows or columns, over the CPU backend's limit .* of 16384\. The CPU backend uses no GPU/, /the CPU backend allows/],
    // Under that limit but not in memory with the CPU's own copies (it used to run
    // out of memory: RuntimeError: unreachable, and the page never finished).
    ['n=16384&backend=cpu', 'cpu', /twice over \(the CPU backend's own copies\) needs [\d.]+ GiB \([\d,]+ bytes\) of WebAssembly memory/, /./],
  ];
  for (const [query, backend, message, title] of cases) {
    const t0 = Date.now();
    const page = await openPage(browser, `${server.origin}/index.html?${query}`);
    assert.equal(await waitForStatus(page), 'error', query);
    const ms = Date.now() - t0;
    const b = await banner(page);
    assert.equal(b.code, 'SIZE_OVER_LIMIT', `${query}: ${b.text}`);
    assert.match(b.text, message, query);
    assert.match(b.text, title, query);
    if (backend === 'cpu') assert.doesNotMatch(b.text, /GPU allows/, query);
    assert.ok(ms < 20_000, `${query}: the error came after ${ms} ms`);
    assert.equal(await page.evaluate(() => window.__page.gpu.backend), backend, query);
    // The n field shows the largest n a run takes there (WebGPU: one 1 GiB buffer on
    // SwiftShader, not 16 × maxComputeWorkgroupsPerDimension; the CPU: what 4 GiB less
    // 256 MiB hold of the input and the result with the CPU backend's own copies).
    const nMax = Number(await page.textContent('#n-max'));
    assert.equal(nMax, { webgl: 8192, webgpu: 16384, cpu: 15863 }[backend], query);
    assert.deepEqual(page.problems(), [], query);
    await page.context().close();
  }
});

test('no WebGL2, and no float render target: the page says so', async () => {
  // Without WebGPU either (backend=auto would otherwise fall back to its software adapter).
  const noWebgl2 = await openPage(browser, `${server.origin}/index.html`, undefined, {
    init: () => {
      delete Navigator.prototype.gpu;
      const get = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function getContext(kind, ...rest) {
        return kind === 'webgl2' ? null : get.call(this, kind, ...rest);
      };
    },
  });
  assert.equal(await waitForStatus(noWebgl2), 'error');
  let b = await banner(noWebgl2);
  assert.equal(b.code, 'NO_WEBGL2');
  assert.match(b.text, /no WebGL2/);
  assert.equal(await noWebgl2.isDisabled('#run'), true);
  await noWebgl2.screenshot({ path: join(ARTIFACTS, 'error-no-webgl2.png') });
  await noWebgl2.context().close();

  const noFloat = await openPage(browser, `${server.origin}/index.html?backend=webgl`, undefined, {
    init: () => {
      delete Navigator.prototype.gpu;
      const get = WebGL2RenderingContext.prototype.getExtension;
      WebGL2RenderingContext.prototype.getExtension = function getExtension(name) {
        return name === 'EXT_color_buffer_float' ? null : get.call(this, name);
      };
    },
  });
  assert.equal(await waitForStatus(noFloat), 'error');
  b = await banner(noFloat);
  assert.equal(b.code, 'NO_FLOAT_RENDER_TARGET');
  assert.match(b.text, /float textures/);
  // backend=webgl could not be made, and auto neither: the note says which was asked for.
  assert.match(await noFloat.textContent('#notes li[data-param="backend"]'), /backend=webgl — The GPU cannot render into float textures here \(NO_FLOAT_RENDER_TARGET\); the default backend=auto is used/);
  await noFloat.context().close();
});

test('no WebGL2 but WebGPU: backend=auto runs on the WebGPU adapter, and says why', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=16`, undefined, {
    init: () => {
      const get = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function getContext(kind, ...rest) {
        return kind === 'webgl2' ? null : get.call(this, kind, ...rest);
      };
    },
  });
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const r = await page.evaluate(() => window.__results);
  assert.deepEqual([r.backend, r.config.backend, r.kernel], ['webgpu', 'auto', 'global']);
  assert.ok(r.metrics.relFrobenius <= 1e-5);
  assert.match(await page.textContent('#backend-help'), /WebGL2 cannot be used and the browser's WebGPU adapter .* software one.*: auto → webgpu/);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('without a GPU timer the pass times are labelled as wall times', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=16&op=repeat&k=2`, undefined, {
    init: () => {
      const get = WebGL2RenderingContext.prototype.getExtension;
      WebGL2RenderingContext.prototype.getExtension = function getExtension(name) {
        return name === 'EXT_disjoint_timer_query_webgl2' ? null : get.call(this, name);
      };
    },
  });
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const r = await page.evaluate(() => window.__results);
  assert.equal(r.timerQuery, false);
  assert.match(r.totals.gpuTimeKind, /wall time/);
  for (const p of r.passes) { assert.equal(p.gpuMs, null); assert.ok(p.wallMs > 0); }
  assert.match(await page.textContent('#timeline'), /offers no GPU timer/);
  assert.match(await page.textContent('#summary'), /wall time around a synchronisation/);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('a lost WebGL context shows a banner; after the restore, Run works again', async () => {
  const page = await openPage(browser, `${server.origin}/index.html?n=8`);
  assert.equal(await waitForStatus(page), 'done');
  await page.evaluate(() => {
    window.__lose = window.__page.gpu.canvas.getContext('webgl2').getExtension('WEBGL_lose_context');
    window.__lose.loseContext();
  });
  await page.waitForFunction(() => document.getElementById('banner').dataset.code === 'context-lost');
  assert.equal(await page.evaluate(() => document.body.dataset.status), 'error');
  assert.match((await banner(page)).text, /WebGL context was lost/);
  await page.screenshot({ path: join(ARTIFACTS, 'error-context-lost.png') });
  // Running while it is lost gives the library's CONTEXT_LOST message.
  await page.click('#run');
  assert.equal(await waitForStatus(page), 'error');
  assert.equal((await banner(page)).code, 'CONTEXT_LOST');
  await page.evaluate(() => window.__lose.restoreContext());
  await page.waitForFunction(() => document.getElementById('banner').dataset.code === 'context-restored');
  await page.click('#run');
  assert.equal(await waitForStatus(page), 'done', await page.textContent('#status'));
  const r = await page.evaluate(() => window.__results);
  assert.ok(r.metrics.relFrobenius <= 1e-5);
  await page.context().close();
});

test('every code the library can throw has its own title and advice on the page', async () => {
  const { readFileSync } = await import('node:fs');
  const { describeError } = await import('../../www/ui/errors.js');
  const source = readFileSync(new URL('../../error/src/error.rs', import.meta.url), 'utf8');
  const codes = [...new Set([...source.matchAll(/=> "([A-Z0-9_]+)",?$/gm)].map((m) => m[1]))];
  assert.ok(codes.length >= 18 && codes.includes('FREED') && codes.includes('WORKER_ERROR'), codes.join(' '));
  for (const code of codes) {
    for (const backend of ['webgl', 'webgpu', 'cpu']) {
      const d = describeError(Object.assign(new Error('m'), { name: 'GpgpuError', code }), backend);
      assert.equal(d.code, code);
      assert.notEqual(d.title, 'Something went wrong', `${code} on ${backend} has no title of its own`);
    }
  }
});

test('an array too large for WebAssembly memory is an error before it is copied, in every call', { timeout: 300_000 }, async () => {
  // Every call copied its arrays into wasm memory before checking them: one of more
  // than 2 GiB panicked ('capacity overflow'), and several that fit one by one ran
  // out of memory together, each a RuntimeError: unreachable that left the page's
  // library unusable (svdBatched, lu, solve, RANSAC with 10^8 correspondences, the
  // sparse constructors; the products too, whose sizes were checked but not the
  // arrays' lengths).
  const page = await openBlankPage(browser, server.origin);
  const got = await page.evaluate(async () => {
    const { default: init, Gpgpu, Csr, Tridiagonal } = await import('/www/pkg/gpgpu_matrix.js');
    await init();
    const gpu = await Gpgpu.create({ backend: 'webgl' });
    const big = new Float32Array(600_000_000); // 2.4 GB
    const part = big.subarray(0, 375_000_000); // 1.5 GB, three of them 4.5 GB
    const points = big.subarray(0, 200_000_000); // 10^8 correspondences
    const four = new Float32Array(4);
    const csr = Csr.fromDense(2, 2, four);
    const calls = {
      squareAsync: () => gpu.squareAsync(2, big),
      multiplyAsync: () => gpu.multiplyAsync(2, 2, 2, part, part),
      multiplyBatchedAsync: () => gpu.multiplyBatchedAsync(1, 2, 2, 2, big, four),
      luAsync: () => gpu.luAsync(2, big),
      solveAsync: () => gpu.solveAsync(2, four, big),
      svdBatchedAsync: () => gpu.svdBatchedAsync(1, 2, 2, big),
      ransacHomographyAsync: () => gpu.ransacHomographyAsync(points, points),
      'Csr.fromDense': () => Csr.fromDense(2, 2, big),
      'Csr.fromArrays': () => Csr.fromArrays(2, 2, part, part, part),
      'Csr.fromTriplets': () => Csr.fromTriplets(2, 2, part, part, part),
      Tridiagonal: () => new Tridiagonal(part, part, part),
      spmvAsync: () => gpu.spmvAsync(csr, big),
    };
    const out = {};
    for (const [name, call] of Object.entries(calls)) {
      try { await call(); out[name] = 'no error'; } catch (e) { out[name] = `${e.code}: ${e.message}`; }
    }
    out.after = Array.from(await gpu.squareAsync(2, [1, 2, 3, 4])).join(',');
    return out;
  });
  const want = {
    squareAsync: /^SIZE_OVER_LIMIT: m \(an array of 600000000 numbers\) needs 2.24 GiB \(2,400,000,000 bytes\)/,
    multiplyAsync: /^BAD_LENGTH: a has 375000000 elements/,
    multiplyBatchedAsync: /^SIZE_OVER_LIMIT: a \(an array of 600000000 numbers\)/,
    luAsync: /^BAD_LENGTH: a has 600000000 elements but a 2x2 matrix needs 4\./,
    solveAsync: /^BAD_LENGTH: b has 600000000 entries but needs 2: a system with n = 2 and nrhs = 1/,
    svdBatchedAsync: /^BAD_LENGTH: a has 600000000 elements/,
    ransacHomographyAsync: /^SIZE_OVER_LIMIT: the atlas of the correspondences/,
    'Csr.fromDense': /^BAD_LENGTH: data has 600000000 elements/,
    'Csr.fromArrays': /^SIZE_OVER_LIMIT: columns \(an array of 375000000 numbers\) needs 2.79 GiB \(3,000,000,000 bytes\)/,
    'Csr.fromTriplets': /^SIZE_OVER_LIMIT: rowIndices \(an array of 375000000 numbers\) needs 2.79 GiB \(3,000,000,000 bytes\)/,
    Tridiagonal: /^SIZE_OVER_LIMIT: Tridiagonal: copying lower, diagonal, upper needs 4.19 GiB \(4,500,000,000 bytes\)/,
    spmvAsync: /^SIZE_OVER_LIMIT: x \(an array of 600000000 numbers\)/,
  };
  for (const [name, pattern] of Object.entries(want)) assert.match(got[name], pattern, name);
  assert.equal(got.after, '7,10,15,22');
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

// On each backend, the calls that `makeCalls(lib, gpu, csr)` gives ({ name: () =>
// a result or Promise }; run in the page, so it may use nothing from here): what each
// settled as (a typed array as its numbers), the same product after them, and
// whether free() then works.
const everyBackend = (page, makeCalls) => page.evaluate(async (source) => {
  const lib = await import('/www/pkg/gpgpu_matrix.js');
  await lib.default();
  const makeCalls = new Function(`return (${source});`)();
  const shown = (v) => (ArrayBuffer.isView(v) ? Array.from(v).join(',') : 'no error');
  const out = {};
  for (const backend of ['webgl', 'webgpu', 'cpu']) {
    const gpu = await lib.Gpgpu.create({ backend, threads: 1 });
    const csr = lib.Csr.fromDense(2, 2, [1, 2, 3, 4]);
    for (const [name, call] of Object.entries(makeCalls(lib, gpu, csr))) {
      let settled;
      try {
        const p = call();
        settled = p && typeof p.then === 'function' ? await p.then(shown, (e) => `${e.code}: ${e.message}`) : shown(p);
      } catch (e) {
        settled = `thrown ${e.name} ${e.code}: ${e.message}`;
      }
      out[`${backend} ${name}`] = settled;
    }
    out[`${backend} after`] = Array.from(await gpu.squareAsync(2, [1, 2, 3, 4])).join(',');
    csr.free();
    try { gpu.free(); out[`${backend} free`] = 'freed'; } catch (e) { out[`${backend} free`] = `${e.name}: ${e.message}`; }
  }
  return out;
}, makeCalls.toString());

test('an array whose buffer was transferred is BAD_ARGUMENT in every call, and the Gpgpu can still be freed', async () => {
  // A detached array (its buffer sent to a worker with postMessage's transfer list, or
  // by structuredClone) threw a raw TypeError out of the call ("Cannot perform
  // %TypedArray%.prototype.set on a detached … ArrayBuffer"), synchronously even from an
  // Async form, and left the Gpgpu borrowed: its free() then threw "attempted to take
  // ownership of Rust value while it was borrowed", so it could never be freed.
  const page = await openBlankPage(browser, server.origin);
  const got = await everyBackend(page, ({ Csr, Tridiagonal, BlockSparse }, gpu, csr) => {
    const detached = (T = Float32Array, n = 4) => {
      const a = new T(n);
      structuredClone(a.buffer, { transfer: [a.buffer] });
      return a;
    };
    return {
      squareAsync: () => gpu.squareAsync(2, detached()),
      multiplyAsync: () => gpu.multiplyAsync(2, 2, 2, [1, 2, 3, 4], detached(Float64Array)),
      startPower: () => gpu.startPower(2, detached(Int32Array), 3),
      luAsync: () => gpu.luAsync(2, detached()),
      svdBatchedAsync: () => gpu.svdBatchedAsync(1, 2, 2, detached()),
      spmvAsync: () => gpu.spmvAsync(csr, detached(Float32Array, 2)),
      'Csr.fromArrays': () => Csr.fromArrays(2, 2, [1, 2], detached(Uint32Array, 2), [0, 1, 2]),
      Tridiagonal: () => new Tridiagonal([1], detached(Float32Array, 2), [1]),
      'BlockSparse.fromDense': () => BlockSparse.fromDense(2, 2, detached(), 1),
    };
  });
  for (const [name, value] of Object.entries(got)) {
    if (name.endsWith(' after')) assert.equal(value, '7,10,15,22', name);
    else if (name.endsWith(' free')) assert.equal(value, 'freed', name);
    else if (/ (Csr|Tridiagonal|BlockSparse|startPower)/.test(name)) assert.match(value, /^thrown GpgpuError BAD_ARGUMENT: \w+: is an? \w+Array whose ArrayBuffer was detached/, name);
    else assert.match(value, /^BAD_ARGUMENT: \w+: is an? \w+Array whose ArrayBuffer was detached .*pass the array before transferring it/, name);
  }
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('an argument whose own code throws (a getter, a Proxy) is BAD_ARGUMENT in every call, and the Gpgpu can still be freed', async () => {
  // The exception passed through the library's Rust frames: the call failed with a
  // plain Error and left its Gpgpu borrowed, so free() threw "attempted to take
  // ownership of Rust value while it was borrowed" (20 such WebGL Gpgpus exhausted
  // Chrome's contexts). A subclass's lying length wrote past WebGPU's buffer.
  const page = await openBlankPage(browser, server.origin);
  const got = await everyBackend(page, ({ Csr }, gpu, csr) => {
    const getter = (n = 4) => {
      const a = Array.from({ length: n }, (_, i) => i + 1);
      Object.defineProperty(a, 1, { get() { throw new Error('boom'); } });
      return a;
    };
    const proxy = (n = 4) => new Proxy(Array.from({ length: n }, (_, i) => i + 1), {
      get(t, k) { if (k === 'length') throw new RangeError('trap'); return t[k]; },
    });
    class Lie extends Float32Array { get length() { return 1 << 20; } }
    return {
      squareAsync: () => gpu.squareAsync(2, getter()),
      multiplyAsync: () => gpu.multiplyAsync(2, 2, 2, [1, 2, 3, 4], proxy()),
      startPower: () => gpu.startPower(2, proxy(), 3),
      luAsync: () => gpu.luAsync(2, getter()),
      svdBatchedAsync: () => gpu.svdBatchedAsync(1, 2, 2, proxy()),
      spmvAsync: () => gpu.spmvAsync(csr, getter(2)),
      options: () => gpu.squareAsync(2, [1, 2, 3, 4], { get kernel() { throw new Error('boom'); } }),
      'Csr.fromArrays': () => Csr.fromArrays(2, 2, [1, 2], proxy(2), [0, 1, 2]),
      'lying length': () => gpu.multiplyAsync(2, 2, 2, new Lie([1, 2, 3, 4]), new Lie([1, 2, 3, 4])),
    };
  });
  for (const [name, value] of Object.entries(got)) {
    if (/ (after|lying length)$/.test(name)) assert.equal(value, '7,10,15,22', name);
    else if (name.endsWith(' free')) assert.equal(value, 'freed', name);
    else if (name.endsWith(' options')) assert.match(value, /^BAD_ARGUMENT: options\.kernel: reading it threw Error: boom/, name);
    else if (/ (Csr|startPower)/.test(name)) assert.match(value, /^thrown GpgpuError BAD_ARGUMENT: \w+: reading it threw RangeError: trap \(a getter, Proxy or iterator of its own ran\); pass plain data/, name);
    else assert.match(value, /^BAD_ARGUMENT: \w+: reading it threw (Error: boom|RangeError: trap) \(a getter/, name);
  }
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

// What the page's module gives a caller: error.code and the message, as thrown or rejected.
const outcomes = (page, calls) => page.evaluate(async (source) => {
  const lib = await import('/www/pkg/gpgpu_matrix.js');
  await lib.default();
  const gpu = await lib.Gpgpu.create({ backend: 'webgl' });
  const out = {};
  for (const [name, body] of Object.entries(source)) {
    try {
      const made = await new Function('lib', 'gpu', `return ${body};`)(lib, gpu);
      made?.free?.();
      out[name] = 'no error';
    } catch (e) { out[name] = `${e.code}: ${e.message}`; }
  }
  gpu.free();
  return out;
}, calls);

test('sparse and tridiagonal arrays whose lengths disagree are BAD_LENGTH naming both lengths', async () => {
  // They were BAD_ARGUMENT, where every other wrong length in the library is BAD_LENGTH.
  const page = await openBlankPage(browser, server.origin);
  const got = await outcomes(page, {
    'Csr.fromArrays': 'lib.Csr.fromArrays(2, 2, [1, 2], [0], [0, 1, 2])',
    'Csr.fromArrays offsets': 'lib.Csr.fromArrays(1, 2, [1], [0], [0, 1, 1])',
    'Csr.fromTriplets': 'lib.Csr.fromTriplets(2, 2, [0], [0], [1, 2])',
    Tridiagonal: 'new lib.Tridiagonal([1], [1, 2, 3], [1, 1])',
    spmvAsync: 'gpu.spmvAsync(lib.Csr.fromDense(2, 3, [1, 0, 2, 0, 3, 0]), [1, 2])',
  });
  assert.deepEqual(got, {
    'Csr.fromArrays': 'BAD_LENGTH: columns has 1 entries but needs 2: one column index per stored value, as values has 2.',
    'Csr.fromArrays offsets': 'BAD_LENGTH: rowOffsets has 3 entries but needs 2: a matrix of 1 rows has rows + 1 offsets (where each row starts, then the end).',
    'Csr.fromTriplets': 'BAD_LENGTH: values has 2 entries but needs 1: one per triplet, as rowIndices has 1.',
    Tridiagonal: 'BAD_LENGTH: lower has 1 entries but needs 2: a tridiagonal matrix of order 3 (the diagonal\'s length) has n − 1 entries off the diagonal on each side.',
    spmvAsync: 'BAD_LENGTH: x has 2 entries but needs 3: A·x needs one entry per column of the 2×3 matrix.',
  });
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('options given as an array, a Map, a Date, a RegExp or a Promise are BAD_ARGUMENT, as a number or a string is', async () => {
  // typeof [] is "object": Gpgpu.create([]) and square(n, m, []) ran with the defaults,
  // and so did squareAsync(n, m, new Map([['kernel', 'naive']])): none has keys of its
  // own. Object.create(null) is options, its keys read (it was refused, "got an object").
  const page = await openBlankPage(browser, server.origin);
  const got = await outcomes(page, {
    'Gpgpu.create([])': 'lib.Gpgpu.create([])',
    'Gpgpu.create(5)': 'lib.Gpgpu.create(5)',
    'Gpgpu.create Map': 'lib.Gpgpu.create(new Map([["backend", "cpu"]]))',
    'squareAsync []': 'gpu.squareAsync(2, [1, 2, 3, 4], [])',
    'squareAsync Map': 'gpu.squareAsync(2, [1, 2, 3, 4], new Map([["kernel", "naive"]]))',
    'squareAsync Date': 'gpu.squareAsync(2, [1, 2, 3, 4], new Date())',
    'fibonacciAsync [kernel]': 'gpu.fibonacciAsync(10, ["packed"])',
    'fibonacciAsync RegExp': 'gpu.fibonacciAsync(10, /packed/)',
    'pagerankAsync []': 'gpu.pagerankAsync(lib.Csr.fromDense(2, 2, [0, 1, 1, 0]), [])',
    'pagerankAsync Promise': 'gpu.pagerankAsync(lib.Csr.fromDense(2, 2, [0, 1, 1, 0]), Promise.resolve({}))',
    'squareAsync null prototype': 'gpu.squareAsync(2, [1, 2, 3, 4], Object.assign(Object.create(null), { kernel: "naive" }))',
    'squareAsync null prototype, unknown kernel': 'gpu.squareAsync(2, [1, 2, 3, 4], Object.assign(Object.create(null), { kernel: "fast" }))',
  });
  const object = (example, kind) => `BAD_ARGUMENT: options: must be an object such as ${example}, got ${kind}`;
  const { 'squareAsync null prototype, unknown kernel': unknown, ...rest } = got;
  assert.match(unknown, /^BAD_ARGUMENT: options.kernel: unknown kernel 'fast'; use 'auto' or one of naive, /);
  assert.deepEqual(rest, {
    'Gpgpu.create([])': object("{ backend: 'auto' }", 'an Array'),
    'Gpgpu.create(5)': object("{ backend: 'auto' }", 'a number'),
    'Gpgpu.create Map': object("{ backend: 'auto' }", 'a Map'),
    'squareAsync []': object("{ kernel: 'auto' }", 'an Array'),
    'squareAsync Map': object("{ kernel: 'auto' }", 'a Map'),
    'squareAsync Date': object("{ kernel: 'auto' }", 'a Date'),
    'fibonacciAsync [kernel]': object("{ kernel: 'auto' }", 'an Array'),
    'fibonacciAsync RegExp': object("{ kernel: 'auto' }", 'a RegExp'),
    'pagerankAsync []': object('{ damping: 0.85 }', 'an Array'),
    'pagerankAsync Promise': object('{ damping: 0.85 }', 'a Promise'),
    'squareAsync null prototype': 'no error',
  });
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});
