// Application sections of the teaching page (graph reachability, Fibonacci
// exactness, inverse by power series, eigenvalues, Jacobi iteration, ...).
//
// The page mounts every section listed in SECTIONS into <section id="applications">
// (index.html), in order, after a table of contents linking to them, once the
// library is ready; the whole <section> stays hidden while the list is empty.
// www/sections/common.js has what the sections share (preset menu, Run button,
// status, result tables, notes); presets.js their seeded inputs. To add one:
//
//   1. write www/sections/<name>.js:
//
//        export default {
//          id: 'reachability',                 // becomes the <section>'s id
//          title: 'Graph reachability',        // its <h3>
//          /** Builds the section inside `container` (an empty <div>). */
//          mount(container, ctx) { ... },
//          /** Optional: called after every run of the main demo. */
//          onRun(results, ctx) { ... },
//        };
//
//   2. import it below and add it to SECTIONS.
//
// (www/sections/compute.js, "Fragment shader or compute shader", and partitioned.js,
// "Partitioned matrices", have the same shape but are no applications: www/app/ mounts
// them on panels of their own, #compute and #partitioned.)
//
// `ctx` (see www/app/sections.js, sectionContext()) gives:
//   gpu          the page's Gpgpu instance, of the backend the demo runs on (WebGL2 or
//                WebGPU; read it when a run starts: it changes with the backend)
//   backends     www/backends.js: backends.get('webgl' | 'webgpu' | 'auto') → Promise<Gpgpu>
//   Gpgpu        the class (Gpgpu.kernels(), Gpgpu.kernelSource(name), ...)
//   info         gpu.info()
//   reference    www/reference.js (float64 products, compare(), FLOAT32_EXACT_INTEGER_LIMIT)
//   inputs       www/inputs.js (makeInput(kind, n, seed, prob), INPUT_KINDS)
//   HeatmapView  www/ui/heatmap.js (a figure the library draws a matrix on)
//   format       www/ui/format.js (num, sci, ms, el, ...)
//   describeError(err) → { code, title, message, advice } (www/ui/errors.js)
//   showError(err)     the page's error banner
// Keep long GPU work stepwise (gpu.startPower(...).step() with `await` between
// passes) and float64 work in a Worker, as the main demo does, and free every Run.
// Use the library's Async calls (squareAsync, statsAsync, drawHeatmapAsync, ...):
// on WebGPU the blocking ones throw NEEDS_ASYNC.

import reachability from './reachability.js';
import shortestPaths from './shortest-paths.js';
import fibonacci from './fibonacci.js';
import inverse from './inverse.js';
import eigen from './eigen.js';
import jacobi from './jacobi.js';
import { t } from '../i18n/index.js';

export const SECTIONS = [reachability, shortestPaths, fibonacci, inverse, eigen, jacobi];

/** Mounts every section; returns the mounted ones. */
export function mountSections(container, ctx) {
  const mounted = [];
  // A table of contents of the sections (links to their ids).
  const toc = document.createElement('nav');
  toc.className = 'app-toc';
  toc.setAttribute('aria-label', t('sec.applications'));
  const list = document.createElement('ul');
  for (const s of SECTIONS) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#${s.id}`;
    a.textContent = s.title.split(':')[0];
    li.append(a);
    list.append(li);
  }
  toc.append(list);
  container.append(toc);
  for (const s of SECTIONS) {
    const body = document.createElement('div');
    const section = document.createElement('section');
    section.id = s.id;
    section.className = 'app-section';
    const h = document.createElement('h3');
    h.textContent = s.title;
    section.append(h, body);
    container.append(section);
    try {
      s.mount(body, ctx);
      mounted.push(s);
    } catch (err) {
      body.textContent = t('sections.couldNotStart', { message: err.message });
    }
  }
  return mounted;
}
