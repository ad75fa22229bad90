// Block-sparse product, numeric phase: the CUDA report's kernel with the zero
// blocks never visited. One invocation per entry of a stored block of C (the
// symbolic phase on the CPU listed those blocks). Where the symbolic phase also
// listed the block products (`listed`, up to 2^21 of them), it adds up exactly
// its block's products: work proportional to them. Past that, it walks the stored
// blocks A_ik of its block row and looks B_kj up in B's map, multiplying only when
// B_kj is stored too.
//
// Blocks live in atlases, `per_row` blocks of bs×bs side by side per band of bs
// rows (wgsl/common/atlas.wgsl, prepended). Indices are whole numbers stored
// as f32 (exact below 2^24), as WebGL has to store them.
struct Params {
    bs: u32,           // block side
    per_row: u32,      // blocks side by side in an atlas row
    out_blocks: u32,   // stored blocks of C
    groups_x: u32,     // workgroups along x (the grid folds into y past the limit)
    a_row_starts: u32, // offsets of the index table's parts
    a_cols: u32,
    b_map: u32,
    out_coords: u32,
    b_grid_cols: u32,  // B's block columns (the map is grid rows × this)
    a_slots: u32,      // where each stored block of A sits in A's atlas
    pair_starts: u32,  // listed: where each block of C's products start
    pairs: u32,        // listed: the products, as (A's slot, B's slot)
    listed: u32,       // 1: the products are listed
    unused0: u32,
    unused1: u32,
    unused2: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read> index: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;
@group(0) @binding(4) var<uniform> u: Params;

// Where entry (r, col) of stored block s sits in an atlas.
fn at(s: u32, r: u32, col: u32) -> u32 {
    return atlas_at(s, r, col, u.bs, u.bs, u.per_row);
}

fn whole(t: u32) -> u32 {
    return u32(index[t]);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let e = (wg.y * u.groups_x + wg.x) * 256u + li;
    let b2 = u.bs * u.bs;
    if (e >= u.out_blocks * b2) { return; }
    let o = e / b2;
    let r = (e % b2) / u.bs;
    let col = e % u.bs;
    let i = whole(u.out_coords + 2u * o);
    let j = whole(u.out_coords + 2u * o + 1u);
    var acc = 0.0;
    if (u.listed == 1u) {
        let last = whole(u.pair_starts + o + 1u);
        for (var p = whole(u.pair_starts + o); p < last; p++) {
            let sa = whole(u.pairs + 2u * p);
            let sb = whole(u.pairs + 2u * p + 1u);
            for (var t = 0u; t < u.bs; t++) {
                acc = fma(a[at(sa, r, t)], b[at(sb, t, col)], acc);
            }
        }
        c[at(o, r, col)] = acc;
        return;
    }
    // A's stored blocks of block row i are numbers start..end, in column order.
    let end = whole(u.a_row_starts + i + 1u);
    for (var p = whole(u.a_row_starts + i); p < end; p++) {
        let k = whole(u.a_cols + p);
        let stored = whole(u.b_map + k * u.b_grid_cols + j);
        if (stored == 0u) { continue; } // B_kj is a zero block: skipped
        let slot = whole(u.a_slots + p);
        for (var t = 0u; t < u.bs; t++) {
            acc = fma(a[at(slot, r, t)], b[at(stored - 1u, t, col)], acc);
        }
    }
    c[at(o, r, col)] = acc;
}
