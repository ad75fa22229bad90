// Parameters of the LU bench (www/bench-lu.html), read from a URL query: used by the
// page and, to refuse a bad command line before a browser starts, by
// scripts/bench-lu.mjs. Plain data in, plain data out: node imports it too.
//
// Two profiles set the defaults: `profile=swiftshader` (the CI machine's software
// adapters, 2 cores: n up to 512) and `profile=gpu` (a real GPU: the H100 through
// gpu-browser, n up to 4096).

const PROFILES = {
  swiftshader: { sizes: [16, 32, 64, 128, 256, 512], capS: 20, deadlineS: Infinity },
  gpu: { sizes: [16, 32, 64, 128, 256, 512, 1024, 2048, 4096], capS: 20, deadlineS: Infinity },
};

export function readLuParams(search) {
  const q = new URLSearchParams(search);
  const problems = [];
  const profileName = q.get('profile') || 'swiftshader';
  if (!PROFILES[profileName]) problems.push(`profile=${profileName}: expected ${Object.keys(PROFILES).join(' or ')}`);
  const base = PROFILES[profileName] || PROFILES.swiftshader;
  const num = (k, d, { min = -Infinity, max = Infinity, whole = false } = {}) => {
    if (!q.has(k) || q.get(k).trim() === '') return d;
    const raw = q.get(k).trim(), v = raw === 'Infinity' ? Infinity : Number(raw);
    if (Number.isNaN(v) || (whole && !Number.isInteger(v)) || v < min || v > max) {
      problems.push(`${k}=${raw}: expected ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}`);
      return d;
    }
    return v;
  };
  const list = (k, d, check) => {
    if (!q.has(k)) return d;
    const items = q.get(k).split(',').map((s) => s.trim()).filter(Boolean);
    for (const s of items) { const why = check(s); if (why) problems.push(`${k}: "${s}" ${why}`); }
    return items;
  };
  return {
    profile: profileName,
    backends: list('backends', ['webgl', 'webgpu'], (s) => (['webgl', 'webgpu'].includes(s) ? null : 'is neither webgl nor webgpu')),
    sizes: list('sizes', base.sizes, (s) => (Number.isInteger(Number(s)) && Number(s) >= 1 && Number(s) <= 8192 ? null : 'is not a whole number from 1 to 8192')).map(Number),
    repeats: num('repeats', 3, { min: 1, max: 100, whole: true }),     // timed calls after a warm-up (median)
    capS: num('cap', base.capS, { min: 0 }),                           // a warm-up longer than this: no repeats, and no larger n
    deadlineS: num('deadline', base.deadlineS, { min: 0 }),            // no new measurement after this
    watchdogS: num('watchdog', 300, { min: 1 }),                       // a call with no answer after this: error, backend dropped
    verifyMaxN: num('verifyMaxN', 1024, { min: 0, whole: true }),      // ‖PA − LU‖/‖A‖ in float64 up to this n
    seed: num('seed', 1, { min: 0, max: 2 ** 32 - 1, whole: true }),
    post: q.get('post') === '1',
    label: q.get('label') || null,
    browserFlags: (q.get('browserFlags') || '').split(',').filter(Boolean),
    autostart: q.has('post') || q.has('run'),
    problems,
  };
}
