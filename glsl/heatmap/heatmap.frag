// Draws a matrix as a heatmap straight from its GPU textures: one canvas pixel
// covers a block of entries and shows the one of largest magnitude, so a lone
// outlier stays visible when a large matrix is drawn small. Row 0 is at the top.
uniform ivec2 u_size;     // the matrix: (cols, rows)
uniform ivec2 u_canvas;   // the drawing: (width, height) in pixels
uniform int u_stride;     // sample every u_stride-th entry of a block (1 = all)
uniform float u_range;    // |value| that gets the full colour
uniform int u_mode;       // 0: diverging (blue - white - red); 1: sequential |value|
uniform int u_log;        // 1: symmetric log scale from u_floor up to u_range
uniform float u_floor;
uniform int u_no_edge;   // 1: a min-plus matrix, whose entries >= NO_EDGE / 2 mean "no edge"
out vec4 o_colour;

vec3 diverging(float t) {  // t in [-1, 1]
    vec3 blue = vec3(0.13, 0.40, 0.67), red = vec3(0.70, 0.09, 0.17), white = vec3(0.97);
    return t < 0.0 ? mix(white, blue, -t) : mix(white, red, t);
}

vec3 sequential(float t) {  // t in [0, 1]: pale yellow to dark purple
    vec3 a = vec3(0.99, 0.98, 0.85), b = vec3(0.93, 0.45, 0.25), c = vec3(0.23, 0.05, 0.33);
    return t < 0.5 ? mix(a, b, 2.0 * t) : mix(b, c, 2.0 * t - 1.0);
}

float scaled(float v) {
    float m = abs(v);
    float t = u_log == 1 ? log(1.0 + m / u_floor) / log(1.0 + u_range / u_floor) : m / u_range;
    return sign(v) * clamp(t, 0.0, 1.0);
}

void main() {
    ivec2 px = ivec2(gl_FragCoord.xy);
    int row = u_canvas.y - 1 - px.y;
    int i0 = row * u_size.y / u_canvas.y;
    int i1 = max(i0 + 1, (row + 1) * u_size.y / u_canvas.y);
    int j0 = px.x * u_size.x / u_canvas.x;
    int j1 = max(j0 + 1, (px.x + 1) * u_size.x / u_canvas.x);
    float pick = 0.0;
    bool nan = false;
    int inf = 0;  // the sign of the last ±Inf seen
    for (int i = i0; i < i1; i += u_stride) {
        for (int j = j0; j < j1; j += u_stride) {
            float v = element(i, j);
            if (isnan(v)) nan = true;
            else if (isinf(v)) inf = v > 0.0 ? 1 : -1;
            // "No edge" (the finite NO_EDGE = 1e30 on the GPU) reads back as +Infinity:
            // drawn so, not as the largest distance.
            else if (u_no_edge == 1 && v >= 0.5e30) inf = 1;
            else if (abs(v) >= abs(pick)) pick = v;
        }
    }
    vec3 colour;
    if (nan) colour = vec3(0.60, 0.00, 0.80);                          // NaN: violet
    // ±Inf: hues off the blue–white–red scale (Okabe–Ito orange and bluish green, told
    // apart with any colour vision), not a darker red a reader takes for a large value.
    else if (inf == 1) colour = vec3(230.0, 159.0, 0.0) / 255.0;       // +Inf
    else if (inf == -1) colour = vec3(0.0, 158.0, 115.0) / 255.0;      // -Inf
    else if (u_mode == 1) colour = sequential(abs(scaled(pick)));
    else colour = diverging(scaled(pick));
    o_colour = vec4(colour, 1.0);
}
