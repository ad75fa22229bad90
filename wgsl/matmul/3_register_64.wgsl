// Kernel "register" (GPU form) on small outputs: matmul/3_register.wgsl (read that one
// first) with a 64 × 64 or 64 × 32 tile of C per workgroup instead of 128 × 128, for
// shapes whose inner and cols are multiples of 4. A workgroup of TILE_N4 × 8
// invocations (16 × 8 or 8 × 8), each computing 8 × 4 elements of C in 8 vec4
// registers (c0 … c7); per k, each invocation reads 2 vec4s of A and 1 of B from
// workgroup memory and does 32 multiply-adds with them.
//
// Why smaller tiles: a 128 × 128 workgroup needs so many registers that a GPU core
// runs only one or two at a time, and a 1024 × 1024 product has only 64 such tiles,
// fewer than the H100 has cores (132): half the GPU would wait. Measured on the H100
// (GPU time, bench/NOTES.md): 64 × 64 tiles 26,600 against 16,900 GFLOP/s at
// n = 1024, 30,600 against 22,700 at 1536, but 34,500 against 40,000 at 2048, where
// the big tiles fill the GPU and their 4× reuse of each value read wins; 64 × 32 tiles
// (without edge checks) 29,200 at 1024 and 13,100 against 9,200 at 512. The engine
// picks the 128 × 128 file while C has at least 180 of its tiles, else this one with
// 64 × 64 tiles while C has more than 256 of those, else with 64 × 32
// (src/kernels/webgpu/register.rs).
// The bindings, load_a, load_b and store_c: matmul/register_io_vec4.wgsl, put before this file.

const BK: u32 = 16u;   // the slice of k staged at a time

// The tile's width in vec4s: 16 (64 × 64 tiles, 16 × 8 invocations) or 8 (64 × 32
// tiles, 8 × 8 invocations), set by the engine per output size (register.rs): on
// outputs of up to 1024 × 1024 the narrower tiles make twice the workgroups, and ran
// 1.1-1.4× as fast on the H100.
override TILE_N4: u32 = 16u;

// false: every tile lies wholly inside the matrices (the engine checks the shape), so
// the checked loads and stores are compiled out. The engine sets it only for the
// narrow tiles: there it measured 1.1-1.3× as fast, on 64 × 64 tiles 10% slower.
override EDGES: bool = true;

// a_tile[k][m4] = A[row0 + 4·m4 .. + 3][k0 + k]: four rows of A at one k.
var<workgroup> a_tile: array<array<vec4f, 16>, 16>;
// b_tile[k][n4] = B[k0 + k][col0 + 4·n4 .. + 3], n4 < TILE_N4 (WGSL sizes a nested
// array by constants only, so it is sized for the wider tile).
var<workgroup> b_tile: array<array<vec4f, 16>, 16>;

// One slice on its way from global memory to this invocation's registers: for the
// first 64 invocations (all of them in the narrow form) a vec4 of A from each of 4
// rows, for all two vec4s of B.
struct Slice { a0: vec4f, a1: vec4f, a2: vec4f, a3: vec4f, b0: vec4f, b1: vec4f }

// The slice at k0 of the tile at (row0, col0) for invocation li: invocations 0 … 63
// copy A's rows 4·(li / 4) .. + 3 at k = 4·(li % 4) (the tile has 64 such groups);
// every invocation copies B's vec4s li and li + 8·TILE_N4 of the slice (row =
// vec4 / TILE_N4, columns 4·(vec4 % TILE_N4) ..).
fn fetch(row0: u32, col0: u32, k0: u32, li: u32, full: bool) -> Slice {
    let m = row0 + (li / 4u) * 4u;
    let k = k0 + (li % 4u) * 4u;
    var s: Slice;
    if (full) {
        if (li < 64u) {
            let in4 = dims.inner / 4u;
            let ka = k / 4u;
            s.a0 = a[m * in4 + ka];
            s.a1 = a[(m + 1u) * in4 + ka];
            s.a2 = a[(m + 2u) * in4 + ka];
            s.a3 = a[(m + 3u) * in4 + ka];
        }
        let cols4 = dims.cols / 4u;
        let cb = col0 / 4u + li % TILE_N4;
        let kb = k0 + li / TILE_N4;
        s.b0 = b[kb * cols4 + cb];
        s.b1 = b[(kb + 8u) * cols4 + cb];
    } else {
        if (li < 64u) {
            s.a0 = load_a(m, k);
            s.a1 = load_a(m + 1u, k);
            s.a2 = load_a(m + 2u, k);
            s.a3 = load_a(m + 3u, k);
        }
        let col = col0 + (li % TILE_N4) * 4u;
        let kb = k0 + li / TILE_N4;
        s.b0 = load_b(kb, col);
        s.b1 = load_b(kb + 8u, col);
    }
    return s;
}

@compute @workgroup_size(TILE_N4, 8)
fn main(@builtin(local_invocation_id) local: vec3u,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) group: vec3u) {
    let row0 = group.y * 64u;
    let col0 = group.x * TILE_N4 * 4u;
    let tx = local.x;   // this invocation's columns: 4·tx .. 4·tx + 3 of the tile
    let ty = local.y;   // its rows: 4·ty + r and 4·(ty + 8) + r for r = 0..3
    // The whole tile and every slice of k inside the matrices: no checks needed.
    // (EDGES = false on 64 × 64 tiles ran 10% slower on the H100, 23,600 against
    // 26,500 GFLOP/s at n = 1024; on 64 × 32 tiles 1.1-1.3× faster: the compiler's
    // choices went different ways, so the engine sets it for the narrow tiles only.)
    let full = !EDGES || (row0 + 64u <= dims.rows && col0 + TILE_N4 * 4u <= dims.cols && dims.inner % BK == 0u);
    let z = vec4f(sr_zero());
    // c{r}: row 4·(ty + 8·(r / 4)) + r % 4 of the tile, columns 4·tx ...
    var c0 = z; var c1 = z; var c2 = z; var c3 = z; var c4 = z; var c5 = z; var c6 = z; var c7 = z;

    var next = fetch(row0, col0, 0u, li, full);
    for (var k0 = 0u; k0 < dims.inner; k0 += BK) {
        // Into workgroup memory: A's 4 rows × 4 k transposed into 4 vec4s of one k.
        if (li < 64u) {
            let m4 = li / 4u;
            let ka = (li % 4u) * 4u;
            a_tile[ka][m4] = vec4f(next.a0.x, next.a1.x, next.a2.x, next.a3.x);
            a_tile[ka + 1u][m4] = vec4f(next.a0.y, next.a1.y, next.a2.y, next.a3.y);
            a_tile[ka + 2u][m4] = vec4f(next.a0.z, next.a1.z, next.a2.z, next.a3.z);
            a_tile[ka + 3u][m4] = vec4f(next.a0.w, next.a1.w, next.a2.w, next.a3.w);
        }
        b_tile[li / TILE_N4][li % TILE_N4] = next.b0;
        b_tile[li / TILE_N4 + 8u][li % TILE_N4] = next.b1;
        workgroupBarrier();

        // The next slice's loads now, so they arrive while this one is multiplied.
        if (k0 + BK < dims.inner) { next = fetch(row0, col0, k0 + BK, li, full); }

        for (var k = 0u; k < BK; k++) {
            let a0 = a_tile[k][ty];        // rows 4·ty .. 4·ty + 3
            let a1 = a_tile[k][ty + 8u];   // rows 4·(ty + 8) ..
            let b0 = b_tile[k][tx];        // columns 4·tx ..
            c0 = sr_fma4(c0, a0.x, b0);
            c1 = sr_fma4(c1, a0.y, b0);
            c2 = sr_fma4(c2, a0.z, b0);
            c3 = sr_fma4(c3, a0.w, b0);
            c4 = sr_fma4(c4, a1.x, b0);
            c5 = sr_fma4(c5, a1.y, b0);
            c6 = sr_fma4(c6, a1.z, b0);
            c7 = sr_fma4(c7, a1.w, b0);
        }
        workgroupBarrier();
    }

    let col = col0 + tx * 4u;
    store_c(row0 + ty * 4u, col, c0, full);
    store_c(row0 + ty * 4u + 1u, col, c1, full);
    store_c(row0 + ty * 4u + 2u, col, c2, full);
    store_c(row0 + ty * 4u + 3u, col, c3, full);
    store_c(row0 + (ty + 8u) * 4u, col, c4, full);
    store_c(row0 + (ty + 8u) * 4u + 1u, col, c5, full);
    store_c(row0 + (ty + 8u) * 4u + 2u, col, c6, full);
    store_c(row0 + (ty + 8u) * 4u + 3u, col, c7, full);
}
