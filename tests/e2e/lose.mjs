// A test hook that loses the GPU on cue, for the lab's loss tests (lab-lost.test.mjs,
// engines.test.mjs): run in the page (as an init script, or evaluated before the GPU is
// made), it records every WebGPU device the page asks for.

/** In the page: `window.loseAfter = k` loses the GPU at the k-th submission or draw. */
export function loseOnCue() {
  const devices = [];
  const due = () => window.loseAfter > 0 && --window.loseAfter === 0;
  if (globalThis.GPUAdapter) {
    const request = GPUAdapter.prototype.requestDevice;
    GPUAdapter.prototype.requestDevice = async function (...args) {
      const device = await request.apply(this, args);
      devices.push(device);
      return device;
    };
    const submit = GPUQueue.prototype.submit;
    GPUQueue.prototype.submit = function (...args) {
      const r = submit.apply(this, args);
      if (due()) { window.lost = true; for (const d of devices) d.destroy(); }
      return r;
    };
  }
  const draw = WebGL2RenderingContext.prototype.drawArrays;
  WebGL2RenderingContext.prototype.drawArrays = function (...args) {
    const r = draw.apply(this, args);
    if (due()) { window.lost = true; this.getExtension('WEBGL_lose_context').loseContext(); }
    return r;
  };
}
