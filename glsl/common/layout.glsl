// Reads element (i, j) of a matrix in any layout the kernels use, for the shaders
// that look at a matrix rather than multiply it (heatmaps, reductions).
// LAYOUT_PLANES == 0: one R32F texture, texel (j, i).
// LAYOUT_PLANES == P: P RGBA32F textures, row i in plane i % P at y = i / P,
//                     four columns per texel.
#if LAYOUT_PLANES == 0
uniform highp sampler2D u_m[1];
float element(int i, int j) {
    return texelFetch(u_m[0], ivec2(j, i), 0).r;
}
#else
uniform highp sampler2D u_m[LAYOUT_PLANES];
float element(int i, int j) {
    int plane = i % LAYOUT_PLANES;
    ivec2 t = ivec2(j / 4, i / LAYOUT_PLANES);
    // GLSL ES 3.00 indexes sampler arrays only with constants: choose by branch.
    vec4 v = texelFetch(u_m[0], t, 0);
#if LAYOUT_PLANES > 1
    if (plane == 1) v = texelFetch(u_m[1], t, 0);
    if (plane == 2) v = texelFetch(u_m[2], t, 0);
    if (plane == 3) v = texelFetch(u_m[3], t, 0);
#endif
#if LAYOUT_PLANES > 4
    if (plane == 4) v = texelFetch(u_m[4], t, 0);
    if (plane == 5) v = texelFetch(u_m[5], t, 0);
    if (plane == 6) v = texelFetch(u_m[6], t, 0);
    if (plane == 7) v = texelFetch(u_m[7], t, 0);
#endif
    return v[j % 4];
}
#endif
