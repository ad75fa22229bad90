// The GLSL source of a kernel, as the library compiles it, with its key lines
// annotated. Annotations are found by markers in the code (not by line numbers),
// so they follow the GLSL files as they change; a kernel the page does not know
// still gets the generic ones.
import { el } from './format.js';

// Each rule: the first code line (comments stripped) matching `re` gets `note`.
const NAIVE = [
  { re: /void main\(\)/, note: 'main() runs once per fragment. The viewport has the output\'s size, so the full-screen quad makes exactly one fragment per element R[i][j], and the GPU runs many of them at once.' },
  { re: /floor\(.*\.s\)/, note: 'j from the texture coordinate s: s runs from 0 to 1 across the output and the centre of column j sits at s = (j + ½)/cols, so floor(cols · s) = j.' },
  { re: /floor\(.*\.t\)/, note: 'i from t, the same way down the rows: this fragment owns R[i][j].' },
  { re: /for \(int k/, note: 'The loop over k: R[i][j] = Σ_k A[i][k]·B[k][j]. The bound is a uniform, which GLSL ES 3.00 (WebGL2) allows; GLSL ES 1.00 needed a constant, hence one shader per size or a constant bound with an early break.' },
  { re: /texelFetch\(u_a/, note: 'A[i][k]: texelFetch reads one texel at integer coordinates (x = k, y = i), with no filtering and no rounding of the position.' },
  { re: /texelFetch\(u_b/, note: 'B[k][j]: texel (x = j, y = k). When squaring, A and B are the same texture.' },
  { re: /sr_fma\(/, note: 'One multiply-add in float32: every step rounds to a 24-bit significand. This is where the GPU\'s answer drifts from the double one.' },
  { re: /o_value =/, note: 'The fragment\'s output goes to texel (j, i) of the texture attached to the framebuffer (render-to-texture). The next pass reads that texture as its input.' },
];

const PACKED = [
  { re: /void main\(\)/, note: 'main() runs once per fragment; here one fragment owns one RGBA texel = four neighbouring entries R[i][4jb … 4jb+3], so there are a quarter as many fragments.' },
  { re: /gl_FragCoord/, note: 'The fragment\'s position: gl_FragCoord.xy is the centre of its pixel, (x + ½, y + ½). Truncated to integers it is (jb, i): which texel of R this fragment writes.' },
  { re: /for \(int kb/, note: 'The loop over k, four values of k per iteration (one texel of A\'s row holds four).' },
  { re: /texelFetch\(u_a/, note: 'One fetch brings A[i][4kb … 4kb+3].' },
  { re: /texelFetch\(u_b/, note: 'Row k of B, four columns at once: B[k][4jb … 4jb+3].' },
  { re: /sr_fma\(acc/, note: 'vec4 multiply-add: four outputs updated by one instruction, each rounded to float32.' },
  { re: /o_value =/, note: 'Writes the four results as one texel of the output texture (render-to-texture); padding columns get zero.' },
];

const BLOCKED = [
  { re: /layout\(location = 0\) out/, note: 'Multiple render targets: a fragment writes one texel into each of PLANES textures at once, so it computes a block of PLANES rows × 4 columns.' },
  { re: /#define A\(r, x\)/, note: 'Reads a texel of A with texture() at the texel\'s centre: with NEAREST filtering it is exactly the texel texelFetch would give, and faster on some GPUs.' },
  { re: /#define ROW\(/, note: 'Four k values from one A texel, each times a row of four B values: 16 multiply-adds per fetch of A.' },
  { re: /void main\(\)/, note: 'main() runs once per fragment, one fragment per block of PLANES × 4 entries of R.' },
  { re: /gl_FragCoord/, note: 'The fragment\'s position (jb, ib) picks its block: rows PLANES·ib … and columns 4·jb ….' },
  { re: /for \(; s/, note: 'The loop over k, PLANES values of k per STEP and two STEPs per iteration (less loop overhead).' },
  { re: /o_0 =/, note: 'The results leave through the render targets: each output texel holds four entries of one row.' },
];

const GENERIC = [
  { re: /void main\(\)/, note: 'main() runs once per fragment: one per output texel.' },
  { re: /gl_FragCoord|floor\(/, note: 'Which output this fragment computes, from its position.' },
  { re: /for \(/, note: 'The loop over k.' },
  { re: /texelFetch|texture\(/, note: 'Reads input texels.' },
];

const RULES = { naive: NAIVE, packed: PACKED, blocked4: BLOCKED, blocked8: BLOCKED };

/** Finds the annotated lines: [{ line (0-based), note }], in source order. */
export function annotate(kernel, source) {
  const lines = source.split('\n');
  const code = lines.map((l) => l.replace(/\/\/.*$/, ''));
  const found = [];
  const used = new Set();
  for (const rule of RULES[kernel] || GENERIC) {
    const line = code.findIndex((l, idx) => !used.has(idx) && rule.re.test(l));
    if (line >= 0) { used.add(line); found.push({ line, note: rule.note }); }
  }
  return found.sort((a, b) => a.line - b.line);
}

/** Renders `source` with line numbers and numbered badges on the annotated lines. */
export function renderSource(kernel, source) {
  const lines = source.replace(/\s+$/, '').split('\n');
  const notes = annotate(kernel, source);
  const byLine = new Map(notes.map((n, idx) => [n.line, idx + 1]));
  const code = el('code');
  lines.forEach((text, idx) => {
    const mark = byLine.get(idx);
    const isComment = /^\s*\/\//.test(text);
    const row = el('span', { class: `src-line${mark ? ' hl' : ''}${isComment ? ' comment' : ''}`, id: mark ? `src-note-line-${mark}` : null },
      el('span', { class: 'ln', 'aria-hidden': 'true' }, String(idx + 1).padStart(3)),
      // The notes list below names each line; read inside the code, the badge's
      // number would only interrupt it.
      mark ? el('span', { class: 'badge', 'aria-hidden': 'true' }, String(mark)) : el('span', { class: 'badge empty', 'aria-hidden': 'true' }),
      text, '\n');
    code.append(row);
  });
  const list = el('ol', { class: 'src-notes' },
    notes.map((n, idx) => el('li', {}, el('a', { class: 'where', href: `#src-note-line-${idx + 1}` }, `line ${n.line + 1}`), ': ', n.note)));
  return { code: el('pre', { class: 'src', tabindex: '0', 'aria-label': `GLSL source of the ${kernel} kernel` }, code), notes: list, count: notes.length };
}
