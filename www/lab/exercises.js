// The lab's exercises: statement (citing its source in ../shared/sources/, as the
// brief names them), hints revealed one at a time, and the files of each in
// exercises/ (starter, solution; the wrong solutions are for the tests). The ids are
// fixed: links (?exercise=) and autograders (checkKernelAsync) use them.

const TUTORIAL = 'the WebGL GPGPU tutorial (source 1, “squaring a matrix”)';
const CHAPTER = 'the textbook chapter on parallel matrix operations (source 2)';
const COURSE = 'the two-GPU course report (source 5)';

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
      rounded up past the edges of C. Every binding must be used: WebGPU leaves an
      unused one out of the pipeline's layout.</p>`,
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
];

/** The file of an exercise: 'starter' or 'solution'. */
export function fileOf(ex, kind) {
  return new URL(`exercises/${ex.id}.${kind}.${ex.language}`, import.meta.url);
}
