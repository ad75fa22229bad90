// The page's side of the float64 reference worker (www/worker-reference.js). The
// worker is started when the page loads and kept, so a later run needs no network
// (the page works offline once loaded).

export class ReferenceClient {
  constructor() {
    this.worker = new Worker(new URL('./worker-reference.js', import.meta.url), { type: 'module' });
    this.nextId = 1;
    this.jobs = new Map();
    this.worker.onmessage = (e) => this.#receive(e.data);
    this.worker.onerror = (e) => {
      for (const job of this.jobs.values()) job.reject(new Error(`reference worker failed: ${e.message || 'could not start'}`));
      this.jobs.clear();
    };
  }

  /**
   * Runs `job` ({ op, n, a, b, p, labels, keepPasses }); resolves to { result, ms } or
   * to { cancelled: true }. `onProgress(fraction)`, `onPass(index, Float64Array)`.
   */
  run(job, { onProgress, onPass } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.jobs.set(id, { resolve, reject, onProgress, onPass });
      this.worker.postMessage({ type: 'run', id, job });
      this.current = id;
    });
  }

  /** Asks the running job to stop; its promise resolves to { cancelled: true }. */
  cancel() {
    if (this.current && this.jobs.has(this.current)) this.worker.postMessage({ type: 'cancel', id: this.current });
  }

  #receive(msg) {
    const job = this.jobs.get(msg.id);
    if (!job) return;
    switch (msg.type) {
      case 'progress': job.onProgress?.(msg.fraction); break;
      case 'pass': job.onPass?.(msg.index, msg.data); break;
      case 'done': this.jobs.delete(msg.id); job.resolve({ result: msg.result, ms: msg.ms }); break;
      case 'cancelled': this.jobs.delete(msg.id); job.resolve({ cancelled: true }); break;
      case 'error': this.jobs.delete(msg.id); job.reject(new Error(msg.message)); break;
      default: break;
    }
  }
}
