// Element-wise R = alpha*P + beta*Q + gamma*I in any layout, one texel per
// fragment, every plane at once (one render target per plane). Building block of
// the applications: 2I - AX (Newton-Schulz), AX - I (residuals), c + Tx (Jacobi),
// A - lambda*v*v^T (deflation), s*M (normalisation). With u_combine 1 or 2 it is
// R = max(P, Q) or min(P, Q) instead: the boolean and min-plus "sum" that adds up
// the tile products of a tiled product (the ordinary sum is P + Q).
#if LAYOUT_PLANES == 0
#define PLANES 1
#else
#define PLANES LAYOUT_PLANES
#endif
uniform highp sampler2D u_p[PLANES];
uniform highp sampler2D u_q[PLANES];
uniform float u_alpha;
uniform float u_beta;
uniform float u_gamma;
uniform int u_combine;
uniform float u_pad;     // what padding holds (the semiring's zero)
uniform ivec2 u_valid;   // (cols, rows) of the matrix

layout(location = 0) out vec4 o_0;
#if PLANES > 1
layout(location = 1) out vec4 o_1;
layout(location = 2) out vec4 o_2;
layout(location = 3) out vec4 o_3;
#endif
#if PLANES > 4
layout(location = 4) out vec4 o_4;
layout(location = 5) out vec4 o_5;
layout(location = 6) out vec4 o_6;
layout(location = 7) out vec4 o_7;
#endif

// Terms with a zero coefficient are skipped, not multiplied by 0: 0 * Inf is NaN.
#define PLANE(o, r) {                                                            \
    ivec2 t = ivec2(gl_FragCoord.xy);                                            \
    ivec4 j = LAYOUT_PLANES == 0 ? ivec4(t.x) : ivec4(4 * t.x) + ivec4(0, 1, 2, 3); \
    int i = LAYOUT_PLANES == 0 ? t.y : t.y * PLANES + r;                         \
    vec4 v = vec4(0.0);                                                          \
    if (u_alpha != 0.0) v += u_alpha * texelFetch(u_p[r], t, 0);                 \
    if (u_beta != 0.0) v += u_beta * texelFetch(u_q[r], t, 0);                   \
    if (u_gamma != 0.0) v += u_gamma * vec4(equal(ivec4(i), j));                 \
    if (u_combine == 1) v = max(texelFetch(u_p[r], t, 0), texelFetch(u_q[r], t, 0)); \
    if (u_combine == 2) v = min(texelFetch(u_p[r], t, 0), texelFetch(u_q[r], t, 0)); \
    bvec4 inside = lessThan(j, ivec4(u_valid.x));                                \
    if (i >= u_valid.y) inside = bvec4(false);                                   \
    o = mix(vec4(u_pad), v, inside); }

void main() {
    PLANE(o_0, 0)
#if PLANES > 1
    PLANE(o_1, 1) PLANE(o_2, 2) PLANE(o_3, 3)
#endif
#if PLANES > 4
    PLANE(o_4, 4) PLANE(o_5, 5) PLANE(o_6, 6) PLANE(o_7, 7)
#endif
}
