// Gaussian elimination, step k, the update of the trailing block (one invocation
// per entry of rows k+1.. and columns k+1.., right-hand sides included): w_ij −=
// (w_ik / w_kk) · w_kj. It reads only column k and row k, which no invocation
// writes, so it works in place; the multipliers themselves are stored by the
// next step's pivot dispatch (wgsl/lu/pivot.wgsl). A pivot at or below the
// singularity threshold eliminates nothing. k comes from the state buffer; the
// grid covers the trailing block of this k.
struct Params { n: u32, cols: u32, tiny: f32, scale_only: u32 }

@group(0) @binding(0) var<storage, read_write> w: array<f32>;
@group(0) @binding(1) var<storage, read> state: array<f32>;
@group(0) @binding(2) var<uniform> u: Params;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) g: vec3u) {
    let n = u.n;
    let cols = u.cols;
    let k = u32(state[n + 1u]);
    let i = k + 1u + g.y;
    let j = k + 1u + g.x;
    if (i >= n || j >= cols) {
        return;
    }
    let piv = w[k * cols + k];
    if (abs(piv) <= u.tiny) {
        return;
    }
    let l = w[i * cols + k] / piv;
    w[i * cols + j] = w[i * cols + j] - l * w[k * cols + j];
}
