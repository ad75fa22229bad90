// Memory access of the register kernel for any shape: the matrices are bound as
// arrays of f32 and a vec4 is gathered (or scattered) one element at a time, each
// checked against the edge. Used when inner or cols is not a multiple of 4, where a
// row of A, B or C may start inside a 16-byte word.
struct Dims { rows: u32, inner: u32, cols: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> a: array<f32>;        // rows × inner
@group(0) @binding(1) var<storage, read> b: array<f32>;        // inner × cols
@group(0) @binding(2) var<storage, read_write> c: array<f32>;  // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

// A[row][k .. k + 3], the semiring's zero outside A.
fn load_a(row: u32, k: u32) -> vec4f {
    var v = vec4f(sr_zero());
    if (row < dims.rows) {
        let at = row * dims.inner + k;
        for (var j = 0u; j < 4u; j++) {
            if (k + j < dims.inner) { v[j] = a[at + j]; }
        }
    }
    return v;
}

// B[k][col .. col + 3], the semiring's zero outside B.
fn load_b(k: u32, col: u32) -> vec4f {
    var v = vec4f(sr_zero());
    if (k < dims.inner) {
        let at = k * dims.cols + col;
        for (var j = 0u; j < 4u; j++) {
            if (col + j < dims.cols) { v[j] = b[at + j]; }
        }
    }
    return v;
}

// C[row][col .. col + 3] ← v, finished, where inside C.
fn store_c(row: u32, col: u32, v: vec4f) {
    if (row >= dims.rows) { return; }
    for (var lane = 0u; lane < 4u; lane++) {
        if (col + lane < dims.cols) { c[row * dims.cols + col + lane] = sr_finish(v[lane]); }
    }
}
