// The classroom's URL parameters (projector=1, sections=…, locale=…): how the page is
// shown, not what it runs, so they are kept in every address the page writes
// (config.js takes them into VIEW_PARAMS) and in the permalink a teacher shares.
import { LANGUAGES, t } from '../i18n/index.js';

/**
 * The parts of the page `sections=…` can name, each with the element it shows; the
 * demo (configuration and results) is always shown. An application named alone shows
 * the applications' panel with only that application; `applications` shows all six.
 */
export const LESSON_SECTIONS = {
  applications: 'applications', timeline: 'timeline-section', precision: 'precision-section', shader: 'shader-section', how: 'how',
  compute: 'compute', partitioned: 'partitioned', batched: 'batched', linear: 'linear', devices: 'devices',
  reachability: 'reachability', 'shortest-paths': 'shortest-paths', fibonacci: 'fibonacci',
  inverse: 'inverse', eigen: 'eigen', jacobi: 'jacobi',
};

/** The application sections, inside the panel #applications. */
export const APPLICATIONS = ['reachability', 'shortest-paths', 'fibonacci', 'inverse', 'eigen', 'jacobi'];

/** The section names of `raw` ("how,compute"): { value: [names] } or { why }. */
export function parseSections(raw) {
  const names = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((s) => !Object.hasOwn(LESSON_SECTIONS, s));
  if (!names.length) return { why: t('why.sectionsNone') };
  if (unknown.length) return { why: t('why.sectionsUnknown', { names: unknown.join(', '), known: Object.keys(LESSON_SECTIONS).join(', ') }) };
  return { value: [...new Set(names)] };
}

export const CLASSROOM_PARAMS = {
  projector: {
    parse: (raw) => (raw === '1' ? { value: raw } : { why: t('why.projector') }),
    what: 'projector mode (1): larger type, thicker lines, colours for a projector',
    otherwise: () => t('why.projectorOtherwise'),
  },
  sections: {
    parse: parseSections,
    what: 'the sections shown beside the demo, by name, separated by commas',
    otherwise: () => t('why.sectionsOtherwise'),
  },
  locale: {
    parse: (raw) => (Object.hasOwn(LANGUAGES, raw) ? { value: raw } : { why: t('why.locale', { known: Object.keys(LANGUAGES).join(', ') }) }),
    what: 'the language of the page\'s controls and messages',
    otherwise: () => t('why.localeOtherwise'),
  },
};
