// C = A·B's block pattern: one invocation per cell (i, j) of C's grid, 1 where some
// stored A_ik has B_kj stored too, else 0. A's block rows come as CSR (inclusive row
// ends, then (column, slot) pairs); B as its map. Neighbouring invocations share i,
// so they read one row of A and neighbouring words of B's map.
struct Params { t: u32, cells: u32, groups_x: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> b_map: array<u32>;
@group(0) @binding(1) var<storage, read> a_ends: array<u32>;
@group(0) @binding(2) var<storage, read> a_csr: array<u32>;
@group(0) @binding(3) var<storage, read_write> flags: array<u32>;
@group(0) @binding(4) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let x = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (x >= u.cells) { return; }
    let i = x / u.t;
    let j = x % u.t;
    var found = 0u;
    for (var p = select(0u, a_ends[max(i, 1u) - 1u], i > 0u); p < a_ends[i]; p++) {
        if (b_map[a_csr[2u * p] * u.t + j] != 0xffffffffu) {
            found = 1u;
            break;
        }
    }
    flags[x] = found;
}
