// Kernel "register" for CPU-emulated GPUs (SwiftShader and other fallback adapters):
// each invocation keeps an 8 × 8 block of C in sixteen vec4 registers and reads A
// and B straight from global memory, with no workgroup memory and no barriers.
// On a CPU an invocation's loops and arrays become memory traffic and a barrier
// stops every lane of the workgroup, so the staged kernel (matmul_register.wgsl) is
// several times slower there; here every register is a named variable and the loop
// body is written out (bench/NOTES.md has the measurements).
//
// Rows and columns past C's edge are clamped to the last one when read, and not
// written: the kernel takes any sizes.
struct Dims { rows: u32, inner: u32, cols: u32, unused: u32 }

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;

// Four consecutive elements of B's row k from column j (clamped at the edge).
fn b4(k: u32, j: u32) -> vec4f {
    let last = dims.cols - 1u;
    let at = k * dims.cols;
    return vec4f(b[at + min(j, last)], b[at + min(j + 1u, last)],
                 b[at + min(j + 2u, last)], b[at + min(j + 3u, last)]);
}

fn store(row: u32, j: u32, v: vec4f) {
    if (row >= dims.rows) { return; }
    for (var lane = 0u; lane < 4u; lane++) {
        if (j + lane < dims.cols) { c[row * dims.cols + j + lane] = sr_finish(v[lane]); }
    }
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let j = id.x * 8u;   // first of this invocation's 8 columns
    let i = id.y * 8u;   // first of its 8 rows
    if (i >= dims.rows || j >= dims.cols) { return; }
    let last = dims.rows - 1u;
    // Row starts of A, clamped at the bottom edge.
    let r0 = min(i, last) * dims.inner;
    let r1 = min(i + 1u, last) * dims.inner;
    let r2 = min(i + 2u, last) * dims.inner;
    let r3 = min(i + 3u, last) * dims.inner;
    let r4 = min(i + 4u, last) * dims.inner;
    let r5 = min(i + 5u, last) * dims.inner;
    let r6 = min(i + 6u, last) * dims.inner;
    let r7 = min(i + 7u, last) * dims.inner;
    let z = vec4f(sr_zero());
    var c00 = z; var c01 = z; var c10 = z; var c11 = z;
    var c20 = z; var c21 = z; var c30 = z; var c31 = z;
    var c40 = z; var c41 = z; var c50 = z; var c51 = z;
    var c60 = z; var c61 = z; var c70 = z; var c71 = z;
    for (var k = 0u; k < dims.inner; k++) {
        let b0 = b4(k, j);
        let b1 = b4(k, j + 4u);
        c00 = sr_fma4(c00, a[r0 + k], b0); c01 = sr_fma4(c01, a[r0 + k], b1);
        c10 = sr_fma4(c10, a[r1 + k], b0); c11 = sr_fma4(c11, a[r1 + k], b1);
        c20 = sr_fma4(c20, a[r2 + k], b0); c21 = sr_fma4(c21, a[r2 + k], b1);
        c30 = sr_fma4(c30, a[r3 + k], b0); c31 = sr_fma4(c31, a[r3 + k], b1);
        c40 = sr_fma4(c40, a[r4 + k], b0); c41 = sr_fma4(c41, a[r4 + k], b1);
        c50 = sr_fma4(c50, a[r5 + k], b0); c51 = sr_fma4(c51, a[r5 + k], b1);
        c60 = sr_fma4(c60, a[r6 + k], b0); c61 = sr_fma4(c61, a[r6 + k], b1);
        c70 = sr_fma4(c70, a[r7 + k], b0); c71 = sr_fma4(c71, a[r7 + k], b1);
    }
    store(i, j, c00); store(i, j + 4u, c01);
    store(i + 1u, j, c10); store(i + 1u, j + 4u, c11);
    store(i + 2u, j, c20); store(i + 2u, j + 4u, c21);
    store(i + 3u, j, c30); store(i + 3u, j + 4u, c31);
    store(i + 4u, j, c40); store(i + 4u, j + 4u, c41);
    store(i + 5u, j, c50); store(i + 5u, j + 4u, c51);
    store(i + 6u, j, c60); store(i + 6u, j + 4u, c61);
    store(i + 7u, j, c70); store(i + 7u, j + 4u, c71);
}
