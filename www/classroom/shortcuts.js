// The "Keyboard shortcuts" dialog: every key the page answers to, opened by its button
// or by "?". The single-key shortcuts ("?", "P") can be turned off there (WCAG 2.1.4:
// speech input types letters), and never fire while the focus is in a field.
import { el } from '../ui/format.js';
import { t } from '../i18n/index.js';

const OFF_KEY = 'gpgpu-matrix.single-key-shortcuts';

/** The keys and what they do, as the dialog lists them. */
export const KEYS = [
  ['?', 'key.help'], ['P', 'key.projector'], ['Esc', 'key.escape'], ['Tab, Shift+Tab', 'key.tab'],
  ['Enter', 'key.enterConfig'], ['Enter', 'key.enterPart'], ['Enter, Space', 'key.press'],
  ['← ↑ → ↓', 'key.arrows'], ['Shift + ← ↑ → ↓', 'key.shiftArrows'], ['Home, End', 'key.homeEnd'],
];

/** Whether single-key shortcuts are on (they are unless turned off in the dialog). */
const singleKeysOn = () => {
  try { return localStorage.getItem(OFF_KEY) !== 'off'; } catch { return true; }
};

/** Whether a key typed at `target` is text (or a choice) for it, not a shortcut. */
const typing = (target) => target instanceof Element
  && (target.matches('textarea, select, [contenteditable=""], [contenteditable=true], input:not([type=checkbox], [type=radio], [type=button], [type=submit], [type=range])'));

/**
 * Makes the dialog and returns { dialog, open }. `actions`: { projector() } run by their keys.
 */
export function mountShortcuts(actions) {
  const rows = KEYS.map(([keys, what]) => el('tr', {},
    el('th', { scope: 'row' }, ...keys.split(', ').flatMap((k, i) => [i ? ', ' : null, el('kbd', {}, k)])), el('td', {}, t(what))));
  const single = el('input', { type: 'checkbox', id: 'shortcuts-single', 'aria-describedby': 'shortcuts-single-help' });
  single.checked = singleKeysOn();
  single.addEventListener('change', () => {
    try { localStorage.setItem(OFF_KEY, single.checked ? 'on' : 'off'); } catch { /* private mode: this page only */ }
  });
  const close = el('button', { type: 'button', id: 'shortcuts-close', class: 'primary' }, t('shortcuts.close'));
  const dialog = el('dialog', { id: 'shortcuts', class: 'shortcuts', 'aria-labelledby': 'shortcuts-h' },
    el('h2', { id: 'shortcuts-h' }, t('shortcuts.title')),
    el('table', { class: 'shortcuts-table', 'data-figure-tools': 'off' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, t('shortcuts.keys')), el('th', { scope: 'col' }, t('shortcuts.does')))),
      el('tbody', {}, ...rows)),
    el('div', { class: 'field check' }, single, el('label', { for: 'shortcuts-single' }, t('shortcuts.single'))),
    el('p', { class: 'help', id: 'shortcuts-single-help' }, t('shortcuts.singleHelp')),
    el('div', { class: 'buttons' }, close));
  close.addEventListener('click', () => dialog.close());
  document.body.append(dialog);
  // A modal dialog: the focus stays in it, Esc closes it and the focus goes back where it was.
  const open = () => { if (!dialog.open) dialog.showModal(); };
  document.addEventListener('keydown', (ev) => {
    if (dialog.open || ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || ev.isComposing) return;
    if (!singleKeysOn() || typing(ev.target)) return;
    if (ev.key === '?') { ev.preventDefault(); open(); } else if (ev.key === 'p' || ev.key === 'P') { ev.preventDefault(); actions.projector(); }
  });
  return { dialog, open };
}
