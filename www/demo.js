// The minimal end-to-end demo: square a 128×128 random matrix on the GPU, compare
// with the float64 reference, show both times and the error metrics.
import init, { Gpgpu } from './pkg/gpgpu_matrix.js';
import { uniformMatrix, square, compare } from './reference.js';

const status = document.getElementById('status');
const table = document.getElementById('results');

function row(what, value) {
  const tr = table.tBodies[0].insertRow();
  tr.insertCell().textContent = what;
  tr.insertCell().textContent = value;
}

async function main() {
  await init();
  const gpu = new Gpgpu();
  const n = 128, seed = 1;
  const m = uniformMatrix(seed, n * n);
  gpu.square(n, m); // warm-up: compiles the program
  let t = performance.now();
  const r = gpu.square(n, m);
  const gpuMs = performance.now() - t;
  t = performance.now();
  const ref = square(n, m);
  const jsMs = performance.now() - t;
  const e = compare(r, ref);
  const info = gpu.info();
  row('renderer', info.renderer);
  row('n', n);
  row('GPU time (upload + pass + readPixels)', `${gpuMs.toFixed(2)} ms`);
  row('JS float64 time', `${jsMs.toFixed(2)} ms`);
  row('max abs error', e.maxAbs.toExponential(3));
  row('max relative error', e.maxRel.toExponential(3));
  row('relative Frobenius error', e.relFrobenius.toExponential(3));
  row('entries equal to float64 rounded to float32', `${e.exact} of ${e.total}`);
  table.hidden = false;
  status.textContent = 'Done.';
  document.body.dataset.status = 'done';
  document.body.dataset.relFrobenius = String(e.relFrobenius);
}

main().catch((err) => {
  status.textContent = `Error: ${err.message}`;
  status.className = 'error';
  document.body.dataset.status = 'error';
  console.error(err);
});
