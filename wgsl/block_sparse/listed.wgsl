// C's stored blocks lo..lo+blocks from their lists of block products (expand.wgsl):
// one invocation per entry (r, col) of a block, summing (A_ik·B_kj)[r, col] over the
// block's (A slot, B slot) pairs, which start at `starts` (the next block's start, or
// `total`, ends them). Blocks are m×m, row-major, one after another by slot. A
// dispatch covers the entries first..count (large products take several).
struct Params { m: u32, count: u32, blocks: u32, total: u32, lo: u32, first: u32, groups_x: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read> pairs: array<u32>;
@group(0) @binding(3) var<storage, read> starts: array<u32>;
@group(0) @binding(4) var<storage, read_write> c: array<f32>;
@group(0) @binding(5) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let g = u.first + (wg.y * u.groups_x + wg.x) * 256u + li;
    if (g >= u.count) { return; }
    let b2 = u.m * u.m;
    let block = g / b2;
    let e = g % b2;
    let r = e / u.m;
    let col = e % u.m;
    let end = select(u.total, starts[block + 1u], block + 1u < u.blocks);
    // Two block products a step, in two sums: each product waits on its pair's load and
    // then its blocks' (random in A and B, mostly from L2 or memory), and the two chains
    // are independent, so the GPU overlaps their latency (bench/NOTES.md, issue 39).
    var acc = vec2f(0.0);
    var p = starts[block];
    for (; p + 1u < end; p += 2u) {
        let at = vec2u(pairs[2u * p], pairs[2u * p + 2u]) * b2 + r * u.m;
        let bt = vec2u(pairs[2u * p + 1u], pairs[2u * p + 3u]) * b2 + col;
        for (var q = 0u; q < u.m; q++) {
            acc = fma(vec2f(a[at.x + q], a[at.y + q]), vec2f(b[bt.x + q * u.m], b[bt.y + q * u.m]), acc);
        }
    }
    if (p < end) {
        let at = pairs[2u * p] * b2 + r * u.m;
        let bt = pairs[2u * p + 1u] * b2 + col;
        for (var q = 0u; q < u.m; q++) {
            acc.x = fma(a[at + q], b[bt + q * u.m], acc.x);
        }
    }
    c[(u.lo + block) * b2 + e] = acc.x + acc.y;
}
