// Back substitution U·x = y, step k (k from n − 1 down; one fragment per entry
// of the n × nrhs right-hand sides): row k becomes x_k = y_k / u_kk, rows above
// lose u_ik · x_k, rows below already hold x and are copied. U comes from the
// eliminated [A | B] (u_work); y from the last step's output, or at the first
// step from B's columns of [A | B] (u_b_col: where they start).
uniform highp sampler2D u_work;
uniform highp sampler2D u_b;
uniform int u_b_col;
uniform int u_k;
out vec4 o_value;

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int i = t.y;
    int r = t.x;
    int k = u_k;
    float y = texelFetch(u_b, ivec2(u_b_col + r, i), 0).r;
    float xk = texelFetch(u_b, ivec2(u_b_col + r, k), 0).r / texelFetch(u_work, ivec2(k, k), 0).r;
    float v = y;
    if (i == k) {
        v = xk;
    } else if (i < k) {
        v = y - texelFetch(u_work, ivec2(k, i), 0).r * xk;
    }
    o_value = vec4(v, 0.0, 0.0, 1.0);
}
