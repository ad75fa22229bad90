// The page's UI strings by language: one catalogue per language (en.js, it.js, …),
// each a default export { name, strings }. Adding a language is one file here and its
// code in LANGUAGES. The language is the address's locale=… (English by default); the
// library's own error messages stay English whatever it is.
import en from './en.js';

/** The catalogues by language code; English is complete, another may leave keys out. */
export const LANGUAGES = { en };

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
