// What every bench's parameter reader shares (www/bench/*-params.js, the devices
// report): the query, its problems, the profile that sets the defaults, and readers
// of numbers and lists that note a value that does not parse instead of running the
// defaults silently. Plain data in, plain data out: node imports it too.

/**
 * A reader of the query `search`. With `profiles` ({ name: defaults }), `profile`
 * names the chosen one (default swiftshader) and `base` holds its defaults.
 */
export function queryReader(search, profiles = null) {
  const q = new URLSearchParams(search);
  const problems = [];
  const profile = q.get('profile') || 'swiftshader';
  if (profiles && !profiles[profile]) problems.push(`profile=${profile}: expected ${Object.keys(profiles).join(' or ')}`);
  const base = profiles ? profiles[profile] || profiles.swiftshader : null;
  /** Number `k` (default `d`): within [min, max], whole where asked; 'Infinity' allowed. */
  const num = (k, d, { min = -Infinity, max = Infinity, whole = false } = {}) => {
    if (!q.has(k) || q.get(k).trim() === '') return d;
    const raw = q.get(k).trim(), v = raw === 'Infinity' ? Infinity : Number(raw);
    if (Number.isNaN(v) || (whole && !Number.isInteger(v)) || v < min || v > max) {
      problems.push(`${k}=${raw}: expected ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}`);
      return d;
    }
    return v;
  };
  /** Comma-separated list `k` (default `d`); `check(item)` gives why an item is wrong, or null. */
  const list = (k, d, check) => {
    if (!q.has(k)) return d;
    const items = q.get(k).split(',').map((s) => s.trim()).filter(Boolean);
    for (const s of items) { const why = check(s); if (why) problems.push(`${k}: "${s}" ${why}`); }
    return items;
  };
  return { q, problems, profile, base, num, list };
}

/** A list item check: a whole number from lo to hi. */
export const whole = (lo, hi) => (s) => (Number.isInteger(Number(s)) && Number(s) >= lo && Number(s) <= hi ? null : `is not a whole number from ${lo} to ${hi}`);

/** A list item check: one of `names`. */
export const oneOf = (names) => (s) => (names.includes(s) ? null : names.length === 2 ? `is neither ${names[0]} nor ${names[1]}` : `is none of ${names.join(', ')}`);
