// A lesson's page (sections=…): only the sections a teacher named, beside the demo
// (configuration and results), which is always shown. Hidden by a style sheet of ids,
// so sections mounted later (the applications) are hidden as they appear, and a hidden
// part that runs when scrolled to never runs.
import { APPLICATIONS, LESSON_SECTIONS, parseSections } from './params.js';

/** The ids `names` leaves out (with the applications' table-of-contents links). */
export function hiddenIds(names) {
  const apps = names.includes('applications') ? APPLICATIONS : APPLICATIONS.filter((a) => names.includes(a));
  const shown = new Set(names.map((n) => LESSON_SECTIONS[n]));
  if (apps.length) shown.add('applications');
  for (const a of apps) shown.add(a);
  return [...new Set(Object.values(LESSON_SECTIONS))].filter((id) => !shown.has(id));
}

/** Hides what the address's sections=… leaves out; returns the names shown (null: all). */
export function applyLesson(search = location.search) {
  const raw = new URLSearchParams(search).get('sections');
  const parsed = raw === null ? null : parseSections(raw);
  if (!parsed || !('value' in parsed)) return null; // a bad value is a note (config.js): all shown
  const ids = hiddenIds(parsed.value);
  const sheet = document.createElement('style');
  sheet.id = 'lesson-sections';
  sheet.textContent = ids.map((id) => `#${id}, .app-toc li:has(> a[href="#${id}"])`).join(',\n') + ' { display: none !important; }';
  document.head.append(sheet);
  return parsed.value;
}
