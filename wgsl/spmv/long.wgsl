// Sparse matrix × vector for the long rows of a CSR matrix: one workgroup of 256 per
// row, each invocation summing every 256th product of the row, then a tree reduction
// in workgroup memory (the short rows, one invocation each, are wgsl/spmv/spmv.wgsl's,
// which skips these). For matrices with a few very long rows (a graph's hubs), where
// one invocation walking a whole row would keep the others of its workgroup waiting.
struct Params {
    count: u32,    // long rows listed
    groups_x: u32, // workgroups along x (the grid folds into y past the limit)
    unused0: u32,
    unused1: u32,
}

@group(0) @binding(0) var<storage, read> values: array<f32>;
@group(0) @binding(1) var<storage, read> columns: array<f32>;
@group(0) @binding(2) var<storage, read> offsets: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read> long_rows: array<f32>;
@group(0) @binding(5) var<storage, read_write> y: array<f32>;
@group(0) @binding(6) var<uniform> u: Params;

var<workgroup> partial: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let t = wg.y * u.groups_x + wg.x;
    if (t >= u.count) { return; } // the whole workgroup leaves: barriers stay uniform
    let row = bitcast<u32>(long_rows[t]);
    let end = bitcast<u32>(offsets[row + 1u]);
    var acc = 0.0;
    for (var k = bitcast<u32>(offsets[row]) + li; k < end; k += 256u) {
        acc = fma(values[k], x[bitcast<u32>(columns[k])], acc);
    }
    partial[li] = acc;
    workgroupBarrier();
    for (var s = 128u; s > 0u; s >>= 1u) {
        if (li < s) { partial[li] += partial[li + s]; }
        workgroupBarrier();
    }
    if (li == 0u) { y[row] = partial[0]; }
}
