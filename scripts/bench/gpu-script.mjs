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

/**
 * The bench page's query for a GPU run: `query` (the caller's) with what such a run needs
 * unless the caller set it: post=1, the browser's flags, sizes, the deadline (90 s before
 * the bound `secs`, so the page always posts its JSON: a run of 2026-11-23 hit the bound
 * inside gpu.js's chain) and heat=1500. A GPU's clock governor lowers the SM clock after
 * seconds of partial use and raises it slowly: with the page's 250 ms of heat the H200's
 * n = 1024 samples ran at 1,185-1,455 MHz in some runs and 1,980 in others (0.090 against
 * 0.071 ms a pass); 1.5 s of back-to-back work before each sample brought both libraries'
 * samples to the full clock in every run (bench/NOTES.md, 2026-11-29). SwiftShader keeps
 * the page's 250: it has no clocks to wait for.
 */
export function gpuQuery(query, browserFlags, secs) {
  const q = new URLSearchParams(query);
  q.set('post', '1');
  if (!q.has('browserFlags')) q.set('browserFlags', browserFlags.join(','));
  if (!q.has('sizes')) q.set('sizes', '1024,2048,4096');
  if (!q.has('heat')) q.set('heat', '1500');
  if (!q.has('deadline')) q.set('deadline', String(Math.max(60, secs - 90)));
  return q;
}
