// The teaching page's entry module (index.html loads it): start-up and wiring. It reads
// the configuration from the URL, makes the page's widgets, loads the library, picks the
// backend (the URL's, else, with a note, the library's own choice), mounts the sections,
// wires the buttons and Back / Forward, and starts the first run; once it is over, the
// panels run the parts the address names. The page runs each configuration on the GPU
// pass by pass, draws every texture as a heatmap, times each pass and checks the answer
// against a float64 reference in a Web Worker, on WebGL2, WebGPU or the CPU backend
// (backend=auto|webgl|webgpu|cpu), with the library's Async calls on all of them (on
// WebGPU the blocking ones throw NEEDS_ASYNC).
//
// Machine-readable state for the report script and the page tests:
//   document.body.dataset.status   loading | running | paused | done | error | cancelled
//   document.body.dataset.passesDone / passCount
//   <script type="application/json" id="results"> and window.__results (status.js publish())
//   window.__page                  { gpu, backends, last: { gpu: Float32Array, ref: Float64Array } }
//
// The other modules of www/app/: state.js (what they share), status.js (status line,
// buttons, notes, banners, published results), url.js (the address and the permalink),
// backend.js (the page's instance and the form's device), session.js (one run),
// results.js (what a run reports), runs.js (the run controls), sections.js (the sections).
import init, { Gpgpu } from '../pkg/gpgpu_matrix.js';
import { $, page, ui } from './state.js';
import { nameDevice, showNotes } from './status.js';
import { markShown, sectionPermalink, shown, updatePermalink } from './url.js';
import { adopt, formDevice } from './backend.js';
import { showShader } from './session.js';
import { cancelClicked, fail, finishClicked, paused, runClicked, start, stepClicked } from './runs.js';
import { mountApplications, mountPanels, panelsWithoutGpu, sectionContext } from './sections.js';
import {
  parseQuery, fitKernel, DEFAULTS, DEFAULT_KERNEL, demoQuery, parseSectionQuery, N_CAP, describeConfig,
} from '../config.js';
import { Backends } from '../backends.js';
import { ReferenceClient } from '../reference-client.js';
import { ShaderPanel } from '../ui/shader-panel.js';
import { describeError } from '../ui/errors.js';
import { Timeline } from '../ui/timeline.js';
import { Controls } from '../ui/controls.js';
import { mountFigureTools } from '../ui/figures.js';
import { applyEmbed, embedded, mountSlidesLink } from '../ui/slides.js';
import computeSection from '../sections/compute.js';
import { mountClassroom } from '../classroom/bar.js';
import { t } from '../i18n/index.js';
import { timerResolutionMs } from '../ui/clock.js';

/**
 * A link to a part of the page (index.html?…#linear) lands on it: the browser scrolls to
 * the fragment as the page loads, then the panels, the first run's pictures and the parts
 * the link names fill in above it and push it far down. Until the reader scrolls, clicks or
 * types, the fragment is kept in view; the function returned stops that (when loading is over).
 */
function keepFragmentInView() {
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (!target) return () => {};
  const observer = new ResizeObserver(() => target.scrollIntoView());
  const inputs = ['wheel', 'touchstart', 'keydown', 'mousedown', 'hashchange'];
  const stop = () => {
    observer.disconnect();
    for (const e of inputs) window.removeEventListener(e, stop, true);
  };
  for (const e of inputs) window.addEventListener(e, stop, { capture: true, passive: true });
  observer.observe(document.body);
  return stop;
}

async function main() {
  if (window.gpgpuNoSimd) return; // www/needs-simd.js has said why this browser cannot run it
  // The clock's resolution, measured before the page gets busy (www/ui/clock.js).
  timerResolutionMs();
  applyEmbed();
  // Projector mode and a lesson's sections, before anything is drawn.
  mountClassroom(document.querySelector('.page-header'));
  const landed = keepFragmentInView();
  // Save PNG/SVG and Copy as CSV/Markdown on every picture and table, now and later.
  mountFigureTools($('main'));
  const { config, notes } = parseQuery(location.search);
  ui.controls = new Controls($('config'));
  ui.controls.set(config);
  // Before the first run starts (the library loading): what the configuration runs on.
  nameDevice(config.backend === 'cpu' ? 'CPU' : 'GPU');
  ui.timeline = new Timeline($('timeline'));
  const allNotes = [...notes];
  showNotes(allNotes);
  updatePermalink(config);
  ui.slides = mountSlidesLink($('slides-link'), $('slides-box'), () => ({
    href: $('permalink').href,
    // The iframe's accessible name: what the slide shows, in words (not its query string).
    title: describeConfig(parseQuery($('permalink').search).config),
  }));

  await init();
  page.backends = new Backends(Gpgpu);
  const webgpu = await page.backends.probe();
  const webgl = page.backends.probeWebgl();
  const all = Gpgpu.kernels();
  const setBackends = () => ui.controls.setBackends({ all, webgpu, webgl, resolve: (c) => page.backends.resolve(c), reason: page.backends.autoReason() });
  setBackends();
  // The compute-shader section makes its own instances when asked to measure.
  computeSection.mount($('compute-body'), sectionContext());
  let gpu;
  try {
    gpu = await page.backends.get(config.backend);
  } catch (err) {
    // A backend the browser cannot give (backend=webgpu without WebGPU, say): a note,
    // and the library's own choice.
    if (config.backend === 'auto') return noGpu(err);
    const d = describeError(err);
    allNotes.push({ param: 'backend', value: config.backend, why: t('why.default', { why: err.code === 'NO_WEBGPU' ? webgpu.text : `${d.title} (${d.code})`, param: 'backend=auto' }) });
    config.backend = 'auto';
    try { gpu = await page.backends.get('auto'); } catch (err2) { showNotes(allNotes); return noGpu(err2); }
  }
  adopt(gpu);
  const info = page.info;
  // 'auto' wanted the hardware WebGPU adapter but fell back to WebGL2: say why.
  if (info.fallback) allNotes.push({ param: 'backend', value: 'auto', why: t('why.autoFallback', { why: info.fallback }) });
  setBackends(); // auto may be known now
  // A kernel of the other backend: the URL asked for it (a note) or it is the default (none).
  const explicit = new URLSearchParams(location.search).has('kernel') && !allNotes.some((x) => x.param === 'kernel');
  const fitted = fitKernel(config, gpu.backend, explicit);
  if (fitted) allNotes.push(fitted);
  // An n=… that did not parse: its range is the device's, as the n field's help says.
  for (const x of allNotes) if (x.param === 'n') x.why = x.why.replace(t('why.whole', { lo: 1, hi: N_CAP }), t('why.wholeHere', { lo: 1, hi: ui.controls.nMax }));
  // A kernel=… that did not parse fell back to the default of the backend that runs.
  for (const x of allNotes) if (x.param === 'kernel') x.why = x.why.replace(` kernel=${DEFAULTS.kernel}`, ` kernel=${DEFAULT_KERNEL[gpu.backend]}`);
  if (config.kernel !== 'auto' && !info.kernels.includes(config.kernel)) {
    allNotes.push({ param: 'kernel', value: config.kernel, why: t('why.notHere', { kernels: info.kernels.join(', '), fallback: DEFAULT_KERNEL[gpu.backend] }) });
    config.kernel = DEFAULT_KERNEL[gpu.backend];
  }
  ui.controls.set(config);
  showNotes(allNotes);
  updatePermalink(config);
  // Another backend chosen in the form: made now, so the form shows its kernels and limits.
  ui.controls.onbackend = async (choice) => {
    try {
      const g = await page.backends.get(choice);
      setBackends();
      if (ui.controls.get().config.backend === choice) formDevice(g);
    } catch (err) {
      showNotes([{ param: 'backend', value: choice, why: describeError(err).message }], t('notes.backendUnusable'));
    }
  };

  ui.shaderPanel = new ShaderPanel({
    select: $('shader-kernel'), about: $('shader-about'), code: $('shader-code'), notes: $('shader-notes'),
    program: $('program-source'), summary: $('program-summary'),
  }, Gpgpu, {
    ready: (backend) => page.backends.ready(backend),
    // A WGSL kernel picked before any WebGPU run: its device is made to show it as compiled.
    make: webgpu.state === 'none' || webgpu.state === 'no-adapter' ? null : (backend) => page.backends.get(backend),
    missing: webgpu.state === 'none' || webgpu.state === 'no-adapter' ? webgpu.text : null,
    // The n in the form (a number where it is one the device can take).
    n: () => { const n = ui.controls.get().config.n; return Number.isInteger(n) && n >= 1 && n <= info.maxDimension ? n : undefined; },
  });
  ui.shaderPanel.mount();
  showShader(config.kernel === 'auto' ? gpu.defaultKernel(Math.min(config.n, info.maxDimension)) : config.kernel);

  ui.refClient = new ReferenceClient();

  $('config').addEventListener('submit', (ev) => {
    ev.preventDefault();
    runClicked();
  });
  // Enter in a field submits the form, which means Run; while stepping, it starts a
  // new step-through of the edited configuration instead, keeping mode=step.
  $('config').addEventListener('keydown', (ev) => {
    if (ev.key !== 'Enter' || ui.controls.mode !== 'step' || !ev.target.matches('input:not([type=checkbox])')) return;
    ev.preventDefault();
    stepClicked();
  });
  $('step').addEventListener('click', stepClicked);
  $('finish').addEventListener('click', finishClicked);
  $('cancel').addEventListener('click', cancelClicked);
  ui.controls.onchange = () => {
    const { config: c } = ui.controls.get();
    c.mode = ui.controls.mode;
    updatePermalink(c);
    const s = page.session;
    if (s && document.body.dataset.status === 'paused') paused(s);
  };

  mountApplications();
  // The panels with their own controls, each in the address (the sparse one has none).
  const panels = mountPanels();

  // Back / Forward to an entry of this page: that entry's configuration, run as a
  // load of its link would.
  window.addEventListener('popstate', () => {
    // An entry that differs only in its #fragment (an in-page link: "Skip to the results",
    // a section, a line of the shader) is the configuration already shown: Back from it
    // must not start the run again (a step-through would lose its passes).
    if (location.search === shown()) return;
    const demoChanged = demoQuery(location.search) !== demoQuery(shown());
    markShown();
    // Only a panel's fields differ (Back from a part's Run): the demo's run stays.
    if (demoChanged) {
      const { config: c, notes: n } = parseQuery(location.search);
      ui.controls.set(c);
      showNotes(n);
      updatePermalink(c);
      page.started = start(c);
    } else {
      sectionPermalink(parseSectionQuery(location.search).state);
    }
    // The panels' fields follow; the parts that ran in this entry run again (after the demo's run).
    for (const { section, ctx } of panels) section.onUrl?.(ctx);
  });

  page.started = start(config);
  await page.started;
  // The panels' parts that the address names run once the demo's first run is over;
  // not on a slide (embed=1), which hides the panels: there they would only take the
  // device (a split product, a mesh run…) from the result panel every time it loads.
  if (!embedded()) for (const { section, ctx } of panels) await section.restore?.(ctx);
  requestAnimationFrame(landed);
}

/** No GPU backend could be made: the error, and nothing to run. */
function noGpu(err) {
  fail(null, err);
  panelsWithoutGpu();
  $('device').textContent = err?.code === 'NO_WEBGL2' ? t('device.noWebgl2') : t('device.none', { code: describeError(err).code });
  for (const b of ['run', 'step']) $(b).disabled = true;
}

main().catch((err) => fail(page.session, err));
