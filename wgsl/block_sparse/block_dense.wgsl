// Between a block-sparse matrix and its dense n×n form, one invocation per entry
// (r, col) of stored block s at cell (i, j): mode 0 writes it into the dense matrix
// at row i·m + r, column j·m + col (blocks to dense); mode 1 reads it from there
// (dense to blocks). The dense form lets a product whose blocks are dense enough
// run on the dense product kernel.
struct Params { t: u32, m: u32, count: u32, groups_x: u32, mode: u32, unused0: u32, unused1: u32, unused2: u32 }

@group(0) @binding(0) var<storage, read> cells: array<u32>;
@group(0) @binding(1) var<storage, read_write> blocks: array<f32>;
@group(0) @binding(2) var<storage, read_write> dense: array<f32>;
@group(0) @binding(3) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let g = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (g >= u.count) { return; }
    let b2 = u.m * u.m;
    let cell = cells[g / b2];
    let e = g % b2;
    let at = ((cell / u.t) * u.m + e / u.m) * u.t * u.m + (cell % u.t) * u.m + e % u.m;
    if (u.mode == 0u) {
        dense[at] = blocks[g];
    } else {
        blocks[g] = dense[at];
    }
}
