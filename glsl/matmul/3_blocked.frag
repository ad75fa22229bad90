// The register-blocked kernel: each fragment computes a block of PLANES rows x 4
// columns, writing PLANES colour attachments at once (multiple render targets).
// A matrix is split row-wise over PLANES RGBA32F textures: row i lives in plane
// i % PLANES at y = i / PLANES, four columns per texel. Per step of PLANES values
// of k it fetches PLANES*PLANES/4 texels of A and PLANES of B, and does
// 4*PLANES*PLANES multiply-adds: far more arithmetic per fetch than one texel.
uniform highp sampler2D u_a[PLANES];  // plane r, texel (kb, ib) = A[PLANES*ib + r][4kb ..]
uniform highp sampler2D u_b[PLANES];  // plane q, texel (jb, s)  = B[PLANES*s + q][4jb ..]
uniform vec2 u_a_texel;               // 1 / size of an A plane, for texture()
uniform vec2 u_b_texel;               // 1 / size of a B plane
uniform int u_step_begin;             // the steps s this pass adds up: all of
uniform int u_step_end;               // padded inner / PLANES, or one chunk of them
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

// texture() at texel centres with NEAREST filtering reads exactly the texel
// texelFetch would, and SwiftShader runs it faster (bench/NOTES.md).
#define A(r, x) texture(u_a[r], (vec2(x, p.y) + 0.5) * u_a_texel)
#define B(q, s) texture(u_b[q], (vec2(p.x, s) + 0.5) * u_b_texel)

// Row r of the block takes four k values from one A texel, times four B rows.
#define ROW(c, r, kx, b0, b1, b2, b3) {  \
    vec4 a = A(r, kx);                   \
    c = sr_fma(c, a.x, b0);              \
    c = sr_fma(c, a.y, b1);              \
    c = sr_fma(c, a.z, b2);              \
    c = sr_fma(c, a.w, b3); }

#if PLANES == 4
// B rows 4s + q live in plane q at y = s; A's four k values are one texel.
#define STEP(s) {                                                  \
    vec4 b0 = B(0, s), b1 = B(1, s), b2 = B(2, s), b3 = B(3, s);   \
    ROW(c0, 0, s, b0, b1, b2, b3) ROW(c1, 1, s, b0, b1, b2, b3)    \
    ROW(c2, 2, s, b0, b1, b2, b3) ROW(c3, 3, s, b0, b1, b2, b3) }
#else
// B rows 8s + q live in plane q at y = s; A's eight k values span two texels.
// The first four k values are done for all rows before the next four B rows are
// fetched: fewer values live at once, fewer register spills.
#define STEP(s) {                                                   \
    int x = 2 * (s);                                                \
    vec4 b0 = B(0, s), b1 = B(1, s), b2 = B(2, s), b3 = B(3, s);    \
    ROW(c0, 0, x, b0, b1, b2, b3) ROW(c1, 1, x, b0, b1, b2, b3)     \
    ROW(c2, 2, x, b0, b1, b2, b3) ROW(c3, 3, x, b0, b1, b2, b3)     \
    ROW(c4, 4, x, b0, b1, b2, b3) ROW(c5, 5, x, b0, b1, b2, b3)     \
    ROW(c6, 6, x, b0, b1, b2, b3) ROW(c7, 7, x, b0, b1, b2, b3)     \
    b0 = B(4, s); b1 = B(5, s); b2 = B(6, s); b3 = B(7, s);         \
    ROW(c0, 0, x + 1, b0, b1, b2, b3) ROW(c1, 1, x + 1, b0, b1, b2, b3) \
    ROW(c2, 2, x + 1, b0, b1, b2, b3) ROW(c3, 3, x + 1, b0, b1, b2, b3) \
    ROW(c4, 4, x + 1, b0, b1, b2, b3) ROW(c5, 5, x + 1, b0, b1, b2, b3) \
    ROW(c6, 6, x + 1, b0, b1, b2, b3) ROW(c7, 7, x + 1, b0, b1, b2, b3) }
#endif

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);  // (jb, ib): this fragment's block
    vec4 c0 = vec4(SR_ZERO), c1 = c0, c2 = c0, c3 = c0;
#if PLANES == 8
    vec4 c4 = c0, c5 = c0, c6 = c0, c7 = c0;
#endif
    // Two steps per iteration halve the loop overhead (bench/NOTES.md).
    int s = u_step_begin;
    for (; s + 1 < u_step_end; s += 2) {
        STEP(s)
        STEP(s + 1)
    }
    if (s < u_step_end) STEP(s)
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
