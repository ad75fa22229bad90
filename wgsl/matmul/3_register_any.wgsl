// Kernel "register" (GPU form) for any shape: the tiling of matmul/3_register.wgsl
// (read that one first) written with arrays and loops and its sizes as constants
// (BM, BN, BK, TM, TN, put before this file by src/kernels/webgpu/register.rs), for
// shapes whose inner or cols is not a multiple of 4, where a row of A, B or C may
// start inside a 16-byte word. A workgroup computes a BM × BN tile of C, each
// invocation TM × TN of it in registers; A's BM × BK tile (transposed) and B's
// BK × BN tile are staged in workgroup memory for each slice of k, and the next
// slice's loads are issued before this one's arithmetic. Loads and stores go
// through matmul/register_io_scalar.wgsl (put before this file): element by element,
// clamped, the semiring's zero outside the matrices. On the H100 this form runs at
// ~31 TFLOP/s where the written-out vec4 file makes 38.5–40.6 (bench/NOTES.md).

const WG_X: u32 = BN / TN;        // invocations along a row of the tile
const WG_Y: u32 = BM / TM;        // and along a column
const THREADS: u32 = WG_X * WG_Y;
const BM4: u32 = BM / 4u;
const BN4: u32 = BN / 4u;
const BK4: u32 = BK / 4u;
const TM4: u32 = TM / 4u;         // vec4 groups of rows and of columns per invocation
const TN4: u32 = TN / 4u;
// The copy of one slice, dealt out to the invocations: A in groups of 4 rows × 4 k,
// B in vec4s of one row.
const A_GROUPS: u32 = BM4 * BK4;
const A_PER: u32 = (A_GROUPS + THREADS - 1u) / THREADS;
const B_VECS: u32 = BK * BN4;
const B_PER: u32 = (B_VECS + THREADS - 1u) / THREADS;

// a_tile[k * BM4 + m4] = A[row0 + 4·m4 .. + 3][k0 + k]: rows 4·m4 to 4·m4 + 3 at one k.
var<workgroup> a_tile: array<vec4f, BK * BM4>;
// b_tile[k * BN4 + n4] = B[k0 + k][col0 + 4·n4 .. + 3].
var<workgroup> b_tile: array<vec4f, BK * BN4>;

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(local_invocation_id) local: vec3u,
        @builtin(local_invocation_index) li: u32,
        @builtin(workgroup_id) group: vec3u) {
    let row0 = group.y * BM;
    let col0 = group.x * BN;
    let tx = local.x;
    let ty = local.y;

    // The next slice, on its way from global memory.
    var a_next: array<vec4f, A_PER * 4u>;
    var b_next: array<vec4f, B_PER>;
    var acc: array<vec4f, TM * TN4>;
    for (var i = 0u; i < TM * TN4; i++) { acc[i] = vec4f(sr_zero()); }

    // Loads the slice at k0 into a_next and b_next.
    var k0 = 0u;
    for (var s = 0u; s < A_PER; s++) {
        let t = li + s * THREADS;
        if (t < A_GROUPS) {
            let m = row0 + (t / BK4) * 4u;
            let k = k0 + (t % BK4) * 4u;
            for (var r = 0u; r < 4u; r++) { a_next[s * 4u + r] = load_a(m + r, k); }
        }
    }
    for (var s = 0u; s < B_PER; s++) {
        let t = li + s * THREADS;
        if (t < B_VECS) { b_next[s] = load_b(k0 + t / BN4, col0 + (t % BN4) * 4u); }
    }

    for (; k0 < dims.inner; k0 += BK) {
        // Store the slice in workgroup memory, A transposed 4 × 4 in registers.
        for (var s = 0u; s < A_PER; s++) {
            let t = li + s * THREADS;
            if (t < A_GROUPS) {
                let m4 = t / BK4;
                let k = (t % BK4) * 4u;
                for (var j = 0u; j < 4u; j++) {
                    a_tile[(k + j) * BM4 + m4] = vec4f(a_next[s * 4u][j], a_next[s * 4u + 1u][j],
                                                       a_next[s * 4u + 2u][j], a_next[s * 4u + 3u][j]);
                }
            }
        }
        for (var s = 0u; s < B_PER; s++) {
            let t = li + s * THREADS;
            if (t < B_VECS) { b_tile[t] = b_next[s]; }
        }
        workgroupBarrier();

        // Prefetch the next slice while this one is multiplied.
        let k1 = k0 + BK;
        if (k1 < dims.inner) {
            for (var s = 0u; s < A_PER; s++) {
                let t = li + s * THREADS;
                if (t < A_GROUPS) {
                    let m = row0 + (t / BK4) * 4u;
                    let k = k1 + (t % BK4) * 4u;
                    for (var r = 0u; r < 4u; r++) { a_next[s * 4u + r] = load_a(m + r, k); }
                }
            }
            for (var s = 0u; s < B_PER; s++) {
                let t = li + s * THREADS;
                if (t < B_VECS) { b_next[s] = load_b(k1 + t / BN4, col0 + (t % BN4) * 4u); }
            }
        }

        for (var k = 0u; k < BK; k++) {
            var a_reg: array<vec4f, TM4>;
            var b_reg: array<vec4f, TN4>;
            for (var i = 0u; i < TM4; i++) { a_reg[i] = a_tile[k * BM4 + i * WG_Y + ty]; }
            for (var j = 0u; j < TN4; j++) { b_reg[j] = b_tile[k * BN4 + j * WG_X + tx]; }
            for (var i = 0u; i < TM4; i++) {
                for (var r = 0u; r < 4u; r++) {
                    for (var j = 0u; j < TN4; j++) {
                        let at = (i * 4u + r) * TN4 + j;
                        acc[at] = sr_fma4(acc[at], a_reg[i][r], b_reg[j]);
                    }
                }
            }
        }
        workgroupBarrier();
    }

    // Invocation (tx, ty) holds rows (i · WG_Y + ty) · 4 + r and columns
    // (j · WG_X + tx) · 4 + lane of the tile.
    for (var i = 0u; i < TM4; i++) {
        for (var r = 0u; r < 4u; r++) {
            let row = row0 + (i * WG_Y + ty) * 4u + r;
            for (var j = 0u; j < TN4; j++) {
                store_c(row, col0 + (j * WG_X + tx) * 4u, acc[(i * 4u + r) * TN4 + j]);
            }
        }
    }
}
