// Sparse matrix × vector, y = A·x, with A in CSR: one invocation per row of A, as
// the chapter's one-thread-per-row kernel. Column indices and row offsets are u32s
// stored in f32 buffers by their bits (bitcast back here). Invocations past the last
// row write 0 to y's padding (y is a list a whole number of rows long). Rows longer
// than `long_from` are left to wgsl/spmv/long.wgsl when it runs (else long_from is
// the largest u32).
struct Params {
    rows: u32,     // rows of A
    len: u32,      // y's length, padding included
    groups_x: u32, // workgroups along x (the grid folds into y past the limit)
    long_from: u32, // rows with more entries than this are wgsl/spmv/long.wgsl's
}

@group(0) @binding(0) var<storage, read> values: array<f32>;
@group(0) @binding(1) var<storage, read> columns: array<f32>;
@group(0) @binding(2) var<storage, read> offsets: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;
@group(0) @binding(5) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let row = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (row >= u.len) { return; }
    if (row >= u.rows) {
        y[row] = 0.0;
        return;
    }
    let start = bitcast<u32>(offsets[row]);
    let end = bitcast<u32>(offsets[row + 1u]);
    if (end - start > u.long_from) { return; }
    var acc = 0.0;
    for (var k = start; k < end; k++) {
        acc = fma(values[k], x[bitcast<u32>(columns[k])], acc);
    }
    y[row] = acc;
}
