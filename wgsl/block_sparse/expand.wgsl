// The block products of C = A·B listed from A's entries (Gustavson's expansion): one
// invocation per entry p of A's block rows (CSR pairs (k, slot), entries first..
// first+count), A_ik, going through B's block row k (CSR pairs (j, slot)); each pair
// (A_ik, B_kj) is one block product of C_ij. So the work is the products P, not the
// cells of C times a row's length. Mode 0 flags C_ij's cell; mode 1 counts the
// products of each stored block of C (its slot less `lo`, from C's map); mode 2 puts
// each product's (A slot, B slot) in its block's list, taking a place from the end of
// its block's range (`at` holds the inclusive sums of the counts; each ends at its
// block's start). The order within a block's list is the atomics' order.
struct Params { t: u32, mode: u32, first: u32, count: u32, lo: u32, groups_x: u32, unused0: u32, unused1: u32 }

@group(0) @binding(0) var<storage, read> a_csr: array<u32>;
@group(0) @binding(1) var<storage, read> a_cells: array<u32>;
@group(0) @binding(2) var<storage, read> b_ends: array<u32>;
@group(0) @binding(3) var<storage, read> b_csr: array<u32>;
@group(0) @binding(4) var<storage, read> c_map: array<u32>;
@group(0) @binding(5) var<storage, read_write> at: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> pairs: array<u32>;
@group(0) @binding(7) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let g = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (g >= u.count) { return; }
    let p = u.first + g;
    let k = a_csr[2u * p];
    let a_slot = a_csr[2u * p + 1u];
    let row = (a_cells[a_slot] / u.t) * u.t;
    for (var q = select(0u, b_ends[max(k, 1u) - 1u], k > 0u); q < b_ends[k]; q++) {
        let cell = row + b_csr[2u * q];
        if (u.mode == 0u) {
            atomicStore(&at[cell], 1u);
        } else if (u.mode == 1u) {
            atomicAdd(&at[c_map[cell] - u.lo], 1u);
        } else {
            let place = atomicSub(&at[c_map[cell] - u.lo], 1u) - 1u;
            pairs[2u * place] = a_slot;
            pairs[2u * place + 1u] = b_csr[2u * q + 1u];
        }
    }
}
