// C = A·B for block-sparse A and B: the CUDA report's kernel, one workgroup of 4×4
// invocations per 4×4 block of C, an invocation per element, skipping every pair of
// blocks of which one is all zero (the per-block flags say which are stored).
struct Dims { rows: u32, inner: u32, cols: u32, pad: u32 }
@group(0) @binding(0) var<storage, read> A: array<f32>;         // rows × inner, row-major
@group(0) @binding(1) var<storage, read> B: array<f32>;         // inner × cols
@group(0) @binding(2) var<storage, read> flagsA: array<u32>;    // ceil(rows/4) × ceil(inner/4) blocks: 1 stored, 0 not
@group(0) @binding(3) var<storage, read> flagsB: array<u32>;    // ceil(inner/4) × ceil(cols/4) blocks
@group(0) @binding(4) var<storage, read_write> C: array<f32>;   // rows × cols
@group(0) @binding(5) var<uniform> dims: Dims;

// The report's block size m; the page dispatches ceil(cols / 4) × ceil(rows / 4)
// workgroups, one per block of C (x over block columns).
const BLOCK: u32 = 4u;

@compute @workgroup_size(BLOCK, BLOCK)
fn main(@builtin(workgroup_id) blk: vec3u, @builtin(local_invocation_id) cell: vec3u) {
    // TODO: the element (i, j) of C this invocation computes: block (blk.y, blk.x),
    // cell (cell.y, cell.x) within it; leave when it is past the edge of C.
    // TODO: for each block column kb of A (block row of B): skip it when A's block
    // (blk.y, kb) or B's block (kb, blk.x) is not stored (its flag is 0).
    // TODO: otherwise add A[i][k] * B[k][j] for k in that block (the last block of
    // inner may be partial); write the sum to C[i * dims.cols + j].
}
