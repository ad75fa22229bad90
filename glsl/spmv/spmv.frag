// Sparse matrix × vector, y = A·x, with A in CSR: one fragment per row of A, as the
// chapter's one-thread-per-row kernel. Every array is a list: u_width floats per
// texture row (R32F, indices stored as float values, exact below 2^24). Fragments
// past the last row write 0, so a list's padding stays zero.
uniform highp sampler2D u_values;
uniform highp sampler2D u_columns;
uniform highp sampler2D u_offsets;
uniform highp sampler2D u_x;
uniform int u_rows;
uniform int u_width;
out vec4 o_value;

float at(highp sampler2D list, int t) {
    return texelFetch(list, ivec2(t % u_width, t / u_width), 0).r;
}

void main() {
    ivec2 t = ivec2(gl_FragCoord.xy);
    int row = t.y * u_width + t.x;
    o_value = vec4(0.0, 0.0, 0.0, 1.0);
    if (row >= u_rows) return;
    int end = int(at(u_offsets, row + 1));
    float acc = 0.0;
    for (int k = int(at(u_offsets, row)); k < end; ++k) {
        acc += at(u_values, k) * at(u_x, int(at(u_columns, k)));
    }
    o_value.r = acc;
}
