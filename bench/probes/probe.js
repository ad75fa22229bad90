// What the kernel probes in this folder share: the query, a WebGL2 context with float
// render targets, logging that also POSTs to the gpu-browser server (?post=1), a
// seeded generator, RGBA32F textures, program compilation and a fence wait.
// Open a probe from `make serve` (…/bench/probes/slab.html?sizes=256&v=slab64) or on the
// GPU through .gpuchrome/run-on-gpu.sh; bench/NOTES.md has what they measured.
export const query = new URLSearchParams(location.search);
export const post = query.get('post') === '1';
export const sizes = (query.get('sizes') || '1024').split(',').map(Number);
export const reps = Number(query.get('reps') || 5);

export const gl = document.createElement('canvas').getContext('webgl2',
  { antialias: false, depth: false, stencil: false, powerPreference: 'high-performance' });
gl.getExtension('EXT_color_buffer_float');
gl.getExtension('EXT_float_blend');
const dbg = gl.getExtension('WEBGL_debug_renderer_info');
export const renderer = dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);

const out = document.getElementById('out');
export async function log(line) {
  out.textContent += `${line}\n`;
  console.log(line);
  if (post) await fetch('/log', { method: 'POST', body: line }).catch(() => {});
}

/** Ends the probe: the page's record for a driver, and the gpu-browser result. */
export async function done(result) {
  window.__done = result;
  if (post) await fetch('/result', { method: 'POST', body: JSON.stringify(result) });
}

/** Uniform values in [-1, 1) from a 32-bit LCG. */
export function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return (s / 2 ** 32) * 2 - 1; };
}

/** `count` RGBA32F textures of W×H texels, NEAREST, filled from `data[i]` when given. */
export function rgba32f(count, W, H, data) {
  return Array.from({ length: count }, (_, i) => {
    const t = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, W, H);
    for (const k of [gl.TEXTURE_MIN_FILTER, gl.TEXTURE_MAG_FILTER]) gl.texParameteri(gl.TEXTURE_2D, k, gl.NEAREST);
    for (const k of [gl.TEXTURE_WRAP_S, gl.TEXTURE_WRAP_T]) gl.texParameteri(gl.TEXTURE_2D, k, gl.CLAMP_TO_EDGE);
    if (data) gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, W, H, gl.RGBA, gl.FLOAT, data[i]);
    return t;
  });
}

/** M (n×n, row-major) in P planes as the library stores it: row i in plane i % P at
 *  y = i / P, four columns per RGBA texel. One Float32Array per plane. */
export function planesOf(M, n, P) {
  const W = n / 4, H = n / P;
  return Array.from({ length: P }, (_, r) => {
    const d = new Float32Array(W * H * 4);
    for (let y = 0; y < H; y++) d.set(M.subarray((y * P + r) * n, (y * P + r + 1) * n), y * n);
    return d;
  });
}

/** A full-screen triangle from gl_VertexID: draw 3 vertices, no buffers. */
export const FULL_VS = `#version 300 es
void main() { vec2 v = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0); gl_Position = vec4(v, 0.0, 1.0); }`;

export function compile(vs, fs, tfVaryings) {
  const p = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s).slice(0, 400));
    gl.attachShader(p, s);
  }
  if (tfVaryings) gl.transformFeedbackVaryings(p, tfVaryings, gl.SEPARATE_ATTRIBS);
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(p));
  return p;
}

/** Resolves once the GPU has finished everything issued so far. */
export async function finish() {
  const f = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
  gl.flush();
  while (gl.clientWaitSync(f, 0, 0) === gl.TIMEOUT_EXPIRED) await new Promise((r) => setTimeout(r, 0));
  gl.deleteSync(f);
}

/** Relative Frobenius error of rows 0, 5 and n − 1 of A·B (float64) against what the
 *  framebuffer holds in blocked8's layout: row i in attachment i % 8 at y = i / 8. */
export function planarRowsError(A, B, n) {
  let num = 0, den = 0;
  for (const i of [0, 5, n - 1]) {
    gl.readBuffer(gl.COLOR_ATTACHMENT0 + (i % 8));
    const row = new Float32Array(n);
    gl.readPixels(0, i >> 3, n / 4, 1, gl.RGBA, gl.FLOAT, row);
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += A[i * n + k] * B[k * n + j];
      num += (row[j] - s) ** 2;
      den += s * s;
    }
  }
  gl.readBuffer(gl.COLOR_ATTACHMENT0);
  return Math.sqrt(num / den);
}

/** Times `reps` runs of `pass` (each waited for) and logs the probes' record of it. */
export async function timePass(v, n, pass, relErr) {
  const times = [];
  for (let r = 0; r < reps; r++) { const t0 = performance.now(); pass(); await finish(); times.push(performance.now() - t0); }
  times.sort((a, b) => a - b);
  const med = times[times.length >> 1];
  const row = { v, n, ms: +med.toFixed(2), gflops: +(2 * n ** 3 / med / 1e6).toFixed(2), min: +times[0].toFixed(1),
    max: +times.at(-1).toFixed(1), relErr: +relErr.toExponential(2), glError: gl.getError() };
  await log(JSON.stringify(row));
  return row;
}

/** A compute pipeline of WGSL `code` (entry point main, SEMIRING 0 unless `constants`
 *  say otherwise) on `device`; throws the compiler's errors or the validation error. */
export async function computePipeline(device, code, constants = {}) {
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  if (errors.length) throw new Error(errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('; '));
  device.pushErrorScope('validation');
  const pipeline = await device.createComputePipelineAsync({ layout: 'auto', compute: { module, entryPoint: 'main', constants: { SEMIRING: 0, ...constants } } });
  const e = await device.popErrorScope();
  if (e) throw new Error(e.message);
  return pipeline;
}

/** What the WGSL probes' C = A·A chains use at size n on `device`: A (seeded uniform
 *  values) and its buffer `a`, the output `c`, the dims block, a readback buffer and,
 *  with `timestamps`, a query set with its resolve and read buffers. */
export function squareSetup(device, n, timestamps) {
  const buffer = (floats, usage) => device.createBuffer({ size: Math.max(16, floats * 4), usage });
  const S = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const A = new Float32Array(n * n), r = rng(n);
  for (let i = 0; i < A.length; i++) A[i] = r();
  const a = buffer(n * n, S), c = buffer(n * n, S), dims = buffer(4, GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  device.queue.writeBuffer(a, 0, A);
  device.queue.writeBuffer(dims, 0, new Uint32Array([n, n, n, 0]));
  const read = buffer(n * n, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
  const qs = timestamps ? device.createQuerySet({ type: 'timestamp', count: 2 }) : null;
  const qbuf = timestamps ? buffer(4, GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC) : null;
  const qread = timestamps ? buffer(4, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST) : null;
  return { A, a, c, dims, read, qs, qbuf, qread };
}
