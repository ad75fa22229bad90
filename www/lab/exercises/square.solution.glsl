#version 300 es
// R = M·M: one fragment per element R[i][j] (the tutorial's kernel).
precision highp float;
uniform highp sampler2D A;  // M: the texel at x = k, y = i holds M[i][k]
uniform highp sampler2D B;  // M again (for square, A and B are both M)
uniform ivec3 dims;         // (rows, inner, cols) = (n, n, n)
out vec4 result;            // result.r becomes R[i][j]

void main() {
    int i = int(gl_FragCoord.y);  // the row of R this fragment computes
    int j = int(gl_FragCoord.x);  // and its column
    float sum = 0.0;
    // GLSL ES 3.00 allows a uniform loop bound: one shader for every n.
    for (int k = 0; k < dims.y; k++) {
        sum += texelFetch(A, ivec2(k, i), 0).r * texelFetch(B, ivec2(j, k), 0).r;
    }
    result = vec4(sum, 0.0, 0.0, 0.0);
}
