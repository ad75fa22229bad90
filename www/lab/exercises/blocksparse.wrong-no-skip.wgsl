// wrong: no block is skipped, so the blocks that are not stored (NaN here: memory nobody wrote) are read. first wrong: case 0 (0, 0)
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
    let i = blk.y * BLOCK + cell.y;
    let j = blk.x * BLOCK + cell.x;
    if (i >= dims.rows || j >= dims.cols) { return; }
    let blocksInner = (dims.inner + BLOCK - 1u) / BLOCK;
    let blocksCols = (dims.cols + BLOCK - 1u) / BLOCK;
    var sum = 0.0;
    for (var kb = 0u; kb < blocksInner; kb++) {
        // A block that is not stored holds no numbers at all: never read it.
        let end = min(kb * BLOCK + BLOCK, dims.inner);
        for (var k = kb * BLOCK; k < end; k++) {
            sum += A[i * dims.inner + k] * B[k * dims.cols + j];
        }
    }
    C[i * dims.cols + j] = sum;
}
