// Kernel "tiled16": the chapter's shared-memory CUDA kernel. A workgroup computes a
// 16 × 16 tile of C; for each 16-wide slice of k it first copies a 16 × 16 tile of A
// and one of B into workgroup memory (CUDA's __shared__), every invocation one
// element of each, waits at a barrier, then multiplies out of that fast memory.
// Each element of A and B is read from global memory 16 times less often.
//
//   __shared__ float As[TILE][TILE], Bs[TILE][TILE];
//   for (int t = 0; t < n / TILE; t++) {
//     As[ty][tx] = A[row * n + t * TILE + tx];
//     Bs[ty][tx] = B[(t * TILE + ty) * n + col];
//     __syncthreads();
//     for (int k = 0; k < TILE; k++) sum += As[ty][k] * Bs[k][tx];
//     __syncthreads();
//   }
//   C[row * n + col] = sum;
//
// Unlike that listing, sizes need not be multiples of 16: loads past an edge give
// the semiring's zero, and only invocations inside C write.
struct Dims { rows: u32, inner: u32, cols: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

const TILE: u32 = 16u;
var<workgroup> a_tile: array<array<f32, TILE>, TILE>;  // __shared__ float As[16][16]
var<workgroup> b_tile: array<array<f32, TILE>, TILE>;

@compute @workgroup_size(TILE, TILE)
fn main(@builtin(local_invocation_id) local: vec3u, @builtin(workgroup_id) group: vec3u) {
    let tx = local.x;
    let ty = local.y;
    let row = group.y * TILE + ty;
    let col = group.x * TILE + tx;
    var sum = sr_zero();
    // No early return: every invocation must reach every barrier.
    let tiles = (dims.inner + TILE - 1u) / TILE;
    for (var t = 0u; t < tiles; t++) {
        let ka = t * TILE + tx;  // the column of A this invocation copies
        let kb = t * TILE + ty;  // the row of B
        var va = sr_zero();
        if (row < dims.rows && ka < dims.inner) { va = a[row * dims.inner + ka]; }
        var vb = sr_zero();
        if (kb < dims.inner && col < dims.cols) { vb = b[kb * dims.cols + col]; }
        a_tile[ty][tx] = va;
        b_tile[ty][tx] = vb;
        workgroupBarrier();  // __syncthreads(): the tiles are complete
        for (var k = 0u; k < TILE; k++) {
            sum = sr_fma(sum, a_tile[ty][k], b_tile[k][tx]);
        }
        workgroupBarrier();  // everyone is done with them before they are overwritten
    }
    if (row < dims.rows && col < dims.cols) {
        c[row * dims.cols + col] = sr_finish(sum);
    }
}
