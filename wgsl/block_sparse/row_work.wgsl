// What the host needs to split the numeric phase into bands of block rows, one
// invocation per block row i: out[i] = the block products of C's row i (the lengths of
// B's rows k over A's entries A_ik), out[t + i] = C's stored blocks in rows 0..=i (the
// flags' inclusive sum at the row's last cell), out[2t + i] = A's entries in rows
// 0..=i. A row's products are at most t² < 2³².
struct Params { t: u32, groups_x: u32, unused0: u32, unused1: u32 }

@group(0) @binding(0) var<storage, read> a_ends: array<u32>;
@group(0) @binding(1) var<storage, read> a_csr: array<u32>;
@group(0) @binding(2) var<storage, read> b_ends: array<u32>;
@group(0) @binding(3) var<storage, read> sums: array<u32>;
@group(0) @binding(4) var<storage, read_write> out: array<u32>;
@group(0) @binding(5) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let i = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (i >= u.t) { return; }
    var products = 0u;
    for (var p = select(0u, a_ends[max(i, 1u) - 1u], i > 0u); p < a_ends[i]; p++) {
        let k = a_csr[2u * p];
        products += b_ends[k] - select(0u, b_ends[max(k, 1u) - 1u], k > 0u);
    }
    out[i] = products;
    out[u.t + i] = sums[(i + 1u) * u.t - 1u];
    out[2u * u.t + i] = a_ends[i];
}
