// Along the lines of a block map, one invocation per line: mode 0 counts a row's
// stored blocks, mode 1 a column's; mode 2 writes a row's stored blocks, in column
// order, as (column, slot) pairs of A's block rows in CSR form, from the inclusive
// sums of the row counts (`counts`, read there).
struct Params { t: u32, mode: u32, groups_x: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> map: array<u32>;
@group(0) @binding(1) var<storage, read_write> counts: array<u32>;
@group(0) @binding(2) var<storage, read_write> csr: array<u32>;
@group(0) @binding(3) var<uniform> u: Params;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let line = (wg.y * u.groups_x + wg.x) * 256u + li;
    if (line >= u.t) { return; }
    if (u.mode == 2u) {
        var p = select(0u, counts[line - 1u], line > 0u);
        for (var c = 0u; c < u.t; c++) {
            let s = map[line * u.t + c];
            if (s != 0xffffffffu) {
                csr[2u * p] = c;
                csr[2u * p + 1u] = s;
                p++;
            }
        }
        return;
    }
    var n = 0u;
    for (var c = 0u; c < u.t; c++) {
        let at = select(line * u.t + c, c * u.t + line, u.mode == 1u);
        n += select(0u, 1u, map[at] != 0xffffffffu);
    }
    counts[line] = n;
}
