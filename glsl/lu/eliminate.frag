// Gaussian elimination, step k, everything after the pivot in one pass over
// [A | B] (one fragment per entry; the texture of step k − 1 in, step k's out):
// rows k and p swapped (p from the state the pivot pass wrote), then below row
// k the multiplier l_i = w_ik / w_kk in column k and w_ij − l_i · w_kj right of
// it. A pivot at or below the singularity threshold eliminates nothing and
// leaves multipliers of 0.
uniform highp sampler2D u_work;
uniform highp sampler2D u_state;
uniform int u_k;
uniform float u_tiny;
out vec4 o_value;

float at(int i, int j) {
    return texelFetch(u_work, ivec2(j, i), 0).r;
}

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int i = t.y;
    int j = t.x;
    int k = u_k;
    int p = int(texelFetch(u_state, ivec2(k, 0), 0).r);
    // The row that lands in row i after the swap.
    int src_row = i == k ? p : (i == p ? k : i);
    float v = at(src_row, j);
    if (i > k && j >= k) {
        float piv = at(p, k);
        if (abs(piv) <= u_tiny) {
            if (j == k) {
                v = 0.0;
            }
        } else {
            float l = at(src_row, k) / piv;
            v = j == k ? l : v - l * at(p, j);
        }
    }
    o_value = vec4(v, 0.0, 0.0, 1.0);
}
