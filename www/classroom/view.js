// How the page is shown, kept in the address beside the configuration (projector=1,
// sections=…, locale=…): setView changes one in place (no new history entry: it is no
// new run) and in the permalink a teacher copies.

/** `search` with `key` set to `value` (null: removed). */
export function withView(search, key, value) {
  const q = new URLSearchParams(search);
  if (value === null) q.delete(key); else q.set(key, value);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Sets `key` of the address and of the permalink (#permalink) to `value` (null: removes it). */
export function setView(key, value) {
  history.replaceState(history.state, '', `${location.pathname}${withView(location.search, key, value)}${location.hash}`);
  const link = document.getElementById('permalink');
  if (link?.getAttribute('href')) {
    const u = new URL(link.href);
    link.href = `${u.pathname}${withView(u.search, key, value)}`;
  }
}
