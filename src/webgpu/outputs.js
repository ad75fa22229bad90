// The arrays that WebGPU readbacks hand to the caller, made ahead of time in a Web
// Worker. A new ArrayBuffer's memory is mapped in page by page on its first write;
// on the H200 machine that ran at about 2.5 GB/s on the page's thread, 25 ms of a
// single product's 67 at n = 4096 (bench/NOTES.md, "A single product's waits").
// Here a worker makes each array and writes one byte of every page, then transfers
// it (no copy): the page's thread gets arrays whose memory is already there. The
// worker keeps two arrays of a size ready or on their way, so calls of one size
// after the first find one ready, back to back too; a size with none ready is made
// on the page's thread, as before.

const SOURCE = `
onmessage = (event) => {
  const bytes = event.data;
  const buffer = new ArrayBuffer(bytes);
  const u8 = new Uint8Array(buffer);
  for (let i = 0; i < bytes; i += 4096) u8[i] = 0;
  postMessage(buffer, [buffer]);
};
`;

// Arrays of a size ready or being made at once. With one, calls back to back took them
// faster than the worker made them, and the page made the rest on its own thread:
// 15.6 ms a call at n = 2048 on the H200, 9.7 with two (bench/NOTES.md).
const AHEAD = 2;

let url = null;
// Set when a worker could not be made or could not start (a Content-Security-Policy
// without blob: in worker-src): every OutputArrays of the page then makes arrays on
// the page's thread. Each new try was another CSP violation on the console (and in
// the site's CSP reports), after every trim(), new Gpgpu and replaced device.
let blocked = false;

export class OutputArrays {
  // `mostBytes`: the most that ready arrays may hold together (the oldest go first).
  constructor(mostBytes) {
    this.most = mostBytes;
    this.worker = null;
    this.failed = false;
    this.ready = []; // ArrayBuffers, oldest first
    this.asked = new Map(); // bytes → arrays the worker is making
  }

  // A new ArrayBuffer of `bytes` with its memory mapped in, or undefined where none
  // is ready; either way the worker makes the next ones of this size.
  take(bytes) {
    const i = this.ready.findIndex((b) => b.byteLength === bytes);
    const buffer = i >= 0 ? this.ready.splice(i, 1)[0] : undefined;
    while (this.ask(bytes));
    return buffer;
  }

  // Asks the worker for one more array of `bytes` if fewer than AHEAD are ready or
  // being made; whether it asked.
  ask(bytes) {
    const have = (this.asked.get(bytes) || 0) + this.ready.filter((b) => b.byteLength === bytes).length;
    if (blocked || this.failed || have >= AHEAD) return false;
    try {
      this.worker ??= this.spawn();
    } catch {
      // No workers here (none in this scope, or Trusted Types refusing the URL):
      // arrays are made on the page's thread.
      blocked = true;
      return false;
    }
    this.asked.set(bytes, (this.asked.get(bytes) || 0) + 1);
    this.worker.postMessage(bytes);
    return true;
  }

  spawn() {
    url ??= URL.createObjectURL(new Blob([SOURCE], { type: 'text/javascript' }));
    const w = new Worker(url);
    w.onmessage = (event) => {
      const buffer = event.data;
      this.asked.set(buffer.byteLength, this.asked.get(buffer.byteLength) - 1);
      this.ready.push(buffer);
      let held = this.ready.reduce((sum, b) => sum + b.byteLength, 0);
      while (held > this.most && this.ready.length) held -= this.ready.shift().byteLength;
    };
    // A worker that could not load (CSP) fires a plain Event; one whose script threw
    // (no memory for an array) an ErrorEvent, which ends this worker only.
    w.onerror = (e) => {
      e.preventDefault();
      if (typeof ErrorEvent !== 'function' || !(e instanceof ErrorEvent)) blocked = true;
      this.close();
      this.failed = true;
    };
    return w;
  }

  // Ends the worker and drops the ready arrays (trim, free, a replaced device).
  close() {
    this.worker?.terminate();
    this.worker = null;
    this.ready = [];
    this.asked.clear();
  }
}
