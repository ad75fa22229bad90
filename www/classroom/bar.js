// The classroom's bar under the page's title: the projector switch, the language, the
// keyboard shortcuts and the link for a lesson. www/app/main.js mounts it first, so the
// page's language, projector mode and a lesson's sections apply before anything is drawn.
import { el } from '../ui/format.js';
import { LANGUAGES, locale, t, translateStatic } from '../i18n/index.js';
import { setView } from './view.js';
import { mountShortcuts } from './shortcuts.js';
import { projectorOn, setProjector } from './projector.js';
import { keyboardScrolling } from './scrollable.js';
import { applyLesson } from './lesson.js';
import { mountLinkBuilder } from './links.js';

/**
 * The page in its language: the static text from the catalogue, and `lang` on what is
 * translated and on the prose that stays English, so a screen reader reads each in its
 * own voice.
 */
function applyLanguage() {
  translateStatic();
  if (locale === 'en') return;
  document.documentElement.lang = locale;
  for (const e of document.querySelectorAll('.page-header .lead, .sections, .page-footer')) e.lang = 'en';
  // The demo's own panels (timeline, precision, the shader's words but not its source) and
  // the footer's device line are in the page's language too.
  for (const e of document.querySelectorAll('.sections [data-i18n], #precision-h, #timeline, #precision, #shader-about, #program-summary, #device')) e.lang = locale;
  // The sections' own widgets, made as they mount and run, come from the catalogue too.
  const WIDGETS = 'button, label, legend, summary, [role=status], th[scope=col]';
  const mark = (node) => {
    if (!(node instanceof Element)) return;
    if (node.matches(WIDGETS)) node.lang = locale;
    for (const e of node.querySelectorAll(WIDGETS)) e.lang = locale;
  };
  const observer = new MutationObserver((changes) => { for (const c of changes) c.addedNodes.forEach(mark); });
  for (const e of document.querySelectorAll('.sections')) observer.observe(e, { childList: true, subtree: true });
}

/** The language switch: another language reloads the page in it (the address keeps the run). */
function languageSwitch() {
  const select = el('select', { id: 'locale-switch' },
    Object.entries(LANGUAGES).map(([code, l]) => el('option', { value: code, lang: code }, l.name)));
  select.value = locale;
  select.addEventListener('change', () => {
    setView('locale', select.value === 'en' ? null : select.value);
    location.reload();
  });
  return el('span', { class: 'language' }, el('label', { for: 'locale-switch' }, t('language.label')), ' ', select);
}

export function mountClassroom(header) {
  applyLanguage();
  setProjector(new URLSearchParams(location.search).get('projector') === '1', { write: false });
  applyLesson();
  const toggle = el('input', { type: 'checkbox', role: 'switch', id: 'projector-switch' });
  toggle.checked = projectorOn();
  toggle.addEventListener('change', () => setProjector(toggle.checked));
  const shortcuts = mountShortcuts({ projector: () => setProjector(!projectorOn()) });
  const keys = el('button', { type: 'button', id: 'shortcuts-button', 'aria-haspopup': 'dialog' },
    t('shortcuts.button'), ' ', el('kbd', {}, '?'));
  keys.addEventListener('click', shortcuts.open);
  const bar = el('div', { class: 'classroom-bar', role: 'group', 'aria-label': t('classroom.label') },
    el('span', { class: 'switch' }, toggle, el('label', { for: 'projector-switch' }, t('projector.switch'))),
    languageSwitch(), keys, mountLinkBuilder());
  header.append(bar);
  keyboardScrolling(document.getElementById('main'));
  return bar;
}
