// Kernel "register" (GPU form for large outputs of whole tiles): matmul_register.wgsl's
// register tiling, 16 × 8 outputs per invocation in the same 32 named vec4 registers,
// with two changes measured on the H100 (bench/NOTES.md, "double-buffered 256 × 128"):
// * a workgroup of 16 × WG_Y invocations computes a (16·WG_Y) × 128 tile of C:
//   WG_Y = 16 on a GPU (256 × 128, 256 invocations), so each slice of B staged in
//   workgroup memory serves twice as many rows of A;
// * workgroup memory holds two slices of k (double buffering): while the invocations
//   multiply with one, each stores the next slice, already in its registers, into the
//   other, so one barrier a slice suffices where the single-buffered form needs two
//   (one before the slice is read, one before it is overwritten). The loop is written
//   out for the two buffers so that which one is read and which written are constants:
//   with the buffer in a variable the same scheme ran 10-20% slower;
// * each k's values are read from workgroup memory before the previous k's
//   multiply-adds (a0 … b1 hold this k's, na0 … nb1 the next k's), so the reads'
//   latency hides behind arithmetic. The driver's compiler keeps that order only in
//   straight code, so the engine writes each k loop out, 16 blocks `{ let k = …u; … }`
//   (src/kernels/webgpu/register.rs): 45,700 GFLOP/s at n = 4096 against 42,800
//   without the early reads, 38,300 with them in a loop.
// 256 × 128 tiles with two slices need 48 KiB of workgroup memory (the H100 allows 48);
// the engine runs this file only on devices that allow it, and only where every tile
// and every pair of slices lies wholly inside the matrices (rows a multiple of 16·WG_Y,
// cols of 128, inner of 32), so it has no edge checks at all.
//
// Put before this file by src/kernels/webgpu/register.rs: `const WG_Y: u32 = …;` (16;
// the tests also run 8, a 128 × 128 tile in 32 KiB, on a software adapter), the
// semiring, and register_io_vec4.wgsl (the bindings and store_c).

const BK: u32 = 16u;            // the slice of k staged at a time
const ROWS4: u32 = 4u * WG_Y;   // vec4 groups of rows in the tile: 16·WG_Y rows
const B_PER: u32 = 32u / WG_Y;  // vec4s of B each invocation copies per slice (2 or 4)

// a_tile[buffer][k][m4] = A[row0 + 4·m4 .. + 3][k0 + k]: four rows of A at one k.
var<workgroup> a_tile: array<array<array<vec4f, ROWS4>, 16>, 2>;
// b_tile[buffer][k][n4] = B[k0 + k][col0 + 4·n4 .. + 3].
var<workgroup> b_tile: array<array<array<vec4f, 32>, 16>, 2>;

// One slice on its way from global memory to this invocation's registers: a vec4 of A
// from each of 4 rows (4·m4 .. 4·m4 + 3, at k = 4·k4 .. 4·k4 + 3) and B_PER vec4s of B.
struct Slice { a0: vec4f, a1: vec4f, a2: vec4f, a3: vec4f, b0: vec4f, b1: vec4f, b2: vec4f, b3: vec4f }

// The slice at k0 for invocation li: A's rows 4·(li / 4) .. + 3 at k = 4·(li % 4), and
// B's vec4s li, li + 16·WG_Y, … of the slice (row = vec4 / 32, columns 4·(vec4 % 32) ..).
fn fetch(row0: u32, col0: u32, k0: u32, li: u32) -> Slice {
    let in4 = dims.inner / 4u;
    let cols4 = dims.cols / 4u;
    let m = row0 + (li / 4u) * 4u;
    let ka = (k0 + (li % 4u) * 4u) / 4u;
    var s: Slice;
    s.a0 = a[m * in4 + ka];
    s.a1 = a[(m + 1u) * in4 + ka];
    s.a2 = a[(m + 2u) * in4 + ka];
    s.a3 = a[(m + 3u) * in4 + ka];
    let cb = col0 / 4u + li % 32u;
    let kb = k0 + li / 32u;
    s.b0 = b[kb * cols4 + cb];
    s.b1 = b[(kb + WG_Y / 2u) * cols4 + cb];
    if (B_PER == 4u) {
        s.b2 = b[(kb + WG_Y) * cols4 + cb];
        s.b3 = b[(kb + 3u * WG_Y / 2u) * cols4 + cb];
    }
    return s;
}

@compute @workgroup_size(16, WG_Y)
fn main(@builtin(local_invocation_id) local: vec3u,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) group: vec3u) {
    let row0 = group.y * 16u * WG_Y;
    let col0 = group.x * 128u;
    let tx = local.x;   // this invocation's columns: 4·tx .. and 64 + 4·tx .. of the tile
    let ty = local.y;   // its rows: 4·(ty + WG_Y·i) + r for i = 0..3, r = 0..3
    let m4 = li / 4u;   // where its share of each slice goes in workgroup memory
    let ka = (li % 4u) * 4u;
    let kb = li / 32u;
    let nb = li % 32u;
    let z = vec4f(sr_zero());
    // c{r}_{j}: row 4·(ty + WG_Y·(r / 4)) + r % 4 of the tile, columns 4·(tx + 16·j) ...
    var c0_0 = z; var c0_1 = z; var c1_0 = z; var c1_1 = z; var c2_0 = z; var c2_1 = z; var c3_0 = z; var c3_1 = z;
    var c4_0 = z; var c4_1 = z; var c5_0 = z; var c5_1 = z; var c6_0 = z; var c6_1 = z; var c7_0 = z; var c7_1 = z;
    var c8_0 = z; var c8_1 = z; var c9_0 = z; var c9_1 = z; var c10_0 = z; var c10_1 = z; var c11_0 = z; var c11_1 = z;
    var c12_0 = z; var c12_1 = z; var c13_0 = z; var c13_1 = z; var c14_0 = z; var c14_1 = z; var c15_0 = z; var c15_1 = z;
    // The workgroup-memory values of one k: A's 16 rows, B's 8 columns.
    var a0: vec4f; var a1: vec4f; var a2: vec4f; var a3: vec4f; var b0: vec4f; var b1: vec4f;

    // The first slice into buffer 0.
    var next = fetch(row0, col0, 0u, li);
    a_tile[0][ka][m4] = vec4f(next.a0.x, next.a1.x, next.a2.x, next.a3.x);
    a_tile[0][ka + 1u][m4] = vec4f(next.a0.y, next.a1.y, next.a2.y, next.a3.y);
    a_tile[0][ka + 2u][m4] = vec4f(next.a0.z, next.a1.z, next.a2.z, next.a3.z);
    a_tile[0][ka + 3u][m4] = vec4f(next.a0.w, next.a1.w, next.a2.w, next.a3.w);
    b_tile[0][kb][nb] = next.b0;
    b_tile[0][kb + WG_Y / 2u][nb] = next.b1;
    if (B_PER == 4u) {
        b_tile[0][kb + WG_Y][nb] = next.b2;
        b_tile[0][kb + 3u * WG_Y / 2u][nb] = next.b3;
    }
    workgroupBarrier();

    // Two slices a turn (inner is a multiple of 2·BK): multiply with buffer 0 while
    // the slice after it goes into buffer 1, then the other way round.
    for (var k0 = 0u; k0 < dims.inner; k0 += 2u * BK) {
        next = fetch(row0, col0, k0 + BK, li);
        a0 = a_tile[0][0][ty]; a1 = a_tile[0][0][ty + WG_Y];
        a2 = a_tile[0][0][ty + 2u * WG_Y]; a3 = a_tile[0][0][ty + 3u * WG_Y];
        b0 = b_tile[0][0][tx]; b1 = b_tile[0][0][tx + 16u];
        for (var k = 0u; k < BK; k++) {
            // The next k's values (the last k reads its own again, which costs nothing).
            let kn = min(k + 1u, BK - 1u);
            let na0 = a_tile[0][kn][ty];
            let na1 = a_tile[0][kn][ty + WG_Y];
            let na2 = a_tile[0][kn][ty + 2u * WG_Y];
            let na3 = a_tile[0][kn][ty + 3u * WG_Y];
            let nb0 = b_tile[0][kn][tx];
            let nb1 = b_tile[0][kn][tx + 16u];
            c0_0 = sr_fma4(c0_0, a0.x, b0); c0_1 = sr_fma4(c0_1, a0.x, b1);
            c1_0 = sr_fma4(c1_0, a0.y, b0); c1_1 = sr_fma4(c1_1, a0.y, b1);
            c2_0 = sr_fma4(c2_0, a0.z, b0); c2_1 = sr_fma4(c2_1, a0.z, b1);
            c3_0 = sr_fma4(c3_0, a0.w, b0); c3_1 = sr_fma4(c3_1, a0.w, b1);
            c4_0 = sr_fma4(c4_0, a1.x, b0); c4_1 = sr_fma4(c4_1, a1.x, b1);
            c5_0 = sr_fma4(c5_0, a1.y, b0); c5_1 = sr_fma4(c5_1, a1.y, b1);
            c6_0 = sr_fma4(c6_0, a1.z, b0); c6_1 = sr_fma4(c6_1, a1.z, b1);
            c7_0 = sr_fma4(c7_0, a1.w, b0); c7_1 = sr_fma4(c7_1, a1.w, b1);
            c8_0 = sr_fma4(c8_0, a2.x, b0); c8_1 = sr_fma4(c8_1, a2.x, b1);
            c9_0 = sr_fma4(c9_0, a2.y, b0); c9_1 = sr_fma4(c9_1, a2.y, b1);
            c10_0 = sr_fma4(c10_0, a2.z, b0); c10_1 = sr_fma4(c10_1, a2.z, b1);
            c11_0 = sr_fma4(c11_0, a2.w, b0); c11_1 = sr_fma4(c11_1, a2.w, b1);
            c12_0 = sr_fma4(c12_0, a3.x, b0); c12_1 = sr_fma4(c12_1, a3.x, b1);
            c13_0 = sr_fma4(c13_0, a3.y, b0); c13_1 = sr_fma4(c13_1, a3.y, b1);
            c14_0 = sr_fma4(c14_0, a3.z, b0); c14_1 = sr_fma4(c14_1, a3.z, b1);
            c15_0 = sr_fma4(c15_0, a3.w, b0); c15_1 = sr_fma4(c15_1, a3.w, b1);
            a0 = na0; a1 = na1; a2 = na2; a3 = na3; b0 = nb0; b1 = nb1;
        }
        // Buffer 1 was last read before the barrier that ended the previous turn.
        a_tile[1][ka][m4] = vec4f(next.a0.x, next.a1.x, next.a2.x, next.a3.x);
        a_tile[1][ka + 1u][m4] = vec4f(next.a0.y, next.a1.y, next.a2.y, next.a3.y);
        a_tile[1][ka + 2u][m4] = vec4f(next.a0.z, next.a1.z, next.a2.z, next.a3.z);
        a_tile[1][ka + 3u][m4] = vec4f(next.a0.w, next.a1.w, next.a2.w, next.a3.w);
        b_tile[1][kb][nb] = next.b0;
        b_tile[1][kb + WG_Y / 2u][nb] = next.b1;
        if (B_PER == 4u) {
            b_tile[1][kb + WG_Y][nb] = next.b2;
            b_tile[1][kb + 3u * WG_Y / 2u][nb] = next.b3;
        }
        workgroupBarrier();

        let more = k0 + 2u * BK < dims.inner;
        if (more) { next = fetch(row0, col0, k0 + 2u * BK, li); }
        a0 = a_tile[1][0][ty]; a1 = a_tile[1][0][ty + WG_Y];
        a2 = a_tile[1][0][ty + 2u * WG_Y]; a3 = a_tile[1][0][ty + 3u * WG_Y];
        b0 = b_tile[1][0][tx]; b1 = b_tile[1][0][tx + 16u];
        for (var k = 0u; k < BK; k++) {
            let kn = min(k + 1u, BK - 1u);
            let na0 = a_tile[1][kn][ty];
            let na1 = a_tile[1][kn][ty + WG_Y];
            let na2 = a_tile[1][kn][ty + 2u * WG_Y];
            let na3 = a_tile[1][kn][ty + 3u * WG_Y];
            let nb0 = b_tile[1][kn][tx];
            let nb1 = b_tile[1][kn][tx + 16u];
            c0_0 = sr_fma4(c0_0, a0.x, b0); c0_1 = sr_fma4(c0_1, a0.x, b1);
            c1_0 = sr_fma4(c1_0, a0.y, b0); c1_1 = sr_fma4(c1_1, a0.y, b1);
            c2_0 = sr_fma4(c2_0, a0.z, b0); c2_1 = sr_fma4(c2_1, a0.z, b1);
            c3_0 = sr_fma4(c3_0, a0.w, b0); c3_1 = sr_fma4(c3_1, a0.w, b1);
            c4_0 = sr_fma4(c4_0, a1.x, b0); c4_1 = sr_fma4(c4_1, a1.x, b1);
            c5_0 = sr_fma4(c5_0, a1.y, b0); c5_1 = sr_fma4(c5_1, a1.y, b1);
            c6_0 = sr_fma4(c6_0, a1.z, b0); c6_1 = sr_fma4(c6_1, a1.z, b1);
            c7_0 = sr_fma4(c7_0, a1.w, b0); c7_1 = sr_fma4(c7_1, a1.w, b1);
            c8_0 = sr_fma4(c8_0, a2.x, b0); c8_1 = sr_fma4(c8_1, a2.x, b1);
            c9_0 = sr_fma4(c9_0, a2.y, b0); c9_1 = sr_fma4(c9_1, a2.y, b1);
            c10_0 = sr_fma4(c10_0, a2.z, b0); c10_1 = sr_fma4(c10_1, a2.z, b1);
            c11_0 = sr_fma4(c11_0, a2.w, b0); c11_1 = sr_fma4(c11_1, a2.w, b1);
            c12_0 = sr_fma4(c12_0, a3.x, b0); c12_1 = sr_fma4(c12_1, a3.x, b1);
            c13_0 = sr_fma4(c13_0, a3.y, b0); c13_1 = sr_fma4(c13_1, a3.y, b1);
            c14_0 = sr_fma4(c14_0, a3.z, b0); c14_1 = sr_fma4(c14_1, a3.z, b1);
            c15_0 = sr_fma4(c15_0, a3.w, b0); c15_1 = sr_fma4(c15_1, a3.w, b1);
            a0 = na0; a1 = na1; a2 = na2; a3 = na3; b0 = nb0; b1 = nb1;
        }
        if (more) {
            a_tile[0][ka][m4] = vec4f(next.a0.x, next.a1.x, next.a2.x, next.a3.x);
            a_tile[0][ka + 1u][m4] = vec4f(next.a0.y, next.a1.y, next.a2.y, next.a3.y);
            a_tile[0][ka + 2u][m4] = vec4f(next.a0.z, next.a1.z, next.a2.z, next.a3.z);
            a_tile[0][ka + 3u][m4] = vec4f(next.a0.w, next.a1.w, next.a2.w, next.a3.w);
            b_tile[0][kb][nb] = next.b0;
            b_tile[0][kb + WG_Y / 2u][nb] = next.b1;
            if (B_PER == 4u) {
                b_tile[0][kb + WG_Y][nb] = next.b2;
                b_tile[0][kb + 3u * WG_Y / 2u][nb] = next.b3;
            }
        }
        workgroupBarrier();
    }

    // Whole tiles only: every store is inside C.
    let r0 = row0 + ty * 4u;
    let r1 = row0 + (ty + WG_Y) * 4u;
    let r2 = row0 + (ty + 2u * WG_Y) * 4u;
    let r3 = row0 + (ty + 3u * WG_Y) * 4u;
    let q0 = col0 + tx * 4u;
    let q1 = col0 + (tx + 16u) * 4u;
    store_c(r0, q0, c0_0, true); store_c(r0, q1, c0_1, true);
    store_c(r0 + 1u, q0, c1_0, true); store_c(r0 + 1u, q1, c1_1, true);
    store_c(r0 + 2u, q0, c2_0, true); store_c(r0 + 2u, q1, c2_1, true);
    store_c(r0 + 3u, q0, c3_0, true); store_c(r0 + 3u, q1, c3_1, true);
    store_c(r1, q0, c4_0, true); store_c(r1, q1, c4_1, true);
    store_c(r1 + 1u, q0, c5_0, true); store_c(r1 + 1u, q1, c5_1, true);
    store_c(r1 + 2u, q0, c6_0, true); store_c(r1 + 2u, q1, c6_1, true);
    store_c(r1 + 3u, q0, c7_0, true); store_c(r1 + 3u, q1, c7_1, true);
    store_c(r2, q0, c8_0, true); store_c(r2, q1, c8_1, true);
    store_c(r2 + 1u, q0, c9_0, true); store_c(r2 + 1u, q1, c9_1, true);
    store_c(r2 + 2u, q0, c10_0, true); store_c(r2 + 2u, q1, c10_1, true);
    store_c(r2 + 3u, q0, c11_0, true); store_c(r2 + 3u, q1, c11_1, true);
    store_c(r3, q0, c12_0, true); store_c(r3, q1, c12_1, true);
    store_c(r3 + 1u, q0, c13_0, true); store_c(r3 + 1u, q1, c13_1, true);
    store_c(r3 + 2u, q0, c14_0, true); store_c(r3 + 2u, q1, c14_1, true);
    store_c(r3 + 3u, q0, c15_0, true); store_c(r3 + 3u, q1, c15_1, true);
}
