// Batched small products: `count` products C_s = A_s · B_s at once, one invocation
// per entry of every C_s (the developer's log: one work item per output cell of a
// 3×3 product). Each matrix is a tile of an atlas, `per_row` tiles side by side
// per band (the log's "side by side"; wgsl/common/atlas.wgsl, prepended).
struct Params {
    count: u32,
    rows: u32,
    inner: u32,
    cols: u32,
    a_per_row: u32,
    b_per_row: u32,
    c_per_row: u32,
    groups_x: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let e = (wg.y * u.groups_x + wg.x) * 256u + li;
    let cells = u.rows * u.cols;
    if (e >= u.count * cells) { return; }
    let s = e / cells;
    let i = (e % cells) / u.cols;
    let j = e % u.cols;
    var acc = 0.0;
    for (var k = 0u; k < u.inner; k++) {
        let x = a[atlas_at(s, i, k, u.rows, u.inner, u.a_per_row)];
        let y = b[atlas_at(s, k, j, u.inner, u.cols, u.b_per_row)];
        acc = fma(x, y, acc);
    }
    c[atlas_at(s, i, j, u.rows, u.cols, u.c_per_row)] = acc;
}
