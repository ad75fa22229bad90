// C = A·B with a block of C per invocation held in registers: each invocation reads
// a row of A once for 4 columns of C and a row of B once for 4 rows of C, so every
// value loaded feeds 4 multiply-adds instead of one.
struct Dims { rows: u32, inner: u32, cols: u32, pad: u32 }
@group(0) @binding(0) var<storage, read> A: array<f32>;        // rows × inner, row-major
@group(0) @binding(1) var<storage, read> B: array<f32>;        // inner × cols
@group(0) @binding(2) var<storage, read_write> C: array<f32>;  // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

const R: u32 = 4u;  // rows of C per invocation
const S: u32 = 4u;  // columns of C per invocation
// 8 × 8 invocations of R × S each: the block of C one workgroup computes.
const TILE_ROWS: u32 = 32u;
const TILE_COLS: u32 = 32u;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let row0 = id.y * R;
    let col0 = id.x * S;
    var acc: array<array<f32, 4>, 4>;  // the R × S block, zero-initialised
    for (var k = 0u; k < dims.inner; k++) {
        var b: array<f32, 4>;  // B[k][col0 .. col0+S), zero past the edge
        for (var c = 0u; c < S; c++) {
            if (col0 + c < dims.cols) { b[c] = B[k * dims.cols + col0 + c]; }
        }
        // TODO: for each of the R rows (inside C): load A[row0 + r][k] once and add it
        //       times each of the S values of b into acc[r]. Only row 0, column 0 so far:
        if (row0 < dims.rows) { acc[0][0] += A[row0 * dims.inner + k] * b[0]; }
    }
    // TODO: write the whole R × S block back, skipping rows and columns past the edges.
    if (row0 < dims.rows && col0 < dims.cols) { C[row0 * dims.cols + col0] = acc[0][0]; }
}
