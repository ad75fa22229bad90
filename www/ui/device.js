// How the page names the device it runs on: the WebGL renderer, or the WebGPU
// adapter and its limits (the footer's line, the summary's "renderer" row).
import { int } from './format.js';

/** The WebGL renderer, or the WebGPU adapter (and whether it is a software one). */
export function deviceName(info) {
  if (!info) return '—';
  if (info.backend === 'cpu') return `the CPU: ${info.threads} Web Workers (${info.simd})`;
  if (info.backend !== 'webgpu') return info.renderer;
  const name = [info.vendor, info.architecture, info.device].filter(Boolean).join(' ') || 'unnamed adapter';
  return `WebGPU adapter ${name}${info.fallbackAdapter ? ' (a software fallback adapter: it runs on the CPU)' : ''}`;
}

/** The footer's line: the device, its limits, its timer and its kernels. */
export function deviceLine(info) {
  if (info.backend === 'cpu') {
    return `Device: ${deviceName(info)} · matrices up to ${int(info.maxDimension)}² · no GPU timer · kernels: ${info.kernels.join(', ')}`;
  }
  if (info.backend === 'webgpu') {
    return `Device: WebGPU · ${deviceName(info)} · storage buffers up to ${int(info.maxStorageBufferBindingSize)} bytes · workgroup memory ${int(info.maxComputeWorkgroupStorageSize)} bytes · ${info.maxComputeInvocationsPerWorkgroup} invocations per workgroup · GPU timer ${info.timerQuery ? 'available (timestamp-query)' : 'not available'} · kernels: ${info.kernels.join(', ')}`;
  }
  return `Device: ${info.renderer} · ${info.webglVersion} · ${info.glslVersion} · textures up to ${info.maxTextureSize}² · ${info.maxDrawBuffers} draw buffers · GPU timer ${info.timerQuery ? 'available' : 'not available'} · kernels: ${info.kernels.join(', ')}`;
}
