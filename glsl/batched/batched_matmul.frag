// Batched small products: `u_count` products C_s = A_s · B_s in one pass, one
// fragment per entry of every C_s (the developer's log: one work item per output
// cell). Each matrix is a tile of an R32F atlas texture, `per_row` tiles side by
// side per band of tile rows (the log's "side by side" layout; glsl/common/atlas.glsl).
uniform highp sampler2D u_a;
uniform highp sampler2D u_b;
uniform int u_count;
uniform int u_rows;
uniform int u_inner;
uniform int u_cols;
uniform int u_a_per_row;
uniform int u_b_per_row;
uniform int u_c_per_row;
out vec4 o_value;

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int s = (t.y / u_rows) * u_c_per_row + t.x / u_cols;
    int i = t.y % u_rows;
    int j = t.x % u_cols;
    if (s >= u_count) { o_value = vec4(0.0); return; }
    float acc = 0.0;
    for (int k = 0; k < u_inner; ++k) {
        float x = texelFetch(u_a, atlas_at(s, i, k, u_rows, u_inner, u_a_per_row), 0).r;
        float y = texelFetch(u_b, atlas_at(s, k, j, u_inner, u_cols, u_b_per_row), 0).r;
        acc += x * y;
    }
    o_value = vec4(acc, 0.0, 0.0, 1.0);
}
