// Kernel "global": one invocation per element of C = A·B, reading A and B straight
// from global memory. The chapter's first CUDA kernel, line for line:
//
//   __global__ void matmul(float *A, float *B, float *C, int n) {
//     int row = blockIdx.y * blockDim.y + threadIdx.y;
//     int col = blockIdx.x * blockDim.x + threadIdx.x;
//     float sum = 0;
//     for (int k = 0; k < n; k++) sum += A[row * n + k] * B[k * n + col];
//     C[row * n + col] = sum;
//   }
//
// Matrices are row-major arrays of f32, (i, j) at i * cols + j; sizes need not be
// multiples of anything, so invocations past the edge do nothing.
struct Dims { rows: u32, inner: u32, cols: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> a: array<f32>;        // rows × inner
@group(0) @binding(1) var<storage, read> b: array<f32>;        // inner × cols
@group(0) @binding(2) var<storage, read_write> c: array<f32>;  // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

// 16 × 16 = 256 invocations a workgroup (CUDA's block); x runs along a row of C,
// so neighbouring invocations read neighbouring elements of B (coalesced).
@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let row = id.y;
    let col = id.x;
    if (row >= dims.rows || col >= dims.cols) { return; }
    var sum = sr_zero();
    for (var k = 0u; k < dims.inner; k++) {
        sum = sr_fma(sum, a[row * dims.inner + k], b[k * dims.cols + col]);
    }
    c[row * dims.cols + col] = sr_finish(sum);
}
