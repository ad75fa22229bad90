// The second half of a prefix sum's level: one invocation per number, adding the
// inclusive sum of the chunks of 1024 before its own (scan.wgsl).
struct Params { count: u32, chunks: u32, groups_x: u32, unused: u32 }

@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let g = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (g >= u.count || g < 1024u) { return; }
    data[g] += sums[g / 1024u - 1u];
}
