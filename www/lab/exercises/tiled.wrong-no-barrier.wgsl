// wrong: no barrier between loading a tile and reading it, so an invocation reads elements of As and Bs that others have not written yet. A race: on SwiftShader (groups of 4 invocations, each running to its next barrier before the next group starts) it is wrong the same way every run; on a GPU it may differ between the two runs and show as nondeterministic. first wrong: case 1 (0, 0)
// C = A·B in 16×16 tiles: each workgroup stages a tile of A and a tile of B in
// workgroup memory, waits at a barrier, and multiplies them (the chapter's
// shared-memory CUDA kernel, MultiplyOptimise, with __shared__ As and Bs).
struct Dims { rows: u32, inner: u32, cols: u32, pad: u32 }
@group(0) @binding(0) var<storage, read> A: array<f32>;        // rows × inner, row-major
@group(0) @binding(1) var<storage, read> B: array<f32>;        // inner × cols
@group(0) @binding(2) var<storage, read_write> C: array<f32>;  // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

const TILE_ROWS: u32 = 16u;
const TILE_COLS: u32 = 16u;
const T: u32 = 16u;
var<workgroup> As: array<array<f32, 16>, 16>;
var<workgroup> Bs: array<array<f32, 16>, 16>;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3u, @builtin(local_invocation_id) lid: vec3u) {
    let i = id.y;
    let j = id.x;
    var sum = 0.0;
    // Round up: the last tile is partial when inner is not a multiple of 16.
    let tiles = (dims.inner + T - 1u) / T;
    for (var t = 0u; t < tiles; t++) {
        let ka = t * T + lid.x;  // the column of A this invocation loads
        let kb = t * T + lid.y;  // the row of B
        var a = 0.0;  // zeros past the edges add nothing to the sum
        if (i < dims.rows && ka < dims.inner) { a = A[i * dims.inner + ka]; }
        var b = 0.0;
        if (kb < dims.inner && j < dims.cols) { b = B[kb * dims.cols + j]; }
        As[lid.y][lid.x] = a;
        Bs[lid.y][lid.x] = b;
        for (var k = 0u; k < T; k++) {
            sum += As[lid.y][k] * Bs[k][lid.x];
        }
        workgroupBarrier();  // everyone is done reading before the next tile overwrites it
    }
    if (i < dims.rows && j < dims.cols) { C[i * dims.cols + j] = sum; }
}
