// Statistics of a matrix by repeated reduction passes, each shrinking the grid
// 8x8-fold, down to one texel: (max |finite value|, NaN count, ±Inf count,
// sum of |finite values|). Lets the page know the range and catch overflow
// without reading the whole matrix back.
// REDUCE_FIRST: the input is a matrix (read through layout.glsl's element());
// otherwise it is the previous pass's RGBA32F statistics texture.
uniform ivec2 u_in_size;  // (cols, rows) of the input grid
out vec4 o_stats;

#ifndef REDUCE_FIRST
uniform highp sampler2D u_stats;
#endif

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) * 8;
    vec4 s = vec4(0.0);
    for (int dy = 0; dy < 8; ++dy) {
        for (int dx = 0; dx < 8; ++dx) {
            ivec2 q = p + ivec2(dx, dy);
            if (q.x >= u_in_size.x || q.y >= u_in_size.y) continue;
#ifdef REDUCE_FIRST
            float v = element(q.y, q.x);
            if (isnan(v)) s.g += 1.0;
            else if (isinf(v)) s.b += 1.0;
            else { s.r = max(s.r, abs(v)); s.a += abs(v); }
#else
            vec4 t = texelFetch(u_stats, q, 0);
            s = vec4(max(s.r, t.r), s.g + t.g, s.b + t.b, s.a + t.a);
#endif
        }
    }
    o_stats = s;
}
