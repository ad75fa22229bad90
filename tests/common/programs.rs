//! Programs the caller supplies (`ops::supplied`, the kernel lab's primitive), on
//! every backend: a correct kernel against the float64 reference (random inputs at
//! odd and non-square sizes, and exact integers), a kernel that skips elements
//! leaving the NaN poison, a source with an error named at its line as
//! SHADER_COMPILE and the engine working on after it, a program of another backend
//! and a zero tile refused.

use super::*;
use gpgpu_matrix::engine::program::{Glsl, Wgsl};
use gpgpu_matrix::ops::supplied::{self, Supplied};
use gpgpu_matrix::plan::reference;

/// The supplied-program checks, one test each, on `$backend`.
macro_rules! program_tests {
    ($backend:expr) => {
        checks!($backend; common::programs:
            supplied_products_match_the_reference,
            a_kernel_that_skips_elements_leaves_the_poison,
            compile_errors_name_their_line_and_the_engine_goes_on,
            programs_of_another_backend_are_refused,
        );
    };
}

const GLSL_PRODUCT: &str = "#version 300 es
precision highp float;
uniform highp sampler2D A;
uniform highp sampler2D B;
uniform ivec3 dims;
out vec4 result;
void main() {
    int i = int(gl_FragCoord.y);
    int j = int(gl_FragCoord.x);
    float sum = 0.0;
    for (int k = 0; k < dims.y; k++) {
        sum += texelFetch(A, ivec2(k, i), 0).r * texelFetch(B, ivec2(j, k), 0).r;
    }
    result = vec4(sum, 0.0, 0.0, 0.0);
}
";

const WGSL_PRODUCT: &str = "struct Dims { rows: u32, inner: u32, cols: u32, pad: u32 }
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read_write> C: array<f32>;
@group(0) @binding(3) var<uniform> dims: Dims;
@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let i = id.y;
    let j = id.x;
    if (i >= dims.rows || j >= dims.cols) { return; }
    var sum = 0.0;
    for (var k = 0u; k < dims.inner; k++) {
        sum += A[i * dims.inner + k] * B[k * dims.cols + j];
    }
    C[i * dims.cols + j] = sum;
}
";

fn cpu_product(a: &[f32], b: &[f32], c: &mut [f32], [rows, inner, cols]: [usize; 3]) {
    for i in 0..rows {
        for j in 0..cols {
            c[i * cols + j] = (0..inner).map(|k| a[i * inner + k] * b[k * cols + j]).sum();
        }
    }
}

/// The same kernel with the last row of C left unwritten.
fn cpu_skipping(a: &[f32], b: &[f32], c: &mut [f32], [rows, inner, cols]: [usize; 3]) {
    let mut full = vec![0.0; rows * cols];
    cpu_product(a, b, &mut full, [rows, inner, cols]);
    let kept = (rows - 1) * cols;
    c[..kept].copy_from_slice(&full[..kept]);
}

/// The correct kernel in the language of `backend`.
fn product_on(backend: Backend) -> Supplied {
    match backend {
        Backend::WebGl => Supplied::Glsl(Glsl::new("learner", GLSL_PRODUCT)),
        Backend::WebGpu => Supplied::Wgsl {
            program: Wgsl::new("learner", WGSL_PRODUCT),
            tile: [8, 8],
        },
        Backend::Cpu => Supplied::Cpu(cpu_product),
    }
}

/// A kernel that never writes C's last row.
fn skipping_on(backend: Backend) -> Supplied {
    let skip = |s: &str, from: &str, to: &str| {
        assert!(s.contains(from));
        s.replace(from, to)
    };
    match backend {
        Backend::WebGl => Supplied::Glsl(Glsl::new(
            "skipping",
            skip(
                GLSL_PRODUCT,
                "    float sum",
                "    if (i == dims.x - 1) discard;\n    float sum",
            ),
        )),
        Backend::WebGpu => Supplied::Wgsl {
            program: Wgsl::new(
                "skipping",
                skip(WGSL_PRODUCT, "i >= dims.rows ||", "i + 1u >= dims.rows ||"),
            ),
            tile: [8, 8],
        },
        Backend::Cpu => Supplied::Cpu(cpu_skipping),
    }
}

pub async fn supplied_products_match_the_reference(backend: Backend) {
    let g = on(backend).await;
    let program = product_on(backend);
    supplied::compile(&g.handle(), &program).await.unwrap();
    for (seed, dims) in [[1, 1, 1], [3, 5, 2], [17, 33, 9], [64, 64, 64]]
        .into_iter()
        .enumerate()
    {
        let (a, b, want) = random_product(seed as u32 * 2, dims);
        let got = supplied::product(&g.handle(), &program, dims, &a, &b)
            .await
            .unwrap();
        assert_close(&format!("{dims:?}"), &got, &want, FROBENIUS_TOL);
    }
    // Small integers: every product and sum is exact in float32.
    let dims = [7, 12, 5];
    let a = random::integers(3, 7 * 12, -3, 3);
    let b = random::integers(4, 12 * 5, -3, 3);
    let want = reference::multiply(
        Semiring::Ordinary,
        7,
        12,
        5,
        &reference::to_f64(&a),
        &reference::to_f64(&b),
    );
    let got = supplied::product(&g.handle(), &program, dims, &a, &b)
        .await
        .unwrap();
    assert_exact("integers", &got, &want);
}

pub async fn a_kernel_that_skips_elements_leaves_the_poison(backend: Backend) {
    let g = on(backend).await;
    let dims = [9, 4, 6];
    let (a, b, want) = random_product(11, dims);
    let got = supplied::product(&g.handle(), &skipping_on(backend), dims, &a, &b)
        .await
        .unwrap();
    let last = 8 * 6;
    assert!(got[last..].iter().all(|v| v.is_nan()), "{:?}", &got[last..]);
    assert_close(
        "the rows it wrote",
        &got[..last],
        &want[..last],
        FROBENIUS_TOL,
    );
}

pub async fn compile_errors_name_their_line_and_the_engine_goes_on(backend: Backend) {
    let g = on(backend).await;
    // The sum's line (10 in the GLSL, 11 in the WGSL) uses a name declared nowhere.
    let (broken, line) = match backend {
        Backend::WebGl => {
            let s = GLSL_PRODUCT.replace("    float sum = 0.0;", "    float sum = missing;");
            (Supplied::Glsl(Glsl::new("broken", s)), ":10:")
        }
        Backend::WebGpu => {
            let s = WGSL_PRODUCT.replace("    var sum = 0.0;", "    var sum = missing;");
            (
                Supplied::Wgsl {
                    program: Wgsl::new("broken", s),
                    tile: [8, 8],
                },
                "11:",
            )
        }
        // Rust kernels are compiled with the crate: nothing can fail here.
        Backend::Cpu => return,
    };
    let e = assert_error(
        supplied::compile(&g.handle(), &broken).await,
        "SHADER_COMPILE",
        "broken",
    );
    assert!(e.to_string().contains(line), "{e}");
    assert!(e.to_string().contains("missing"), "{e}");
    // Running it is the same error, again (nothing broken is kept).
    let dims = [2, 2, 2];
    let (a, b, want) = random_product(5, dims);
    let ran = supplied::product(&g.handle(), &broken, dims, &a, &b).await;
    assert_error(ran, "SHADER_COMPILE", "missing");
    // The engine goes on: the correct kernel, then the library's own product.
    let got = supplied::product(&g.handle(), &product_on(backend), dims, &a, &b)
        .await
        .unwrap();
    assert_close("after the error", &got, &want, FROBENIUS_TOL);
    let own = g
        .multiply_async(2, 2, 2, &a, &b, &Options::default())
        .await
        .unwrap();
    assert_close("the library's product", &own, &want, FROBENIUS_TOL);
}

pub async fn programs_of_another_backend_are_refused(backend: Backend) {
    let g = on(backend).await;
    let dims = [2, 3, 4];
    let (a, b, _) = random_product(7, dims);
    for other in [Backend::WebGl, Backend::WebGpu, Backend::Cpu] {
        if other == backend {
            continue;
        }
        let r = supplied::product(&g.handle(), &product_on(other), dims, &a, &b).await;
        assert_error(r, "BAD_ARGUMENT", other.name());
    }
    // A wrong length is BAD_LENGTH before anything runs.
    let r = supplied::product(&g.handle(), &product_on(backend), dims, &a[1..], &b).await;
    assert_error(r, "BAD_LENGTH", "a");
    if backend == Backend::WebGpu {
        let zero = Supplied::Wgsl {
            program: Wgsl::new("learner", WGSL_PRODUCT),
            tile: [0, 8],
        };
        let r = supplied::product(&g.handle(), &zero, dims, &a, &b).await;
        assert_error(r, "BAD_ARGUMENT", "tile");
    }
}
