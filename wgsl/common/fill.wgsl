// Fills a buffer with one value: outputs are poisoned (e.g. with NaN) before each
// pass in the tests, so an element a kernel forgets to write shows.
struct Fill { count: u32, value: f32, unused0: u32, unused1: u32 }

@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@group(0) @binding(1) var<uniform> fill: Fill;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
    // A 2D grid of workgroups, read as one line: more than 65535 × 256 elements.
    let i = id.y * groups.x * 256u + id.x;
    if (i < fill.count) { out[i] = fill.value; }
}
