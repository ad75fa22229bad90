// Many 3×3 products C_s = A_s · B_s, one invocation per cell of C_s and several
// matrices per workgroup: the batched SVD developer's log, whose 63-thread work
// groups did 7 such products at once (9 threads a matrix, one per cell).
struct Dims { count: u32, pad0: u32, pad1: u32, pad2: u32 }
@group(0) @binding(0) var<storage, read> A: array<f32>;        // count 3×3 matrices, each row-major, one after another
@group(0) @binding(1) var<storage, read> B: array<f32>;        // count 3×3 matrices
@group(0) @binding(2) var<storage, read_write> C: array<f32>;  // count 3×3 results
@group(0) @binding(3) var<uniform> dims: Dims;

// The matrices one workgroup computes, 9 invocations each; the page dispatches
// ceil(count / MATRICES) workgroups along x.
const MATRICES: u32 = 7u;

@compute @workgroup_size(9u * MATRICES)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) lid: u32) {
    let s = wg.x * MATRICES + lid / 9u;
    // The last workgroup may hold fewer than MATRICES matrices.
    if (s >= dims.count) { return; }
    let cell = lid % 9u;
    let r = cell / 3u;
    let c = cell % 3u;
    let m = s * 9u;
    C[m + cell] = A[m + r * 3u] * B[m + c]
                + A[m + r * 3u + 1u] * B[m + 3u + c]
                + A[m + r * 3u + 2u] * B[m + 6u + c];
}
