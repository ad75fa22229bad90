// The page's GPU backends: at most one Gpgpu per backend (one WebGL2 context, one
// GPUDevice), made on first use and shared by the demo, the application sections
// and the compute-shader section. `auto` is the library's own rule
// (Gpgpu.create({ backend: 'auto' })); what it resolved to is remembered, and
// explained from the browser's WebGPU adapter (probe()).

import { t } from './i18n/index.js';

/** What the browser offers for WebGPU: { state, text, adapter } (state: none | no-adapter | software | hardware). */
export async function probeWebgpu() {
  if (!('gpu' in navigator) || !navigator.gpu) {
    return { state: 'none', text: t('webgpu.none') };
  }
  let adapter = null;
  try {
    adapter = await navigator.gpu.requestAdapter();
  } catch { /* treated as no adapter */ }
  if (!adapter) return { state: 'no-adapter', text: t('webgpu.noAdapter') };
  const info = adapter.info || {};
  const name = [info.vendor, info.architecture].filter(Boolean).join(' ') || t('webgpu.unnamed'); // Firefox's gives none
  // Chromium 156 reports it in adapter.info; older ones had adapter.isFallbackAdapter.
  const fallback = info.isFallbackAdapter ?? adapter.isFallbackAdapter ?? false;
  return fallback
    ? { state: 'software', text: t('webgpu.software', { name }), name }
    : { state: 'hardware', text: t('webgpu.hardware', { name }), name };
}

/**
 * What the browser offers for WebGL2: { state, text } (state: none | available), from a
 * context made and let go at once. The demo's backend menu and "Several devices" mark a
 * missing WebGL2 alike from it.
 */
export function probeWebgl() {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return { state: 'none', text: t('webgl.none') };
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return { state: 'available', text: t('webgl.available') };
}

export class Backends {
  constructor(Gpgpu) {
    this.Gpgpu = Gpgpu;
    this.made = {}; // backend → Promise<Gpgpu>
    this.autoPick = null; // what 'auto' resolved to, once known
    this.autoMaking = null; // Promise of the first 'auto' instance
    this.autoFallback = null; // why 'auto' fell back from a hardware WebGPU adapter, if it did
    this.webgpu = null; // probeWebgpu()'s answer, once known
    this.webgl = null; // probeWebgl()'s answer, once known
    this.instances = {}; // backend → Gpgpu, once made
  }

  /** The instance of `backend` if it has been made (no waiting), else null. */
  ready(backend) {
    return this.instances[backend] || null;
  }

  async probe() {
    if (!this.webgpu) this.webgpu = await probeWebgpu();
    return this.webgpu;
  }

  /** probeWebgl()'s answer, asked once (a WebGL instance made already answers without another context). */
  probeWebgl() {
    if (!this.webgl) this.webgl = this.ready('webgl') ? { state: 'available', text: t('webgl.available') } : probeWebgl();
    return this.webgl;
  }

  /** The instance for `choice` ('auto' | 'webgl' | 'webgpu'); rejects as Gpgpu.create does. */
  get(choice) {
    if (choice === 'auto') {
      if (this.autoPick) return this.get(this.autoPick);
      if (!this.autoMaking) {
        this.autoMaking = this.#auto();
        this.autoMaking.catch(() => { this.autoMaking = null; });
      }
      return this.autoMaking;
    }
    if (!this.made[choice]) {
      this.made[choice] = this.Gpgpu.create({ backend: choice });
      this.made[choice].then((g) => { this.instances[choice] = g; },
        // A failed creation is not cached: the next call tries again.
        () => { delete this.made[choice]; });
    }
    return this.made[choice];
  }

  async #auto() {
    const gpu = await this.Gpgpu.create({ backend: 'auto' });
    this.autoPick = gpu.backend;
    this.autoFallback = gpu.info().fallback ?? null; // why WebGPU's device was not used
    if (this.made[gpu.backend]) {
      // The same backend was made meanwhile: keep that one.
      const other = await this.made[gpu.backend].catch(() => null);
      if (other) { gpu.free(); return other; }
    }
    this.made[gpu.backend] = Promise.resolve(gpu);
    this.instances[gpu.backend] = gpu;
    return gpu;
  }

  /** The backend a choice runs on, when known ('auto' before its first use: null). */
  resolve(choice) {
    return choice === 'auto' ? this.autoPick : choice;
  }

  /** Why 'auto' picks what it picks, in words (after probe()): what the browser offers. */
  autoReason() {
    const w = this.webgpu;
    if (!w) return '';
    // The library falls back to a software WebGPU adapter when WebGL2 cannot be made.
    if (this.autoPick === 'webgpu' && w.state !== 'hardware') return t('auto.noWebgl', { text: w.text });
    if (this.autoFallback) return t('auto.fallback', { text: w.text, why: this.autoFallback });
    return w.text;
  }
}
