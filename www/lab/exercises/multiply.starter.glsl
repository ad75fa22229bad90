#version 300 es
// C = A·B for A (rows × inner) and B (inner × cols): the tutorial's open question,
// "how would you multiply two different matrices?". One fragment per C[i][j].
precision highp float;
uniform highp sampler2D A;  // rows × inner: the texel at x = k, y = i holds A[i][k]
uniform highp sampler2D B;  // inner × cols: the texel at x = j, y = k holds B[k][j]
uniform ivec3 dims;         // (rows, inner, cols)
out vec4 result;            // result.r becomes C[i][j]; the target is cols wide, rows high

void main() {
    // TODO: which of gl_FragCoord.x and gl_FragCoord.y is the row i, which the column j?
    int i = 0;
    int j = 0;
    float sum = 0.0;
    // TODO: the loop over k: which of dims.x, dims.y, dims.z bounds it?
    result = vec4(sum, 0.0, 0.0, 0.0);
}
