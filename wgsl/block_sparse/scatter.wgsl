// Enters uploaded blocks in a matrix's map: one invocation per block of a part,
// map[cell of slot s] = s for the part's slots first..first + count.
struct Params { first: u32, count: u32, groups_x: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> cells: array<u32>;
@group(0) @binding(1) var<storage, read_write> map: array<u32>;
@group(0) @binding(2) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let g = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (g >= u.count) { return; }
    map[cells[u.first + g]] = u.first + g;
}
