// Module Web Worker: the float64 reference of a run (www/chain.js), off the page's
// main thread. One job at a time; a job can be cancelled between slices of rows.
//   in:  { type: 'run', id, job }  |  { type: 'cancel', id }
//   out: { type: 'progress', id, fraction } | { type: 'pass', id, index, data }
//        { type: 'done', id, result, ms } | { type: 'cancelled', id } | { type: 'error', id, message }
import { computeChain } from './chain.js';

let cancelledId = null;

// A zero-delay yield that still lets queued messages (a 'cancel') in first.
const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()?.();
const pause = () => new Promise((resolve) => { waiting.push(resolve); channel.port2.postMessage(0); });

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.type === 'cancel') { cancelledId = msg.id; return; }
  if (msg.type !== 'run') return;
  const { id, job } = msg;
  let lastProgress = 0;
  try {
    const out = await computeChain(job, {
      pause,
      cancelled: () => cancelledId === id,
      progress: (fraction) => {
        const now = performance.now();
        if (fraction < 1 && now - lastProgress < 50) return;
        lastProgress = now;
        self.postMessage({ type: 'progress', id, fraction });
      },
      pass: (index, data) => {
        const copy = data.slice();
        self.postMessage({ type: 'pass', id, index, data: copy }, [copy.buffer]);
      },
    });
    if (out.cancelled) { self.postMessage({ type: 'cancelled', id }); return; }
    const result = out.result.slice();
    self.postMessage({ type: 'done', id, result, ms: out.ms }, [result.buffer]);
  } catch (err) {
    self.postMessage({ type: 'error', id, message: String(err?.message || err) });
  }
};
