// The end of the batched Jacobi SVD: from the converged tiles [A; V] to result
// tiles [U; V; σᵀ] of (rows + cols + 1) × cols. A fragment owns one result entry
// in place r of its matrix: it ranks the columns by σ_j = ‖a_j‖ (decreasing, ties
// by index) to find the column j that goes there, and writes U_j = a_j/σ_j (0 where
// σ_j = 0), V_j or σ_j, the pair signed so that V_j's largest entry is positive
// (src/plan/svd.rs `ranks` and `sign`).
uniform highp sampler2D u_work;
uniform int u_count;
uniform int u_rows;
uniform int u_cols;
uniform int u_per_row;
uniform int u_out_per_row;
out vec4 o_value;

// At most 16 columns (src/plan/svd.rs MAX_COLS).
const int MAX_COLS = 16;

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int tile_rows = u_rows + u_cols;
    int out_rows = tile_rows + 1;
    int s = (t.y / out_rows) * u_out_per_row + t.x / u_cols;
    int i = t.y % out_rows;
    int r = t.x % u_cols;
    if (s >= u_count) { o_value = vec4(0.0); return; }
    float norms[MAX_COLS];
    for (int c = 0; c < u_cols; ++c) {
        float sum = 0.0;
        for (int k = 0; k < u_rows; ++k) {
            float a = texelFetch(u_work, atlas_at(s, k, c, tile_rows, u_cols, u_per_row), 0).r;
            sum += a * a;
        }
        norms[c] = sqrt(sum);
    }
    int j = 0;
    for (int c = 0; c < u_cols; ++c) {
        int rank = 0;
        for (int k = 0; k < u_cols; ++k) {
            if (norms[k] > norms[c] || (norms[k] == norms[c] && k < c)) { rank += 1; }
        }
        if (rank == r) { j = c; }
    }
    float sigma = norms[j];
    float best = 0.0;
    for (int k = 0; k < u_cols; ++k) {
        float v = texelFetch(u_work, atlas_at(s, u_rows + k, j, tile_rows, u_cols, u_per_row), 0).r;
        if (abs(v) > abs(best)) { best = v; }
    }
    float f = best < 0.0 ? -1.0 : 1.0;
    float value;
    if (i == tile_rows) {
        value = sigma;
    } else {
        float x = texelFetch(u_work, atlas_at(s, i, j, tile_rows, u_cols, u_per_row), 0).r;
        value = i >= u_rows ? f * x : (sigma > 0.0 ? f * x / sigma : 0.0);
    }
    o_value = vec4(value, 0.0, 0.0, 1.0);
}
