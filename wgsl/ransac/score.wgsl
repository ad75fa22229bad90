// RANSAC's scoring: every hypothesis against every correspondence. One workgroup
// of 64 per hypothesis; each invocation takes every 64th correspondence, counts
// those whose reprojection error ‖(u, v) − H·(x, y)‖ is within the threshold, and
// the workgroup adds its 64 counts in workgroup memory, halving with a barrier
// between steps (a tree reduction, as the log's inlier check does it).
struct Params { count: u32, points: u32, threshold2: f32, groups_x: u32 }

@group(0) @binding(0) var<storage, read> pts: array<f32>;   // x, y, u, v per correspondence
@group(0) @binding(1) var<storage, read> hyps: array<f32>;  // 9 per hypothesis
@group(0) @binding(2) var<storage, read_write> counts: array<f32>;
@group(0) @binding(3) var<uniform> u: Params;

var<workgroup> partial: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    // One hypothesis per workgroup: h is the same for all 64, so the barriers below
    // stay in uniform control flow.
    let h = wg.y * u.groups_x + wg.x;
    var inliers = 0u;
    if (h < u.count) {
        var m: array<f32, 9>;
        for (var e = 0u; e < 9u; e++) { m[e] = hyps[9u * h + e]; }
        for (var i = li; i < u.points; i += 64u) {
            let x = pts[4u * i];
            let y = pts[4u * i + 1u];
            let w = m[6] * x + m[7] * y + m[8];
            if (abs(w) > 1e-12) {
                let du = (m[0] * x + m[1] * y + m[2]) / w - pts[4u * i + 2u];
                let dv = (m[3] * x + m[4] * y + m[5]) / w - pts[4u * i + 3u];
                if (du * du + dv * dv <= u.threshold2) { inliers += 1u; }
            }
        }
    }
    partial[li] = inliers;
    workgroupBarrier();
    for (var s = 32u; s > 0u; s >>= 1u) {
        if (li < s) { partial[li] += partial[li + s]; }
        workgroupBarrier();
    }
    if (li == 0u && h < u.count) { counts[h] = f32(partial[0]); }
}
