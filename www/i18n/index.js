// The page's UI strings by language: one catalogue per language (en.js, it.js, …),
// each a default export { name, strings }. Adding a language is one file here and its
// code in LANGUAGES. The language is the address's locale=… (English by default); the
// library's own error messages stay English whatever it is.
import en from './en.js';
import it from './it.js';

/** The catalogues by language code; English is complete, another may leave keys out. */
export const LANGUAGES = { en, it };

/** The page's language: `locale=…` of the address where there is a catalogue for it. */
export const locale = (() => {
  const asked = new URLSearchParams(globalThis.location?.search ?? '').get('locale');
  return asked && Object.hasOwn(LANGUAGES, asked) ? asked : 'en';
})();

/**
 * The string `key` in the page's language (English where its catalogue lacks it), with
 * `{name}` replaced by `vars.name`.
 */
export function t(key, vars = {}) {
  const s = LANGUAGES[locale].strings[key] ?? en.strings[key];
  if (s === undefined) throw new Error(`no UI string ${key}`);
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/**
 * The library's own words for something (a kernel's description) in the page's
 * language: `key` of its catalogue where it has one, else `library`, as the library
 * says it. English has none of these keys: the library is in English.
 */
export function tLibrary(key, library) {
  return LANGUAGES[locale].strings[key] ?? library;
}

/** `key.one` or `key.other` by `count` (both languages here have these two forms). */
export function tn(key, count, vars = {}) {
  return t(`${key}.${count === 1 ? 'one' : 'other'}`, { count, ...vars });
}

/**
 * Puts the page's language into the static text of `root`: an element's
 * `data-i18n="key"` is its text, `data-i18n-label="key"` its aria-label. English is
 * in the HTML too, for a page without scripts; the catalogue is what the page shows.
 */
export function translateStatic(root = document) {
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-label]')) e.setAttribute('aria-label', t(e.dataset.i18nLabel));
}
