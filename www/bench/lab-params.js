// Parameters of the kernel lab's bench (www/bench/index.html?suite=lab), read from a URL
// query: used by the page and, to refuse a bad command line before a browser starts, by
// scripts/bench-lab.mjs. Plain data in, plain data out: node imports it too.

import { queryReader } from './query.js';

export function readLabParams(search) {
  const { q, problems, num, list } = queryReader(search);
  return {
    // Exercise ids (www/lab/exercises.js); all that have a reference solution when absent.
    exercises: list('exercises', null, (s) => (/^[a-z0-9]+$/.test(s) ? null : 'is not an exercise id')),
    repeats: num('repeats', 3, { min: 1, max: 20, whole: true }),      // checks of each solution (median of their times)
    watchdogS: num('watchdog', 300, { min: 1 }),                       // a check with no answer after this: error
    post: q.get('post') === '1',
    label: q.get('label') || null,
    browserFlags: (q.get('browserFlags') || '').split(',').filter(Boolean),
    autostart: q.has('post') || q.has('run'),
    problems,
  };
}
