// wrong: multiplies the two weights instead of adding them (the ordinary product's ×, not the semiring's ⊗ = +). first wrong: case 0 (0, 0)
// Shortest paths in two steps: C[i][j] = min over k of A[i][k] + B[k][j], the
// product in the (min, +) semiring; repeated squaring of the distance matrix gives
// all shortest paths. "No edge" is uploaded as 1e30, and a result ≥ 5e29 reads as
// "no edge" (1e30 + a weight stays ≥ 5e29).
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
    var best = 1e30;  // min's identity: no path yet
    for (var k = 0u; k < dims.inner; k++) {
        best = min(best, A[i * dims.inner + k] * B[k * dims.cols + j]);
    }
    C[i * dims.cols + j] = best;
}
