#version 300 es
// C = A·B for A (rows × inner) and B (inner × cols): the tutorial's open question,
// "how would you multiply two different matrices?". One fragment per C[i][j].
precision highp float;
uniform highp sampler2D A;  // rows × inner: the texel at x = k, y = i holds A[i][k]
uniform highp sampler2D B;  // inner × cols: the texel at x = j, y = k holds B[k][j]
uniform ivec3 dims;         // (rows, inner, cols)
out vec4 result;            // result.r becomes C[i][j]; the target is cols wide, rows high

void main() {
    int i = int(gl_FragCoord.y);  // y runs over the rows of C
    int j = int(gl_FragCoord.x);  // x over its columns
    float sum = 0.0;
    // The inner dimension, A's columns = B's rows: the only size the two share.
    for (int k = 0; k < dims.y; k++) {
        sum += texelFetch(A, ivec2(k, i), 0).r * texelFetch(B, ivec2(j, k), 0).r;
    }
    result = vec4(sum, 0.0, 0.0, 0.0);
}
