// The output's occupancy, the CUDA report's boolean per block: 1 where a stored
// block of C holds any nonzero entry (a product can cancel to an all-zero block),
// one invocation per block.
struct Params { bs: u32, per_row: u32, blocks: u32, groups_x: u32 }

@group(0) @binding(0) var<storage, read> c: array<f32>;
@group(0) @binding(1) var<storage, read_write> flags: array<f32>;
@group(0) @binding(2) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let s = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (s >= u.blocks) { return; }
    var any = false;
    for (var r = 0u; r < u.bs; r++) {
        for (var col = 0u; col < u.bs; col++) {
            // NaN counts as nonzero, as it does on the CPU.
            let v = c[atlas_at(s, r, col, u.bs, u.bs, u.per_row)];
            any = any || !(v == 0.0);
        }
    }
    flags[s] = select(0.0, 1.0, any);
}
