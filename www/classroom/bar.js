// The classroom's bar under the page's title: the projector switch, the language, the
// keyboard shortcuts and the link for a lesson. www/app/main.js mounts it first, so
// projector mode and a lesson's sections apply before anything is drawn.
import { el } from '../ui/format.js';
import { t } from '../i18n/index.js';
import { mountShortcuts } from './shortcuts.js';
import { projectorOn, setProjector } from './projector.js';
import { keyboardScrolling } from './scrollable.js';
import { applyLesson } from './lesson.js';
import { mountLinkBuilder } from './links.js';

export function mountClassroom(header) {
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
    keys, mountLinkBuilder());
  header.append(bar);
  keyboardScrolling(document.getElementById('main'));
  return bar;
}
