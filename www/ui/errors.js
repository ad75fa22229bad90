// What the page says for every error the library can throw (GpgpuError codes) and
// for anything else. The library's own message already says what went wrong and
// what to do; the page adds a title and what it means here.

import { t } from '../i18n/index.js';

/** The library's error codes the page explains (their words: error.CODE.* in the catalogues). */
const CODES = [
  'NO_WEBGL2', 'NO_FLOAT_RENDER_TARGET', 'SIZE_OVER_LIMIT', 'BAD_DIMENSION', 'BAD_COUNT', 'BAD_LENGTH',
  'BAD_ARGUMENT', 'SHADER_COMPILE', 'PROGRAM_LINK', 'CONTEXT_LOST', 'GL_ERROR', 'NO_WEBGPU', 'DEVICE_LOST',
  'OUT_OF_MEMORY', 'FREED', 'WORKER_ERROR', 'WEBGPU_ERROR', 'NEEDS_ASYNC',
];

/** What differs on the CPU backend, which has no GPU (error.cpu.CODE.*). */
const CPU_CODES = ['SIZE_OVER_LIMIT'];

/** { code, title, message, advice } for any thrown value; `backend` the one that threw. */
export function describeError(err, backend) {
  const code = err && err.name === 'GpgpuError' ? err.code : null;
  const key = !code ? null : backend === 'cpu' && CPU_CODES.includes(code) ? `cpu.${code}` : CODES.includes(code) ? code : null;
  if (key) return { code, title: t(`error.${key}.title`), message: err.message, advice: t(`error.${key}.advice`) };
  return {
    code: code || 'PAGE_ERROR',
    title: t('error.PAGE_ERROR.title'),
    message: String(err && err.message ? err.message : err),
    advice: t('error.PAGE_ERROR.advice'),
  };
}
