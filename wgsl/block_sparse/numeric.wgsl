// C's stored blocks, the CUDA report's kernel on GPU-resident matrices: one invocation
// per entry (r, col) of stored block s of C, at cell (i, j): the sum over A's stored
// blocks A_ik of block row i (CSR) whose B_kj is stored (B's map) of
// (A_ik·B_kj)[r, col]. Blocks are m×m, row-major, one after another by slot. A
// dispatch covers the entries first..count (large products take several: no single
// dispatch runs for seconds).
struct Params { t: u32, m: u32, count: u32, groups_x: u32, first: u32, unused0: u32, unused1: u32, unused2: u32 }

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read> b_map: array<u32>;
@group(0) @binding(3) var<storage, read> a_ends: array<u32>;
@group(0) @binding(4) var<storage, read> a_csr: array<u32>;
@group(0) @binding(5) var<storage, read> c_cells: array<u32>;
@group(0) @binding(6) var<storage, read_write> c: array<f32>;
@group(0) @binding(7) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let g = u.first + (wg.y * u.groups_x + wg.x) * 256u + li;
    if (g >= u.count) { return; }
    let b2 = u.m * u.m;
    let e = g % b2;
    let cell = c_cells[g / b2];
    let i = cell / u.t;
    let j = cell % u.t;
    let r = e / u.m;
    let col = e % u.m;
    var acc = 0.0;
    for (var p = select(0u, a_ends[max(i, 1u) - 1u], i > 0u); p < a_ends[i]; p++) {
        let sb = b_map[a_csr[2u * p] * u.t + j];
        if (sb == 0xffffffffu) { continue; } // B_kj is a zero block: skipped
        let at = a_csr[2u * p + 1u] * b2 + r * u.m;
        let bt = sb * b2 + col;
        for (var q = 0u; q < u.m; q++) {
            acc = fma(a[at + q], b[bt + q * u.m], acc);
        }
    }
    c[g] = acc;
}
