// The parts of C a workgroup of matmul/3_register.wgsl computes, in its plain
// ("data-parallel") form, put before that file by src/kernels/webgpu/register.rs:
// workgroup (x, y) computes the tile of C at (128·y, 128·x) over the whole of k, in
// one part, and stores it into C. (matmul/4_stream_k.wgsl is the other form.)

// A tile of C and the range of k a part covers, and where its sums go: C (`to_c`),
// or slot `slot` of the stream-K scratch buffer.
struct Part { row0: u32, col0: u32, k_lo: u32, k_hi: u32, slot: u32, to_c: bool }

fn part_count(group: vec3u, li: u32) -> u32 {
    return 1u;
}

fn part_at(group: vec3u, part: u32) -> Part {
    return Part(group.y * 128u, group.x * 128u, 0u, dims.inner, 0u, true);
}

// No part leaves C here.
fn store_part(row: u32, col: u32, v: vec4f, slot: u32) {}

fn workgroup_done(li: u32) {}
