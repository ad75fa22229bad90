// Element-wise R = alpha·P + beta·Q + gamma·I, one invocation per element. The
// applications' building block: 2I − AX (Newton–Schulz), AX − I (residuals),
// c + Tx (Jacobi), A − λ·v·vᵀ (deflation), s·M (normalisation). With `combine` 1 or
// 2 it is R = max(P, Q) or min(P, Q) instead: the boolean and min-plus "sum" that
// adds up the tile products of a tiled product (the ordinary sum is P + Q).
struct Affine { rows: u32, cols: u32, alpha: f32, beta: f32, gamma: f32, combine: u32, unused1: u32, unused2: u32 }

@group(0) @binding(0) var<storage, read> p: array<f32>;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read_write> r: array<f32>;
@group(0) @binding(3) var<uniform> u: Affine;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let i = id.y;
    let j = id.x;
    if (i >= u.rows || j >= u.cols) { return; }
    let at = i * u.cols + j;
    if (u.combine == 1u) { r[at] = max(p[at], q[at]); return; }
    if (u.combine == 2u) { r[at] = min(p[at], q[at]); return; }
    // Terms with a zero coefficient are skipped, not multiplied by 0: 0 · Inf is NaN.
    var v = 0.0;
    if (u.alpha != 0.0) { v += u.alpha * p[at]; }
    if (u.beta != 0.0) { v += u.beta * q[at]; }
    if (u.gamma != 0.0 && i == j) { v += u.gamma; }
    r[at] = v;
}
