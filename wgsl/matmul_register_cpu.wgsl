// Kernel "register" for CPU-emulated GPUs (SwiftShader and other fallback adapters):
// each invocation keeps an 8 × 8 block of C in sixteen vec4 registers and reads A
// and B straight from global memory, with no workgroup memory and no barriers.
// On a CPU an invocation's loops over arrays become memory traffic and a barrier
// stops every lane of the workgroup, so the staged GPU form (matmul_register.wgsl)
// is several times slower there; here every register is a named variable and the
// loop body is written out (bench/NOTES.md has the measurements).
//
// k advances four at a time: per step, 8 vec4s of B (rows k..k+3, two groups of
// four columns) and one vec4 of A per row (A[row][k..k+3]) feed 64 vec4
// multiply-adds. How A, B and C are bound and read (load_a, load_b, store_c) comes
// from register_io_vec4.wgsl or register_io_scalar.wgsl, as for the GPU form; loads
// past an edge give the semiring's zero, and only elements inside C are written.

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let j = id.x * 8u;   // first of this invocation's 8 columns
    let i = id.y * 8u;   // first of its 8 rows
    if (i >= dims.rows || j >= dims.cols) { return; }
    let z = vec4f(sr_zero());
    var c00 = z; var c01 = z;
    var c10 = z; var c11 = z;
    var c20 = z; var c21 = z;
    var c30 = z; var c31 = z;
    var c40 = z; var c41 = z;
    var c50 = z; var c51 = z;
    var c60 = z; var c61 = z;
    var c70 = z; var c71 = z;
    for (var k = 0u; k < dims.inner; k += 4u) {
        let b00 = load_b(k + 0u, j); let b01 = load_b(k + 0u, j + 4u);
        let b10 = load_b(k + 1u, j); let b11 = load_b(k + 1u, j + 4u);
        let b20 = load_b(k + 2u, j); let b21 = load_b(k + 2u, j + 4u);
        let b30 = load_b(k + 3u, j); let b31 = load_b(k + 3u, j + 4u);
        let a0 = load_a(i + 0u, k);
        let a1 = load_a(i + 1u, k);
        let a2 = load_a(i + 2u, k);
        let a3 = load_a(i + 3u, k);
        let a4 = load_a(i + 4u, k);
        let a5 = load_a(i + 5u, k);
        let a6 = load_a(i + 6u, k);
        let a7 = load_a(i + 7u, k);
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
    store_c(i + 0u, j, c00); store_c(i + 0u, j + 4u, c01);
    store_c(i + 1u, j, c10); store_c(i + 1u, j + 4u, c11);
    store_c(i + 2u, j, c20); store_c(i + 2u, j + 4u, c21);
    store_c(i + 3u, j, c30); store_c(i + 3u, j + 4u, c31);
    store_c(i + 4u, j, c40); store_c(i + 4u, j + 4u, c41);
    store_c(i + 5u, j, c50); store_c(i + 5u, j + 4u, c51);
    store_c(i + 6u, j, c60); store_c(i + 6u, j + 4u, c61);
    store_c(i + 7u, j, c70); store_c(i + 7u, j + 4u, c71);
}
