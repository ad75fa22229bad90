// The source of a kernel (a GLSL fragment shader or a WGSL compute shader), as the
// library compiles it, with its key lines annotated. Annotations are found by
// markers in the code (not by line numbers), so they follow the shader files as
// they change; a kernel the page does not know still gets the generic ones.
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

// WGSL compute shaders (wgsl/*.wgsl).
const GLOBAL = [
  { re: /var<storage, read> a/, note: 'A, B and C are storage buffers: plain arrays of f32 in row-major order, element (i, j) at i·cols + j, read and written by index. No texture, no texture coordinate, no filtering.' },
  { re: /@compute @workgroup_size/, note: 'A compute shader: no quad, no rasteriser. A pass dispatches a grid of workgroups of 16 × 16 invocations each (CUDA: a grid of blocks of 16 × 16 threads), enough to cover C; the GPU runs many at once.' },
  { re: /fn main\(/, note: 'main() runs once per invocation. global_invocation_id = workgroup_id · 16 + local_invocation_id: CUDA\'s blockIdx · blockDim + threadIdx.' },
  { re: /let row = id\.y/, note: 'i (and j below) straight from the invocation\'s id, as integers: this invocation owns C[i][j], as a fragment owned R[i][j].' },
  { re: /if \(row >= dims\.rows/, note: 'The grid is whole workgroups of 16 × 16, so it can overhang C: invocations past its edge stop here.' },
  { re: /for \(var k/, note: 'The loop over k: C[i][j] = Σ_k A[i][k]·B[k][j], the bound a uniform.' },
  { re: /sr_fma\(sum, a\[/, note: 'A[i][k] and B[k][j] read from global memory, one multiply-add in float32. Every invocation reads a whole row of A and column of B: 2n reads for n multiply-adds, so memory, not arithmetic, sets the speed.' },
  { re: /c\[row \* dims\.cols \+ col\] =/, note: 'The write: an invocation may write anywhere in a storage buffer (a fragment only its own pixel); this one writes C[i][j]. The next pass binds this buffer as its input.' },
];

const TILED = [
  { re: /const TILE/, note: 'The tile side: 16 × 16 = 256 invocations per workgroup, one per element of a tile of C.' },
  { re: /var<workgroup> a_tile/, note: 'var<workgroup>: memory shared by the invocations of one workgroup (CUDA\'s __shared__), on the chip and much faster than global memory: two 16 × 16 tiles, 2 KiB.' },
  { re: /@compute @workgroup_size\(TILE, TILE\)/, note: 'One workgroup per 16 × 16 tile of C.' },
  { re: /let row = group\.y/, note: 'i and j from workgroup_id (CUDA\'s blockIdx) and local_invocation_id (threadIdx).' },
  { re: /let tiles =/, note: 'k runs in slices of 16, rounded up (n need not be a multiple of 16). No invocation may return early: every one must reach every barrier.' },
  { re: /a_tile\[ty\]\[tx\] = va/, note: 'Each invocation copies one element of A\'s tile and one of B\'s from global memory (the zero past an edge): the 256 invocations fill both tiles together.' },
  { re: /workgroupBarrier\(\)/, note: 'workgroupBarrier(), CUDA\'s __syncthreads(): no invocation goes on until all 256 have stored their elements.' },
  { re: /sum = sr_fma\(sum, a_tile/, note: '16 multiply-adds out of workgroup memory. Each element read from global memory now serves 16 multiply-adds instead of one: 16 times less global-memory traffic than the global kernel.' },
  { re: /workgroupBarrier\(\)/, note: 'A second barrier: no invocation overwrites the tiles while another still reads them.' },
  { re: /c\[row \* dims\.cols \+ col\] =/, note: 'Only invocations inside C write their element.' },
];

// The register kernel's form for GPUs (wgsl/matmul/3_register.wgsl, written out; its k
// loop also by the engine).
const REGISTER = [
  { re: /override EDGES/, note: 'Fixed when the pipeline is made (the comment at the top says how): false when every tile lies inside the matrices (rows and columns of C multiples of 128, k of 16), and then the checking code below is compiled out (its mere presence cost 5%: registers set aside for a path no workgroup took).' },
  { re: /var<workgroup> a_tile/, note: 'Workgroup memory holds a 16-wide slice of A (128 rows, transposed: four rows at one k per vec4) and one of B (16 rows × 128 columns), as vec4s, indexed [k][vec4].' },
  { re: /struct Slice/, note: 'What one invocation brings from global memory for one slice: 4 vec4s of A (four rows, four values of k) and 4 of B.' },
  { re: /if \(full\) \{/, note: 'A workgroup whose tile lies wholly inside the matrices loads without checks; only the edge workgroups check (the whole workgroup takes the same branch).' },
  { re: /@compute @workgroup_size\(16, 8\)/, note: 'A workgroup of 16 × 8 = 128 invocations computes a 128 × 128 tile of C: each invocation a 16 × 8 block of it. Far fewer invocations than elements, each doing far more.' },
  { re: /var c0_0 = z/, note: 'c0_0 … c15_1: the invocation\'s 128 sums in 32 vec4 registers (the fastest memory there is) for the whole loop over k. Named one by one: with an array and loops the same kernel ran 20% slower.' },
  { re: /a_tile\[ka\]\[m4\] = vec4f/, note: 'Into workgroup memory: four rows of A at four values of k, transposed in registers into four vec4s of one k each, so every store is a whole vec4.' },
  { re: /workgroupBarrier\(\)/, note: 'The slice is in workgroup memory once every invocation has stored its part.' },
  { re: /next = fetch\(row0, col0, k0 \+ BK/, note: 'Prefetch: the next slice\'s loads from global memory are issued before this slice\'s arithmetic, which hides their latency.' },
  { re: /a0 = a_tile\[0\]\[ty\]/, note: 'Per k: 4 vec4s of A (16 rows) and 2 of B (8 columns) from workgroup memory into registers; those of the first k before the loop…' },
  { re: /\{ let k = 0u;|for \(var k = 0u; k < BK; k\+\+\)/, note: 'The loop over the slice\'s 16 k, which the engine writes out before compiling: 16 blocks, k = 0u … 15u, straight code (the listing folds blocks 1 … 15; the complete shader below has them all).' },
  { re: /let na0 = a_tile\[kn\]/, note: '… each k reads the next k\'s values before its own multiply-adds, so that workgroup memory\'s latency hides behind arithmetic. The driver\'s compiler keeps that order only in straight code: written out, 45,700 GFLOP/s at n = 4096 on the H100 (whole tiles); as a loop, 36,400; without the early reads, 40,600.' },
  { re: /c0_0 = sr_fma4\(c0_0/, note: 'The 4 + 2 vec4s feed 128 multiply-adds as 32 vec4 fused multiply-adds: 5.3 multiply-adds per value read from workgroup memory, against ½ for tiled16 (one per two values read).' },
  { re: /store_c\(/, note: 'Each invocation writes its 16 × 8 block of C (checked only at the edges).' },
];

// The same with 64 × 64 or 64 × 32 tiles, for small outputs (wgsl/matmul/3_register_64.wgsl).
const REGISTER_64 = [
  { re: /override TILE_N4/, note: 'The tile\'s width in vec4s, fixed when the pipeline is made (the comment at the top says which): 16, a 64 × 64 tile and 128 invocations, or on outputs of up to 1024 × 1024, 8: a 64 × 32 tile, 64 invocations, and twice as many workgroups again.' },
  { re: /override EDGES/, note: 'Fixed when the pipeline is made: false for 64 × 32 tiles that all lie inside the matrices, whose checking code is then compiled out (1.1–1.3× as fast on the H100); 64 × 64 tiles keep it true: without their checks they measured 10% slower.' },
  { re: /var<workgroup> a_tile/, note: 'Workgroup memory holds a 16-wide slice of A (64 rows, transposed) and one of B (16 rows × the tile\'s width), as vec4s.' },
  { re: /struct Slice/, note: 'What one invocation brings from global memory for one slice: up to 64 invocations 4 vec4s of A each, every one 2 vec4s of B.' },
  { re: /if \(full\) \{/, note: 'Unchecked loads for a tile wholly inside, checked ones at the edges (the whole workgroup takes the same branch).' },
  { re: /@compute @workgroup_size\(TILE_N4, 8\)/, note: 'A workgroup of TILE_N4 × 8 invocations computes a 64 × 64 (or 64 × 32) tile of C, each invocation 8 × 4 of it: four (or eight) times as many workgroups as the 128 × 128 form, so that a small product still has work for every core of the GPU.' },
  { re: /var c0 = z/, note: 'c0 … c7: the invocation\'s 32 sums in 8 vec4 registers for the whole loop over k.' },
  { re: /a_tile\[ka\]\[m4\] = vec4f/, note: 'Into workgroup memory: four rows of A at four values of k, transposed into four vec4s of one k each.' },
  { re: /workgroupBarrier\(\)/, note: 'The slice is in workgroup memory once every invocation has stored its part.' },
  { re: /next = fetch\(row0, col0, k0 \+ BK/, note: 'Prefetch: the next slice\'s loads are issued before this slice\'s arithmetic.' },
  { re: /let a0 = a_tile/, note: 'Per k: 2 vec4s of A (8 rows) and 1 of B (4 columns) from workgroup memory…' },
  { re: /c0 = sr_fma4\(c0/, note: '… feed 32 multiply-adds: 2.7 per value read from workgroup memory (the 128 × 128 form: 5.3), the price of the smaller tile.' },
  { re: /store_c\(/, note: 'Each invocation writes its 8 × 4 block of C (checked only at the edges).' },
];

// The double-buffered form for outputs of about 1024 × 1024 made of whole tiles
// (wgsl/matmul/3_register_double.wgsl).
const REGISTER_DOUBLE = [
  { re: /var<workgroup> a_tile/, note: 'Two slices of A in workgroup memory, [slice][k][vec4]: 2 × 16 × 32 vec4s = 16 KiB, with B\'s two slices 20 KiB. While the workgroup multiplies one slice, the next one goes into the other.' },
  { re: /struct Slice/, note: 'What one invocation brings from global memory for one slice: 4 vec4s of A (four rows, four values of k) and 1 of B.' },
  { re: /@compute @workgroup_size\(8, 16\)/, note: 'A workgroup of 8 × 16 = 128 invocations computes a 128 × 32 tile of C, each invocation 8 × 4 of it. At n = 1024 that is 256 workgroups, enough for every core of a large GPU (128 × 128 tiles make only 64).' },
  { re: /var c0 = z/, note: 'c0 … c7: the invocation\'s 32 sums in 8 vec4 registers for the whole loop over k.' },
  { re: /for \(var k0 = 0u; k0 < dims\.inner; k0 \+= 2u \* BK\)/, note: 'Two slices a turn, the body written once for each buffer, so that which buffer is read and which written are constants: with the buffer in a variable the same scheme ran 22% slower on the H100.' },
  { re: /next = fetch\(row0, col0, k0 \+ BK/, note: 'Prefetch: the next slice\'s loads from global memory are issued before this slice\'s arithmetic.' },
  { re: /a0 = a_tile\[0\]\[0\]\[ty\]/, note: 'Per k: 2 vec4s of A (8 rows) and 1 of B (4 columns) from buffer 0 feed 32 multiply-adds; those of the first k are read before the loop…' },
  { re: /\{ let k = 0u;|for \(var k = 0u; k < BK; k\+\+\)/, note: 'The loop over the slice\'s 16 k, which the engine writes out before compiling: 16 blocks, k = 0u … 15u, straight code (the listing folds blocks 1 … 15; the complete shader below has them all).' },
  { re: /let na0 = a_tile\[0\]\[kn\]/, note: '… and each k reads the next k\'s values before its own multiply-adds, so that workgroup memory\'s latency hides behind arithmetic (straight code keeps that order).' },
  { re: /a_tile\[1\]\[ka\]\[m4\] = vec4f/, note: 'Meanwhile the next slice goes into buffer 1, which nobody reads now: no barrier is needed before these stores.' },
  { re: /workgroupBarrier\(\)/, note: 'One barrier a slice (the single-buffered forms need two: one before a slice is read, one before it is overwritten). On the H200 at n = 1024 this form takes 0.063 ms against 0.073 for the 64 × 32 one.' },
  { re: /store_c\(row0 \+ ty \* 4u, col, c0, true\)/, note: 'Whole tiles only (the engine runs this file on no other shape): every store is inside C, unchecked.' },
];

// Its array form for shapes that are not multiples of 4 (wgsl/matmul/3_register_any.wgsl).
const REGISTER_ANY = [
  { re: /var<workgroup> a_tile/, note: 'Workgroup memory holds a BM × BK slice of A (transposed) and a BK × BN slice of B, as vec4s.' },
  { re: /@compute @workgroup_size\(WG_X, WG_Y\)/, note: 'A workgroup computes a BM × BN tile of C, and each of its invocations a TM × TN block of it.' },
  { re: /var acc: array<vec4f/, note: 'acc: the invocation\'s TM × TN sums, kept in registers for the whole loop over k.' },
  { re: /workgroupBarrier\(\)/, note: 'The slice is in workgroup memory once every invocation has stored its part.' },
  { re: /let k1 = k0 \+ BK/, note: 'Prefetch: the next slice\'s loads are issued before this slice\'s arithmetic.' },
  { re: /a_reg\[i\] = a_tile/, note: 'Per k, TM values of A and TN of B go from workgroup memory into registers…' },
  { re: /acc\[at\] = sr_fma4/, note: '… and feed TM·TN multiply-adds: (TM·TN)/(TM + TN) per value read from workgroup memory.' },
  { re: /store_c\(/, note: 'Each invocation writes its block of C (only the elements inside C).' },
];

// Its form for software adapters (wgsl/matmul/3_register_cpu.wgsl).
const REGISTER_CPU = [
  { re: /@compute @workgroup_size\(8, 8\)/, note: 'The register kernel\'s form for software adapters such as SwiftShader: no workgroup memory and no barriers, which on a CPU are ordinary memory and a halt of every lane.' },
  { re: /let j = id\.x \* 8u/, note: 'Each invocation computes an 8 × 8 block of C: rows i … i+7, columns j … j+7.' },
  { re: /let a_row0 = /, note: 'Rows and columns past the edge of C are clamped once, before the loop: nothing inside the loop checks or branches.' },
  { re: /var c00 = begun\(/, note: 'Sixteen vec4 accumulators: the block\'s 64 sums, kept in registers for the whole loop over k (starting from what the pass before left in C).' },
  { re: /for \(var k4? = dims\.k0/, note: 'The loop over k: 8 values of A and 8 of B read from global memory per k feed 64 multiply-adds (4 per value read; the global kernel does ½). It runs in passes of at most 32,768 k: Mesa\'s software Vulkan stops a shader\'s loops after 65,535 iterations, silently.' },
  { re: /c00 = sr_fma4\(/, note: 'vec4 fused multiply-adds: one instruction updates four sums.' },
  { re: /store\(i(?: \+ 0u)?, j, c00\)/, note: 'The 64 results written; those past the edge of C are left out.' },
];

const GENERIC = [
  { re: /void main\(\)/, note: 'main() runs once per fragment: one per output texel.' },
  { re: /gl_FragCoord|floor\(/, note: 'Which output this fragment computes, from its position.' },
  { re: /for \(/, note: 'The loop over k.' },
  { re: /texelFetch|texture\(/, note: 'Reads input texels.' },
];

// The CPU kernel (plan/src/cpu/kernel.rs): Rust, not a shader.
const SIMD = [
  { re: /pub fn product\(/, note: 'C\'s rows of one worker ← its rows of A · B. Each Web Worker calls this on its block of rows: the OpenMP parallel-for of the chapter, with a static schedule.' },
  { re: /for jc in /, note: 'Blocks of NC columns of B and C.' },
  { re: /for pc in /, note: 'Blocks of KC along k: the packed block of B stays in cache while every block of A\'s rows uses it (GotoBLAS/BLIS blocking).' },
  { re: /for ic in /, note: 'Blocks of MC rows of A, packed into slivers of MR rows.' },
  { re: /fn pack_b\(/, note: 'B packed into panels NR columns wide, k-major: the micro-kernel reads them front to back.' },
  { re: /#\[target_feature\(enable = "simd128"\)\]/, note: 'SIMD128 in the micro-kernel only: 128-bit vectors of four f32 lanes.' },
  { re: /let \(mut c00, mut c01/, note: 'Eight f32x4 accumulators: a 4 × 8 block of C in registers for the whole loop over k, what the register kernel does per GPU invocation.' },
  { re: /v128_load32_splat/, note: 'One value of A broadcast to all four lanes.' },
  { re: /c00 = f32x4_add\(c00, f32x4_mul/, note: 'Multiply and add on four lanes at once (SIMD128 has no fused multiply-add).' },
];

const RULES = { naive: NAIVE, packed: PACKED, blocked4: BLOCKED, blocked8: BLOCKED, global: GLOBAL, tiled16: TILED, simd: SIMD };

/** The annotation rules for a kernel's source (exported for the page tests). */
export function rulesFor(kernel, source) {
  // Five files implement "register": the GPU form written out with 128 × 128 tiles
  // and with 64-row ones (64 × 64 or 64 × 32), the double-buffered 128 × 32 one for
  // whole-tile outputs of about 1024 × 1024, their array form for shapes that are not
  // multiples of 4, and the form for software adapters.
  if (kernel === 'register') {
    if (/k0 \+= 2u \* BK/.test(source)) return REGISTER_DOUBLE;
    if (/struct Slice/.test(source)) return /group\.y \* 64u/.test(source) ? REGISTER_64 : REGISTER;
    return /var<workgroup>/.test(source) ? REGISTER_ANY : REGISTER_CPU;
  }
  return RULES[kernel] || GENERIC;
}

/**
 * A listing of `source` with the blocks that the engine wrote out for k = 1 … 15
 * (`{ let k = 1u; … }`: the register kernel's 128 × 128 form, whose k loop is
 * compiled as straight code) folded into one comment line each run; block k = 0 stays
 * as compiled. Other sources come back as they are.
 */
export function foldWrittenOut(source) {
  const lines = source.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^(\s*)\{ let k = (\d+)u;$/.exec(lines[i]);
    if (!head || head[2] === '0') { out.push(lines[i]); continue; }
    const indent = head[1];
    const first = head[2];
    let last = first;
    // Each block ends at the first line that is its indentation and `}`.
    for (;;) {
      const end = lines.indexOf(`${indent}}`, i + 1);
      if (end < 0) { i = lines.length; break; }
      i = end;
      const next = /^(\s*)\{ let k = (\d+)u;$/.exec(lines[i + 1] ?? '');
      if (!next || next[1] !== indent) break;
      last = next[2];
      i++;
    }
    out.push(`${indent}// { let k = ${first}u; … } … { let k = ${last}u; … }: the block above again for each k (folded here)`);
  }
  return out.join('\n');
}

/** Finds the annotated lines: [{ line (0-based), note }], in source order. */
export function annotate(kernel, source) {
  const lines = source.split('\n');
  const code = lines.map((l) => l.replace(/\/\/.*$/, ''));
  const found = [];
  const used = new Set();
  for (const rule of rulesFor(kernel, source)) {
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
  const language = kernel === 'simd' ? 'Rust' : /@compute|fn main/.test(source) ? 'WGSL' : 'GLSL';
  return { code: el('pre', { class: 'src', tabindex: '0', 'aria-label': `${language} source of the ${kernel} kernel` }, code), notes: list, count: notes.length };
}
