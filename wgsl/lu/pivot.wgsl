// Gaussian elimination, step k, the pivot (one workgroup; src/plan/lu.rs states
// the algorithm and the singularity rule). k is not a uniform: it is read from
// the state buffer, so every dispatch of a factorization shares one uniform
// block. In order, with barriers between:
// 1. the multipliers of step k − 1: column k − 1 below the diagonal divided by
//    that step's pivot (0 where the pivot was too small);
// 2. the pivot: the first row p ≥ k with the largest |w_pk|, by a strided scan
//    then a tree reduction in workgroup memory;
// 3. rows k and p swapped, whole;
// 4. invocation 0 records p, the first singular step, and k for the update.
// state: [p_0 … p_{n−1}, first singular step (−1: none), k of this step, next k].
// With `scale_only` the dispatch stops after 1: the end of a factorization
// stopped part way (a full one has no rows below its last pivot).
struct Params { n: u32, cols: u32, tiny: f32, scale_only: u32 }

@group(0) @binding(0) var<storage, read_write> w: array<f32>;
@group(0) @binding(1) var<storage, read_write> state: array<f32>;
@group(0) @binding(2) var<uniform> u: Params;

const GROUP: u32 = 256u;
var<workgroup> best_v: array<f32, GROUP>;
var<workgroup> best_i: array<u32, GROUP>;
var<workgroup> step: u32;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) t: u32) {
    let n = u.n;
    let cols = u.cols;
    if (t == 0u) {
        step = u32(state[n + 2u]);
    }
    let k = workgroupUniformLoad(&step);
    if (k > 0u) {
        let prev = k - 1u;
        let piv = w[prev * cols + prev];
        let small = abs(piv) <= u.tiny;
        for (var i = k + t; i < n; i += GROUP) {
            w[i * cols + prev] = select(w[i * cols + prev] / piv, 0.0, small);
        }
    }
    storageBarrier();
    if (u.scale_only == 1u) {
        return;
    }
    // Rows are scanned in increasing order and only a strictly larger value
    // wins, so each invocation keeps its first largest row.
    var bv = -1.0;
    var bi = k;
    for (var i = k + t; i < n; i += GROUP) {
        let v = abs(w[i * cols + k]);
        if (v > bv) {
            bv = v;
            bi = i;
        }
    }
    best_v[t] = bv;
    best_i[t] = bi;
    workgroupBarrier();
    for (var s = GROUP / 2u; s > 0u; s >>= 1u) {
        if (t < s) {
            let ov = best_v[t + s];
            let oi = best_i[t + s];
            if (ov > best_v[t] || (ov == best_v[t] && oi < best_i[t])) {
                best_v[t] = ov;
                best_i[t] = oi;
            }
        }
        workgroupBarrier();
    }
    let p = best_i[0];
    if (p != k) {
        for (var j = t; j < cols; j += GROUP) {
            let a = w[k * cols + j];
            w[k * cols + j] = w[p * cols + j];
            w[p * cols + j] = a;
        }
    }
    if (t == 0u) {
        state[k] = f32(p);
        if (best_v[0] <= u.tiny && state[n] < 0.0) {
            state[n] = f32(k);
        }
        state[n + 1u] = f32(k);
        state[n + 2u] = f32(k + 1u);
    }
}
