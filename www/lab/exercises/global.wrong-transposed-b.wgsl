// wrong: B read as if stored by columns (B[j][k] at j * inner + k): right only where that happens to be the same number. first wrong: case 1 (0, 0)
// C = A·B with one invocation per element of C, reading global memory: the
// chapter's first CUDA kernel, matmul(), with a thread per element.
struct Dims { rows: u32, inner: u32, cols: u32, pad: u32 }
@group(0) @binding(0) var<storage, read> A: array<f32>;        // rows × inner, row-major
@group(0) @binding(1) var<storage, read> B: array<f32>;        // inner × cols
@group(0) @binding(2) var<storage, read_write> C: array<f32>;  // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

// The block of C one workgroup computes; the page dispatches
// ceil(cols / TILE_COLS) × ceil(rows / TILE_ROWS) workgroups (x over columns).
const TILE_ROWS: u32 = 8u;
const TILE_COLS: u32 = 8u;

@compute @workgroup_size(TILE_COLS, TILE_ROWS)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let i = id.y;
    let j = id.x;
    // The grid is rounded up to whole workgroups: the extra invocations do nothing.
    if (i >= dims.rows || j >= dims.cols) { return; }
    var sum = 0.0;
    for (var k = 0u; k < dims.inner; k++) {
        sum += A[i * dims.inner + k] * B[j * dims.inner + k];
    }
    C[i * dims.cols + j] = sum;
}
