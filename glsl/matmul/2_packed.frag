// The packed kernel: an RGBA32F texel holds four consecutive columns of one row,
// and one fragment computes one texel, R[i][4jb .. 4jb+3], with vec4 arithmetic:
// a quarter of the fragments, and one A fetch feeds four multiply-adds.
uniform highp sampler2D u_a;  // rows x inner: texel (kb, i) = A[i][4kb .. 4kb+3]
uniform highp sampler2D u_b;  // inner x cols: texel (jb, k) = B[k][4jb .. 4jb+3]
uniform int u_kb_begin;       // the range of texel columns kb of A this pass adds up:
uniform int u_kb_end;         // all of them, or one chunk (the engine blends chunks)
uniform ivec2 u_valid;        // (cols, rows) of R; beyond them is padding
out vec4 o_value;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);  // (jb, i): this fragment's output texel
    vec4 acc = vec4(SR_ZERO);
    for (int kb = u_kb_begin; kb < u_kb_end; ++kb) {
        vec4 a = texelFetch(u_a, ivec2(kb, p.y), 0);  // A[i][4kb .. 4kb+3]
        int k = 4 * kb;
        // R[i][4jb..] += A[i][k+q] * B[k+q][4jb..] for q = 0..3
        acc = sr_fma(acc, a.x, texelFetch(u_b, ivec2(p.x, k), 0));
        acc = sr_fma(acc, a.y, texelFetch(u_b, ivec2(p.x, k + 1), 0));
        acc = sr_fma(acc, a.z, texelFetch(u_b, ivec2(p.x, k + 2), 0));
        acc = sr_fma(acc, a.w, texelFetch(u_b, ivec2(p.x, k + 3), 0));
    }
    o_value = sr_keep_inside(sr_finish(acc), p.y, 4 * p.x, u_valid);
}
