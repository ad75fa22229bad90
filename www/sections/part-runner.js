// The Run button of a section's part (linear systems, batched problems, block-sparse
// products), in one place: read the fields, put them in the address, show running /
// done / error, one run at a time, and on Back / Forward take down results that were
// computed for other fields.
import { backendWords, disableWhileBusy, nextFrame, stoppedText } from './common.js';
import { el } from '../ui/format.js';
import { partStatus } from './partitioned-ui.js';
import { t } from '../i18n/index.js';

const STALE = () => t('sec.stale');
const AGAIN = () => t('sec.again');

/**
 * A part's runner. `read()` → { state } (the fields, keyed by their URL parameters)
 * or { bad: [why, …] }; `work(state, progress, stop)` fills `output` and returns the
 * status text, or { state, text } (`progress(text)` updates the running line);
 * `buttons` are disabled while it runs; `onError(record)` receives { status: 'error',
 * error: { code, message } } for the page tests. `keys`: the fields the results depend
 * on (default: all of them); `lock`: partLock() shared by parts that must not run at
 * once (default: this part's own); `name`: what another part's status calls this one
 * while it waits for it. `stop`: { button, text() } for a long run: the button is
 * enabled while the work runs, `stop.asked` tells the work it was pressed, and the
 * status says `text()` (what finishes first) until the work stops.
 */
export function partRunner(ctx, part, statusId, initial, { read, work, output, buttons, onError, keys = null, lock = partLock(), name = 'the other part', stop = null }) {
  const status = partStatus(part, statusId, initial);
  // Stop takes effect where the work next looks: say so at once, and keep the button
  // (and a keyboard's focus) until then, as the measurement's Stop does (compute.js).
  const asking = { asked: false };
  stop?.button.addEventListener('click', () => {
    if (asking.asked || stop.button.disabled) return;
    asking.asked = true;
    stop.button.setAttribute('aria-disabled', 'true');
    status.set('running', stop.text());
  });
  // The fields of the run whose results are shown.
  let shown = null;
  // This part's run is going (or waiting for the lock); Back / Forward meanwhile is
  // followed when it has shown its results.
  let running = false;
  let pending = null;
  const showing = (state) => shown && (keys || Object.keys(shown)).every((k) => state[k] === shown[k]);
  /**
   * The fields now say `state` (Back / Forward): results of other fields go, and when
   * this part ran with them in that history entry (state.ran), it runs again.
   */
  const follow = (state) => {
    if (running) {
      pending = state;
      return;
    }
    if (showing(state)) return;
    if (state.ran?.includes(part.id)) {
      shown = null;
      output.replaceChildren();
      status.set('idle', AGAIN());
      // Run when its turn comes, if Back / Forward has not moved on meanwhile.
      ctx.url.replay(() => {
        const now = ctx.url.state();
        if (now.ran.includes(part.id) && !showing(now)) return run({ replay: true });
        return null;
      });
      return;
    }
    if (!shown) return;
    shown = null;
    output.replaceChildren();
    status.set('idle', STALE());
  };
  /**
   * `how.replay`: no visitor's new Run but the address's own fields (Back / Forward, a
   * link's load), so no new history entry; a click passes its event.
   */
  const run = async (how) => {
    if (running || !ctx.gpu) return;
    // The previous run's results go first: under a "Not run" or "Stopped" they would
    // read as this run's.
    output.replaceChildren();
    shown = null;
    const r = read();
    if (r.bad) {
      status.set('error', t('status.notRun', { problems: r.bad.join('; ') }));
      return;
    }
    running = true;
    pending = null;
    const fromButton = buttons.includes(document.activeElement);
    const release = disableWhileBusy(buttons);
    // Another part of the section holds the GPU: this click waits its turn, so that
    // neither part's times hold the other's work.
    while (lock.busy) {
      status.set('running', t('sec.waiting', { owner: lock.owner }));
      await lock.turn;
    }
    // Buttons shared with that part came back on when it finished.
    for (const b of buttons) b.disabled = true;
    const done = lock.take(name);
    // The fields go into the address (config.js SECTION_PARAMS): a link reproduces the run.
    ctx.url.set(r.state, { run: part.id, replay: how?.replay === true });
    status.set('running', t('sec.runningOn', { backend: backendWords(ctx.gpu) }));
    if (stop) {
      asking.asked = false;
      stop.button.disabled = false;
      // Run is disabled under the keyboard's focus: Stop is what it can press now.
      const now = document.activeElement;
      if (fromButton && (!now || now === document.body || now.disabled)) stop.button.focus();
    }
    try {
      await nextFrame();
      const out = await work(r.state, (text) => status.set('running', text), asking);
      const { state, text } = typeof out === 'string' ? { state: 'done', text: out } : out;
      status.set(state, text);
      shown = r.state;
    } catch (err) {
      const d = ctx.describeError(err);
      status.set('error', stoppedText(d));
      onError({ status: 'error', error: { code: d.code, message: d.message } });
    } finally {
      running = false;
      if (stop) {
        stop.button.disabled = true;
        stop.button.removeAttribute('aria-disabled');
      }
      release(); // after Stop is disabled: a focus it held goes back to Run
      done();
      if (pending) follow(pending);
    }
  };
  const runner = { status, get busy() { return lock.busy; }, follow, run };
  runOnEnter(part, () => run());
  return runner;
}

/**
 * One GPU run at a time among the parts that share it: `take(owner)` while it is free
 * returns the function that frees it; `turn` resolves when it is freed, `owner` names
 * the part that holds it.
 */
export function partLock() {
  const lock = {
    busy: false, owner: '', turn: Promise.resolve(),
    take(owner) {
      let free;
      Object.assign(lock, { busy: true, owner, turn: new Promise((r) => { free = r; }) });
      return () => { lock.busy = false; free(); };
    },
  };
  return lock;
}

/**
 * Enter in one of `part`'s number or text fields does what its Run button does, as Enter
 * in the main form runs the demo (a form's implicit submission: these fields are in none).
 */
export function runOnEnter(part, run) {
  part.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Enter' || ev.isComposing || ev.defaultPrevented || !ev.target.matches('input[type=number], input[type=text]')) return;
    ev.preventDefault();
    run();
  });
}

/**
 * A part's fields as a group named by the part's heading (`headingId`): several parts
 * have an n, a seed or a batch field, which a screen reader tells apart by the group it
 * enters. Nothing changes on screen.
 */
export const fieldGroup = (headingId, ...fields) =>
  el('div', { class: 'part-controls', role: 'group', 'aria-labelledby': headingId }, ...fields);

/**
 * What a section keeps of a part: its element, its run, and `set(state)` for Back /
 * Forward, which puts the address's values into the part's fields (`fields`: keyed by
 * their URL parameters, each with its `input`) and lets the runner follow them.
 */
export const partHandle = (part, runner, fields) => ({
  element: part,
  run: runner.run,
  set(s) {
    for (const [k, x] of Object.entries(fields)) x.input.value = String(s[k]);
    runner.follow(s);
  },
});
