// wrong: starts from 1 (the identity of AND, not of OR), so every pair reads as reachable. first wrong: case 0 (0, 0)
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
    var reach = 1.0;  // starts as "reachable"
    for (var k = 0u; k < dims.inner; k++) {
        if (A[i * dims.inner + k] != 0.0 && B[k * dims.cols + j] != 0.0) {
            reach = 1.0;
            break;  // one path is enough
        }
    }
    C[i * dims.cols + j] = reach;
}
