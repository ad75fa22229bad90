// Back / Forward for the panels' parts (partitioned matrices, many small problems, linear
// systems, sparse Jacobi, several devices), as for the demo: a part's Run is a history
// entry of its own, and every entry records which parts ran with its fields
// (history.state.ran, the parts' element ids). Back or Forward to an entry puts its
// fields back and runs those parts again, after the demo's run if that changed too, one
// after the other; the results of the other parts whose fields changed go.

/** The parts that ran with the fields of the current history entry. */
export const ranHere = () => (Array.isArray(history.state?.ran) ? history.state.ran : []);

/**
 * Writes the query string `search` into the address. `run`: the part whose Run this is,
 * recorded in the entry; a Run to other fields is a new entry (unless `replay`: the
 * entry's own fields run again, by Back / Forward or a link's load), everything else (a
 * step of Fox's algorithm) changes the entry in place.
 */
export function writeEntry(search, { run = null, replay = false } = {}) {
  const url = `${location.pathname}${search ? `?${search}` : ''}`;
  const differs = (search ? `?${search}` : '') !== location.search;
  const ran = ranHere();
  const state = { ...(history.state || {}), ran: run && !ran.includes(run) ? [...ran, run] : ran };
  if (run && !replay && differs) {
    // The other parts' results stay on screen, and their fields in the address: they ran here too.
    history.pushState(state, '', url);
  } else {
    history.replaceState(state, '', differs ? url : `${url}${location.hash}`);
  }
}

let queue = Promise.resolve();

/**
 * Queues `f` (a part's run again, for Back / Forward) after `before()` (the demo's run
 * that the same Back started) and after the replays queued earlier: one GPU run at a time.
 */
export function replay(before, f) {
  queue = queue.then(before).then(f).catch((err) => console.debug('gpgpu-matrix: replay', err));
  return queue;
}
