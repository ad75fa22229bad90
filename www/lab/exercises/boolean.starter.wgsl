// Reachability in two steps: C[i][j] = 1 when some k has A[i][k] ≠ 0 and B[k][j] ≠ 0
// (an edge i → k, then k → j), else 0. The product in the (OR, AND) semiring: the
// chapter's graph connectivity, R = b[(I + A)^(n-1)], one squaring at a time.
struct Dims { rows: u32, inner: u32, cols: u32, pad: u32 }
@group(0) @binding(0) var<storage, read> A: array<f32>;        // rows × inner, row-major
@group(0) @binding(1) var<storage, read> B: array<f32>;        // inner × cols
@group(0) @binding(2) var<storage, read_write> C: array<f32>;  // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

const TILE_ROWS: u32 = 8u;
const TILE_COLS: u32 = 8u;

@compute @workgroup_size(TILE_COLS, TILE_ROWS)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let i = id.y;
    let j = id.x;
    if (i >= dims.rows || j >= dims.cols) { return; }
    var reach = 0.5;  // TODO: OR's identity
    for (var k = 0u; k < dims.inner; k++) {
        let a = A[i * dims.inner + k];
        let b = B[k * dims.cols + j];
        // TODO: an edge i → k (a ≠ 0) and k → j (b ≠ 0) makes j reachable from i.
        //       The result is exactly 0.0 or 1.0.
    }
    C[i * dims.cols + j] = reach;
}
