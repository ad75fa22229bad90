// Statistics of a matrix by a two-level reduction (the GPU way to sum without a
// readback of the matrix): pass 1 lets each of up to 1024 workgroups fold a share of
// the elements into one record, first per invocation, then as a tree in workgroup
// memory; pass 2 (one workgroup) folds those records into one. A record is
//   (max |finite|, NaN count, ±Inf count, sum |finite|, sum of squares, min, max, 0)
// as on the WebGL path, so the page learns the range and catches overflow, and the
// applications get norms without reading a matrix back.
// no_edge = 1: a min-plus matrix, whose entries >= NO_EDGE / 2 (common/semiring.wgsl) mean "no
// edge" and read back as +Infinity: counted with the infinities, not as finite values.
struct Reduce { count: u32, first: u32, no_edge: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> records: array<f32>;
@group(0) @binding(2) var<uniform> u: Reduce;

const WG: u32 = 256u;
var<workgroup> part: array<array<f32, 8>, WG>;

fn empty() -> array<f32, 8> {
    // min and max start at the largest finite float32: any finite entry replaces them.
    return array<f32, 8>(0.0, 0.0, 0.0, 0.0, 0.0, 3.4028234663852886e38, -3.4028234663852886e38, 0.0);
}

fn merge(a: array<f32, 8>, b: array<f32, 8>) -> array<f32, 8> {
    return array<f32, 8>(max(a[0], b[0]), a[1] + b[1], a[2] + b[2], a[3] + b[3],
                         a[4] + b[4], min(a[5], b[5]), max(a[6], b[6]), 0.0);
}

// NaN and ±Inf by their bits: a compiler may assume x == x.
fn add_value(s: array<f32, 8>, v: f32) -> array<f32, 8> {
    var r = s;
    let bits = bitcast<u32>(v) & 0x7fffffffu;
    if (bits > 0x7f800000u) { r[1] += 1.0; }
    else if (bits == 0x7f800000u || (u.no_edge == 1u && v >= 0.5e30)) { r[2] += 1.0; }
    else {
        r[0] = max(r[0], abs(v));
        r[3] += abs(v);
        r[4] += v * v;
        r[5] = min(r[5], v);
        r[6] = max(r[6], v);
    }
    return r;
}

@compute @workgroup_size(WG)
fn main(@builtin(local_invocation_index) li: u32, @builtin(workgroup_id) group: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
    var s = empty();
    let stride = groups.x * WG;
    // u.first: the input is matrix elements; otherwise records of the first pass.
    for (var i = group.x * WG + li; i < u.count; i += stride) {
        if (u.first == 1u) {
            s = add_value(s, input[i]);
        } else {
            var t: array<f32, 8>;
            for (var f = 0u; f < 8u; f++) { t[f] = input[i * 8u + f]; }
            s = merge(s, t);
        }
    }
    part[li] = s;
    workgroupBarrier();
    for (var half = WG / 2u; half > 0u; half /= 2u) {
        if (li < half) { part[li] = merge(part[li], part[li + half]); }
        workgroupBarrier();
    }
    if (li == 0u) {
        for (var f = 0u; f < 8u; f++) { records[group.x * 8u + f] = part[0][f]; }
    }
}
