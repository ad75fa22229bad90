// The lab's exercises: statement (citing its source in ../shared/sources/, as the
// brief names them), hints revealed one at a time, and the files of each in
// exercises/ (starter, solution; the wrong solutions are for the tests). The ids are
// fixed: links (?exercise=) and autograders (checkKernelAsync) use them.

const TUTORIAL = 'the WebGL GPGPU tutorial (source 1, “squaring a matrix”)';
const CHAPTER = 'the textbook chapter on parallel matrix operations (source 2)';
const COURSE = 'the two-GPU course report (source 5)';
const LOG = 'the batched SVD developer’s log (source 4)';
const REPORT = 'the block-sparse CUDA report (source 3)';

export const EXERCISES = [
  {
    id: 'square', language: 'glsl', title: 'Square a matrix: R = M·M',
    source: `${TUTORIAL}: one fragment per element of R, the loop over k in the shader`,
    statement: `<p>Write the fragment shader of the tutorial: every fragment of the n×n target
      computes one element R[i][j] = Σ<sub>k</sub> M[i][k]·M[k][j]. WebGL 1 needed a loop
      bound fixed at compile time (one shader per size); GLSL ES 3.00 takes the uniform
      <code>dims</code>, and <code>texelFetch</code> reads a texel by its integer
      coordinates, without the tutorial's <code>k/128.0</code> texture coordinates.</p>`,
    hints: [
      'gl_FragCoord.x is the column j of the element, gl_FragCoord.y its row i (each + 0.5: int() drops it).',
      'M[i][k] is the texel at x = k, y = i: texelFetch(A, ivec2(k, i), 0).r.',
      'M[k][j] is texelFetch(B, ivec2(j, k), 0).r; the loop is for (int k = 0; k < dims.y; k++).',
    ],
  },
  {
    id: 'multiply', language: 'glsl', title: 'Two different matrices: C = A·B',
    source: `${TUTORIAL}: its closing question, “how would you modify this algorithm to multiply two different matrices?”`,
    statement: `<p>A is rows×inner, B is inner×cols, C is rows×cols: the target is cols
      texels wide and rows texels high. Three sizes now, and a square test cannot tell
      which one bounds the loop or which coordinate is the row: the cases here are not
      square.</p>`,
    hints: [
      'The target has one texel per element of C: x runs over its cols columns, y over its rows.',
      'The loop runs over the one size A and B share: inner, dims.y.',
      'A[i][k] = texelFetch(A, ivec2(k, i), 0).r and B[k][j] = texelFetch(B, ivec2(j, k), 0).r.',
    ],
  },
  {
    id: 'global', language: 'wgsl', title: 'A compute shader: one invocation per element',
    source: `${CHAPTER}: its first CUDA kernel, matmul(), one thread per element of C reading global memory`,
    statement: `<p>The same product as a WebGPU compute shader. Workgroups of
      <code>TILE_COLS</code>×<code>TILE_ROWS</code> invocations tile C; the grid has
      ⌈cols / TILE_COLS⌉ × ⌈rows / TILE_ROWS⌉ workgroups (x over columns), so it is
      rounded up past the edges of C.</p>`,
    hints: [
      'global_invocation_id.x is the column j, .y the row i.',
      'The grid covers whole workgroups: return early when i >= dims.rows or j >= dims.cols, or the invocation writes past the row into the next one.',
      'A[i][k] is A[i * dims.inner + k]; B[k][j] is B[k * dims.cols + j].',
    ],
  },
  {
    id: 'tiled', language: 'wgsl', title: 'Tiles in workgroup memory, with barriers',
    source: `${CHAPTER}: the shared-memory kernel (MultiplyOptimise, __shared__ As and Bs); ${COURSE} for the global against shared-memory timings (3 to 4.7 times faster on a K40)`,
    statement: `<p>Each 16×16 workgroup loads a 16×16 tile of A and one of B into
      <code>var&lt;workgroup&gt;</code> memory, every invocation one element of each, waits
      at <code>workgroupBarrier()</code>, and multiplies them; each value loaded from
      global memory is then used 16 times. The course report measured this kernel 3 to
      4.7 times faster than the global one: compare yours with your <code>global</code>
      below.</p>`,
    hints: [
      'The number of tiles is ⌈inner / 16⌉ = (dims.inner + 15u) / 16u: the last one is partial.',
      'Load 0 where the tile passes the edge of A or B: a zero adds nothing to the sum.',
      'Two barriers per tile: after loading (nobody reads a tile before it is complete) and after multiplying (nobody overwrites it while another invocation still reads).',
      'A barrier must be reached by every invocation of the workgroup: keep the bounds check for the final write only.',
    ],
  },
  {
    id: 'register', language: 'wgsl', title: 'A block of C per invocation, in registers',
    source: `the library's register kernel (wgsl/matmul/3_register*.wgsl), after ${CHAPTER}: tiling is how work fits fast memory`,
    statement: `<p>Each invocation computes a 4×4 block of C in an array of registers: per
      k it reads 4 values of B and 4 of A for 16 multiply-adds. <strong>Goal:</strong> at
      least half the speed of the library's register kernel on this device (the ratio
      shown after a passing check).</p>`,
    goal: 0.5,
    hints: [
      'acc[r][c] accumulates C[row0 + r][col0 + c]; load A[(row0 + r) * dims.inner + k] once per r.',
      'Skip rows past dims.rows when reading A, and both past the edges when writing C.',
      'Bigger blocks (8×4, 8×8) and workgroup-memory tiles of A and B on top are how the library goes faster.',
    ],
  },
  {
    id: 'boolean', language: 'wgsl', title: 'Reachability: the (OR, AND) semiring',
    source: `${CHAPTER}: graph connectivity, R = b[(I + A)^(n−1)] by repeated squaring`,
    statement: `<p>Replace + by OR and × by AND: C[i][j] is 1 when there is a two-step
      path i → k → j (A[i][k] ≠ 0 and B[k][j] ≠ 0) and 0 otherwise, exactly.</p>`,
    hints: [
      'OR’s identity is false: start from 0.0.',
      'Once a path is found the answer is 1.0 whatever follows: break out of the loop.',
    ],
  },
  {
    id: 'minplus', language: 'wgsl', title: 'Shortest paths: the (min, +) semiring',
    source: `${CHAPTER}: powers of a matrix; the library's min-plus product (“no edge” as 1e30)`,
    statement: `<p>Replace + by min and × by +: C[i][j] = min<sub>k</sub> A[i][k] + B[k][j],
      the shortest two-step path. “No edge” is uploaded as 1e30; a result ≥ 5e29 reads as
      no edge (1e30 plus a weight stays above it).</p>`,
    hints: [
      'min’s identity is “no edge”: start from 1e30, not 0.',
      'The semiring’s ⊗ is +: add the two weights; WGSL has min(a, b).',
    ],
  },
  {
    id: 'batched3x3', language: 'wgsl', title: 'Many 3×3 products, several per workgroup',
    source: `${LOG}: “9 threads per SVD column … also allows me to implement a 3x3 matrix multiply in 4 lines”, with 63-thread work groups doing 7 multiplies at once`,
    statement: `<p>count pairs of 3×3 matrices, each row-major, one after another: compute
      every C<sub>s</sub> = A<sub>s</sub>·B<sub>s</sub> with one invocation per cell of
      C<sub>s</sub> (9 per matrix) and <code>MATRICES</code> matrices per workgroup of
      9·MATRICES invocations (the log's 63 = 7·9). The page dispatches
      ⌈count / MATRICES⌉ workgroups; timed beside the library's batched product.</p>`,
    hints: [
      'local_invocation_index / 9u is the matrix within the workgroup; add workgroup_id.x * MATRICES for the matrix in the batch.',
      'The last workgroup is not full: return when s >= dims.count.',
      'cell = lid % 9u, r = cell / 3u, c = cell % 3u; matrix s starts at 9s in A, B and C.',
    ],
  },
  {
    id: 'blocksparse', language: 'wgsl', title: 'Block-sparse: skip the zero blocks',
    source: `${REPORT}: “a boolean array for each (of size T²), indicating a non-zero element's presence in that block”, m ≤ 8, one CUDA block of m² threads per block of C`,
    statement: `<p>A and B are cut into 4×4 blocks; <code>flagsA</code> and
      <code>flagsB</code> hold 1 for a stored block and 0 for one that is all zero. One
      workgroup of 4×4 invocations computes a block of C, skipping every pair of blocks
      of which one is not stored: that is what makes the report's runtime grow with the
      stored blocks k rather than n³. Here a block that is not stored holds NaN — memory a
      sparse format never wrote — so a kernel that reads one shows. Timed beside the
      library's block-sparse product.</p>`,
    hints: [
      'The grid of blocks has ⌈rows/4⌉ × ⌈inner/4⌉ flags for A (row-major), ⌈inner/4⌉ × ⌈cols/4⌉ for B.',
      'Block (bi, bk) of A pairs with block (bk, bj) of B: skip it when either flag is 0u.',
      'The last block of inner may be partial: k runs to min((kb + 1) · 4, inner).',
    ],
  },
  {
    id: 'spmv', language: 'wgsl', title: 'CSR times a vector: one invocation per row',
    source: `${CHAPTER}: its Compressed Sparse Row struct (avals, cols, rowplaces); the library's SpMV kernel`,
    statement: `<p>y = A·x for A in CSR form: <code>values</code> row by row, the
      <code>columns</code> of each, and <code>offsets</code>, where row i's values are
      values[offsets[i]] up to values[offsets[i + 1]] (offsets has rows + 1 entries, the
      last nnz). One invocation per row; the page dispatches ⌈rows / WORKGROUP⌉
      workgroups. Some rows are empty. Timed beside the library's SpMV.</p>`,
    hints: [
      'global_invocation_id.x is the row; return when it is ≥ dims.rows.',
      'The indices are array<u32>: columns[k] is the column of values[k], so x[columns[k]] is the x it multiplies.',
      'An empty row has offsets[row] == offsets[row + 1]: its y is 0, and it must still be written.',
    ],
  },
  {
    id: 'csr', language: 'none', title: 'Write the chapter’s 5×5 matrix in CSR',
    source: `${CHAPTER}: the 5×5 matrix of its section on sparse matrices and its CSR arrays avals, cols and rowplaces`,
    statement: `<p>No shader: write the three arrays of the chapter's 5×5 matrix in
      Compressed Sparse Row form — <code>values</code> (its avals), <code>columns</code>
      (cols) and <code>rowOffsets</code> (rowplaces: where each row starts in values, then
      the count of values). The chapter prints them too, but one of its lines is wrong:
      check it against the matrix.</p>
      <pre>2 0 0 0 0
1 1 8 0 0
0 1 5 8 0
0 0 0 8 8
0 0 0 3 5</pre>`,
    hints: [
      'Read the matrix row by row, left to right: values are the nonzeros in that order, columns their column numbers (from 0).',
      'rowOffsets[i + 1] − rowOffsets[i] is the number of nonzeros in row i.',
      'One entry of the chapter\u2019s printed row-offset line is wrong: build rowOffsets yourself as a running count (0, then add each row\u2019s nonzeros in turn) and compare it with the chapter\u2019s entry by entry.',
    ],
  },
];

/** The file of an exercise: 'starter' or 'solution'. */
export function fileOf(ex, kind) {
  return new URL(`exercises/${ex.id}.${kind}.${ex.language === 'none' ? 'txt' : ex.language}`, import.meta.url);
}
