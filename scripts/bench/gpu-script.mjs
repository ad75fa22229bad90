// The GPU machine's run script for the benchmark: ../shared/gpu-browser/run-on-gpu.sh with
// --enable-webgpu-developer-features added beside its --enable-unsafe-webgpu. Either flag
// alone lifts Chromium's WebGPU timestamp quantisation (Dawn's timestamp_quantization
// toggle is forced on only at the "safe" WebGPU level); the developer flag also unmasks
// the adapter's description. The page checks the raw timestamps itself and records the
// verdict (env.webgpuTimestamps), and the flags go into the URL (browserFlags=) so the
// result says which ones the browser had. Used by `scripts/bench.mjs --stage-gpu`.

/** The flags of a Chromium command line that matter to WebGPU and its timing. */
const FLAG_RE = /--(?:enable-unsafe-webgpu|enable-webgpu-developer-features|use-angle=\S+|enable-features=\S+|use-webgpu-adapter=\S+|enable-dawn-features=\S+|disable-dawn-features=\S+)/g;

/**
 * `script` with --enable-webgpu-developer-features added (unchanged if it has it);
 * returns { script, added, browserFlags }. `added` is false when there was no
 * --enable-unsafe-webgpu to put it beside (the script is then returned as it was).
 */
export function withDeveloperFeatures(script) {
  let out = script;
  if (!script.includes('--enable-webgpu-developer-features') && script.includes('--enable-unsafe-webgpu')) {
    out = script.replace('--enable-unsafe-webgpu', '--enable-unsafe-webgpu --enable-webgpu-developer-features');
  }
  return {
    script: out,
    added: out.includes('--enable-webgpu-developer-features'),
    // from the command lines, not the comments
    browserFlags: [...new Set(out.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n').match(FLAG_RE) || [])],
  };
}
