// RANSAC's hypotheses on WebGL: one fragment per entry of each hypothesis's H (9
// per hypothesis, `u_width` entries per row of the R32F target). Every fragment of
// a hypothesis fits the same H (the 4 sampled correspondences, Hartley-normalised,
// the DLT with h33 = 1 solved by Gaussian elimination with partial pivoting) and
// keeps its entry: a fragment has one output, and the fit is 9× cheaper to repeat
// than to pass between passes. The same steps as wgsl/ransac/fit.wgsl.
uniform highp sampler2D u_pts;      // x, y, u, v per correspondence, u_width per row
uniform highp sampler2D u_samples;  // 4 indices per hypothesis
uniform int u_count;
uniform int u_width;
out vec4 o_value;

float at(highp sampler2D list, int t) {
    return texelFetch(list, ivec2(t % u_width, t / u_width), 0).r;
}

float cross3(vec2 a, vec2 b, vec2 c) {
    return abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));
}

bool degenerate(vec2 p[4]) {
    float spread = 0.0;
    for (int i = 0; i < 4; ++i) {
        for (int j = 0; j < 4; ++j) {
            vec2 d = p[i] - p[j];
            spread = max(spread, dot(d, d));
        }
    }
    float eps = 1e-6 * spread;
    return cross3(p[0], p[1], p[2]) <= eps || cross3(p[0], p[1], p[3]) <= eps
        || cross3(p[0], p[2], p[3]) <= eps || cross3(p[1], p[2], p[3]) <= eps;
}

vec3 normalisation(vec2 p[4]) {
    vec2 c = (p[0] + p[1] + p[2] + p[3]) * 0.25;
    float mean = (length(p[0] - c) + length(p[1] - c) + length(p[2] - c) + length(p[3] - c)) * 0.25;
    float s = mean > 0.0 ? 1.41421356 / mean : 1.0;
    return vec3(s, -s * c.x, -s * c.y);
}

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int index = t.y * u_width + t.x;
    int h = index / 9;
    int e = index % 9;
    o_value = vec4(0.0);
    if (h >= u_count) return;
    vec2 s[4];
    vec2 d[4];
    for (int k = 0; k < 4; ++k) {
        int i = int(at(u_samples, 4 * h + k));
        s[k] = vec2(at(u_pts, 4 * i), at(u_pts, 4 * i + 1));
        d[k] = vec2(at(u_pts, 4 * i + 2), at(u_pts, 4 * i + 3));
    }
    if (degenerate(s) || degenerate(d)) return;
    vec3 t1 = normalisation(s);
    vec3 t2 = normalisation(d);
    float m[72];
    for (int k = 0; k < 4; ++k) {
        float x = t1.x * s[k].x + t1.y;
        float y = t1.x * s[k].y + t1.z;
        float uu = t2.x * d[k].x + t2.y;
        float vv = t2.x * d[k].y + t2.z;
        int r = 18 * k;
        m[r + 0] = x; m[r + 1] = y; m[r + 2] = 1.0; m[r + 3] = 0.0; m[r + 4] = 0.0;
        m[r + 5] = 0.0; m[r + 6] = -uu * x; m[r + 7] = -uu * y; m[r + 8] = uu;
        m[r + 9] = 0.0; m[r + 10] = 0.0; m[r + 11] = 0.0; m[r + 12] = x; m[r + 13] = y;
        m[r + 14] = 1.0; m[r + 15] = -vv * x; m[r + 16] = -vv * y; m[r + 17] = vv;
    }
    for (int c = 0; c < 8; ++c) {
        int p = c;
        for (int r = c + 1; r < 8; ++r) {
            if (abs(m[9 * r + c]) > abs(m[9 * p + c])) p = r;
        }
        if (abs(m[9 * p + c]) < 1e-9) return;
        for (int j = 0; j < 9; ++j) {
            float tmp = m[9 * c + j];
            m[9 * c + j] = m[9 * p + j];
            m[9 * p + j] = tmp;
        }
        for (int r = c + 1; r < 8; ++r) {
            float f = m[9 * r + c] / m[9 * c + c];
            for (int j = c; j < 9; ++j) m[9 * r + j] -= f * m[9 * c + j];
        }
    }
    float hn[9];
    hn[8] = 1.0;
    for (int i = 0; i < 8; ++i) {
        int r = 7 - i;
        float acc = m[9 * r + 8];
        for (int j = r + 1; j < 8; ++j) acc -= m[9 * r + j] * hn[j];
        hn[r] = acc / m[9 * r + r];
    }
    // GLSL matrices are column-major, as WGSL's.
    mat3 a = mat3(hn[0], hn[3], hn[6], hn[1], hn[4], hn[7], hn[2], hn[5], hn[8]);
    mat3 t1m = mat3(t1.x, 0.0, 0.0, 0.0, t1.x, 0.0, t1.y, t1.z, 1.0);
    mat3 t2i = mat3(1.0 / t2.x, 0.0, 0.0, 0.0, 1.0 / t2.x, 0.0, -t2.y / t2.x, -t2.z / t2.x, 1.0);
    mat3 full = t2i * a * t1m;
    float w = full[2][2];
    if (abs(w) < 1e-12) return;
    o_value = vec4(full[e % 3][e / 3] / w, 0.0, 0.0, 1.0);
}
