// One round of the batched one-sided Jacobi SVD: every matrix's disjoint pairs of
// columns rotate at once. A fragment owns one entry of a tile [A; V]; it finds its
// column's partner for this round and applies the pair's rotation, computed once
// per pair by glsl/svd/pairs.frag, to its entry. The passes ping-pong between two
// atlases (glsl/svd/common.glsl, prepended).
uniform highp sampler2D u_work;
uniform highp sampler2D u_rotations;
uniform int u_count;
uniform int u_rows;
uniform int u_cols;
uniform int u_even;
uniform int u_round;
uniform int u_per_row;
uniform int u_rotations_per_row;
out vec4 o_value;

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int tile_rows = u_rows + u_cols;
    int s = (t.y / tile_rows) * u_per_row + t.x / u_cols;
    int i = t.y % tile_rows;
    int x = t.x % u_cols;
    float own = texelFetch(u_work, t, 0).r;
    int y = svd_partner(u_round, x, u_even);
    int p = min(x, y);
    // Past the batch, paired with the dummy column of an odd count, or left alone.
    float tangent = 0.0;
    if (s < u_count && y < u_cols) {
        tangent = texelFetch(u_rotations, atlas_at(s, 0, p, 1, u_cols, u_rotations_per_row), 0).r;
    }
    if (tangent == 0.0) { o_value = vec4(own, 0.0, 0.0, 1.0); return; }
    float c = 1.0 / sqrt(1.0 + tangent * tangent);
    float sn = c * tangent;
    float other = texelFetch(u_work, atlas_at(s, i, y, tile_rows, u_cols, u_per_row), 0).r;
    // a_p ← c·a_p − s·a_q; a_q ← s·a_p + c·a_q.
    float value = x == p ? c * own - sn * other : sn * other + c * own;
    o_value = vec4(value, 0.0, 0.0, 1.0);
}
