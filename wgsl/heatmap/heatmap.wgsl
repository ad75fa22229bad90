// Draws a matrix as a heatmap straight from its storage buffer, one invocation per
// canvas pixel: a pixel covers a block of entries and shows the one of largest
// magnitude, so a lone outlier stays visible when a large matrix is drawn small.
// The colours are those of glsl/heatmap/heatmap.frag; each pixel is packed as RGBA8 into
// one u32, so only the picture (width × height × 4 bytes) leaves the GPU, never
// the matrix. Row 0 is at the top.
struct Style {
    rows: u32, cols: u32, width: u32, height: u32,
    stride: u32, mode: u32, log_scale: u32, no_edge: u32,
    range: f32, floor: f32, unused1: f32, unused2: f32,
}

@group(0) @binding(0) var<storage, read> m: array<f32>;
@group(0) @binding(1) var<storage, read_write> pixels: array<u32>;
// The matrix's statistics record (wgsl/stats/reduce.wgsl), computed in the same submit:
// with no range given, the largest |finite value| gets the full colour.
@group(0) @binding(2) var<storage, read> stats: array<f32>;
@group(0) @binding(3) var<uniform> u: Style;

fn full_range() -> f32 {
    if (u.range > 0.0) { return u.range; }
    return max(stats[0], 1.1754944e-38);
}

fn diverging(t: f32) -> vec3f {  // t in [-1, 1]: blue - white - red
    let blue = vec3f(0.13, 0.40, 0.67);
    let red = vec3f(0.70, 0.09, 0.17);
    let white = vec3f(0.97);
    if (t < 0.0) { return mix(white, blue, -t); }
    return mix(white, red, t);
}

fn sequential(t: f32) -> vec3f {  // t in [0, 1]: pale yellow to dark purple
    let a = vec3f(0.99, 0.98, 0.85);
    let b = vec3f(0.93, 0.45, 0.25);
    let c = vec3f(0.23, 0.05, 0.33);
    if (t < 0.5) { return mix(a, b, 2.0 * t); }
    return mix(b, c, 2.0 * t - 1.0);
}

fn scaled(v: f32) -> f32 {
    let a = abs(v);
    let range = full_range();
    var t = a / range;
    if (u.log_scale == 1u) { t = log(1.0 + a / u.floor) / log(1.0 + range / u.floor); }
    return sign(v) * clamp(t, 0.0, 1.0);
}

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let x = id.x;
    let row = id.y;  // pixel rows from the top, as the matrix's rows
    if (x >= u.width || row >= u.height) { return; }
    let i0 = row * u.rows / u.height;
    let i1 = max(i0 + 1u, (row + 1u) * u.rows / u.height);
    let j0 = x * u.cols / u.width;
    let j1 = max(j0 + 1u, (x + 1u) * u.cols / u.width);
    var pick = 0.0;
    var nan = false;
    var inf = 0;
    for (var i = i0; i < i1; i += u.stride) {
        for (var j = j0; j < j1; j += u.stride) {
            let v = m[i * u.cols + j];
            let bits = bitcast<u32>(v) & 0x7fffffffu;
            if (bits > 0x7f800000u) { nan = true; }
            else if (bits == 0x7f800000u) { inf = select(-1, 1, v > 0.0); }
            // A min-plus matrix's "no edge" (the finite NO_EDGE = 1e30 here) reads back
            // as +Infinity: drawn so, not as the largest distance.
            else if (u.no_edge == 1u && v >= 0.5e30) { inf = 1; }
            else if (abs(v) >= abs(pick)) { pick = v; }
        }
    }
    var colour: vec3f;
    if (nan) { colour = vec3f(0.60, 0.00, 0.80); }                     // NaN: violet
    // ±Inf: Okabe–Ito orange and bluish green, off the blue–white–red scale.
    else if (inf == 1) { colour = vec3f(230.0, 159.0, 0.0) / 255.0; }
    else if (inf == -1) { colour = vec3f(0.0, 158.0, 115.0) / 255.0; }
    else if (u.mode == 1u) { colour = sequential(abs(scaled(pick))); }
    else { colour = diverging(scaled(pick)); }
    pixels[row * u.width + x] = pack4x8unorm(vec4f(colour, 1.0));
}
