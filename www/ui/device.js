// How the page names the device it runs on: the WebGL renderer, or the WebGPU
// adapter and its limits (the footer's line, the summary's "renderer" row).
import { int } from './format.js';
import { t } from '../i18n/index.js';

/** The WebGL renderer, or the WebGPU adapter (and whether it is a software one). */
export function deviceName(info) {
  if (!info) return '—';
  if (info.backend === 'cpu') return t('device.cpu', { threads: info.threads, simd: info.simd });
  if (info.backend !== 'webgpu') return info.renderer;
  const name = [info.vendor, info.architecture, info.device].filter(Boolean).join(' ') || t('device.unnamed');
  return t(info.fallbackAdapter ? 'device.adapterFallback' : 'device.adapter', { name });
}

/** The footer's line: the device, its limits, its timer and its kernels. */
export function deviceLine(info) {
  if (info.backend === 'cpu') {
    return t('device.lineCpu', { name: deviceName(info), max: int(info.maxDimension), kernels: info.kernels.join(', ') });
  }
  if (info.backend === 'webgpu') {
    return t('device.lineWebgpu', {
      name: deviceName(info), buffer: int(info.maxStorageBufferBindingSize), shared: int(info.maxComputeWorkgroupStorageSize),
      invocations: info.maxComputeInvocationsPerWorkgroup, timer: t(info.timerQuery ? 'device.timerTimestamp' : 'device.noTimer'), kernels: info.kernels.join(', '),
    });
  }
  return t('device.lineWebgl', {
    name: info.renderer, webgl: info.webglVersion, glsl: info.glslVersion, max: info.maxTextureSize, buffers: info.maxDrawBuffers,
    timer: t(info.timerQuery ? 'device.timer' : 'device.noTimer'), kernels: info.kernels.join(', '),
  });
}
