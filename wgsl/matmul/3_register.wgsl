// Kernel "register" (GPU form), for shapes whose inner and cols are multiples of 4
// (matmul/3_register_any.wgsl takes the others): register tiling, as in siboehm's SGEMM
// worklog (kernels 5 to 7) and TF.js's WebGPU matMul. A workgroup of 16 × 8
// invocations computes a 128 × 128 tile of C, each invocation 16 × 8 of its elements
// in 32 vec4 registers (c0_0 … c15_1). For each 16-wide slice of k the workgroup
// copies A's 128 × 16 tile (transposed) and B's 16 × 128 tile into workgroup memory;
// then, per k, each invocation reads 4 vec4s of A and 2 of B and does 128
// multiply-adds with them: 5.3 per value read from workgroup memory, against 1 for
// "tiled16".
//
// What the measurements taught (H100, n = 4096; bench/NOTES.md has the tables):
// * everything moves as vec4s: loads from global memory, and workgroup memory written
//   and read 16 bytes at a time; A's rows are transposed in registers on the way in
//   (4 rows × 4 k become 4 vec4s of one k each), so no invocation writes part of a vec4;
// * the next slice's loads are issued before this slice's arithmetic (prefetch into
//   registers), hiding their latency behind it;
// * rows and columns are dealt out in vec4 groups interleaved across invocations, so
//   neighbouring invocations read neighbouring words of workgroup memory;
// * every register is a named variable and the per-k body is written out: the same
//   kernel with arrays and loops (matmul/3_register_any.wgsl's form) ran 20% slower;
// * a workgroup whose tile lies wholly inside C loads and stores unchecked; only the
//   edge workgroups check (a branch the whole workgroup takes alike);
// * where every tile lies inside (rows and cols multiples of 128, inner of 16) the
//   pipeline is made with EDGES = false and the checking code is compiled out: its
//   mere presence cost 5% (40,600 against 38,600 GFLOP/s at n = 4096), registers the
//   compiler set aside for the path no workgroup took;
// * workgroup memory is indexed [k][vec4]: Dawn clamps every index into an array
//   (robustness), and a clamp on a constant k or on the loop-invariant ty costs
//   nothing once the loop is unrolled, where one on k·32 + ty cost a little each read;
// * each k's values are read from workgroup memory before the previous k's
//   multiply-adds, so their latency hides behind arithmetic; the driver's compiler keeps
//   that order only in straight code, so the engine writes the k loop out, 16 blocks
//   `{ let k = …u; … }` (src/kernels/webgpu/register.rs): 44,400 GFLOP/s at n = 4096
//   in the probe's form of this kernel, against 41,200 without the early reads.

// The bindings, load_a, load_b and store_c: matmul/register_io_vec4.wgsl, put before this file.

const BK: u32 = 16u;   // the slice of k staged at a time

// false: every tile lies wholly inside the matrices (the engine checks the shape), so
// no invocation needs the checked loads and stores.
override EDGES: bool = true;

// a_tile[k][m4] = A[row0 + 4·m4 .. + 3][k0 + k]: four rows of A at one k.
var<workgroup> a_tile: array<array<vec4f, 32>, 16>;
// b_tile[k][n4] = B[k0 + k][col0 + 4·n4 .. + 3].
var<workgroup> b_tile: array<array<vec4f, 32>, 16>;

// One slice on its way from global memory to this invocation's registers: a vec4 of
// A from each of 4 rows (4·m4 .. 4·m4 + 3, at k = 4·k4 .. 4·k4 + 3) and 4 vec4s of B.
struct Slice { a0: vec4f, a1: vec4f, a2: vec4f, a3: vec4f, b0: vec4f, b1: vec4f, b2: vec4f, b3: vec4f }

// The slice at k0 of the tile at (row0, col0) for invocation li: invocation li copies
// A's rows 4·(li / 4) .. + 3 at k = 4·(li % 4), and B's vec4s li, li + 128, li + 256,
// li + 384 of the slice (row = vec4 / 32, columns 4·(vec4 % 32) ..).
fn fetch(row0: u32, col0: u32, k0: u32, li: u32, full: bool) -> Slice {
    let m = row0 + (li / 4u) * 4u;
    let k = k0 + (li % 4u) * 4u;
    var s: Slice;
    if (full) {
        let in4 = dims.inner / 4u;
        let cols4 = dims.cols / 4u;
        let ka = k / 4u;
        s.a0 = a[m * in4 + ka];
        s.a1 = a[(m + 1u) * in4 + ka];
        s.a2 = a[(m + 2u) * in4 + ka];
        s.a3 = a[(m + 3u) * in4 + ka];
        let cb = col0 / 4u + li % 32u;
        let kb = k0 + li / 32u;
        s.b0 = b[kb * cols4 + cb];
        s.b1 = b[(kb + 4u) * cols4 + cb];
        s.b2 = b[(kb + 8u) * cols4 + cb];
        s.b3 = b[(kb + 12u) * cols4 + cb];
    } else {
        s.a0 = load_a(m, k);
        s.a1 = load_a(m + 1u, k);
        s.a2 = load_a(m + 2u, k);
        s.a3 = load_a(m + 3u, k);
        let col = col0 + (li % 32u) * 4u;
        let kb = k0 + li / 32u;
        s.b0 = load_b(kb, col);
        s.b1 = load_b(kb + 4u, col);
        s.b2 = load_b(kb + 8u, col);
        s.b3 = load_b(kb + 12u, col);
    }
    return s;
}

@compute @workgroup_size(16, 8)
fn main(@builtin(local_invocation_id) local: vec3u,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) group: vec3u) {
    // What this workgroup computes, in parts (a tile of C and a range of k each):
    // matmul/register_tiles.wgsl, put before this file, gives it its own tile, all of k, in
    // one part; matmul/4_stream_k.wgsl lets the last tiles' k be shared out among the
    // workgroups of a last wave (stream-K), whose parts go to a scratch buffer.
    let parts = part_count(group, li);
    for (var part = 0u; part < parts; part++) {
        let p = part_at(group, part);
        let row0 = p.row0;
        let col0 = p.col0;
        let tx = local.x;   // this invocation's columns: 4·tx .. and 64 + 4·tx .. of the tile
        let ty = local.y;   // its rows: 4·(ty + 8i) + r for i = 0..3, r = 0..3
        // The whole tile and every slice of k inside the matrices: no checks needed.
        let full = !EDGES || (row0 + 128u <= dims.rows && col0 + 128u <= dims.cols && dims.inner % BK == 0u);
        let z = vec4f(sr_zero());
        // c{r}_{j}: row 4·(ty + 8·(r / 4)) + r % 4 of the tile, columns 4·(tx + 16·j) ...
        var c0_0 = z; var c0_1 = z; var c1_0 = z; var c1_1 = z; var c2_0 = z; var c2_1 = z; var c3_0 = z; var c3_1 = z;
        var c4_0 = z; var c4_1 = z; var c5_0 = z; var c5_1 = z; var c6_0 = z; var c6_1 = z; var c7_0 = z; var c7_1 = z;
        var c8_0 = z; var c8_1 = z; var c9_0 = z; var c9_1 = z; var c10_0 = z; var c10_1 = z; var c11_0 = z; var c11_1 = z;
        var c12_0 = z; var c12_1 = z; var c13_0 = z; var c13_1 = z; var c14_0 = z; var c14_1 = z; var c15_0 = z; var c15_1 = z;
        var a0: vec4f; var a1: vec4f; var a2: vec4f; var a3: vec4f; var b0: vec4f; var b1: vec4f;

        var next = fetch(row0, col0, p.k_lo, li, full);
        for (var k0 = p.k_lo; k0 < p.k_hi; k0 += BK) {
            // Into workgroup memory: A's 4 rows × 4 k transposed into 4 vec4s of one k.
            let m4 = li / 4u;
            let ka = (li % 4u) * 4u;
            a_tile[ka][m4] = vec4f(next.a0.x, next.a1.x, next.a2.x, next.a3.x);
            a_tile[ka + 1u][m4] = vec4f(next.a0.y, next.a1.y, next.a2.y, next.a3.y);
            a_tile[ka + 2u][m4] = vec4f(next.a0.z, next.a1.z, next.a2.z, next.a3.z);
            a_tile[ka + 3u][m4] = vec4f(next.a0.w, next.a1.w, next.a2.w, next.a3.w);
            // B's vec4s li, li + 128, … of the slice: row li / 32 (+ 4, 8, 12), vec4 li % 32.
            b_tile[li / 32u][li % 32u] = next.b0;
            b_tile[li / 32u + 4u][li % 32u] = next.b1;
            b_tile[li / 32u + 8u][li % 32u] = next.b2;
            b_tile[li / 32u + 12u][li % 32u] = next.b3;
            workgroupBarrier();

            // The next slice's loads now, so they arrive while this one is multiplied.
            if (k0 + BK < p.k_hi) { next = fetch(row0, col0, k0 + BK, li, full); }

            // This k's values: A's rows 4·ty .., 4·(ty + 8) .., …, B's columns 4·tx .., 4·(tx + 16) ..
            a0 = a_tile[0][ty]; a1 = a_tile[0][ty + 8u]; a2 = a_tile[0][ty + 16u]; a3 = a_tile[0][ty + 24u];
            b0 = b_tile[0][tx]; b1 = b_tile[0][tx + 16u];
            for (var k = 0u; k < BK; k++) {
                // The next k's values before this k's multiply-adds (the last k reads its own again).
                let kn = min(k + 1u, BK - 1u);
                let na0 = a_tile[kn][ty];
                let na1 = a_tile[kn][ty + 8u];
                let na2 = a_tile[kn][ty + 16u];
                let na3 = a_tile[kn][ty + 24u];
                let nb0 = b_tile[kn][tx];
                let nb1 = b_tile[kn][tx + 16u];
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
            workgroupBarrier();
        }

        if (p.to_c) {
            store_c(row0 + (ty + 0u) * 4u + 0u, col0 + tx * 4u, c0_0, full); store_c(row0 + (ty + 0u) * 4u + 0u, col0 + (tx + 16u) * 4u, c0_1, full);
            store_c(row0 + (ty + 0u) * 4u + 1u, col0 + tx * 4u, c1_0, full); store_c(row0 + (ty + 0u) * 4u + 1u, col0 + (tx + 16u) * 4u, c1_1, full);
            store_c(row0 + (ty + 0u) * 4u + 2u, col0 + tx * 4u, c2_0, full); store_c(row0 + (ty + 0u) * 4u + 2u, col0 + (tx + 16u) * 4u, c2_1, full);
            store_c(row0 + (ty + 0u) * 4u + 3u, col0 + tx * 4u, c3_0, full); store_c(row0 + (ty + 0u) * 4u + 3u, col0 + (tx + 16u) * 4u, c3_1, full);
            store_c(row0 + (ty + 8u) * 4u + 0u, col0 + tx * 4u, c4_0, full); store_c(row0 + (ty + 8u) * 4u + 0u, col0 + (tx + 16u) * 4u, c4_1, full);
            store_c(row0 + (ty + 8u) * 4u + 1u, col0 + tx * 4u, c5_0, full); store_c(row0 + (ty + 8u) * 4u + 1u, col0 + (tx + 16u) * 4u, c5_1, full);
            store_c(row0 + (ty + 8u) * 4u + 2u, col0 + tx * 4u, c6_0, full); store_c(row0 + (ty + 8u) * 4u + 2u, col0 + (tx + 16u) * 4u, c6_1, full);
            store_c(row0 + (ty + 8u) * 4u + 3u, col0 + tx * 4u, c7_0, full); store_c(row0 + (ty + 8u) * 4u + 3u, col0 + (tx + 16u) * 4u, c7_1, full);
            store_c(row0 + (ty + 16u) * 4u + 0u, col0 + tx * 4u, c8_0, full); store_c(row0 + (ty + 16u) * 4u + 0u, col0 + (tx + 16u) * 4u, c8_1, full);
            store_c(row0 + (ty + 16u) * 4u + 1u, col0 + tx * 4u, c9_0, full); store_c(row0 + (ty + 16u) * 4u + 1u, col0 + (tx + 16u) * 4u, c9_1, full);
            store_c(row0 + (ty + 16u) * 4u + 2u, col0 + tx * 4u, c10_0, full); store_c(row0 + (ty + 16u) * 4u + 2u, col0 + (tx + 16u) * 4u, c10_1, full);
            store_c(row0 + (ty + 16u) * 4u + 3u, col0 + tx * 4u, c11_0, full); store_c(row0 + (ty + 16u) * 4u + 3u, col0 + (tx + 16u) * 4u, c11_1, full);
            store_c(row0 + (ty + 24u) * 4u + 0u, col0 + tx * 4u, c12_0, full); store_c(row0 + (ty + 24u) * 4u + 0u, col0 + (tx + 16u) * 4u, c12_1, full);
            store_c(row0 + (ty + 24u) * 4u + 1u, col0 + tx * 4u, c13_0, full); store_c(row0 + (ty + 24u) * 4u + 1u, col0 + (tx + 16u) * 4u, c13_1, full);
            store_c(row0 + (ty + 24u) * 4u + 2u, col0 + tx * 4u, c14_0, full); store_c(row0 + (ty + 24u) * 4u + 2u, col0 + (tx + 16u) * 4u, c14_1, full);
            store_c(row0 + (ty + 24u) * 4u + 3u, col0 + tx * 4u, c15_0, full); store_c(row0 + (ty + 24u) * 4u + 3u, col0 + (tx + 16u) * 4u, c15_1, full);
        } else {
            store_part(row0 + (ty + 0u) * 4u + 0u, col0 + tx * 4u, c0_0, p.slot); store_part(row0 + (ty + 0u) * 4u + 0u, col0 + (tx + 16u) * 4u, c0_1, p.slot);
            store_part(row0 + (ty + 0u) * 4u + 1u, col0 + tx * 4u, c1_0, p.slot); store_part(row0 + (ty + 0u) * 4u + 1u, col0 + (tx + 16u) * 4u, c1_1, p.slot);
            store_part(row0 + (ty + 0u) * 4u + 2u, col0 + tx * 4u, c2_0, p.slot); store_part(row0 + (ty + 0u) * 4u + 2u, col0 + (tx + 16u) * 4u, c2_1, p.slot);
            store_part(row0 + (ty + 0u) * 4u + 3u, col0 + tx * 4u, c3_0, p.slot); store_part(row0 + (ty + 0u) * 4u + 3u, col0 + (tx + 16u) * 4u, c3_1, p.slot);
            store_part(row0 + (ty + 8u) * 4u + 0u, col0 + tx * 4u, c4_0, p.slot); store_part(row0 + (ty + 8u) * 4u + 0u, col0 + (tx + 16u) * 4u, c4_1, p.slot);
            store_part(row0 + (ty + 8u) * 4u + 1u, col0 + tx * 4u, c5_0, p.slot); store_part(row0 + (ty + 8u) * 4u + 1u, col0 + (tx + 16u) * 4u, c5_1, p.slot);
            store_part(row0 + (ty + 8u) * 4u + 2u, col0 + tx * 4u, c6_0, p.slot); store_part(row0 + (ty + 8u) * 4u + 2u, col0 + (tx + 16u) * 4u, c6_1, p.slot);
            store_part(row0 + (ty + 8u) * 4u + 3u, col0 + tx * 4u, c7_0, p.slot); store_part(row0 + (ty + 8u) * 4u + 3u, col0 + (tx + 16u) * 4u, c7_1, p.slot);
            store_part(row0 + (ty + 16u) * 4u + 0u, col0 + tx * 4u, c8_0, p.slot); store_part(row0 + (ty + 16u) * 4u + 0u, col0 + (tx + 16u) * 4u, c8_1, p.slot);
            store_part(row0 + (ty + 16u) * 4u + 1u, col0 + tx * 4u, c9_0, p.slot); store_part(row0 + (ty + 16u) * 4u + 1u, col0 + (tx + 16u) * 4u, c9_1, p.slot);
            store_part(row0 + (ty + 16u) * 4u + 2u, col0 + tx * 4u, c10_0, p.slot); store_part(row0 + (ty + 16u) * 4u + 2u, col0 + (tx + 16u) * 4u, c10_1, p.slot);
            store_part(row0 + (ty + 16u) * 4u + 3u, col0 + tx * 4u, c11_0, p.slot); store_part(row0 + (ty + 16u) * 4u + 3u, col0 + (tx + 16u) * 4u, c11_1, p.slot);
            store_part(row0 + (ty + 24u) * 4u + 0u, col0 + tx * 4u, c12_0, p.slot); store_part(row0 + (ty + 24u) * 4u + 0u, col0 + (tx + 16u) * 4u, c12_1, p.slot);
            store_part(row0 + (ty + 24u) * 4u + 1u, col0 + tx * 4u, c13_0, p.slot); store_part(row0 + (ty + 24u) * 4u + 1u, col0 + (tx + 16u) * 4u, c13_1, p.slot);
            store_part(row0 + (ty + 24u) * 4u + 2u, col0 + tx * 4u, c14_0, p.slot); store_part(row0 + (ty + 24u) * 4u + 2u, col0 + (tx + 16u) * 4u, c14_1, p.slot);
            store_part(row0 + (ty + 24u) * 4u + 3u, col0 + tx * 4u, c15_0, p.slot); store_part(row0 + (ty + 24u) * 4u + 3u, col0 + (tx + 16u) * 4u, c15_1, p.slot);
        }
    }
    workgroup_done(li);
}
