// Kernel "register" for CPU-emulated GPUs (SwiftShader and other fallback adapters),
// for shapes whose inner and cols are multiples of 4 (every row starts on a 16-byte
// word; matmul/3_register_cpu_any.wgsl takes the others). Each invocation keeps an
// 8 × 8 block of C in sixteen vec4 registers and reads A and B straight from global
// memory as vec4s, with no workgroup memory and no barriers. On a CPU an
// invocation's loops over arrays become memory traffic and a barrier stops every
// lane of the workgroup, so the staged GPU form (matmul/3_register.wgsl) is several
// times slower there; here every register is a named variable, the loop body is
// written out, and nothing in the loop branches or clamps: rows and columns past
// C's edge are clamped to the last ones once, before the loop, and their results
// are not written (bench/NOTES.md has the measurements). Each pass runs k from
// dims.k0 for at most K_PASS steps, adding to what the pass before left in C
// (matmul/3_register_cpu_any.wgsl says why).
struct Dims { rows: u32, inner: u32, cols: u32, k0: u32 }
const K_PASS: u32 = 32768u;

@group(0) @binding(0) var<storage, read> a: array<vec4f>;        // rows × inner
@group(0) @binding(1) var<storage, read> b: array<vec4f>;        // inner × cols
@group(0) @binding(2) var<storage, read_write> c: array<vec4f>;  // rows × cols
@group(0) @binding(3) var<uniform> dims: Dims;

fn store(row: u32, j: u32, v: vec4f) {
    if (row < dims.rows && j < dims.cols) {
        c[(row * dims.cols + j) / 4u] =
            vec4f(sr_finish(v.x), sr_finish(v.y), sr_finish(v.z), sr_finish(v.w));
    }
}

// C's row `row` at columns j..j+3 as the pass before left it (sr_zero on the first
// pass, and outside C).
fn begun(row: u32, j: u32) -> vec4f {
    if (dims.k0 == 0u || row >= dims.rows || j >= dims.cols) { return vec4f(sr_zero()); }
    return c[(row * dims.cols + j) / 4u];
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let j = id.x * 8u;   // first of this invocation's 8 columns
    let i = id.y * 8u;   // first of its 8 rows
    if (i >= dims.rows || j >= dims.cols) { return; }
    let in4 = dims.inner / 4u;
    let cols4 = dims.cols / 4u;
    let last = dims.rows - 1u;
    // Where rows i..i+7 of A start and columns j..j+7 of B are, clamped inside.
    let a_row0 = min(i + 0u, last) * in4;
    let a_row1 = min(i + 1u, last) * in4;
    let a_row2 = min(i + 2u, last) * in4;
    let a_row3 = min(i + 3u, last) * in4;
    let a_row4 = min(i + 4u, last) * in4;
    let a_row5 = min(i + 5u, last) * in4;
    let a_row6 = min(i + 6u, last) * in4;
    let a_row7 = min(i + 7u, last) * in4;
    let b_col0 = min(j, dims.cols - 4u) / 4u;
    let b_col1 = min(j + 4u, dims.cols - 4u) / 4u;
    var c00 = begun(i + 0u, j); var c01 = begun(i + 0u, j + 4u);
    var c10 = begun(i + 1u, j); var c11 = begun(i + 1u, j + 4u);
    var c20 = begun(i + 2u, j); var c21 = begun(i + 2u, j + 4u);
    var c30 = begun(i + 3u, j); var c31 = begun(i + 3u, j + 4u);
    var c40 = begun(i + 4u, j); var c41 = begun(i + 4u, j + 4u);
    var c50 = begun(i + 5u, j); var c51 = begun(i + 5u, j + 4u);
    var c60 = begun(i + 6u, j); var c61 = begun(i + 6u, j + 4u);
    var c70 = begun(i + 7u, j); var c71 = begun(i + 7u, j + 4u);
    let k4_end = min(in4, (dims.k0 + K_PASS) / 4u);
    for (var k4 = dims.k0 / 4u; k4 < k4_end; k4++) {
        // B rows 4·k4 .. 4·k4 + 3, two groups of 4 columns each.
        let row = k4 * 4u * cols4;
        let b00 = b[row + 0u * cols4 + b_col0]; let b01 = b[row + 0u * cols4 + b_col1];
        let b10 = b[row + 1u * cols4 + b_col0]; let b11 = b[row + 1u * cols4 + b_col1];
        let b20 = b[row + 2u * cols4 + b_col0]; let b21 = b[row + 2u * cols4 + b_col1];
        let b30 = b[row + 3u * cols4 + b_col0]; let b31 = b[row + 3u * cols4 + b_col1];
        let a0 = a[a_row0 + k4];
        let a1 = a[a_row1 + k4];
        let a2 = a[a_row2 + k4];
        let a3 = a[a_row3 + k4];
        let a4 = a[a_row4 + k4];
        let a5 = a[a_row5 + k4];
        let a6 = a[a_row6 + k4];
        let a7 = a[a_row7 + k4];
        c00 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c00, a0.x, b00), a0.y, b10), a0.z, b20), a0.w, b30);
        c01 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c01, a0.x, b01), a0.y, b11), a0.z, b21), a0.w, b31);
        c10 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c10, a1.x, b00), a1.y, b10), a1.z, b20), a1.w, b30);
        c11 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c11, a1.x, b01), a1.y, b11), a1.z, b21), a1.w, b31);
        c20 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c20, a2.x, b00), a2.y, b10), a2.z, b20), a2.w, b30);
        c21 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c21, a2.x, b01), a2.y, b11), a2.z, b21), a2.w, b31);
        c30 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c30, a3.x, b00), a3.y, b10), a3.z, b20), a3.w, b30);
        c31 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c31, a3.x, b01), a3.y, b11), a3.z, b21), a3.w, b31);
        c40 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c40, a4.x, b00), a4.y, b10), a4.z, b20), a4.w, b30);
        c41 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c41, a4.x, b01), a4.y, b11), a4.z, b21), a4.w, b31);
        c50 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c50, a5.x, b00), a5.y, b10), a5.z, b20), a5.w, b30);
        c51 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c51, a5.x, b01), a5.y, b11), a5.z, b21), a5.w, b31);
        c60 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c60, a6.x, b00), a6.y, b10), a6.z, b20), a6.w, b30);
        c61 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c61, a6.x, b01), a6.y, b11), a6.z, b21), a6.w, b31);
        c70 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c70, a7.x, b00), a7.y, b10), a7.z, b20), a7.w, b30);
        c71 = sr_fma4(sr_fma4(sr_fma4(sr_fma4(c71, a7.x, b01), a7.y, b11), a7.z, b21), a7.w, b31);
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
