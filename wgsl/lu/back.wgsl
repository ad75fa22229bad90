// Back substitution U·x = y after the elimination of [A | B] (y: B's columns as
// the elimination left them). One workgroup per right-hand side r, 256
// invocations along the rows: for k from n − 1 down, x_k = y_k / u_kk and every
// row i < k loses u_ik · x_k, a storage barrier between steps; then x (n × nrhs,
// row-major) ← y_i / u_ii. The workgroup owns its column, so the steps need no
// other synchronisation.
struct Params { n: u32, cols: u32, tiny: f32, scale_only: u32 }

@group(0) @binding(0) var<storage, read_write> w: array<f32>;
@group(0) @binding(1) var<storage, read_write> x: array<f32>;
@group(0) @binding(2) var<uniform> u: Params;

const GROUP: u32 = 256u;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) t: u32) {
    let n = u.n;
    let cols = u.cols;
    let nrhs = cols - n;
    let r = wg.x;
    let c = n + r;
    for (var k = n; k > 0u; k -= 1u) {
        let kk = k - 1u;
        let xk = w[kk * cols + c] / w[kk * cols + kk];
        for (var i = t; i < kk; i += GROUP) {
            w[i * cols + c] = w[i * cols + c] - w[i * cols + kk] * xk;
        }
        storageBarrier();
    }
    for (var i = t; i < n; i += GROUP) {
        x[i * nrhs + r] = w[i * cols + c] / w[i * cols + i];
    }
}
