// After a sweep of the batched Jacobi SVD: one fragment per matrix, its largest
// |γ|/(√α·√β) over the pairs that the next sweep would still rotate, 0 when none
// would (the test is the round pass's own, glsl/svd/common.glsl). The CPU reads
// these back and stops when every one is 0. Output: an atlas of 1×1 tiles.
uniform highp sampler2D u_work;
uniform int u_count;
uniform int u_rows;
uniform int u_cols;
uniform int u_per_row;
uniform int u_out_per_row;
uniform float u_tol;
out vec4 o_value;

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int s = t.y * u_out_per_row + t.x;
    float worst = 0.0;
    if (s < u_count) {
        for (int p = 0; p < u_cols; ++p) {
            for (int q = p + 1; q < u_cols; ++q) {
                vec3 d = svd_dots(u_work, s, p, q, u_rows, u_cols, u_per_row);
                if (svd_rotates(d, u_tol)) {
                    worst = max(worst, abs(d.z) / (sqrt(d.x) * sqrt(d.y)));
                }
            }
        }
    }
    o_value = vec4(worst, 0.0, 0.0, 1.0);
}
