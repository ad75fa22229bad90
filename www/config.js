// The page's configuration: its defaults, how it is read from the URL query (with a
// note for every parameter that was ignored, and why) and how it is written back, so
// that a link reproduces a run. Pure module: no DOM, usable from Node.

import { INPUT_KINDS } from './inputs.js';
import { CLASSROOM_PARAMS } from './classroom/params.js';
import { t } from './i18n/index.js';

/** The operations (their menu labels and help lines: op.* in www/i18n/). */
export const OPS = { square: {}, multiply: {}, repeat: {}, power: {} };

/**
 * The devices the page can run on: WebGL2 (fragment shaders rendering into
 * textures), WebGPU (compute shaders on storage buffers), or the CPU (a SIMD128
 * kernel in Web Workers, for comparison). `auto` is the library's rule
 * (Gpgpu.create({ backend: 'auto' })): WebGPU on a hardware adapter, WebGL2 when
 * the only WebGPU adapter is a software one or there is none; never the CPU.
 */
export const BACKENDS = ['auto', 'webgl', 'webgpu', 'cpu'];

/** Each kernel's backend (Gpgpu.kernels() says the same once the library is loaded). */
export const KERNEL_BACKEND = {
  naive: 'webgl', packed: 'webgl', blocked4: 'webgl', blocked8: 'webgl',
  global: 'webgpu', tiled16: 'webgpu', register: 'webgpu',
  simd: 'cpu',
};

/** Kernel names the page knows before the library says which this device runs. */
export const KERNEL_NAMES = [...Object.keys(KERNEL_BACKEND), 'auto'];

/**
 * The kernel a run uses when none is chosen: the one that teaches the technique
 * most directly, one output entry per fragment (WebGL) or per invocation (WebGPU).
 */
export const DEFAULT_KERNEL = { webgl: 'naive', webgpu: 'global', cpu: 'simd' };

/** How each backend is named in a sentence. */
export const backendName = (backend) => t(`backendName.${backend}`);

export const N_PRESETS = [4, 8, 16, 64, 128, 256, 512, 1024, 2048];
/** The largest n a URL may ask for; the device's own limit is checked by the library. */
export const N_CAP = 65536;
export const MAX_K = 64;
export const MAX_P = 2 ** 53 - 1;
/** Above this n the float64 reference is off unless the URL asks for it (memory, time). */
export const REF_AUTO_MAX_N = 2048;

/**
 * The default configuration is the minimal demo: a 128×128 random matrix (seed 1)
 * squared on the GPU, compared with the float64 reference, run on load.
 */
export const DEFAULTS = Object.freeze({
  n: 128,
  input: 'uniform',
  seed: 1,
  prob: 0.1,
  op: 'square',
  k: 3,
  p: 5,
  bInput: 'uniform',
  bSeed: 2,
  bProb: 0.1,
  backend: 'auto',
  kernel: 'naive',
  mode: 'run',
  ref: 'auto',
});

// A number as a number field takes it (HTML's floating-point syntax): the form takes
// "2.0" for k and a link must too, or a value typed there cannot be shared.
const NUMERAL = /^-?(\d+|\d*\.\d+)([eE][-+]?\d+)?$/;
const whole = (lo, hi) => (raw) => {
  if (!NUMERAL.test(raw)) return { why: t('why.whole', { lo, hi }) };
  const v = Number(raw);
  if (!Number.isSafeInteger(v) || v < lo || v > hi) return { why: t('why.whole', { lo, hi }) };
  return { value: v };
};
const oneOf = (names) => (raw) => (names.includes(raw)
  ? { value: raw }
  : { why: t('why.oneOf', { names: names.join(', ') }) });
const probability = (raw) => {
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v) || v < 0 || v > 1) return { why: t('why.probability') };
  return { value: v };
};

/** A percentage from lo to hi (decimals allowed): 0.5 means 0.5 %. */
const percent = (lo, hi) => (raw) => {
  const v = Number(raw);
  if (raw === '' || !Number.isFinite(v) || v < lo || v > hi) return { why: t('why.percent', { lo, hi }) };
  return { value: v };
};

/** A number from lo to hi (decimals allowed). */
const decimal = (lo, hi) => (raw) => {
  const v = Number(raw);
  if (raw === '' || !Number.isFinite(v) || v < lo || v > hi) return { why: t('why.decimal', { lo, hi }) };
  return { value: v };
};

/** The matrices of "Linear systems" (www/sections/linear-matrices.js KINDS) each part offers. */
export const LU_KINDS = ['zero', 'random', 'hilbert', 'singular'];
export const CMP_KINDS = ['dominant', 'random', 'zero', 'hilbert'];
/** The devices and sizes of "Several devices" (www/sections/devices.js). */
export const DEVICE_CHOICES = ['webgl', 'webgpu', 'webgpu-low-power', 'cpu'];
export const DEVICE_SIZES = [128, 256, 512, 1024];

/**
 * The controls of the "Partitioned matrices" panel (www/sections/partitioned*.js):
 * the block-sparse demo and its fill-in under repeated squaring (sparse*) and the
 * Fox / Cannon step-through (mesh*); of the "Many small problems at once"
 * panel (www/sections/batched*.js): the RANSAC demo (ransac*), the batched products
 * (prod*) and the batched SVD (svd*); of "Linear systems" (www/sections/linear.js):
 * elimination step by step (lu*) and the three solvers (cmp*); and of "Several
 * devices" (www/sections/devices.js, dev*). They live in the address beside the
 * demo's configuration, written only where they differ from these defaults, and a
 * run of the demo keeps them (withSectionParams).
 */
export const SECTION_DEFAULTS = Object.freeze({
  sjN: 100000,
  sjDiag: 2.5,
  sparseN: 256,
  sparseBlock: 8,
  sparseDensity: 2,
  sparseSeed: 1,
  mesh: 'fox',
  meshN: 6,
  meshQ: 3,
  meshStep: 1,
  ransacNoise: 1,
  ransacOutliers: 30,
  ransacIters: 2000,
  ransacThreshold: 3,
  ransacSeed: 1,
  prodBatch: 2000,
  prodPower: 8,
  prodSeed: 1,
  svdBatch: 2000,
  svdRows: 9,
  svdCols: 9,
  svdSeed: 1,
  luKind: 'zero',
  luN: 6,
  luSeed: 1,
  cmpKind: 'dominant',
  cmpN: 64,
  cmpSeed: 1,
  devFirst: 'webgl',
  devSecond: 'cpu',
  devN: 256,
  devShare: 50,
});

/** One of `values` (numbers), given as digits. */
const among = (values) => (raw) => (values.map(String).includes(raw)
  ? { value: Number(raw) }
  : { why: t('why.oneOf', { names: values.join(', ') }) });

/** A whole number from lo to hi in steps of `step` (a slider's values). */
const steps = (lo, hi, step) => (raw) => {
  const r = whole(lo, hi)(raw);
  return 'value' in r && r.value % step !== 0 ? { why: t('why.multiple', { step, lo, hi }) } : r;
};

/**
 * Parameters of how the page is shown, not of what it runs: `embed=1` shows the result
 * panel alone (the "Link for slides" iframe, www/ui/slides.js). Kept in every address
 * the page writes where it parses; one that does not is a note, as any other.
 */
export const VIEW_PARAMS = {
  embed: {
    parse: (raw) => (raw === '1' ? { value: raw } : { why: t('why.embed') }),
    what: 'the result panel alone (1), for an iframe on a slide',
    otherwise: () => t('why.embedOtherwise'),
  },
  ...CLASSROOM_PARAMS,
};

export const SECTION_PARAMS = {
  sparseN: { parse: whole(8, 1024), what: 'block-sparse demo: n' },
  sparseBlock: { parse: whole(1, 32), what: 'block-sparse demo: block size' },
  sparseDensity: { parse: percent(0.1, 100), what: 'block-sparse demo: density of nonzero blocks, in %' },
  sparseSeed: { parse: whole(0, 4294967295), what: 'block-sparse demo: random seed' },
  mesh: { parse: oneOf(['fox', 'cannon']), what: 'mesh algorithm' },
  meshN: { parse: whole(1, 64), what: 'mesh demo: n' },
  meshQ: { parse: whole(1, 8), what: 'mesh demo: q (a q×q mesh)' },
  meshStep: { parse: whole(1, 64), what: 'mesh demo: the step shown' },
  ransacNoise: { parse: decimal(0, 20), what: 'RANSAC demo: noise σ in pixels' },
  ransacOutliers: { parse: percent(0, 80), what: 'RANSAC demo: share of wrong matches, in %' },
  ransacIters: { parse: whole(1, 100000), what: 'RANSAC demo: hypotheses per batch' },
  ransacThreshold: { parse: decimal(0.1, 50), what: 'RANSAC demo: inlier threshold in pixels' },
  ransacSeed: { parse: whole(0, 4294967295), what: 'RANSAC demo: random seed' },
  prodBatch: { parse: whole(1, 200000), what: 'batched products: batch size' },
  prodPower: { parse: whole(0, 64), what: 'batched products: the power p' },
  prodSeed: { parse: whole(0, 4294967295), what: 'batched products: random seed' },
  svdBatch: { parse: whole(1, 20000), what: 'batched SVD: batch size' },
  svdRows: { parse: whole(1, 32), what: 'batched SVD: rows' },
  svdCols: { parse: whole(1, 16), what: 'batched SVD: columns (at most the rows)' },
  svdSeed: { parse: whole(0, 4294967295), what: 'batched SVD: random seed' },
  luKind: { parse: oneOf(LU_KINDS), what: 'elimination step by step: the matrix' },
  luN: { parse: whole(1, 12), what: 'elimination step by step: n' },
  luSeed: { parse: whole(0, 4294967295), what: 'elimination step by step: random seed' },
  cmpKind: { parse: oneOf(CMP_KINDS), what: 'three ways to solve A·x = b: the matrix' },
  cmpN: { parse: whole(1, 512), what: 'three ways to solve A·x = b: n' },
  cmpSeed: { parse: whole(0, 4294967295), what: 'three ways to solve A·x = b: random seed' },
  devFirst: { parse: oneOf(DEVICE_CHOICES), what: 'several devices: the first device' },
  devSecond: { parse: oneOf(DEVICE_CHOICES), what: 'several devices: the second device' },
  devN: { parse: among(DEVICE_SIZES), what: 'several devices: n' },
  devShare: { parse: steps(0, 100, 5), what: 'several devices: the first device\'s share of the rows, in %' },
  sjN: { parse: whole(3, 2000000), what: 'sparse Jacobi: n (unknowns)' },
  sjDiag: { parse: decimal(1, 10), what: 'sparse Jacobi: the diagonal d of (−1, d, −1)' },
};

/**
 * The section's state from a query string: { state, notes } (notes as parseQuery's,
 * for the parameters that did not parse; the state keeps their defaults).
 */
export function parseSectionQuery(search) {
  const q = new URLSearchParams(search);
  const state = { ...SECTION_DEFAULTS };
  const notes = [];
  for (const key of Object.keys(SECTION_PARAMS)) {
    const all = q.getAll(key);
    if (!all.length) continue;
    const r = SECTION_PARAMS[key].parse(all[0].trim());
    if ('value' in r) state[key] = r.value;
    else notes.push({ param: key, value: all[0], why: t('why.default', { why: r.why, param: `${key}=${SECTION_DEFAULTS[key]}` }) });
    if (all.length > 1) notes.push({ param: key, value: all[1], why: t('why.twice') });
  }
  return { state, notes };
}

/** The section's parameters of `state` that differ from the defaults, as a query string. */
export function sectionQuery(state) {
  const q = new URLSearchParams();
  for (const key of Object.keys(SECTION_PARAMS)) {
    if (key in state && state[key] !== SECTION_DEFAULTS[key]) q.set(key, String(state[key]));
  }
  return q.toString();
}

/**
 * `query` (the demo's, from toQuery) followed by the section parameters of `search`
 * (a location.search), or of `state` when given: a run of the demo keeps the
 * section's controls in the address, and the section's changes keep the demo's.
 */
export function withSectionParams(query, search, state = null) {
  let tail;
  const from = new URLSearchParams(search);
  if (state) tail = sectionQuery(state);
  else {
    const q = new URLSearchParams();
    for (const key of Object.keys(SECTION_PARAMS)) if (from.has(key)) q.set(key, from.get(key));
    tail = q.toString();
  }
  // How the page is shown (embed=1: the result panel alone) stays as it is, where it parses.
  const view = new URLSearchParams();
  for (const [key, spec] of Object.entries(VIEW_PARAMS)) if (from.has(key) && 'value' in spec.parse(from.get(key).trim())) view.set(key, from.get(key));
  return [query, tail, view.toString()].filter(Boolean).join('&');
}

/** The demo's part of a query string (its parameters only, in their order). */
export function demoQuery(search) {
  const q = new URLSearchParams(search);
  for (const key of Object.keys(SECTION_PARAMS)) q.delete(key);
  return q.toString();
}

/** Every URL parameter: its parser, and what it means (for the notes). */
export const PARAMS = {
  n: { parse: whole(1, N_CAP), what: 'matrix size' },
  input: { parse: oneOf(Object.keys(INPUT_KINDS)), what: 'input matrix' },
  seed: { parse: whole(0, 4294967295), what: 'random seed' },
  prob: { parse: probability, what: 'edge probability' },
  op: { parse: oneOf(Object.keys(OPS)), what: 'operation' },
  k: { parse: whole(0, MAX_K), what: 'number of squarings' },
  p: { parse: whole(0, MAX_P), what: 'exponent' },
  bInput: { parse: oneOf(Object.keys(INPUT_KINDS)), what: 'second matrix B' },
  bSeed: { parse: whole(0, 4294967295), what: 'seed of B' },
  bProb: { parse: probability, what: 'edge probability of B' },
  backend: { parse: oneOf(BACKENDS), what: 'GPU backend' },
  kernel: { parse: oneOf(KERNEL_NAMES), what: 'kernel' },
  mode: { parse: oneOf(['run', 'step']), what: 'mode' },
  ref: { parse: oneOf(['auto', '0', '1']), what: 'float64 reference' },
};

/**
 * Reads a configuration from a query string. Returns { config, notes }: every
 * parameter that was not used gets a note { param, value, why } and its default.
 */
export function parseQuery(search) {
  const q = new URLSearchParams(search);
  const config = { ...DEFAULTS };
  const notes = [];
  const seen = new Set();
  for (const [key, raw] of q) {
    // The section's parameters are read by parseSectionQuery (its notes join these).
    if (key in SECTION_PARAMS) continue;
    if (key in VIEW_PARAMS) {
      const view = VIEW_PARAMS[key];
      const r = view.parse(raw.trim());
      if (!('value' in r)) notes.push({ param: key, value: raw, why: `${r.why}; ${view.otherwise()}` });
      continue;
    }
    const spec = PARAMS[key];
    if (!spec) {
      notes.push({ param: key, value: raw, why: t('why.unknown', { known: [...Object.keys(PARAMS), ...Object.keys(SECTION_PARAMS)].join(', ') }) });
      continue;
    }
    if (seen.has(key)) {
      notes.push({ param: key, value: raw, why: t('why.twice') });
      continue;
    }
    seen.add(key);
    const r = spec.parse(raw.trim());
    if ('value' in r) config[key] = r.value;
    else notes.push({ param: key, value: raw, why: t('why.default', { why: r.why, param: `${key}=${DEFAULTS[key]}` }) });
  }
  notes.push(...parseSectionQuery(search).notes);
  return { config, notes };
}

/** The parameters that shape a run of `config` (those of other operations are left out). */
export function relevantKeys(config) {
  const keys = ['n', 'input'];
  if (INPUT_KINDS[config.input]?.seeded) keys.push('seed');
  if (INPUT_KINDS[config.input]?.probability) keys.push('prob');
  keys.push('op');
  if (config.op === 'repeat') keys.push('k');
  if (config.op === 'power') keys.push('p');
  if (config.op === 'multiply') {
    keys.push('bInput');
    if (INPUT_KINDS[config.bInput]?.seeded) keys.push('bSeed');
    if (INPUT_KINDS[config.bInput]?.probability) keys.push('bProb');
  }
  if (config.backend !== DEFAULTS.backend) keys.push('backend');
  keys.push('kernel');
  if (config.mode !== DEFAULTS.mode) keys.push('mode');
  if (config.ref !== DEFAULTS.ref) keys.push('ref');
  return keys;
}

/** The query string of a configuration: every parameter that shapes it, in a fixed order. */
export function toQuery(config) {
  const q = new URLSearchParams();
  for (const key of relevantKeys(config)) q.set(key, String(config[key]));
  return q.toString();
}

/**
 * Fits `config.kernel` to the backend the run uses: a kernel of the other backend
 * becomes that backend's default, with a note when the URL asked for it (`explicit`).
 * Returns the note or null; `config` is changed in place.
 */
export function fitKernel(config, backend, explicit) {
  const k = config.kernel;
  if (k === 'auto' || KERNEL_BACKEND[k] === backend) return null;
  config.kernel = DEFAULT_KERNEL[backend];
  if (!explicit) return null;
  const names = Object.keys(KERNEL_BACKEND).filter((x) => KERNEL_BACKEND[x] === backend).join(', ');
  return { param: 'kernel', value: k, why: t('why.otherBackend', { kernel: k, theirs: t(`why.kernelOf.${KERNEL_BACKEND[k]}`), backend: backendName(backend), names, fallback: config.kernel }) };
}

/** The operation and n of `config` in the page's words ("R = M^5, n = 64"). */
export function opText(c) {
  const what = {
    square: 'R = M·M',
    multiply: 'C = A·B',
    repeat: 2 ** c.k > 1e15 ? `R = M^(2^${c.k})` : `R = M^(2^${c.k}) = M^${2 ** c.k}`,
    power: `R = M^${c.p}`,
  }[c.op];
  return `${what}, n = ${c.n}`;
}

/**
 * What a run of `config` shows, in words: the "Link for slides" iframe's title, which is
 * its accessible name (a screen reader announces it on the slide), e.g. "gpgpu-matrix:
 * R = M^5, n = 64; M: random graph (edge probability 0.1, seed 1); on WebGL, naive kernel".
 */
export function describeConfig(c) {
  const input = (kind, seed, prob) => {
    const k = INPUT_KINDS[kind];
    const params = [k.probability && t('slides.prob', { prob }), k.seeded && t('slides.seed', { seed })].filter(Boolean).join(', ');
    return `${t(`input.${kind}`)}${params ? ` (${params})` : ''}`;
  };
  const inputs = c.op === 'multiply'
    ? `A: ${input(c.input, c.seed, c.prob)}; B: ${input(c.bInput, c.bSeed, c.bProb)}`
    : `M: ${input(c.input, c.seed, c.prob)}`;
  const where = c.backend === 'auto' ? t('slides.autoBackend') : backendName(c.backend);
  const kernel = c.kernel === 'auto' ? t('slides.autoKernel') : t('slides.kernel', { kernel: c.kernel });
  return t('slides.title', { op: opText(c), inputs, where, kernel });
}

/** Whether the float64 reference runs for this configuration. */
export function referenceOn(config) {
  if (config.ref === '1') return true;
  if (config.ref === '0') return false;
  return config.n <= REF_AUTO_MAX_N;
}
