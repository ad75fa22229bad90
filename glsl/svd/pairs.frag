// The rotations of one round of the batched Jacobi SVD: one fragment per column of
// each matrix. The lower column p of each pair (p, q) computes α, β, γ from the
// current [A; V] atlas and writes the rotation's t = tan θ (0 when the pair is
// left alone); glsl/svd/round.frag then applies it to both columns, which so use
// the very same number. Output: an atlas of 1 × cols tiles.
uniform highp sampler2D u_work;
uniform int u_count;
uniform int u_rows;
uniform int u_cols;
uniform int u_even;
uniform int u_round;
uniform int u_per_row;
uniform int u_out_per_row;
uniform float u_tol;
out vec4 o_value;

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int s = t.y * u_out_per_row + t.x / u_cols;
    int x = t.x % u_cols;
    int y = svd_partner(u_round, x, u_even);
    float tangent = 0.0;
    if (s < u_count && x < y && y < u_cols) {
        vec3 d = svd_dots(u_work, s, x, y, u_rows, u_cols, u_per_row);
        if (svd_rotates(d, u_tol)) {
            tangent = svd_tangent(d);
        }
    }
    o_value = vec4(tangent, 0.0, 0.0, 1.0);
}
