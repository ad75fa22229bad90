// The backend the demo runs on: the instance a run takes (Backends, www/backends.js, makes
// one per backend and shares it) becomes the page's (the device line, the WebGL context
// the page watches), and the form shows the limits and kernels of the backend chosen in
// it. A lost WebGL context stops the run on it and says so; a restored one says Run works.
import { $, page, ui } from './state.js';
import { buttons, publish, setStatus, showBanner } from './status.js';
import { N_CAP } from '../config.js';
import { t } from '../i18n/index.js';
import { deviceLine } from '../ui/device.js';

/** The WebGL instances whose context the page watches. */
const watched = new Set();

/** Makes `gpu` the page's instance: the device line, the WebGL context to watch. */
export function adopt(gpu) {
  if (page.gpu === gpu) return;
  page.gpu = gpu;
  page.info = gpu.info();
  const info = page.info;
  if (gpu.backend === 'webgl') {
    ui.gl = gpu.canvas && gpu.canvas.getContext ? gpu.canvas.getContext('webgl2') : null;
    if (!watched.has(gpu)) { watched.add(gpu); watchContext(gpu, gpu.canvas); }
  }
  formDevice(gpu);
  $('device').textContent = deviceLine(info);
}

/** The form's device: limits and kernels of the backend chosen there. */
export function formDevice(gpu) {
  const info = gpu.info();
  // The form's n is a step-through run's: the largest the library takes (on WebGPU
  // one buffer, not maxDimension, is the limit), found with checkRunSize.
  ui.controls.setDevice({ ...info, maxDimension: largestRun(gpu, Math.min(info.maxDimension, N_CAP)) },
    (n) => { try { return gpu.defaultKernel(n); } catch { return '—'; } });
}

/** The largest n ≤ `hi` that gpu.checkRunSize accepts (a bisection: it only grows with n). */
function largestRun(gpu, hi) {
  const fits = (n) => { try { gpu.checkRunSize(n); return true; } catch { return false; } };
  if (fits(hi)) return hi;
  let lo = 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid; else hi = mid;
  }
  return lo;
}

function watchContext(gpu, canvas) {
  canvas.addEventListener('webglcontextlost', () => {
    // Only the demo's run is stopped, and only when it runs on this context.
    const s = page.gpu === gpu ? page.session : null;
    if (s) { s.cancelled = true; ui.refClient.cancel(); }
    showBanner('context-lost', t('banner.lostTitle'), t('banner.lost'));
    if (page.gpu !== gpu) return;
    buttons('idle');
    setStatus('error', t('status.contextLost'));
    publish({ ...(s ? s.record('error') : { status: 'error' }), error: { code: 'CONTEXT_LOST', message: 'the WebGL context was lost' } });
    if (s) { s.dispose(); page.session = null; }
  });
  canvas.addEventListener('webglcontextrestored', () => {
    showBanner('context-restored', t('banner.backTitle'), t('banner.back'));
    if (page.gpu === gpu) setStatus('cancelled', t('status.contextBack'));
  });
}