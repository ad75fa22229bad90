// The bench page's shell (www/bench/index.html): ?suite= names the bench it shows
// (systems when absent, the old www/bench.html), whose module is loaded, puts its title
// and description in the page, and is started. Each suite module exports `about`
// ({ title, heading, html }) and start(); what the page then shows, logs and posts is
// the suite's (www/bench/page.js for all but systems, which speaks the same protocol).
//
//   systems   this project's kernels against TF.js, gpu.js and JS (scripts/bench.mjs)
//   blocks    block-sparse products (scripts/bench-blocks.mjs)
//   batched   many small problems at once (scripts/bench-batched.mjs)
//   devices   the CPU backend and several devices (scripts/bench-devices.mjs)
//   lu        the LU factorization (scripts/bench-lu.mjs)
//   sparse    sparse matrix × vector (scripts/bench-sparse.mjs)
//   lab       the kernel lab's reference solutions (scripts/bench-lab.mjs)

const SUITES = {
  systems: () => import('./systems.js'),
  blocks: () => import('./blocks.js'),
  batched: () => import('./batched.js'),
  devices: () => import('./devices.js'),
  lu: () => import('./lu.js'),
  sparse: () => import('./sparse.js'),
  lab: () => import('./lab.js'),
};

function refuse(text) {
  document.getElementById('status').textContent = text;
  document.body.dataset.status = 'error';
}

async function main() {
  if (window.gpgpuNoSimd) return; // ../needs-simd.js has said why this browser cannot run it
  const name = new URLSearchParams(location.search).get('suite') || 'systems';
  if (!Object.hasOwn(SUITES, name)) {
    refuse(`Not started: suite=${name}: expected one of ${Object.keys(SUITES).join(', ')}.`);
    return;
  }
  let suite;
  try {
    suite = await SUITES[name]();
  } catch (e) {
    refuse(`Error: the ${name} bench did not load: ${e?.message || e}`);
    return;
  }
  document.title = suite.about.title;
  document.getElementById('heading').textContent = suite.about.heading;
  document.getElementById('about').innerHTML = suite.about.html;
  document.body.dataset.suite = name;
  suite.start();
}

main();
