// Stream-K for matmul/3_register.wgsl (Osama, Merrill, Cecka, Garland and Owens,
// "Stream-K: Work-centric Parallel Decomposition for Dense Matrix-Matrix
// Multiplication on the GPU", PPoPP 2023), put before that file by
// src/kernels/webgpu/register.rs in place of matmul/register_tiles.wgsl.
//
// Why: a GPU runs a fixed number of workgroups at once (the H200: 264 of this kernel,
// 2 on each of its 132 cores). C = A·A at n = 4096 has 1024 tiles of 128 × 128: three
// full waves of 264 and a last one of 232, in which 32 places idle while it takes as
// long as a full one. Here the first `data_tiles` tiles are computed as usual, a
// workgroup each (in tile order: row-major over `tiles_x` tiles a row), and after them
// in the same dispatch `workgroups` more workgroups share the k-slices of the remaining
// tiles evenly: the iterations (tile, slice) of those tiles are numbered tile by tile,
// and workgroup w takes the range first_iteration(w) .. first_iteration(w + 1), which
// covers parts of one or two tiles. Each part's sums go to its own slot of `partial`
// (`parts` slots a workgroup); wgsl/matmul/4_stream_k_fixup.wgsl then adds each tile's parts
// into C. The plan (which tiles, how many workgroups) is src/plan's stream_k module.
//
// `resident` counts, when `count` is 1, how many workgroups of this kernel run at
// once: [0] those running now, [1] the most seen. The engine measures it once on a
// plain product (data_tiles = every tile, workgroups = 0) and sizes the stream-K
// tails of later products by it.

// As src/plan/stream_k.rs's StreamK::words.
struct StreamK {
    data_tiles: u32,
    workgroups: u32,
    slices: u32,      // slices of k (16 wide) in a tile
    iterations: u32,  // slices of all the shared tiles together
    tiles_x: u32,     // tiles in a row of C
    parts: u32,       // slots in `partial` per shared-out workgroup
    count: u32,       // 1: count the workgroups running at once
    unused: u32,
}

@group(0) @binding(4) var<uniform> sk: StreamK;
@group(0) @binding(5) var<storage, read_write> partial: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> resident: array<atomic<u32>, 2>;

struct Part { row0: u32, col0: u32, k_lo: u32, k_hi: u32, slot: u32, to_c: bool }

// The width of a slice of k (BK of matmul/3_register.wgsl).
const SLICE: u32 = 16u;

// The first iteration of shared-out workgroup w (the plan keeps workgroups ×
// iterations under 2^32).
fn first_iteration(w: u32) -> u32 {
    return (w * sk.iterations) / sk.workgroups;
}

fn part_count(group: vec3u, li: u32) -> u32 {
    if (sk.count != 0u && li == 0u) {
        let now = atomicAdd(&resident[0], 1u) + 1u;
        atomicMax(&resident[1], now);
    }
    if (group.x < sk.data_tiles) {
        return 1u;
    }
    let w = group.x - sk.data_tiles;
    let lo = first_iteration(w);
    let hi = first_iteration(w + 1u);
    if (hi <= lo) {
        return 0u;
    }
    return (hi - 1u) / sk.slices - lo / sk.slices + 1u;
}

fn part_at(group: vec3u, part: u32) -> Part {
    if (group.x < sk.data_tiles) {
        let t = group.x;
        return Part((t / sk.tiles_x) * 128u, (t % sk.tiles_x) * 128u, 0u, dims.inner, 0u, true);
    }
    let w = group.x - sk.data_tiles;
    let lo = first_iteration(w);
    let hi = first_iteration(w + 1u);
    let j = lo / sk.slices + part;   // the shared tile, counted from the first one
    let t = sk.data_tiles + j;
    let k_lo = (max(lo, j * sk.slices) - j * sk.slices) * SLICE;
    let k_hi = (min(hi, (j + 1u) * sk.slices) - j * sk.slices) * SLICE;
    return Part((t / sk.tiles_x) * 128u, (t % sk.tiles_x) * 128u, k_lo, k_hi, w * sk.parts + part, false);
}

// A part's raw sums (sr_finish comes after they are added up): slot-major, then the
// tile's rows, 32 vec4s a row.
fn store_part(row: u32, col: u32, v: vec4f, slot: u32) {
    partial[slot * 4096u + (row % 128u) * 32u + (col % 128u) / 4u] = v;
}

fn workgroup_done(li: u32) {
    if (sk.count != 0u && li == 0u) {
        atomicSub(&resident[0], 1u);
    }
}
