// The page's sections below the demo and what it gives them: the context each one mounts
// with (www/sections/index.js lists its fields), the applications, and the panels with
// their own controls (partitioned matrices, many small problems at once, linear systems,
// sparse matrices, several devices), each mounted on its own body; a section that throws
// while mounting says so in its body and the others still start.
import { BlockSparse, Csr, Gpgpu, Tridiagonal } from '../pkg/gpgpu_matrix.js';
import { $, page } from './state.js';
import { showError } from './status.js';
import { sectionUrl } from './url.js';
import * as reference from '../reference.js';
import * as inputs from '../inputs.js';
import { HeatmapView } from '../ui/heatmap.js';
import { describeError } from '../ui/errors.js';
import * as format from '../ui/format.js';
import { el } from '../ui/format.js';
import { t } from '../i18n/index.js';
import { mountSections, SECTIONS } from '../sections/index.js';
import partitionedSection from '../sections/partitioned.js';
import batchedSection from '../sections/batched.js';
import devicesSection from '../sections/devices.js';
import linearSection from '../sections/linear.js';
import sparseSection from '../sections/sparse.js';

/** The panels with their own controls, and the element each one mounts on. */
const PANELS = [[partitionedSection, 'partitioned-body'], [batchedSection, 'batched-body'], [linearSection, 'linear-body'], [sparseSection, 'sparse-body'], [devicesSection, 'devices-body']];

export function sectionContext() {
  return {
    // The instance of the backend the demo last ran on: a section reads it when it runs.
    get gpu() { return page.gpu; },
    get info() { return page.info; },
    backends: page.backends,
    Gpgpu, BlockSparse, Csr, Tridiagonal, reference, inputs, HeatmapView, format, describeError, showError,
    url: sectionUrl,
  };
}

/** The applications (www/sections/index.js), shown when there are any. */
export function mountApplications() {
  if (SECTIONS.length) {
    $('applications').hidden = false;
    mountSections($('application-sections'), sectionContext());
  }
}

/**
 * The panels with their own controls: partitioned matrices, many small problems at
 * once, linear systems, several devices, each in the address (the sparse one has none).
 * Returns the ones that started, each with its context: { section, ctx }.
 */
export function mountPanels() {
  return PANELS.map(([section, body]) => {
    const ctx = sectionContext();
    try {
      section.mount($(body), ctx);
      return { section, ctx };
    } catch (err) {
      $(body).textContent = t('sections.couldNotStart', { message: err.message });
      return null;
    }
  }).filter(Boolean);
}

/** No GPU backend could be made: each panel says that nothing in it can run. */
export function panelsWithoutGpu() {
  for (const [, body] of PANELS) $(body).replaceChildren(el('p', { class: 'help' }, t('sections.noGpu')));
}

/** A run of the demo is done: the applications that follow it take its results. */
export function demoRan(results) {
  for (const sec of SECTIONS) sec.onRun?.(results, sectionContext());
}
