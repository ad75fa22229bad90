// Kernel "register" for CPU-emulated GPUs, any shape (matmul/3_register_cpu.wgsl is
// the faster form for inner and cols multiples of 4): an 8 × 8 block of C per
// invocation in sixteen vec4 registers, A and B read an element at a time straight
// from global memory. Rows and columns past C's edge are clamped to the last ones
// once, before the loop, and their results are not written; nothing in the loop
// branches. Each pass runs k from dims.k0 for at most K_PASS steps, adding to what
// the pass before left in C: Mesa's lavapipe (Firefox's WebGPU without a GPU) stops
// every loop of a shader after 65,535 iterations in all, without an error, so a
// longer k lost its last terms (register::K_PASS splits it).
struct Dims { rows: u32, inner: u32, cols: u32, k0: u32 }
const K_PASS: u32 = 32768u;

@group(0) @binding(0) var<storage, read> a: array<f32>;        // rows × inner
@group(0) @binding(1) var<storage, read> b: array<f32>;        // inner × cols
@group(0) @binding(2) var<storage, read_write> c: array<f32>;  // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

fn store(row: u32, j: u32, v: vec4f) {
    if (row >= dims.rows) { return; }
    for (var lane = 0u; lane < 4u; lane++) {
        if (j + lane < dims.cols) { c[row * dims.cols + j + lane] = sr_finish(v[lane]); }
    }
}

// C's row `row` at columns j..j+3 as the pass before left it (sr_zero on the first
// pass, and outside C).
fn begun(row: u32, j: u32) -> vec4f {
    var v = vec4f(sr_zero());
    if (dims.k0 == 0u || row >= dims.rows) { return v; }
    let at = row * dims.cols + j;
    if (j < dims.cols) { v.x = c[at]; }
    if (j + 1u < dims.cols) { v.y = c[at + 1u]; }
    if (j + 2u < dims.cols) { v.z = c[at + 2u]; }
    if (j + 3u < dims.cols) { v.w = c[at + 3u]; }
    return v;
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let j = id.x * 8u;
    let i = id.y * 8u;
    if (i >= dims.rows || j >= dims.cols) { return; }
    let last_row = dims.rows - 1u;
    let last_col = dims.cols - 1u;
    // Where rows i..i+7 of A start and columns j..j+7 of B are, clamped inside.
    let a_row0 = min(i + 0u, last_row) * dims.inner;
    let a_row1 = min(i + 1u, last_row) * dims.inner;
    let a_row2 = min(i + 2u, last_row) * dims.inner;
    let a_row3 = min(i + 3u, last_row) * dims.inner;
    let a_row4 = min(i + 4u, last_row) * dims.inner;
    let a_row5 = min(i + 5u, last_row) * dims.inner;
    let a_row6 = min(i + 6u, last_row) * dims.inner;
    let a_row7 = min(i + 7u, last_row) * dims.inner;
    let b_col0 = min(j + 0u, last_col);
    let b_col1 = min(j + 1u, last_col);
    let b_col2 = min(j + 2u, last_col);
    let b_col3 = min(j + 3u, last_col);
    let b_col4 = min(j + 4u, last_col);
    let b_col5 = min(j + 5u, last_col);
    let b_col6 = min(j + 6u, last_col);
    let b_col7 = min(j + 7u, last_col);
    var c00 = begun(i + 0u, j); var c01 = begun(i + 0u, j + 4u);
    var c10 = begun(i + 1u, j); var c11 = begun(i + 1u, j + 4u);
    var c20 = begun(i + 2u, j); var c21 = begun(i + 2u, j + 4u);
    var c30 = begun(i + 3u, j); var c31 = begun(i + 3u, j + 4u);
    var c40 = begun(i + 4u, j); var c41 = begun(i + 4u, j + 4u);
    var c50 = begun(i + 5u, j); var c51 = begun(i + 5u, j + 4u);
    var c60 = begun(i + 6u, j); var c61 = begun(i + 6u, j + 4u);
    var c70 = begun(i + 7u, j); var c71 = begun(i + 7u, j + 4u);
    let k_end = min(dims.inner, dims.k0 + K_PASS);
    for (var k = dims.k0; k < k_end; k++) {
        let row = k * dims.cols;
        let b0 = vec4f(b[row + b_col0], b[row + b_col1], b[row + b_col2], b[row + b_col3]);
        let b1 = vec4f(b[row + b_col4], b[row + b_col5], b[row + b_col6], b[row + b_col7]);
        let a0 = a[a_row0 + k];
        c00 = sr_fma4(c00, a0, b0); c01 = sr_fma4(c01, a0, b1);
        let a1 = a[a_row1 + k];
        c10 = sr_fma4(c10, a1, b0); c11 = sr_fma4(c11, a1, b1);
        let a2 = a[a_row2 + k];
        c20 = sr_fma4(c20, a2, b0); c21 = sr_fma4(c21, a2, b1);
        let a3 = a[a_row3 + k];
        c30 = sr_fma4(c30, a3, b0); c31 = sr_fma4(c31, a3, b1);
        let a4 = a[a_row4 + k];
        c40 = sr_fma4(c40, a4, b0); c41 = sr_fma4(c41, a4, b1);
        let a5 = a[a_row5 + k];
        c50 = sr_fma4(c50, a5, b0); c51 = sr_fma4(c51, a5, b1);
        let a6 = a[a_row6 + k];
        c60 = sr_fma4(c60, a6, b0); c61 = sr_fma4(c61, a6, b1);
        let a7 = a[a_row7 + k];
        c70 = sr_fma4(c70, a7, b0); c71 = sr_fma4(c71, a7, b1);
    }
    store(i + 0u, j, c00); store(i + 0u, j + 4u, c01);
    store(i + 1u, j, c10); store(i + 1u, j + 4u, c11);
    store(i + 2u, j, c20); store(i + 2u, j + 4u, c21);
    store(i + 3u, j, c30); store(i + 3u, j + 4u, c31);
    store(i + 4u, j, c40); store(i + 4u, j + 4u, c41);
    store(i + 5u, j, c50); store(i + 5u, j + 4u, c51);
    store(i + 6u, j, c60); store(i + 6u, j + 4u, c61);
    store(i + 7u, j, c70); store(i + 7u, j + 4u, c71);
}
