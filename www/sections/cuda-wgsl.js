// The chapter's CUDA shared-memory kernel beside wgsl/matmul/2_tiled16.wgsl, line for
// line. The CUDA lines are the ones the WGSL files quote in their header comments
// (matmul/2_tiled16.wgsl: the tiled loop; matmul/1_global.wgsl: the kernel's signature
// and its first lines, which the tiled listing leaves out); each is paired with
// the WGSL lines that do its work, found by markers in the code (not by line
// numbers), so the pairing follows the files as they change. If a marker is not
// found, the two listings are shown side by side unaligned, and say so.
import { el } from '../ui/format.js';
import { t } from '../i18n/index.js';

/** The code lines a kernel file quotes in its header comment: `//   ` + code, indentation kept. */
export function quotedListing(source) {
  const out = [];
  for (const line of source.split('\n')) {
    if (!line.startsWith('//')) break; // the header comment ends at the first code line
    const m = /^\/\/ {3}(.*\S.*)$/.exec(line);
    if (m) out.push(m[1].replace(/\s+$/, ''));
  }
  return out;
}

// Each segment: CUDA lines ([listing, marker, which match]) and the WGSL line that
// starts its part of the file; the WGSL part runs to the next segment's start.
const SEGMENTS = [
  {
    cuda: [['global', /^__global__/]],
    wgsl: /^struct Dims/,
    note: 'The kernel\'s arguments become bindings. A, B and C are storage buffers (plain arrays of f32, row-major); n travels in a uniform, as rows, inner and cols, so any shape works.',
  },
  {
    cuda: [['tiled', /^__shared__/]],
    wgsl: /^const TILE/,
    note: '__shared__ is var<workgroup>: memory on the chip, shared by the invocations of one workgroup and gone when it ends. It is declared at module scope in WGSL.',
  },
  {
    cuda: [],
    launch: 'matmul<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n)',
    wgsl: /^@compute/,
    note: 'CUDA sets the block size when it launches the kernel; WGSL writes it on the entry point: @workgroup_size(16, 16). The library dispatches ⌈cols/16⌉ × ⌈rows/16⌉ workgroups: the grid.',
  },
  {
    cuda: [['global', /^int row =/], ['global', /^int col =/]],
    wgsl: /let tx = local\.x/,
    note: 'threadIdx is local_invocation_id, blockIdx is workgroup_id, blockDim is the workgroup size (TILE).',
  },
  {
    cuda: [['global', /^float sum = 0/]],
    wgsl: /var sum = sr_zero\(\)/,
    note: 'The semiring\'s zero: 0 for (+, ×), so the same kernel also runs the boolean and (min, +) products of the application sections.',
  },
  {
    cuda: [['tiled', /^for \(int t/]],
    wgsl: /^\s*\/\/ No early return|let tiles =/,
    note: 'The listing assumes n is a multiple of 16; the WGSL rounds the number of tiles up, and no invocation returns early, even past the edge of C.',
  },
  {
    cuda: [['tiled', /^As\[ty\]\[tx\] =/], ['tiled', /^Bs\[ty\]\[tx\] =/]],
    wgsl: /let ka =/,
    note: 'Each invocation copies one element of A\'s tile and one of B\'s: the 256 invocations fill both tiles together. Past the edge of a matrix it stores the zero, so the sum is unchanged.',
  },
  {
    cuda: [['tiled', /^__syncthreads\(\)/, 0]],
    wgsl: /workgroupBarrier\(\)/,
    note: '__syncthreads() is workgroupBarrier(): nobody reads the tiles before everybody has written them. Every invocation must reach it, which is why no invocation returns early.',
  },
  {
    cuda: [['tiled', /^for \(int k/]],
    wgsl: /for \(var k = 0u; k < TILE/,
    note: '16 multiply-adds out of workgroup memory for every 2 values read from global memory.',
  },
  {
    cuda: [['tiled', /^__syncthreads\(\)/, 1]],
    wgsl: /workgroupBarrier\(\)/,
    note: 'Nobody overwrites the tiles while another invocation still reads them.',
  },
  {
    cuda: [['tiled', /^}$/]],
    wgsl: /^ {4}}$/,
    note: '',
  },
  {
    cuda: [['tiled', /^C\[/]],
    wgsl: /if \(row < dims\.rows && col < dims\.cols\)/,
    note: 'Only invocations inside C write.',
  },
  {
    cuda: [['global', /^}$/]],
    wgsl: /^}$/,
    note: '',
  },
];

/** Finds the `nth` line of `lines` matching `re` after index `from`; -1 if none. */
function findLine(lines, re, from, nth = 0) {
  let seen = 0;
  for (let i = from; i < lines.length; i++) {
    if (re.test(lines[i])) {
      if (seen === nth) return i;
      seen++;
    }
  }
  return -1;
}

/**
 * The segments paired: [{ cuda: [{ text, first }], wgsl: [lines], note, launch }],
 * or null when a marker is missing. `first` marks lines from the first kernel's listing.
 */
export function pair(tiledSource, globalSource) {
  const listings = { tiled: quotedListing(tiledSource), global: quotedListing(globalSource) };
  if (!listings.tiled.length || !listings.global.length) return null;
  // The WGSL code after the header comment.
  const all = tiledSource.split('\n');
  const body = all.slice(all.findIndex((l) => !l.startsWith('//')));
  const starts = [];
  let from = 0;
  const out = [];
  for (const seg of SEGMENTS) {
    const start = findLine(body, seg.wgsl, from);
    if (start < 0) return null;
    starts.push(start);
    from = start + 1;
    const cuda = [];
    for (const [which, re, nth = 0] of seg.cuda) {
      const list = listings[which];
      const at = list.map((l, i) => (re.test(l.trim()) ? i : -1)).filter((i) => i >= 0)[nth] ?? -1;
      if (at < 0) return null;
      // The tiled listing is a function body: indented as the global one's body is.
      const text = which === 'tiled' ? `  ${list[at]}` : list[at];
      cuda.push({ text, first: which === 'global' });
    }
    out.push({ cuda, note: seg.note, launch: seg.launch || null });
  }
  starts.push(body.length);
  out.forEach((seg, i) => {
    const lines = body.slice(starts[i], starts[i + 1]);
    while (lines.length && lines[lines.length - 1].trim() === '') lines.pop();
    seg.wgsl = lines;
  });
  return out;
}

/** The side-by-side table (or two plain listings when the pairing fails). */
export function sideBySide(tiledSource, globalSource) {
  const segments = pair(tiledSource, globalSource);
  if (!segments) {
    return el('div', { class: 'cuda-wgsl unaligned' },
      el('p', { class: 'help' }, 'The two listings, not aligned (the page could not find its markers in the shader files).'),
      el('div', { class: 'two-col' },
        el('pre', { class: 'src plain', tabindex: '0', 'aria-label': 'CUDA listing' }, quotedListing(tiledSource).join('\n')),
        el('pre', { class: 'src plain', tabindex: '0', 'aria-label': 'WGSL kernel' }, tiledSource)));
  }
  // Two rows per segment: the code side by side, then what changes (across both).
  const rows = segments.flatMap((seg, i) => [
    el('tr', { class: seg.note ? 'code has-why' : 'code', 'data-segment': String(i + 1) },
      el('td', { class: 'cuda' }, seg.cuda.length
        ? el('pre', {}, seg.cuda.map((c) => el('span', { class: c.first ? 'line first' : 'line' }, c.text, c.first ? el('sup', { title: 'from the first kernel' }, '¹') : null, '\n')))
        : el('pre', { class: 'launch' }, el('span', { class: 'line' }, `// at launch: ${seg.launch}`, el('sup', { title: 'in neither listing' }, '²'), '\n'))),
      el('td', { class: 'wgsl' }, el('pre', {}, seg.wgsl.map((l) => el('span', { class: /^\s*\/\//.test(l) ? 'line comment' : 'line' }, l, '\n'))))),
    seg.note ? el('tr', { class: 'why' }, el('td', { colspan: '2' }, seg.note)) : null,
  ]).filter(Boolean);
  const title = 'The shared-memory kernel in CUDA (the chapter) and in WGSL (this library), line for line';
  return el('div', { class: 'cuda-wgsl' },
    // The title shown above the scroll box, wrapping at the screen's width: a caption
    // inside the box went as wide as the table and was cut off at 390 px. The caption
    // stays, unseen, for screen readers and the Copy buttons (named and headed by it).
    el('p', { class: 'table-title', 'aria-hidden': 'true' }, title),
    el('div', { class: 'scroll-x' }, el('table', { class: 'cuda-wgsl-table', id: 'cuda-wgsl' },
      el('caption', { class: 'visually-hidden' }, title),
      el('thead', {}, el('tr', {},
        el('th', { scope: 'col' }, t('sec.cuda.listing')),
        el('th', { scope: 'col' }, t('sec.cuda.wgsl')))),
      el('tbody', {}, rows))),
    el('p', { class: 'help' }, '¹ From the chapter\'s first kernel (one thread per element, quoted in wgsl/matmul/1_global.wgsl): the shared-memory listing gives only the loop. ² Not in either listing: how CUDA would launch it. The CUDA lines are the ones the WGSL file quotes in its header comment; the WGSL is the file as the library ships it.'));
}
