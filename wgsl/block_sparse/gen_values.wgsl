// A generated matrix's values: one invocation per entry e of stored block s, a hash
// of (the matrix's key, s, e) made a number in [-1, 1) exactly as the CPU makes it
// (plan/src/blockgen.rs `value`: 24 bits times 2^-23, less one, all exact).
struct Params { count: u32, b2: u32, key: u32, groups_x: u32 }

@group(0) @binding(0) var<storage, read_write> blocks: array<f32>;
@group(0) @binding(1) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let g = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (g >= u.count) { return; }
    let v = mix(mix((g / u.b2) ^ u.key) + g % u.b2);
    blocks[g] = f32(v >> 8u) * 1.1920928955078125e-7 - 1.0;
}
