// Batched SVD by one-sided (Hestenes) Jacobi, the whole iteration in one dispatch
// (src/plan/svd.rs states the algorithm). As in the developer's log, one invocation
// owns one column of a matrix and a workgroup holds several matrices side by side:
// 32 invocations, 32 / cols matrices (3 of 9×9). The log's 64 (7 of 9×9) measured
// slower on SwiftShader: 1000 9×9 SVDs in 350-410 ms against 225-240 ms with 32,
// 200 32×16 in 300-340 ms against 205-240 ms (16: 370 ms for the 9×9). An invocation keeps its column of [A; V] (rows + cols values)
// in registers and publishes it in workgroup memory for its partner; in each round
// of a sweep the two invocations of a pair compute the same α, β, γ in the same
// order, so they agree on the rotation without talking. After each sweep the
// workgroup decides together (workgroupUniformLoad) whether any of its matrices
// still rotated; at the end each invocation writes its column of U, V and its σ
// to the place its σ ranks (decreasing), signed so that V's largest entry of the
// column is positive. Inputs and results are tiles of atlases (wgsl/common/atlas.wgsl).
struct Params {
    count: u32,
    rows: u32,
    cols: u32,
    even: u32,
    in_per_row: u32,
    out_per_row: u32,
    per_group: u32,
    groups_x: u32,
    max_sweeps: u32,
    tol: f32,
    unused0: u32,
    unused1: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> result: array<f32>;
@group(0) @binding(2) var<storage, read_write> sweeps_out: array<f32>;
@group(0) @binding(3) var<uniform> u: Params;

const GROUP: u32 = 32u;
// rows + cols at most: 32 + 16.
const LEN: u32 = 48u;

// Every invocation's column, published for its partner (6 KB).
var<workgroup> shared_cols: array<f32, GROUP * LEN>;
// Per matrix of the workgroup: whether a pair rotated in this sweep.
var<workgroup> moved: array<atomic<u32>, GROUP>;
var<workgroup> go_on: u32;
var<workgroup> norms: array<f32, GROUP>;

// The circle method, as src/plan/svd.rs `partner`.
fn partner(round: u32, col: u32, even: u32) -> u32 {
    let m = even - 1u;
    if (col == m) { return round; }
    let p = (2u * round + 2u * m - col) % m;
    return select(p, m, p == col);
}

// Whether columns with these α, β, γ rotate (src/plan/svd.rs `rotation`).
fn rotates(al: f32, be: f32, ga: f32) -> bool {
    return al > 0.0 && be > 0.0 && abs(ga) > u.tol * sqrt(al) * sqrt(be);
}

// (c, s) of the rotation.
fn rotation(al: f32, be: f32, ga: f32) -> vec2f {
    let zeta = (be - al) / (2.0 * ga);
    let root = select(sqrt(1.0 + zeta * zeta), abs(zeta), abs(zeta) > 1e15);
    let t = select(1.0, -1.0, zeta < 0.0) / (abs(zeta) + root);
    let c = 1.0 / sqrt(1.0 + t * t);
    return vec2f(c, c * t);
}

@compute @workgroup_size(GROUP)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let rows = u.rows;
    let cols = u.cols;
    let len = rows + cols;
    let slot = li / cols;
    let x = li % cols;
    let s = (wg.y * u.groups_x + wg.x) * u.per_group + slot;
    // Idle invocations (past the last whole matrix, or past the batch) still meet
    // every barrier.
    let live = slot < u.per_group && s < u.count;
    let mine = li * LEN;

    var col: array<f32, 48>;
    if (live) {
        for (var i = 0u; i < rows; i++) {
            col[i] = a[atlas_at(s, i, x, rows, cols, u.in_per_row)];
        }
        for (var i = 0u; i < cols; i++) {
            col[rows + i] = select(0.0, 1.0, i == x);
        }
        for (var i = 0u; i < len; i++) {
            shared_cols[mine + i] = col[i];
        }
    }
    atomicStore(&moved[li], 0u);
    workgroupBarrier();

    var sweeps = 0u;
    var done = false;
    for (var sweep = 0u; sweep < u.max_sweeps; sweep++) {
        for (var r = 0u; r + 1u < u.even; r++) {
            var rotate = false;
            var cs = vec2f(1.0, 0.0);
            var first = true;
            var other = 0u;
            if (live) {
                let y = partner(r, x, u.even);
                if (y < cols) {
                    other = (slot * cols + y) * LEN;
                    first = x < y;
                    var al = 0.0;
                    var be = 0.0;
                    var ga = 0.0;
                    for (var i = 0u; i < rows; i++) {
                        let own = col[i];
                        let theirs = shared_cols[other + i];
                        // p = the lower column: both ends add up the same terms.
                        let ap = select(theirs, own, first);
                        let aq = select(own, theirs, first);
                        al += ap * ap;
                        be += aq * aq;
                        ga += ap * aq;
                    }
                    if (rotates(al, be, ga)) {
                        rotate = true;
                        cs = rotation(al, be, ga);
                    }
                }
            }
            if (rotate) {
                for (var i = 0u; i < len; i++) {
                    let own = col[i];
                    let theirs = shared_cols[other + i];
                    // a_p ← c·a_p − s·a_q; a_q ← s·a_p + c·a_q.
                    col[i] = select(cs.y * theirs + cs.x * own, cs.x * own - cs.y * theirs, first);
                }
                atomicOr(&moved[slot], 1u);
            }
            // Everyone has read its partner's old column before any is overwritten.
            workgroupBarrier();
            if (rotate) {
                for (var i = 0u; i < len; i++) {
                    shared_cols[mine + i] = col[i];
                }
            }
            workgroupBarrier();
        }
        // A matrix none of whose pairs rotated in a sweep is done: the next sweep
        // would see the same columns.
        let rotated = live && atomicLoad(&moved[slot]) != 0u;
        if (li == 0u) {
            var moved_any = 0u;
            for (var k = 0u; k < u.per_group; k++) {
                moved_any |= atomicLoad(&moved[k]);
            }
            go_on = moved_any;
        }
        let again = workgroupUniformLoad(&go_on);
        if (!done) {
            if (rotated) { sweeps += 1u; } else { done = true; }
        }
        atomicStore(&moved[li], 0u);
        workgroupBarrier();
        if (again == 0u) { break; }
    }

    var al = 0.0;
    for (var i = 0u; i < rows; i++) {
        al += col[i] * col[i];
    }
    let sigma = sqrt(al);
    norms[li] = sigma;
    workgroupBarrier();
    if (!live) { return; }
    // Place by σ decreasing, ties by column (src/plan/svd.rs `ranks`).
    var rank = 0u;
    for (var k = 0u; k < cols; k++) {
        let other_sigma = norms[slot * cols + k];
        if (other_sigma > sigma || (other_sigma == sigma && k < x)) { rank += 1u; }
    }
    // The sign that makes V's largest entry of the column positive (`sign`).
    var best = 0.0;
    for (var i = 0u; i < cols; i++) {
        if (abs(col[rows + i]) > abs(best)) { best = col[rows + i]; }
    }
    let f = select(1.0, -1.0, best < 0.0);
    let tile_rows = len + 1u;
    for (var i = 0u; i < rows; i++) {
        // U_j = a_j / σ_j, a zero column where σ_j = 0.
        let value = select(0.0, f * col[i] / sigma, sigma > 0.0);
        result[atlas_at(s, i, rank, tile_rows, cols, u.out_per_row)] = value;
    }
    for (var i = rows; i < len; i++) {
        result[atlas_at(s, i, rank, tile_rows, cols, u.out_per_row)] = f * col[i];
    }
    result[atlas_at(s, len, rank, tile_rows, cols, u.out_per_row)] = sigma;
    if (x == 0u) {
        sweeps_out[s] = f32(sweeps);
    }
}
