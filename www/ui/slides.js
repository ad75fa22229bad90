// "Link for slides": an iframe snippet of the current configuration that shows the result
// panel alone (`?embed=1`). It is the same page, so it runs the configuration, works
// offline once loaded, and keeps its Run/Step buttons for a live demonstration.
import { t } from '../i18n/index.js';

/** Whether this page was opened as the embedded result panel. */
export function embedded(search = location.search) {
  return new URLSearchParams(search).get('embed') === '1';
}

/** Marks the page embedded (style.css hides all but the result panel). */
export function applyEmbed() {
  if (embedded()) document.body.classList.add('embed');
}

/** The embedded address of `href` (the configuration's link, relative or absolute). */
export function embedUrl(href, base = location.href) {
  const u = new URL(href, base);
  u.searchParams.set('embed', '1');
  u.hash = '';
  return u.href;
}

const escAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The iframe snippet for a slide. */
export function slidesSnippet(href, title, base = location.href) {
  return `<iframe src="${escAttr(embedUrl(href, base))}" title="${escAttr(title)}" width="960" height="720" style="border:0" loading="lazy"></iframe>`;
}

/**
 * Wires the "Link for slides" button: it shows (and selects) the snippet of the
 * configuration `link()` gives ({ href, title }) in `box`'s textarea, with Copy and Open.
 */
export function mountSlidesLink(toggle, box, link) {
  const text = box.querySelector('textarea');
  const open = box.querySelector('a');
  const copy = box.querySelector('button');
  const refresh = () => {
    const { href, title } = link();
    text.value = slidesSnippet(href, title);
    open.href = embedUrl(href);
  };
  toggle.addEventListener('click', () => {
    const show = box.hidden;
    box.hidden = !show;
    toggle.setAttribute('aria-expanded', String(show));
    if (show) { refresh(); text.focus(); text.select(); }
  });
  copy.addEventListener('click', async () => {
    refresh();
    try {
      await navigator.clipboard.writeText(text.value);
      copy.textContent = t('links.copied');
    } catch {
      text.select();
      copy.textContent = document.execCommand('copy') ? t('links.copied') : t('slides.selectCopy');
    }
    setTimeout(() => { copy.textContent = t('form.slidesCopy'); }, 1500);
  });
  return { refresh };
}
