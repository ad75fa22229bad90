// A learner's progress, per exercise, in localStorage: passed, checks, and the best
// timing (ms, GFLOP/s, ratio to the library's kernel); exported as JSON and CSV for
// a teacher.

const KEY = 'gpgpu-matrix-lab-progress';

export function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}

function save(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage full or disabled (a private window): progress lives for this visit only.
  }
}

/** Records a check's result (labResult); returns the exercise's entry. */
export function record(result) {
  const all = load();
  const e = all[result.exercise] || { passed: false, checks: 0, bestMs: null, bestGflops: null, bestRatio: null };
  e.checks += 1;
  e.passed = e.passed || result.verdict === 'pass';
  e.lastVerdict = result.verdict;
  e.lastChecked = new Date().toISOString();
  const t = result.timing;
  if (t && (e.bestMs === null || t.ms < e.bestMs)) {
    e.bestMs = t.ms;
    e.bestGflops = t.gflops;
    e.bestRatio = t.gflops / t.reference.gflops;
    e.referenceKernel = t.reference.kernel;
    e.bestClock = t.clock; // 'gpu' or 'wall': a wall time is shown no finer than the clock's step
  }
  all[result.exercise] = e;
  save(all);
  return e;
}

export function toJson(all = load()) {
  return JSON.stringify({ format: 'gpgpu-matrix-lab-progress', version: 1, exercises: all }, null, 2);
}

const COLUMNS = ['exercise', 'passed', 'checks', 'best_ms', 'best_gflops', 'best_ratio', 'reference_kernel', 'last_checked'];

export function toCsv(all = load(), ids = Object.keys(all)) {
  const rows = ids.filter((id) => all[id]).map((id) => {
    const e = all[id];
    return [id, e.passed, e.checks, e.bestMs ?? '', e.bestGflops ?? '', e.bestRatio ?? '',
      e.referenceKernel ?? '', e.lastChecked ?? ''].join(',');
  });
  return [COLUMNS.join(','), ...rows].join('\n') + '\n';
}
