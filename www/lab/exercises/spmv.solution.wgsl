// y = A·x for A in CSR form, one invocation per row: the chapter's Compressed Sparse
// Row struct (values, their columns, and where each row starts), the library's
// SpMV kernel without its workgroup per long row.
struct Dims { rows: u32, cols: u32, nnz: u32, pad: u32 }
@group(0) @binding(0) var<storage, read> values: array<f32>;    // nnz values, row by row
@group(0) @binding(1) var<storage, read> columns: array<u32>;   // nnz: the column of each value
@group(0) @binding(2) var<storage, read> offsets: array<u32>;   // rows + 1: row i is values[offsets[i] .. offsets[i + 1]]
@group(0) @binding(3) var<storage, read> x: array<f32>;         // cols
@group(0) @binding(4) var<storage, read_write> y: array<f32>;   // rows
@group(0) @binding(5) var<uniform> dims: Dims;

// Rows per workgroup; the page dispatches ceil(rows / WORKGROUP) workgroups along x.
const WORKGROUP: u32 = 64u;

@compute @workgroup_size(WORKGROUP)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let row = id.x;
    if (row >= dims.rows) { return; }
    var sum = 0.0;
    for (var k = offsets[row]; k < offsets[row + 1u]; k++) {
        sum += values[k] * x[columns[k]];
    }
    y[row] = sum;
}
