// One level of an inclusive prefix sum of u32s: one workgroup per chunk of 1024
// numbers (4 per invocation), scanned in place; the chunk's total goes to `sums`,
// whose own prefix sum scan_add.wgsl then adds to the chunks after the first.
struct Params { count: u32, chunks: u32, groups_x: u32, unused: u32 }

@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<uniform> u: Params;

var<workgroup> part: array<u32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let chunk = wg.y * u.groups_x + wg.x;
    let base = chunk * 1024u + li * 4u;
    var v: array<u32, 4>;
    var run = 0u;
    for (var i = 0u; i < 4u; i++) {
        if (base + i < u.count) { run += data[base + i]; }
        v[i] = run;
    }
    part[li] = run;
    workgroupBarrier();
    for (var d = 1u; d < 256u; d <<= 1u) {
        var add = 0u;
        if (li >= d) { add = part[li - d]; }
        workgroupBarrier();
        part[li] += add;
        workgroupBarrier();
    }
    let before = select(0u, part[max(li, 1u) - 1u], li > 0u);
    for (var i = 0u; i < 4u; i++) {
        if (base + i < u.count) { data[base + i] = v[i] + before; }
    }
    if (li == 255u && chunk < u.chunks) { sums[chunk] = part[255]; }
}
