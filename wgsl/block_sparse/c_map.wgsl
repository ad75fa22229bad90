// C's map from its flags' inclusive prefix sum: one invocation per cell x, whose slot
// is the sum less one where the sum steps up at x (x was flagged), else none; the
// slot's cell is x. Slots follow the cells' row-major order.
struct Params { cells: u32, groups_x: u32, unused0: u32, unused1: u32 }

@group(0) @binding(0) var<storage, read> sums: array<u32>;
@group(0) @binding(1) var<storage, read_write> map: array<u32>;
@group(0) @binding(2) var<storage, read_write> cells: array<u32>;
@group(0) @binding(3) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let x = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (x >= u.cells) { return; }
    let s = sums[x];
    if (s > select(0u, sums[max(x, 1u) - 1u], x > 0u)) {
        map[x] = s - 1u;
        cells[s - 1u] = x;
    } else {
        map[x] = 0xffffffffu;
    }
}
