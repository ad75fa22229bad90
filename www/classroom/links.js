// "Link for a lesson": builds a link to a page of the site showing only what a teacher
// picks (sections=…), in projector mode, in a language, with the configuration shown
// now. Each page a link can open is a target in TARGETS: { id, label, path, fields },
// a field being { name, kind: 'list' | 'flag' | 'choice', label, options }:
// 'list' writes the ticked options comma-separated (sections=how,compute), 'flag'
// writes name=1 when ticked, 'choice' the option picked (left out when it is the first).
// The kernel lab (www/lab.html) is one entry: its exercises, solutions and language (it
// has no projector mode yet: that field joins it when it has).
import { el } from '../ui/format.js';
import { LANGUAGES, t } from '../i18n/index.js';
import { LESSON_SECTIONS } from './params.js';
import { EXERCISES } from '../lab/exercises.js';

/** What every page of the site takes: projector mode and the language. */
export const COMMON_FIELDS = [
  { name: 'projector', kind: 'flag', label: () => t('projector.switch') },
  { name: 'locale', kind: 'choice', label: () => t('links.language'), options: () => Object.entries(LANGUAGES).map(([code, l]) => [code, l.name]) },
];

/** The pages a lesson's link can open (the lab adds itself here). */
export const TARGETS = [
  {
    id: 'page', label: () => t('links.thisPage'), path: 'index.html', keepsConfiguration: true,
    fields: [
      { name: 'sections', kind: 'list', label: () => t('links.sections'), options: () => Object.keys(LESSON_SECTIONS).map((s) => [s, t(`section.${s}`)]) },
      ...COMMON_FIELDS,
    ],
  },
  {
    id: 'lab', label: () => t('links.lab'), path: 'www/lab.html',
    fields: [
      { name: 'exercises', kind: 'list', label: () => t('links.exercises'), options: () => EXERCISES.map((x) => [x.id, x.title]) },
      { name: 'solutions', kind: 'flag', label: () => t('links.solutions') },
      // The lab speaks the page's languages; it has no projector mode.
      ...COMMON_FIELDS.filter((f) => f.name === 'locale'),
    ],
  },
];

/**
 * The link for `target` with `values` ({ name: string[] | boolean | string }), from
 * `base` (the permalink's query for the teaching page: its configuration; '' otherwise).
 */
export function lessonLink(target, values, base = '', origin = location.href) {
  const q = new URLSearchParams(target.keepsConfiguration ? base : '');
  for (const f of target.fields) {
    q.delete(f.name);
    const v = values[f.name];
    if (f.kind === 'list' && v?.length) q.set(f.name, v.join(','));
    else if (f.kind === 'flag' && v) q.set(f.name, '1');
    else if (f.kind === 'choice' && v && v !== f.options()[0][0]) q.set(f.name, v);
  }
  const u = new URL(target.path, new URL('/', origin));
  u.search = q.toString();
  return u.href;
}

/** One field's controls; `read()` gives its value. */
function fieldControls(target, f) {
  const id = `lesson-${target.id}-${f.name}`;
  if (f.kind === 'flag') {
    const box = el('input', { type: 'checkbox', id });
    return { element: el('div', { class: 'field check' }, box, el('label', { for: id }, f.label())), read: () => box.checked };
  }
  if (f.kind === 'choice') {
    const select = el('select', { id }, f.options().map(([v, text]) => el('option', { value: v }, text)));
    return { element: el('div', { class: 'field' }, el('label', { for: id }, f.label()), select), read: () => select.value };
  }
  const boxes = f.options().map(([v, text]) => el('input', { type: 'checkbox', id: `${id}-${v}`, value: v }));
  return {
    element: el('fieldset', { class: 'lesson-list' }, el('legend', {}, f.label()),
      ...boxes.map((b, k) => el('label', { for: b.id }, b, ` ${f.options()[k][1]}`))),
    read: () => boxes.filter((b) => b.checked).map((b) => b.value),
  };
}

/** The link builder, in a <details> under the page's title. */
export function mountLinkBuilder() {
  const output = el('input', { type: 'text', id: 'lesson-link', readonly: true, class: 'lesson-link' });
  const open = el('a', { id: 'lesson-open', href: '', target: '_blank', rel: 'noopener' }, t('links.open'));
  const copy = el('button', { type: 'button', id: 'lesson-copy' }, t('links.copy'));
  const targets = TARGETS.map((target) => ({ target, fields: target.fields.map((f) => ({ f, ...fieldControls(target, f) })) }));
  let current = targets[0];
  const panes = targets.map((x) => el('div', { class: 'lesson-target', 'data-target': x.target.id, hidden: x !== current }, ...x.fields.map((c) => c.element)));
  // A choice of page only once there is more than one (the lab).
  const pick = targets.length > 1
    ? el('div', { class: 'field' }, el('label', { for: 'lesson-page' }, t('links.pageToOpen')),
      el('select', { id: 'lesson-page', onchange: (ev) => { current = targets.find((x) => x.target.id === ev.target.value); panes.forEach((p) => { p.hidden = p.dataset.target !== current.target.id; }); refresh(); } },
        targets.map((x) => el('option', { value: x.target.id }, x.target.label()))))
    : null;
  const refresh = () => {
    const values = Object.fromEntries(current.fields.map((c) => [c.f.name, c.read()]));
    const base = new URL(document.getElementById('permalink')?.href || location.href, location.href).search;
    output.value = lessonLink(current.target, values, base);
    open.href = output.value;
  };
  copy.addEventListener('click', async () => {
    refresh();
    try { await navigator.clipboard.writeText(output.value); copy.textContent = t('links.copied'); } catch { output.select(); }
    setTimeout(() => { copy.textContent = t('links.copy'); }, 1500);
  });
  const box = el('details', { class: 'lesson-links', id: 'lesson-links', ontoggle: refresh },
    el('summary', {}, t('links.summary')),
    el('p', { class: 'help' }, t('links.help')),
    pick, ...panes,
    el('label', { for: 'lesson-link' }, t('links.result')), output,
    el('div', { class: 'buttons' }, copy, ' ', open));
  box.addEventListener('change', refresh);
  return box;
}
