// Memory access of the register kernel's written-out GPU forms (matmul/3_register.wgsl,
// matmul/3_register_64.wgsl), put before them by src/kernels/webgpu/register.rs: the
// matrices bound as arrays of vec4 (inner and cols are multiples of 4, so every row
// starts on a 16-byte boundary), and the checked loads and stores of the tiles at the
// edges of C. (matmul/register_io_scalar.wgsl is the same for the array form, element by
// element.)
struct Dims { rows: u32, inner: u32, cols: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> a: array<vec4f>;        // rows × inner
@group(0) @binding(1) var<storage, read> b: array<vec4f>;        // inner × cols
@group(0) @binding(2) var<storage, read_write> c: array<vec4f>;  // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

// A[row][k .. k + 3], the semiring's zero outside A (a clamped read, no branch).
fn load_a(row: u32, k: u32) -> vec4f {
    let at = (min(row, dims.rows - 1u) * dims.inner + min(k, dims.inner - 4u)) / 4u;
    return select(vec4f(sr_zero()), a[at], row < dims.rows && k < dims.inner);
}

// B[k][col .. col + 3], the semiring's zero outside B.
fn load_b(k: u32, col: u32) -> vec4f {
    let at = (min(k, dims.inner - 1u) * dims.cols + min(col, dims.cols - 4u)) / 4u;
    return select(vec4f(sr_zero()), b[at], k < dims.inner && col < dims.cols);
}

// C[row][col .. col + 3] ← v, finished; unchecked inside a full tile.
fn store_c(row: u32, col: u32, v: vec4f, full: bool) {
    if (full || (row < dims.rows && col < dims.cols)) {
        c[(row * dims.cols + col) / 4u] =
            vec4f(sr_finish(v.x), sr_finish(v.y), sr_finish(v.z), sr_finish(v.w));
    }
}
