// The naive kernel, as the tutorial has it: one fragment per output element
// R[i][j], each looping over k. One float per texel (R32F).
uniform highp sampler2D u_a;  // rows x inner: texel (x = k, y = i) holds A[i][k]
uniform highp sampler2D u_b;  // inner x cols: texel (x = j, y = k) holds B[k][j]
uniform int u_inner;          // a uniform loop bound: allowed since GLSL ES 3.00
uniform ivec2 u_out_size;     // (cols, rows) of R = the viewport
in vec2 v_texcoord;
out vec4 o_value;             // an R32F target keeps .r

void main() {
    // (s, t) runs 0..1 over the output, and fragment centres sit half a texel in:
    // scaling by the size and flooring gives this fragment's element.
    int j = int(floor(float(u_out_size.x) * v_texcoord.s));  // column of R
    int i = int(floor(float(u_out_size.y) * v_texcoord.t));  // row of R
    float sum = SR_ZERO;
    for (int k = 0; k < u_inner; ++k) {
        // texelFetch takes integer texel coordinates: no filtering, no rounding.
        float a_ik = texelFetch(u_a, ivec2(k, i), 0).r;
        float b_kj = texelFetch(u_b, ivec2(j, k), 0).r;
        sum = sr_fma(sum, a_ik, b_kj);
    }
    o_value = vec4(sr_finish(sum), 0.0, 0.0, 1.0);
}
