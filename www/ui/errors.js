// What the page says for every error the library can throw (GpgpuError codes) and
// for anything else. The library's own message already says what went wrong and
// what to do; the page adds a title and what it means here.

const CODES = {
  NO_WEBGL2: {
    title: 'This browser gives the page no WebGL2',
    advice: 'The GPU path needs WebGL2. Try a current Chrome, Edge, Firefox or Safari, check that hardware acceleration is on in the browser settings, or that WebGL is not blocked for this site.',
  },
  NO_FLOAT_RENDER_TARGET: {
    title: 'The GPU cannot render into float textures here',
    advice: 'Every pass writes float32 values into a texture (EXT_color_buffer_float). This device or browser does not allow it, so the technique cannot run here; another browser or device may.',
  },
  SIZE_OVER_LIMIT: {
    title: 'n is larger than this GPU allows',
    advice: 'A matrix must fit in one texture and one viewport (WebGL), or in one storage buffer (WebGPU). Choose a smaller n (the n field shows the limit).',
  },
  BAD_DIMENSION: { title: 'That size is not allowed', advice: 'n must be a whole number from 1 up to the device limit.' },
  BAD_COUNT: { title: 'That count is not allowed', advice: 'k and p must be whole numbers ≥ 0.' },
  BAD_LENGTH: { title: 'A matrix has the wrong number of entries', advice: 'This is a bug of the page: please report it.' },
  BAD_ARGUMENT: { title: 'The library refused an argument', advice: 'Check the kernel and the other controls.' },
  SHADER_COMPILE: {
    title: 'The GPU driver could not compile a shader',
    advice: 'Try another kernel (naive, or global on WebGPU, is the simplest); the log below comes from the driver.',
  },
  PROGRAM_LINK: { title: 'The GPU driver could not link a shader program', advice: 'Try another kernel; the log below comes from the driver.' },
  CONTEXT_LOST: {
    title: 'The WebGL context was lost',
    advice: 'The browser took the GPU away from the page (a driver reset, too long a pass, another tab, or a test). When it gives it back the page says so: then press Run again.',
  },
  GL_ERROR: { title: 'WebGL reported an error', advice: 'Try a smaller n or another kernel.' },
  NO_WEBGPU: {
    title: 'This browser gives the page no WebGPU',
    advice: 'The compute-shader path needs WebGPU (navigator.gpu and an adapter): a current Chrome or Edge, Safari 26, or Firefox 141 on Windows. The WebGL backend works without it.',
  },
  DEVICE_LOST: {
    title: 'The WebGPU device was lost',
    advice: 'The browser took the GPU device away (a driver reset, too long a pass, or a test). The next call makes a new device: press Run again.',
  },
  OUT_OF_MEMORY: { title: 'The GPU ran out of memory', advice: 'Choose a smaller n.' },
  FREED: {
    title: 'An object was used after it was freed',
    advice: 'The page freed a matrix, run or device and then used it: this is a bug of the page, please report it. Reloading the page starts afresh.',
  },
  WORKER_ERROR: {
    title: 'A CPU worker failed',
    advice: 'A Web Worker of the CPU backend stopped or could not start (the message says which). Reload the page, or choose the WebGL or WebGPU backend.',
  },
  WEBGPU_ERROR: { title: 'WebGPU reported an error', advice: 'Try a smaller n or another kernel; the message comes from the browser\'s WebGPU.' },
  NEEDS_ASYNC: {
    title: 'A blocking call was made on WebGPU',
    advice: 'WebGPU results come back only through promises: this is a bug of the page, please report it.',
  },
};

/** What differs on the CPU backend, which has no GPU. */
const CPU_CODES = {
  SIZE_OVER_LIMIT: {
    title: 'n is larger than the CPU backend allows',
    advice: 'The CPU backend uses no GPU: its limit is WebAssembly\'s 4 GiB of memory, which must hold the matrices of a product. Choose a smaller n (the n field shows the limit).',
  },
};

/** { code, title, message, advice } for any thrown value; `backend` the one that threw. */
export function describeError(err, backend) {
  const code = err && err.name === 'GpgpuError' ? err.code : null;
  const known = code && ((backend === 'cpu' && CPU_CODES[code]) || CODES[code]);
  if (known) return { code, title: known.title, message: err.message, advice: known.advice };
  return {
    code: code || 'PAGE_ERROR',
    title: 'Something went wrong',
    message: String(err && err.message ? err.message : err),
    advice: 'Reloading the page may help. If it keeps happening, please report it with the message above.',
  };
}
