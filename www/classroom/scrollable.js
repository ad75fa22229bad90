// A box that scrolls (.scroll-x: a wide table on a phone, or on a projector's larger
// type) takes the keyboard's focus while, and only while, its content overflows it, so
// that arrow keys can scroll it (WCAG 2.1.1); it is then a region named by its table.
import { tableName } from '../ui/figures.js';

const BOXES = '.scroll-x';

function update(box) {
  if (box.hasAttribute('tabindex') && !('scrollFocus' in box.dataset)) return; // a focus of its own
  const overflows = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
  if (overflows && !('scrollFocus' in box.dataset)) {
    const table = box.querySelector('table');
    box.dataset.scrollFocus = '';
    box.tabIndex = 0;
    box.setAttribute('role', 'region');
    box.setAttribute('aria-label', table ? tableName(table) : 'scrolling content');
  } else if (!overflows && 'scrollFocus' in box.dataset) {
    delete box.dataset.scrollFocus;
    for (const a of ['tabindex', 'role', 'aria-label']) box.removeAttribute(a);
  }
}

/** Keeps every scrolling box under `root` reachable by keyboard, now and as the page changes. */
export function keyboardScrolling(root) {
  let pending = false;
  const sizes = new ResizeObserver(() => schedule());
  const watched = new WeakSet();
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      for (const box of root.querySelectorAll(BOXES)) {
        if (!watched.has(box)) { watched.add(box); sizes.observe(box); }
        update(box);
      }
    });
  };
  new MutationObserver(schedule).observe(root, { childList: true, subtree: true, characterData: true });
  document.addEventListener('projectorchange', schedule);
  schedule();
}
