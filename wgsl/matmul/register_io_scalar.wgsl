// Memory access of the register kernel's array form (matmul/3_register_any.wgsl), for
// any shape: the matrices are bound as
// arrays of f32 and a vec4 is gathered (or scattered) one element at a time, each
// checked against the edge. Used when inner or cols is not a multiple of 4, where a
// row of A, B or C may start inside a 16-byte word.
struct Dims { rows: u32, inner: u32, cols: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> a: array<f32>;        // rows × inner
@group(0) @binding(1) var<storage, read> b: array<f32>;        // inner × cols
@group(0) @binding(2) var<storage, read_write> c: array<f32>;  // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

// Loads never branch: they read clamped addresses (inside the matrix) and select()
// the semiring's zero for what lies outside, which keeps the lanes of a SIMD
// processor (or a CPU running the shader, as SwiftShader does) in step.

// The addresses of four consecutive elements of a row-major matrix with `lines`
// rows `width` long, from column `first` of row `line`, clamped inside it.
fn gather(first: u32, line: u32, lines: u32, width: u32) -> vec4u {
    let row = min(line, lines - 1u) * width;
    let last = width - 1u;
    return vec4u(row + min(first, last), row + min(first + 1u, last),
                 row + min(first + 2u, last), row + min(first + 3u, last));
}

// Which of those four elements are really inside the matrix.
fn inside(first: u32, line: u32, lines: u32, width: u32) -> vec4<bool> {
    return (vec4u(first) + vec4u(0u, 1u, 2u, 3u) < vec4u(width)) & vec4<bool>(line < lines);
}

// A[row][k .. k + 3], the semiring's zero outside A.
fn load_a(row: u32, k: u32) -> vec4f {
    let at = gather(k, row, dims.rows, dims.inner);
    let v = vec4f(a[at.x], a[at.y], a[at.z], a[at.w]);
    return select(vec4f(sr_zero()), v, inside(k, row, dims.rows, dims.inner));
}

// B[k][col .. col + 3], the semiring's zero outside B.
fn load_b(k: u32, col: u32) -> vec4f {
    let at = gather(col, k, dims.inner, dims.cols);
    let v = vec4f(b[at.x], b[at.y], b[at.z], b[at.w]);
    return select(vec4f(sr_zero()), v, inside(col, k, dims.inner, dims.cols));
}

// C[row][col .. col + 3] ← v, finished, where inside C.
fn store_c(row: u32, col: u32, v: vec4f) {
    if (row >= dims.rows) { return; }
    for (var lane = 0u; lane < 4u; lane++) {
        if (col + lane < dims.cols) { c[row * dims.cols + col + lane] = sr_finish(v[lane]); }
    }
}
