// The output's occupancy, the CUDA report's boolean per block: 1 where a stored
// block of C holds any nonzero entry (a product can cancel to an all-zero block).
// One fragment per block, `u_flags_width` flags per row of the R32F target.
uniform highp sampler2D u_c;
uniform int u_bs;
uniform int u_per_row;
uniform int u_blocks;
uniform int u_flags_width;
out vec4 o_value;

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int s = t.y * u_flags_width + t.x;
    bool any = false;
    if (s < u_blocks) {
        for (int r = 0; r < u_bs; ++r) {
            for (int c = 0; c < u_bs; ++c) {
                // NaN counts as nonzero, as it does on the CPU.
                float v = texelFetch(u_c, atlas_at(s, r, c, u_bs, u_bs, u_per_row), 0).r;
                any = any || !(v == 0.0);
            }
        }
    }
    o_value = vec4(any ? 1.0 : 0.0, 0.0, 0.0, 1.0);
}
