// RANSAC's scoring on WebGL: one fragment per hypothesis counts the correspondences
// whose reprojection error ‖(u, v) − H·(x, y)‖ is within the threshold (a fragment
// cannot share partial counts as a workgroup does, so it walks them all).
uniform highp sampler2D u_pts;   // x, y, u, v per correspondence, u_width per row
uniform highp sampler2D u_hyps;  // 9 per hypothesis
uniform int u_count;
uniform int u_points;
uniform int u_width;
uniform float u_threshold2;
out vec4 o_value;

float at(highp sampler2D list, int t) {
    return texelFetch(list, ivec2(t % u_width, t / u_width), 0).r;
}

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int h = t.y * u_width + t.x;
    o_value = vec4(0.0);
    if (h >= u_count) return;
    float m[9];
    for (int e = 0; e < 9; ++e) m[e] = at(u_hyps, 9 * h + e);
    float inliers = 0.0;
    for (int i = 0; i < u_points; ++i) {
        float x = at(u_pts, 4 * i);
        float y = at(u_pts, 4 * i + 1);
        float w = m[6] * x + m[7] * y + m[8];
        if (abs(w) > 1e-12) {
            float du = (m[0] * x + m[1] * y + m[2]) / w - at(u_pts, 4 * i + 2);
            float dv = (m[3] * x + m[4] * y + m[5]) / w - at(u_pts, 4 * i + 3);
            if (du * du + dv * dv <= u_threshold2) inliers += 1.0;
        }
    }
    o_value = vec4(inliers, 0.0, 0.0, 1.0);
}
