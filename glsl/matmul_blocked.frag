// The register-blocked kernel: each fragment computes a block of PLANES rows x 4
// columns, writing PLANES colour attachments at once (multiple render targets).
// A matrix is split row-wise over PLANES RGBA32F textures: row i lives in plane
// i % PLANES at y = i / PLANES, four columns per texel. Per step of PLANES values
// of k it fetches PLANES*PLANES/4 texels of A and PLANES of B, and does
// 4*PLANES*PLANES multiply-adds: far more arithmetic per fetch than one texel.
uniform highp sampler2D u_a[PLANES];  // plane r, texel (kb, ib) = A[PLANES*ib + r][4kb ..]
uniform highp sampler2D u_b[PLANES];  // plane q, texel (jb, s)  = B[PLANES*s + q][4jb ..]
uniform int u_steps;                  // padded inner / PLANES
uniform ivec2 u_valid;                // (cols, rows) of R; beyond them is padding

layout(location = 0) out vec4 o_0;
layout(location = 1) out vec4 o_1;
layout(location = 2) out vec4 o_2;
layout(location = 3) out vec4 o_3;
#if PLANES == 8
layout(location = 4) out vec4 o_4;
layout(location = 5) out vec4 o_5;
layout(location = 6) out vec4 o_6;
layout(location = 7) out vec4 o_7;
#endif

// Row r of the block takes four k values from one A texel, times four B rows.
#define ROW(c, r, kx, b0, b1, b2, b3) {               \
    vec4 a = texelFetch(u_a[r], ivec2(kx, p.y), 0);   \
    c = sr_fma(c, a.x, b0);                            \
    c = sr_fma(c, a.y, b1);                            \
    c = sr_fma(c, a.z, b2);                            \
    c = sr_fma(c, a.w, b3); }

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);  // (jb, ib): this fragment's block
    vec4 c0 = vec4(SR_ZERO), c1 = c0, c2 = c0, c3 = c0;
#if PLANES == 8
    vec4 c4 = c0, c5 = c0, c6 = c0, c7 = c0;
#endif
    for (int s = 0; s < u_steps; ++s) {
        // B rows PLANES*s + q, q = 0..PLANES-1: one texel from each plane.
        vec4 b0 = texelFetch(u_b[0], ivec2(p.x, s), 0);
        vec4 b1 = texelFetch(u_b[1], ivec2(p.x, s), 0);
        vec4 b2 = texelFetch(u_b[2], ivec2(p.x, s), 0);
        vec4 b3 = texelFetch(u_b[3], ivec2(p.x, s), 0);
#if PLANES == 4
        ROW(c0, 0, s, b0, b1, b2, b3)
        ROW(c1, 1, s, b0, b1, b2, b3)
        ROW(c2, 2, s, b0, b1, b2, b3)
        ROW(c3, 3, s, b0, b1, b2, b3)
#else
        vec4 b4 = texelFetch(u_b[4], ivec2(p.x, s), 0);
        vec4 b5 = texelFetch(u_b[5], ivec2(p.x, s), 0);
        vec4 b6 = texelFetch(u_b[6], ivec2(p.x, s), 0);
        vec4 b7 = texelFetch(u_b[7], ivec2(p.x, s), 0);
        int x = 2 * s;  // eight k values span two A texels
        ROW(c0, 0, x, b0, b1, b2, b3) ROW(c0, 0, x + 1, b4, b5, b6, b7)
        ROW(c1, 1, x, b0, b1, b2, b3) ROW(c1, 1, x + 1, b4, b5, b6, b7)
        ROW(c2, 2, x, b0, b1, b2, b3) ROW(c2, 2, x + 1, b4, b5, b6, b7)
        ROW(c3, 3, x, b0, b1, b2, b3) ROW(c3, 3, x + 1, b4, b5, b6, b7)
        ROW(c4, 4, x, b0, b1, b2, b3) ROW(c4, 4, x + 1, b4, b5, b6, b7)
        ROW(c5, 5, x, b0, b1, b2, b3) ROW(c5, 5, x + 1, b4, b5, b6, b7)
        ROW(c6, 6, x, b0, b1, b2, b3) ROW(c6, 6, x + 1, b4, b5, b6, b7)
        ROW(c7, 7, x, b0, b1, b2, b3) ROW(c7, 7, x + 1, b4, b5, b6, b7)
#endif
    }
    int i0 = PLANES * p.y, j0 = 4 * p.x;
    o_0 = sr_keep_inside(sr_finish(c0), i0, j0, u_valid);
    o_1 = sr_keep_inside(sr_finish(c1), i0 + 1, j0, u_valid);
    o_2 = sr_keep_inside(sr_finish(c2), i0 + 2, j0, u_valid);
    o_3 = sr_keep_inside(sr_finish(c3), i0 + 3, j0, u_valid);
#if PLANES == 8
    o_4 = sr_keep_inside(sr_finish(c4), i0 + 4, j0, u_valid);
    o_5 = sr_keep_inside(sr_finish(c5), i0 + 5, j0, u_valid);
    o_6 = sr_keep_inside(sr_finish(c6), i0 + 6, j0, u_valid);
    o_7 = sr_keep_inside(sr_finish(c7), i0 + 7, j0, u_valid);
#endif
}
