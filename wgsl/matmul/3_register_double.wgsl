// Kernel "register" (GPU form), double-buffered, on outputs of about 1024 × 1024 to
// 1664 × 1664 made of whole 128 × 32 tiles with inner a multiple of 32 (the engine
// checks the shape: this file has no edge checks). Read matmul/3_register.wgsl first:
// this is its scheme with a narrower tile and two changes.
// * A workgroup of 8 × 16 invocations computes a 128 × 32 tile of C, each invocation
//   8 × 4 of its elements in 8 vec4 registers (c0 … c7): at n = 1024 that makes 256
//   workgroups, enough to keep every core of a large GPU busy, where 128 × 128 tiles
//   make only 64.
// * Workgroup memory holds two slices of k (20 KiB): while the workgroup multiplies
//   one, each invocation stores the next one into the other, so a slice needs one
//   barrier instead of two. The loop body is written twice, once per buffer, so that
//   which buffer is read and which written are constants: with the buffer in a
//   variable the same scheme ran 22% slower (bench/NOTES.md).
// * As in the 128 × 128 form, each k's values are read before the previous k's
//   multiply-adds, in k loops the engine writes out as straight code.
// Measured on the H200 (bench/NOTES.md, 2026-11-29): 0.063 ms at n = 1024 against
// 0.073 for the 64 × 32 form it replaces there.
// The bindings and store_c: matmul/register_io_vec4.wgsl, put before this file.

const BK: u32 = 16u;   // one slice of k; workgroup memory holds two

// a_tile[s][k][m4] = A[row0 + 4·m4 .. + 3][k0 + k] in slice s: four rows of A at one k.
var<workgroup> a_tile: array<array<array<vec4f, 32>, 16>, 2>;
// b_tile[s][k][n4] = B[k0 + k][col0 + 4·n4 .. + 3] in slice s.
var<workgroup> b_tile: array<array<array<vec4f, 8>, 16>, 2>;

// One slice on its way from global memory to workgroup memory: a vec4 of A from each
// of 4 rows and one vec4 of B.
struct Slice { a0: vec4f, a1: vec4f, a2: vec4f, a3: vec4f, b0: vec4f }

// The slice at k0 of the tile at (row0, col0) for invocation li: A's rows
// 4·(li / 4) .. + 3 at k = 4·(li % 4) .. + 3 (32 row groups × 4 k groups), and B's
// vec4 li of the slice (row li / 8, columns 4·(li % 8) ..).
fn fetch(row0: u32, col0: u32, k0: u32, li: u32) -> Slice {
    let in4 = dims.inner / 4u;
    let cols4 = dims.cols / 4u;
    let m = row0 + (li / 4u) * 4u;
    let ka = k0 / 4u + li % 4u;
    var s: Slice;
    s.a0 = a[m * in4 + ka];
    s.a1 = a[(m + 1u) * in4 + ka];
    s.a2 = a[(m + 2u) * in4 + ka];
    s.a3 = a[(m + 3u) * in4 + ka];
    s.b0 = b[(k0 + li / 8u) * cols4 + col0 / 4u + li % 8u];
    return s;
}

@compute @workgroup_size(8, 16)
fn main(@builtin(local_invocation_id) local: vec3u,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) group: vec3u) {
    let row0 = group.y * 128u;
    let col0 = group.x * 32u;
    let tx = local.x;   // this invocation's columns: 4·tx .. 4·tx + 3 of the tile
    let ty = local.y;   // its rows: 4·ty + r and 4·(ty + 16) + r for r = 0..3
    let m4 = li / 4u;   // where it stores A's 4 rows × 4 k (transposed) ...
    let ka = (li % 4u) * 4u;
    let kb = li / 8u;   // ... and B's vec4
    let nb = li % 8u;
    let z = vec4f(sr_zero());
    // c{r}: row 4·(ty + 16·(r / 4)) + r % 4 of the tile, columns 4·tx ...
    var c0 = z; var c1 = z; var c2 = z; var c3 = z; var c4 = z; var c5 = z; var c6 = z; var c7 = z;
    var a0: vec4f; var a1: vec4f; var b0: vec4f;

    // The first slice into buffer 0.
    var next = fetch(row0, col0, 0u, li);
    a_tile[0][ka][m4] = vec4f(next.a0.x, next.a1.x, next.a2.x, next.a3.x);
    a_tile[0][ka + 1u][m4] = vec4f(next.a0.y, next.a1.y, next.a2.y, next.a3.y);
    a_tile[0][ka + 2u][m4] = vec4f(next.a0.z, next.a1.z, next.a2.z, next.a3.z);
    a_tile[0][ka + 3u][m4] = vec4f(next.a0.w, next.a1.w, next.a2.w, next.a3.w);
    b_tile[0][kb][nb] = next.b0;
    workgroupBarrier();

    for (var k0 = 0u; k0 < dims.inner; k0 += 2u * BK) {
        // Buffer 0 holds slice k0. The next one (there is one: inner is a multiple of
        // 2·BK) is loaded now, so it arrives while this one is multiplied.
        next = fetch(row0, col0, k0 + BK, li);
        a0 = a_tile[0][0][ty]; a1 = a_tile[0][0][ty + 16u]; b0 = b_tile[0][0][tx];
        for (var k = 0u; k < BK; k++) {
            // The next k's values before this k's multiply-adds (the last k reads its own again).
            let kn = min(k + 1u, BK - 1u);
            let na0 = a_tile[0][kn][ty];
            let na1 = a_tile[0][kn][ty + 16u];
            let nb0 = b_tile[0][kn][tx];
            c0 = sr_fma4(c0, a0.x, b0); c1 = sr_fma4(c1, a0.y, b0);
            c2 = sr_fma4(c2, a0.z, b0); c3 = sr_fma4(c3, a0.w, b0);
            c4 = sr_fma4(c4, a1.x, b0); c5 = sr_fma4(c5, a1.y, b0);
            c6 = sr_fma4(c6, a1.z, b0); c7 = sr_fma4(c7, a1.w, b0);
            a0 = na0; a1 = na1; b0 = nb0;
        }
        // Buffer 1 was last read before the previous barrier: free to fill.
        a_tile[1][ka][m4] = vec4f(next.a0.x, next.a1.x, next.a2.x, next.a3.x);
        a_tile[1][ka + 1u][m4] = vec4f(next.a0.y, next.a1.y, next.a2.y, next.a3.y);
        a_tile[1][ka + 2u][m4] = vec4f(next.a0.z, next.a1.z, next.a2.z, next.a3.z);
        a_tile[1][ka + 3u][m4] = vec4f(next.a0.w, next.a1.w, next.a2.w, next.a3.w);
        b_tile[1][kb][nb] = next.b0;
        workgroupBarrier();

        // The same with the buffers' roles swapped: buffer 1 holds slice k0 + BK.
        let more = k0 + 2u * BK < dims.inner;
        if (more) { next = fetch(row0, col0, k0 + 2u * BK, li); }
        a0 = a_tile[1][0][ty]; a1 = a_tile[1][0][ty + 16u]; b0 = b_tile[1][0][tx];
        for (var k = 0u; k < BK; k++) {
            let kn = min(k + 1u, BK - 1u);
            let na0 = a_tile[1][kn][ty];
            let na1 = a_tile[1][kn][ty + 16u];
            let nb0 = b_tile[1][kn][tx];
            c0 = sr_fma4(c0, a0.x, b0); c1 = sr_fma4(c1, a0.y, b0);
            c2 = sr_fma4(c2, a0.z, b0); c3 = sr_fma4(c3, a0.w, b0);
            c4 = sr_fma4(c4, a1.x, b0); c5 = sr_fma4(c5, a1.y, b0);
            c6 = sr_fma4(c6, a1.z, b0); c7 = sr_fma4(c7, a1.w, b0);
            a0 = na0; a1 = na1; b0 = nb0;
        }
        if (more) {
            a_tile[0][ka][m4] = vec4f(next.a0.x, next.a1.x, next.a2.x, next.a3.x);
            a_tile[0][ka + 1u][m4] = vec4f(next.a0.y, next.a1.y, next.a2.y, next.a3.y);
            a_tile[0][ka + 2u][m4] = vec4f(next.a0.z, next.a1.z, next.a2.z, next.a3.z);
            a_tile[0][ka + 3u][m4] = vec4f(next.a0.w, next.a1.w, next.a2.w, next.a3.w);
            b_tile[0][kb][nb] = next.b0;
        }
        workgroupBarrier();
    }

    let col = col0 + tx * 4u;
    store_c(row0 + ty * 4u, col, c0, true);
    store_c(row0 + ty * 4u + 1u, col, c1, true);
    store_c(row0 + ty * 4u + 2u, col, c2, true);
    store_c(row0 + ty * 4u + 3u, col, c3, true);
    store_c(row0 + (ty + 16u) * 4u, col, c4, true);
    store_c(row0 + (ty + 16u) * 4u + 1u, col, c5, true);
    store_c(row0 + (ty + 16u) * 4u + 2u, col, c6, true);
    store_c(row0 + (ty + 16u) * 4u + 3u, col, c7, true);
}
