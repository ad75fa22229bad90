// Memory access of the register kernel when every row of A, B and C starts on a
// 16-byte boundary (inner and cols multiples of 4): the matrices are bound as arrays
// of vec4s and each load or store moves 16 bytes. A vec4 is then wholly inside a
// matrix or wholly outside it, so one check covers it. (On the H100 this form runs
// ~30% faster than register_io_scalar.wgsl: 39.5 against 30.2 TFLOP/s at n = 4096.)
struct Dims { rows: u32, inner: u32, cols: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> a: array<vec4f>;        // rows × inner
@group(0) @binding(1) var<storage, read> b: array<vec4f>;        // inner × cols
@group(0) @binding(2) var<storage, read_write> c: array<vec4f>;  // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

// Loads never branch: they read a clamped address (inside the matrix) and select()
// the semiring's zero for what lies outside, which keeps the lanes of a SIMD
// processor (or a CPU running the shader, as SwiftShader does) in step.

// `full`: the workgroup's whole tile, and every slice of k, lies inside the
// matrices, so no check is needed (a uniform branch: it costs nothing, and the
// checks cost 12% at n = 4096 on the H100).

// A[row][k .. k + 3] (k a multiple of 4), the semiring's zero outside A.
fn load_a(row: u32, k: u32, full: bool) -> vec4f {
    if (full) { return a[(row * dims.inner + k) / 4u]; }
    let at = (min(row, dims.rows - 1u) * dims.inner + min(k, dims.inner - 4u)) / 4u;
    return select(vec4f(sr_zero()), a[at], row < dims.rows && k < dims.inner);
}

// B[k][col .. col + 3] (col a multiple of 4), the semiring's zero outside B.
fn load_b(k: u32, col: u32, full: bool) -> vec4f {
    if (full) { return b[(k * dims.cols + col) / 4u]; }
    let at = (min(k, dims.inner - 1u) * dims.cols + min(col, dims.cols - 4u)) / 4u;
    return select(vec4f(sr_zero()), b[at], k < dims.inner && col < dims.cols);
}

// C[row][col .. col + 3] ← v, finished, where inside C.
fn store_c(row: u32, col: u32, v: vec4f, full: bool) {
    if (full || (row < dims.rows && col < dims.cols)) {
        c[(row * dims.cols + col) / 4u] =
            vec4f(sr_finish(v.x), sr_finish(v.y), sr_finish(v.z), sr_finish(v.w));
    }
}
