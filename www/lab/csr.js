// The csr exercise's check, in the page (no GPU, nothing for the library to run): the
// learner's three arrays of the chapter's 5×5 matrix against those derived from it,
// in the labResult shape — one case per array (1 × its length), firstWrong at the
// first index that differs (i = 0, j = index), exact. A line that cannot be read is a
// message at its line, as a compile error.

// The matrix of the chapter (source 2, section "Sparse Matrices").
export const MATRIX = [
  [2, 0, 0, 0, 0],
  [1, 1, 8, 0, 0],
  [0, 1, 5, 8, 0],
  [0, 0, 0, 8, 8],
  [0, 0, 0, 3, 5],
];
// What the chapter prints for rowplaces: wrong from its second entry on.
export const CHAPTER_ROW_OFFSETS = [0, 2, 4, 6, 9, 11];

export function derive(m = MATRIX) {
  const values = []; const columns = []; const rowOffsets = [0];
  for (const row of m) {
    row.forEach((v, j) => { if (v !== 0) { values.push(v); columns.push(j); } });
    rowOffsets.push(values.length);
  }
  return { values, columns, rowOffsets };
}

const NAMES = ['values', 'columns', 'rowOffsets'];

/** Reads `name: 1, 2, 3` lines (// comments and blank lines skipped). */
export function parse(text) {
  const arrays = {}; const messages = [];
  text.split('\n').forEach((line, n) => {
    const body = line.replace(/\/\/.*$/, '').trim();
    if (!body) return;
    const m = /^(\w+)\s*[:=]\s*\[?([^\]]*)\]?\s*;?$/.exec(body);
    if (!m || !NAMES.includes(m[1])) {
      messages.push({ line: n + 1, column: 1, message: `write one of ${NAMES.join(', ')} as \`name: 1, 2, 3\`` });
      return;
    }
    const items = m[2].split(/[\s,]+/).filter(Boolean);
    const nums = items.map(Number);
    const bad = items.findIndex((t, k) => !Number.isInteger(nums[k]));
    if (bad >= 0) messages.push({ line: n + 1, column: 1, message: `${m[1]}: '${items[bad]}' is not a whole number` });
    else arrays[m[1]] = nums;
  });
  for (const name of NAMES) {
    if (!arrays[name] && !messages.length) messages.push({ line: 0, column: 0, message: `${name} is missing: write \`${name}: …\`` });
  }
  return { arrays, messages };
}

/** Where a rowOffsets is wrong, in words (the chapter's own line named when it is that). */
function offsetsNote(got, want) {
  const k = got.findIndex((v, i) => v !== want[i]);
  if (k < 0) return got.length === want.length ? '' : `rowOffsets has ${want.length} entries (rows + 1), not ${got.length}.`;
  const chapter = got.length === CHAPTER_ROW_OFFSETS.length && got.every((v, i) => v === CHAPTER_ROW_OFFSETS[i]);
  const row = k - 1;
  return (chapter ? 'This is the chapter\u2019s printed rowplaces line, and it is wrong: ' : '')
    + `rowOffsets[${k}] should be ${want[k]}: row ${row} holds ${want[k] - want[k - 1]} nonzero${want[k] - want[k - 1] === 1 ? '' : 's'}, so row ${k} starts at ${want[k]}` + (k < want.length - 1 ? '' : ' (the last entry is the count of values)') + '.';
}

export function checkCsr(text) {
  const { arrays, messages } = parse(text);
  const result = { exercise: 'csr', verdict: 'fail', compile: { ok: !messages.length, messages }, cases: [], timing: null };
  if (messages.length) return result;
  const want = derive();
  for (const name of NAMES) {
    const got = arrays[name]; const w = want[name];
    const n = Math.max(got.length, w.length);
    let first = null; let maxAbs = 0;
    for (let j = 0; j < n; j++) {
      const g = j < got.length ? got[j] : NaN;
      const e = Math.abs(g - (w[j] ?? NaN));
      maxAbs = Number.isNaN(e) ? NaN : Math.max(maxAbs, e);
      if (!(e === 0) && !first) first = { i: 0, j, got: g, want: w[j] ?? NaN };
    }
    result.cases.push({ name, rows: 1, inner: 0, cols: w.length, maxAbsError: maxAbs, maxRelError: maxAbs, tolerance: 0, firstWrong: first, nondeterministic: false });
  }
  result.verdict = result.cases.every((c) => !c.firstWrong) ? 'pass' : 'fail';
  result.note = result.cases[2].firstWrong ? offsetsNote(arrays.rowOffsets, want.rowOffsets) : '';
  return result;
}
