// Block-sparse product, numeric phase (the CUDA report's kernel with the zero
// blocks never visited): one fragment per entry of C's block atlas. Where the
// symbolic phase listed the block products (u_listed, up to 2^21 of them), the
// fragment adds up exactly its block's products: work proportional to them. Past
// that, it walks the stored blocks A_ik of its block row, looks B_kj up in B's map
// and multiplies only when B_kj is stored too.
//
// Atlases hold `u_per_row` blocks of bs×bs side by side per band of bs rows, one
// float per texel (R32F). The index table holds whole numbers as floats (exact
// below 2^24), `u_index_width` per texture row.
uniform highp sampler2D u_a;
uniform highp sampler2D u_b;
uniform highp sampler2D u_index;
uniform int u_bs;
uniform int u_per_row;
uniform int u_out_blocks;
uniform int u_index_width;
uniform int u_a_row_starts;
uniform int u_a_cols;
uniform int u_a_slots;
uniform int u_b_map;
uniform int u_out_coords;
uniform int u_b_grid_cols;
uniform int u_listed;
uniform int u_pair_starts;
uniform int u_pairs;
out vec4 o_value;

int whole(int t) {
    return int(texelFetch(u_index, ivec2(t % u_index_width, t / u_index_width), 0).r);
}

// The texel of entry (r, c) of stored block s (glsl/common/atlas.glsl).
ivec2 at(int s, int r, int c) {
    return atlas_at(s, r, c, u_bs, u_bs, u_per_row);
}

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int o = (t.y / u_bs) * u_per_row + t.x / u_bs;
    int r = t.y % u_bs;
    int c = t.x % u_bs;
    if (o >= u_out_blocks) { o_value = vec4(0.0); return; }
    int i = whole(u_out_coords + 2 * o);
    int j = whole(u_out_coords + 2 * o + 1);
    float acc = 0.0;
    if (u_listed == 1) {
        int last = whole(u_pair_starts + o + 1);
        for (int p = whole(u_pair_starts + o); p < last; ++p) {
            int sa = whole(u_pairs + 2 * p);
            int sb = whole(u_pairs + 2 * p + 1);
            for (int q = 0; q < u_bs; ++q) {
                acc += texelFetch(u_a, at(sa, r, q), 0).r * texelFetch(u_b, at(sb, q, c), 0).r;
            }
        }
        o_value = vec4(acc, 0.0, 0.0, 1.0);
        return;
    }
    int end = whole(u_a_row_starts + i + 1);
    for (int p = whole(u_a_row_starts + i); p < end; ++p) {
        int k = whole(u_a_cols + p);
        int stored = whole(u_b_map + k * u_b_grid_cols + j);
        if (stored == 0) continue; // B_kj is a zero block: skipped
        int slot = whole(u_a_slots + p);
        for (int q = 0; q < u_bs; ++q) {
            acc += texelFetch(u_a, at(slot, r, q), 0).r * texelFetch(u_b, at(stored - 1, q, c), 0).r;
        }
    }
    o_value = vec4(acc, 0.0, 0.0, 1.0);
}
