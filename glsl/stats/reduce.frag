// Statistics of a matrix by repeated reduction passes, each shrinking the grid
// FACTOR-fold along both axes (FACTOR = 2: the classic halving), down to one
// texel, read back alone. Two render targets carry the running statistics:
//   o_stats = (max |finite value|, NaN count, ±Inf count, sum of |finite values|)
//   o_more  = (sum of squares of finite values, min finite value, max finite value, 0)
// so the page learns the range and catches overflow, and the applications get
// norms (Jacobi's sum |dx|, Newton-Schulz's ||AX - I||_F) without reading a matrix.
// REDUCE_FIRST: the input is a matrix (read through common/layout.glsl's element());
// otherwise it is the previous pass's pair of statistics textures.
uniform ivec2 u_in_size;  // (cols, rows) of the input grid
layout(location = 0) out vec4 o_stats;
layout(location = 1) out vec4 o_more;

#ifdef REDUCE_FIRST
// 1: a min-plus matrix, whose entries >= NO_EDGE / 2 mean "no edge" and read back as
// +Infinity: counted with the infinities, not as finite values.
uniform int u_no_edge;
#else
uniform highp sampler2D u_stats;
uniform highp sampler2D u_more;
#endif

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) * FACTOR;
    vec4 s = vec4(0.0);
    // The largest finite float32: any finite entry, however large, replaces it.
    vec4 m = vec4(0.0, 3.4028234e38, -3.4028234e38, 0.0);
    for (int dy = 0; dy < FACTOR; ++dy) {
        for (int dx = 0; dx < FACTOR; ++dx) {
            ivec2 q = p + ivec2(dx, dy);
            if (q.x >= u_in_size.x || q.y >= u_in_size.y) continue;
#ifdef REDUCE_FIRST
            float v = element(q.y, q.x);
            if (isnan(v)) s.g += 1.0;
            else if (isinf(v) || (u_no_edge == 1 && v >= 0.5e30)) s.b += 1.0;
            else {
                s.r = max(s.r, abs(v));
                s.a += abs(v);
                m = vec4(m.r + v * v, min(m.g, v), max(m.b, v), 0.0);
            }
#else
            vec4 t = texelFetch(u_stats, q, 0);
            vec4 u = texelFetch(u_more, q, 0);
            s = vec4(max(s.r, t.r), s.g + t.g, s.b + t.b, s.a + t.a);
            m = vec4(m.r + u.r, min(m.g, u.g), max(m.b, u.b), 0.0);
#endif
        }
    }
    o_stats = s;
    o_more = m;
}
