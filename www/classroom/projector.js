// Projector mode (projector=1, or the switch): larger type, thicker lines, darker text and
// a heatmap colour map that keeps its order in greyscale and for colour-blind viewers
// (www/classroom/colours.js); the styles are in www/classroom.css under body.projector.
import { setView } from './view.js';

/** Whether projector mode is on. */
export const projectorOn = () => document.body.classList.contains('projector');

/**
 * Turns projector mode on or off, in the address too; the page's pictures redraw their
 * colours on the 'projectorchange' event.
 */
export function setProjector(on, { write = true } = {}) {
  document.body.classList.toggle('projector', on);
  if (write) setView('projector', on ? '1' : null);
  const toggle = document.getElementById('projector-switch');
  if (toggle) toggle.checked = on;
  document.dispatchEvent(new CustomEvent('projectorchange', { detail: { on } }));
}
