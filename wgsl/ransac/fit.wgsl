// RANSAC's hypotheses, one invocation per hypothesis (the developer's log fits
// 2000 of them per batch): the 4 sampled correspondences, Hartley-normalised; the
// DLT with h33 = 1 (8 equations, 8 unknowns) solved exactly by Gaussian elimination
// with partial pivoting in private memory; H = T_dst^-1 · Ĥ · T_src, scaled to
// h33 = 1. A sample with three (nearly) collinear points, or a singular system,
// gives H = 0, which scores no inliers. The same steps as plan/homography.rs.
struct Params { count: u32, points: u32, groups_x: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> pts: array<f32>;      // x, y, u, v per correspondence
@group(0) @binding(1) var<storage, read> samples: array<f32>;  // 4 indices per hypothesis
@group(0) @binding(2) var<storage, read_write> hyps: array<f32>; // 9 per hypothesis
@group(0) @binding(3) var<uniform> u: Params;

fn cross3(a: vec2f, b: vec2f, c: vec2f) -> f32 {
    return abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
}

// Whether three of the four points are (nearly) collinear, relative to their spread.
fn degenerate(p: array<vec2f, 4>) -> bool {
    var spread = 0.0;
    for (var i = 0u; i < 4u; i++) {
        for (var j = 0u; j < 4u; j++) {
            let d = p[i] - p[j];
            spread = max(spread, dot(d, d));
        }
    }
    let eps = 1e-6 * spread;
    return cross3(p[0], p[1], p[2]) <= eps || cross3(p[0], p[1], p[3]) <= eps
        || cross3(p[0], p[2], p[3]) <= eps || cross3(p[1], p[2], p[3]) <= eps;
}

// Hartley: (scale, tx, ty) moving the centroid to 0 and the mean distance to √2.
fn normalisation(p: array<vec2f, 4>) -> vec3f {
    let c = (p[0] + p[1] + p[2] + p[3]) * 0.25;
    let mean = (length(p[0] - c) + length(p[1] - c) + length(p[2] - c) + length(p[3] - c)) * 0.25;
    let s = select(1.0, 1.41421356 / mean, mean > 0.0);
    return vec3f(s, -s * c.x, -s * c.y);
}

fn zero(h: u32) {
    for (var e = 0u; e < 9u; e++) { hyps[9u * h + e] = 0.0; }
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_index) li: u32) {
    let h = (wg.y * u.groups_x + wg.x) * 64u + li;
    if (h >= u.count) { return; }
    var s: array<vec2f, 4>;
    var d: array<vec2f, 4>;
    for (var k = 0u; k < 4u; k++) {
        let i = u32(samples[4u * h + k]);
        s[k] = vec2f(pts[4u * i], pts[4u * i + 1u]);
        d[k] = vec2f(pts[4u * i + 2u], pts[4u * i + 3u]);
    }
    if (degenerate(s) || degenerate(d)) { zero(h); return; }
    let t1 = normalisation(s);
    let t2 = normalisation(d);
    // The 8×9 augmented system, row-major.
    var m: array<f32, 72>;
    for (var k = 0u; k < 4u; k++) {
        let x = t1.x * s[k].x + t1.y;
        let y = t1.x * s[k].y + t1.z;
        let uu = t2.x * d[k].x + t2.y;
        let vv = t2.x * d[k].y + t2.z;
        let r = 18u * k;
        m[r + 0u] = x; m[r + 1u] = y; m[r + 2u] = 1.0; m[r + 3u] = 0.0; m[r + 4u] = 0.0;
        m[r + 5u] = 0.0; m[r + 6u] = -uu * x; m[r + 7u] = -uu * y; m[r + 8u] = uu;
        m[r + 9u] = 0.0; m[r + 10u] = 0.0; m[r + 11u] = 0.0; m[r + 12u] = x; m[r + 13u] = y;
        m[r + 14u] = 1.0; m[r + 15u] = -vv * x; m[r + 16u] = -vv * y; m[r + 17u] = vv;
    }
    // Gaussian elimination with partial pivoting.
    for (var c = 0u; c < 8u; c++) {
        var p = c;
        for (var r = c + 1u; r < 8u; r++) {
            if (abs(m[9u * r + c]) > abs(m[9u * p + c])) { p = r; }
        }
        if (abs(m[9u * p + c]) < 1e-9) { zero(h); return; }
        for (var j = 0u; j < 9u; j++) {
            let t = m[9u * c + j];
            m[9u * c + j] = m[9u * p + j];
            m[9u * p + j] = t;
        }
        for (var r = c + 1u; r < 8u; r++) {
            let f = m[9u * r + c] / m[9u * c + c];
            for (var j = c; j < 9u; j++) { m[9u * r + j] -= f * m[9u * c + j]; }
        }
    }
    var hn: array<f32, 9>;
    hn[8] = 1.0;
    for (var i = 0u; i < 8u; i++) {
        let r = 7u - i;
        var acc = m[9u * r + 8u];
        for (var j = r + 1u; j < 8u; j++) { acc -= m[9u * r + j] * hn[j]; }
        hn[r] = acc / m[9u * r + r];
    }
    // H = T2^-1 · Ĥ · T1 with T = [[s, 0, tx], [0, s, ty], [0, 0, 1]].
    let a = mat3x3f(hn[0], hn[3], hn[6], hn[1], hn[4], hn[7], hn[2], hn[5], hn[8]); // columns
    let t1m = mat3x3f(t1.x, 0.0, 0.0, 0.0, t1.x, 0.0, t1.y, t1.z, 1.0);
    let t2i = mat3x3f(1.0 / t2.x, 0.0, 0.0, 0.0, 1.0 / t2.x, 0.0, -t2.y / t2.x, -t2.z / t2.x, 1.0);
    let full = t2i * a * t1m;
    let w = full[2][2];
    if (abs(w) < 1e-12) { zero(h); return; }
    for (var i = 0u; i < 3u; i++) {
        for (var j = 0u; j < 3u; j++) { hyps[9u * h + 3u * i + j] = full[j][i] / w; }
    }
}
