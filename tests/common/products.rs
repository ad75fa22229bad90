//! The product checks: every kernel of a setup against the float64 reference,
//! through the async API. Random inputs from fixed seeds (relative Frobenius error
//! <= 1e-5), integer inputs whose exact answers stay below 2^24 (must be exact),
//! non-square shapes (inner and cols multiples of 4, which the staged register
//! kernel reads as vec4, and odd ones, read as scalars), chains and powers, IEEE NaN
//! and infinity. Outputs are poisoned with NaN before every pass.

use super::*;
use gpgpu_matrix::plan::random;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::Semiring::{Boolean, MinPlus, Ordinary};

/// The product checks of shapes and values, one test each, on `$setup`.
macro_rules! product_tests {
    ($setup:expr) => {
        checks!($setup; common::products:
            square_matches_the_f64_reference,
            multiply_matches_the_f64_reference,
            non_square_products,
            nan_and_infinity_follow_ieee_float32,
            inputs_are_never_modified,
        );
    };
}

/// The exact integer products and the chains (repeated squaring, powers), one test
/// each, on `$setup`.
macro_rules! chain_tests {
    ($setup:expr) => {
        checks!($setup; common::products:
            integer_products_are_exact,
            repeated_squaring_of_a_scaled_matrix,
            powers_by_binary_exponentiation,
        );
    };
}

pub const SIZES: [usize; 7] = [1, 2, 3, 17, 64, 100, 257];

pub async fn square_matches_the_f64_reference(setup: Setup) {
    let t = setup.shared().await;
    for (seed, &n) in SIZES.iter().enumerate() {
        let m = uniform(seed as u32 + 1, n * n);
        let want = reference::square(Ordinary, n, &to_f64(&m));
        for (g, kernel, label) in t.pairs() {
            let got = g.square_async(n, &m, &opts(kernel)).await.unwrap();
            assert_close(&format!("{label} square n={n}"), &got, &want, FROBENIUS_TOL);
        }
    }
}

pub async fn multiply_matches_the_f64_reference(setup: Setup) {
    let t = setup.shared().await;
    for (seed, &n) in SIZES.iter().enumerate() {
        let a = uniform(100 + seed as u32, n * n);
        let b = uniform(200 + seed as u32, n * n);
        let want = reference::multiply(Ordinary, n, n, n, &to_f64(&a), &to_f64(&b));
        for (g, kernel, label) in t.pairs() {
            let o = opts(kernel);
            let got = g.multiply_async(n, n, n, &a, &b, &o).await.unwrap();
            assert_close(&format!("{label} A·B n={n}"), &got, &want, FROBENIUS_TOL);
        }
    }
}

/// (rows, inner, cols): thin, wide and odd shapes; shapes whose inner and cols
/// are multiples of 4 (the staged register kernel's vec4 form) and shapes that are
/// not (its scalar form); shapes crossing the 64- and 128-wide register tiles, and
/// shapes made of whole 128 × 128 tiles with k in whole slices of 16 (the staged
/// kernel's pipeline without edge checks, its k loop written out), several tiles and
/// slices of them.
const SHAPES: [(usize, usize, usize); 18] = [
    (3, 5, 2),
    (1, 37, 1),
    (37, 1, 37),
    (5, 3, 9),
    (2, 65, 1),
    (4, 8, 12),
    (7, 4, 4),
    (1, 64, 4),
    (65, 36, 20),
    (130, 24, 132),
    (129, 33, 131),
    (131, 130, 5),
    (3, 257, 129),
    (128, 16, 128),
    (256, 48, 128),
    (128, 144, 256),
    (256, 96, 128),
    (128, 32, 384),
];

pub async fn non_square_products(setup: Setup) {
    let t = setup.shared().await;
    for (seed, (rows, inner, cols)) in SHAPES.into_iter().enumerate() {
        let a = uniform(7 + seed as u32, rows * inner);
        let b = uniform(8 + seed as u32, inner * cols);
        let want = reference::multiply(Ordinary, rows, inner, cols, &to_f64(&a), &to_f64(&b));
        for (g, kernel, label) in t.pairs() {
            let o = opts(kernel);
            let got = g.multiply_async(rows, inner, cols, &a, &b, &o).await;
            assert_close(
                &format!("{label} {rows}x{inner} · {inner}x{cols}"),
                &got.unwrap(),
                &want,
                FROBENIUS_TOL,
            );
        }
    }
}

/// Mesa's lavapipe (Firefox's WebGPU on a machine without a GPU) ends a shader's loops
/// after 65,535 iterations in all, without an error: the register kernel's CPU form,
/// which every software adapter runs, looped once per k (per 4 k in its vec4 form),
/// so a longer k lacked its last terms (a row sum over 65,536 ones came out 65,535);
/// so did global and tiled16, which loop once per k. Every kernel, k longer than two
/// of the passes the CPU form splits it into (`CPU_K_PASS`; global and tiled16 get k
/// cut into tiles there), read as scalars and as vec4s, in each semiring, with the
/// last k deciding the answer where the semiring could otherwise hide a lost term.
/// Integer inputs: every sum is exact in float32.
pub async fn a_long_k_is_summed_in_full(setup: Setup) {
    let t = setup.shared().await;
    let pass = gpgpu_matrix::ops::matmul::webgpu::register::CPU_K_PASS;
    for (seed, (rows, inner, cols)) in [(3, 2 * pass + 5, 1), (9, 2 * pass + 4, 8)]
        .into_iter()
        .enumerate()
    {
        let last = inner - 1;
        let seed = seed as u32 * 10;
        for semiring in [Ordinary, MinPlus, Boolean] {
            let (mut a, mut b) = match semiring {
                Boolean => (
                    vec![0.0; rows * inner],
                    random::integers(seed + 1, inner * cols, 0, 1),
                ),
                _ => (
                    random::integers(seed + 2, rows * inner, 0, 3),
                    random::integers(seed + 3, inner * cols, -2, 2),
                ),
            };
            // Boolean: the last term is each row's only one, true in the even columns;
            // min-plus: the last term is each row's least. (Ordinary: a lost k past
            // 65,535 drops thousands of terms.)
            for r in 0..rows {
                match semiring {
                    Boolean => a[r * inner + last] = 1.0,
                    MinPlus => a[r * inner + last] = -100.0 - r as f32,
                    Ordinary => {}
                }
            }
            if semiring == Boolean {
                for c in 0..cols {
                    b[last * cols + c] = if c % 2 == 0 { 1.0 } else { 0.0 };
                }
            }
            let want = reference::multiply(semiring, rows, inner, cols, &to_f64(&a), &to_f64(&b));
            for (g, kernel, label) in t.pairs() {
                let o = in_semiring(kernel, semiring);
                let got = g.multiply_async(rows, inner, cols, &a, &b, &o).await;
                let what = format!("{label} {} {rows}x{inner}·{inner}x{cols}", semiring.name());
                assert_exact(&what, &got.unwrap(), &want);
            }
        }
    }
}

pub async fn integer_products_are_exact(setup: Setup) {
    let t = setup.shared().await;
    for &n in &[1usize, 3, 17, 64, 128, 257] {
        // A · I = A for entries up to ±1000.
        let a = random::integers(n as u32, n * n, -1000, 1000);
        let id: Vec<f32> = reference::identity(Ordinary, n)
            .iter()
            .map(|&v| v as f32)
            .collect();
        // A permutation (row i has its 1 in column 5i+1 mod n) permutes rows.
        let mut perm = vec![0f32; n * n];
        for i in 0..n {
            perm[i * n + (i * 5 + 1) % n] = 1.0;
        }
        let permuted = reference::multiply(Ordinary, n, n, n, &to_f64(&perm), &to_f64(&a));
        // Small integers: |sum| <= n · 9 · 9 < 2^24, so every entry is exact.
        let s = random::integers(n as u32 + 9, n * n, -9, 9);
        let squared = reference::square(Ordinary, n, &to_f64(&s));
        for (g, kernel, label) in t.pairs() {
            let what = |s: &str| format!("{label} {s} n={n}");
            let o = opts(kernel);
            let got = g.multiply_async(n, n, n, &a, &id, &o).await.unwrap();
            assert_exact(&what("A·I"), &got, &to_f64(&a));
            let got = g.multiply_async(n, n, n, &id, &a, &o).await.unwrap();
            assert_exact(&what("I·A"), &got, &to_f64(&a));
            let got = g.multiply_async(n, n, n, &perm, &a, &o).await.unwrap();
            assert_exact(&what("P·A"), &got, &permuted);
            let got = g.square_async(n, &s, &o).await.unwrap();
            assert_exact(&what("S²"), &got, &squared);
        }
    }
    // Non-square integer products, vec4-aligned and not.
    for (rows, inner, cols) in [(5, 12, 8), (9, 13, 3), (130, 40, 132)] {
        let a = random::integers(1, rows * inner, -20, 20);
        let b = random::integers(2, inner * cols, -20, 20);
        let want = reference::multiply(Ordinary, rows, inner, cols, &to_f64(&a), &to_f64(&b));
        for (g, kernel, label) in t.pairs() {
            let o = opts(kernel);
            let got = g.multiply_async(rows, inner, cols, &a, &b, &o).await;
            let what = format!("{label} {rows}x{inner}·{inner}x{cols}");
            assert_exact(&what, &got.unwrap(), &want);
        }
    }
}

pub async fn repeated_squaring_of_a_scaled_matrix(setup: Setup) {
    let t = setup.shared().await;
    for &n in &[1usize, 17, 64, 100] {
        // Scaled by 1/sqrt(n) so powers neither explode nor vanish too fast.
        let scale = 1.0 / (n as f32).sqrt();
        let m: Vec<f32> = uniform(31, n * n).iter().map(|v| v * scale).collect();
        for times in 0..=4u32 {
            let want = reference::repeated_square(Ordinary, n, &to_f64(&m), times);
            // Each squaring roughly doubles the float32 rounding error.
            let tol = FROBENIUS_TOL * (1u32 << times) as f64;
            for (g, kernel, label) in t.pairs() {
                let o = opts(kernel);
                let got = g.square_repeatedly_async(n, &m, times as u64, &o).await;
                let got = got.unwrap();
                assert_close(&format!("{label} M^(2^{times}) n={n}"), &got, &want, tol);
                if times == 0 {
                    assert_eq!(got, m, "times = 0 returns M");
                }
            }
        }
    }
}

pub async fn powers_by_binary_exponentiation(setup: Setup) {
    let t = setup.shared().await;
    for &n in &[1usize, 3, 64] {
        let scale = 1.0 / (n as f32).sqrt();
        let m: Vec<f32> = uniform(77, n * n).iter().map(|v| v * scale).collect();
        for p in [0u64, 1, 2, 3, 5, 8, 13] {
            let want = reference::power(Ordinary, n, &to_f64(&m), p);
            for (g, kernel, label) in t.pairs() {
                let got = g.power_async(n, &m, p, &opts(kernel)).await.unwrap();
                let what = format!("{label} M^{p} n={n}");
                assert_close(&what, &got, &want, 4.0 * FROBENIUS_TOL);
                if p == 0 {
                    assert_exact("M^0 = I", &got, &reference::identity(Ordinary, n));
                }
            }
        }
    }
    // Integer powers stay exact while below 2^24: Fibonacci up to F(36).
    let fib = [1.0f32, 1.0, 1.0, 0.0];
    for p in [1u64, 2, 3, 5, 8, 13, 35] {
        let want = reference::power(Ordinary, 2, &to_f64(&fib), p);
        for (g, kernel, label) in t.pairs() {
            let got = g.power_async(2, &fib, p, &opts(kernel)).await.unwrap();
            assert_exact(&format!("{label} fib^{p}"), &got, &want);
        }
    }
}

pub async fn nan_and_infinity_follow_ieee_float32(setup: Setup) {
    let t = setup.shared().await;
    // 5: odd (the scalar forms); 8: inner and cols multiples of 4 (vec4 forms).
    for n in [5, 8] {
        let mut m = random::integers(3, n * n, 1, 4);
        m[2 * n + 3] = f32::INFINITY; // row 2, column 3
        m[4 * n] = f32::NAN; // row 4, column 0
        let want = reference::square(Ordinary, n, &to_f64(&m));
        for (g, kernel, label) in t.pairs() {
            let got = g.square_async(n, &m, &opts(kernel)).await.unwrap();
            let metrics = gpgpu_matrix::plan::metrics::compare(&got, &want);
            assert_eq!(
                metrics.nonfinite_mismatch, 0,
                "{label} n={n}: {got:?} vs {want:?}"
            );
            assert!(got.iter().any(|v| v.is_nan()) && got.iter().any(|v| v.is_infinite()));
            assert_eq!(
                metrics.max_abs, 0.0,
                "{label} n={n}: finite entries are small integers"
            );
        }
    }
}

pub async fn inputs_are_never_modified(setup: Setup) {
    let t = setup.shared().await;
    let m = uniform(5, 9 * 9);
    let copy = m.clone();
    for (g, kernel, _) in t.pairs() {
        g.power_async(9, &m, 5, &opts(kernel)).await.unwrap();
        g.multiply_async(9, 9, 9, &m, &m, &opts(kernel))
            .await
            .unwrap();
    }
    assert_eq!(m, copy);
}
