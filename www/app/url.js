// The teaching page's address: the configuration shown (Back / Forward compare with it),
// a run's new history entry, the permalink (and the "Link for slides" snippet that
// follows it), and the state of the panels with their own controls, kept in the address
// beside the demo's parameters (sectionUrl, which the sections read and write).
import { $, page, ui } from './state.js';
import { SECTION_PARAMS, demoQuery, parseSectionQuery, toQuery, withSectionParams } from '../config.js';
import { ranHere, replay, writeEntry } from '../section-history.js';

/** The query string of the configuration the page shows (Back / Forward compare with it). */
let shownSearch = location.search;

/** The query string of the configuration the page shows. */
export const shown = () => shownSearch;

/** The address's configuration is the one the page shows now. */
export function markShown() { shownSearch = location.search; }

/**
 * `config`, a run from the form, in the address. The panels' controls (partitioned
 * matrices, small problems, linear systems, devices) stay in it.
 */
export function pushConfig(config) {
  const q = withSectionParams(toQuery(config), location.search);
  // A new configuration is a new history entry, so Back returns to the previous run.
  // The panels' results stay, and their fields in the address: the parts that ran go with them.
  if (`?${q}` !== location.search) history.pushState(history.state, '', `${location.pathname}?${q}`);
  shownSearch = location.search;
  updatePermalink(config);
}

export function updatePermalink(config) {
  $('permalink').href = `${location.pathname}?${withSectionParams(toQuery(config), location.search)}`;
  // An open "Link for slides" box must not go on offering the previous configuration.
  ui.slides?.refresh();
}

/**
 * The state of the panels with their own controls (partitioned matrices, many small
 * problems at once, linear systems, several devices) in the address: state() reads it (with
 * `given`, the parameters the address names), set(changes) writes it in place
 * (replaceState: stepping through Fox's algorithm is no new history entry), beside
 * the demo's parameters, and into the permalink.
 */
export const sectionUrl = {
  state() {
    const q = new URLSearchParams(location.search);
    const { state, notes } = parseSectionQuery(location.search);
    const bad = new Set(notes.map((n) => n.param));
    return { ...state, given: Object.keys(SECTION_PARAMS).filter((k) => q.has(k) && !bad.has(k)), ran: ranHere() };
  },
  /**
   * `how`: { run: the part's id } for a part's Run (a new history entry when the fields
   * changed: www/section-history.js), with replay: true when Back / Forward runs it again.
   */
  set(changes, how = {}) {
    const state = { ...parseSectionQuery(location.search).state, ...changes };
    writeEntry(withSectionParams(demoQuery(location.search), '', state), how);
    shownSearch = location.search;
    sectionPermalink(state);
  },
  /** Back / Forward: `f` (a part's run again) once the demo's run it started is over, one at a time. */
  replay: (f) => replay(() => page.started, f),
};

/** The permalink keeps its demo parameters and takes the panels' `state`. */
export function sectionPermalink(state) {
  const link = new URL($('permalink').href, location.href);
  $('permalink').href = `${link.pathname}?${withSectionParams(demoQuery(link.search), '', state)}`;
  ui.slides?.refresh();
}
