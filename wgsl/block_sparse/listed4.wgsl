// listed.wgsl for blocks whose side m is a multiple of 4: one invocation per four
// entries (r, 4j..4j+3) of a block of C, with vec4 loads, so a quarter of the
// invocations, each with the same chain of loads per block product (bench/NOTES.md).
// Rows of m floats are m/4 vec4s; `count` and `first` count vec4s of C.
struct Params { m: u32, count: u32, blocks: u32, total: u32, lo: u32, first: u32, groups_x: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> a: array<vec4f>;
@group(0) @binding(1) var<storage, read> b: array<vec4f>;
@group(0) @binding(2) var<storage, read> pairs: array<u32>;
@group(0) @binding(3) var<storage, read> starts: array<u32>;
@group(0) @binding(4) var<storage, read_write> c: array<vec4f>;
@group(0) @binding(5) var<uniform> u: Params;

// s plus the q-th vec4 of a row of an A block (at: the row's first vec4) times the 4
// rows of a B block it meets (bt: the column's vec4 in B's first row; w vec4s a row).
fn step(at: u32, bt: u32, q: u32, w: u32, s: vec4f) -> vec4f {
    let x = a[at + q];
    let o = bt + 4u * q * w;
    let t = fma(vec4f(x.x), b[o], s);
    let t2 = fma(vec4f(x.y), b[o + w], t);
    let t3 = fma(vec4f(x.z), b[o + 2u * w], t2);
    return fma(vec4f(x.w), b[o + 3u * w], t3);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let g = u.first + (wg.y * u.groups_x + wg.x) * 256u + li;
    if (g >= u.count) { return; }
    let w = u.m / 4u;
    let b2 = u.m * w;
    let block = g / b2;
    let e = g % b2;
    let r = e / w;
    let col = e % w;
    let end = select(u.total, starts[block + 1u], block + 1u < u.blocks);
    // Two block products a step, in two sums (listed.wgsl says why).
    var s0 = vec4f(0.0);
    var s1 = vec4f(0.0);
    var p = starts[block];
    for (; p + 1u < end; p += 2u) {
        let at = vec2u(pairs[2u * p], pairs[2u * p + 2u]) * b2 + r * w;
        let bt = vec2u(pairs[2u * p + 1u], pairs[2u * p + 3u]) * b2 + col;
        for (var q = 0u; q < w; q++) {
            s0 = step(at.x, bt.x, q, w, s0);
            s1 = step(at.y, bt.y, q, w, s1);
        }
    }
    if (p < end) {
        let at = pairs[2u * p] * b2 + r * w;
        let bt = pairs[2u * p + 1u] * b2 + col;
        for (var q = 0u; q < w; q++) {
            s0 = step(at, bt, q, w, s0);
        }
    }
    c[(u.lo + block) * b2 + e] = s0 + s1;
}
