// A generated matrix's map: one invocation per cell x of the T×T block grid. The
// stored blocks are the first k outputs of a keyed permutation of the cells
// (plan/src/blockgen.rs), so cell x holds slot s = perm⁻¹(x) when s < k, and the
// slot's cell is x. The Feistel network runs backwards, cycle-walking past the cells.
struct Params { cells: u32, k: u32, half: u32, groups_x: u32, keys: vec4u }

@group(0) @binding(0) var<storage, read_write> map: array<u32>;
@group(0) @binding(1) var<storage, read_write> cells: array<u32>;
@group(0) @binding(2) var<uniform> u: Params;

fn backward(y: u32) -> u32 {
    let mask = (1u << u.half) - 1u;
    var l = y >> u.half;
    var r = y & mask;
    for (var i = 3; i >= 0; i--) {
        let nl = r ^ (mix(l ^ u.keys[i]) & mask);
        r = l;
        l = nl;
    }
    return (l << u.half) | r;
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let x = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (x >= u.cells) { return; }
    var s = backward(x);
    while (s >= u.cells) { s = backward(s); }
    if (s < u.k) {
        map[x] = s;
        cells[s] = x;
    } else {
        map[x] = 0xffffffffu;
    }
}
