//! Every kernel against the float64 reference in headless Chromium: random inputs
//! from fixed seeds (relative Frobenius error <= 1e-5), integer inputs whose exact
//! answers stay below 2^24 (must be exact), non-square shapes, chains and powers.

mod common;

use common::*;
use gpgpu_matrix::plan::random;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::Semiring::Ordinary;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const SIZES: [usize; 7] = [1, 2, 3, 17, 64, 100, 257];

#[wasm_bindgen_test]
fn square_matches_the_f64_reference_for_every_kernel_and_size() {
    let mut g = poisoned();
    for kernel in kernels(&g) {
        for (seed, &n) in SIZES.iter().enumerate() {
            let m = uniform(seed as u32 + 1, n * n);
            let got = g.square(n, &m, &opts(kernel)).unwrap();
            let want = reference::square(Ordinary, n, &to_f64(&m));
            assert_close(
                &format!("{kernel:?} square n={n}"),
                &got,
                &want,
                FROBENIUS_TOL,
            );
        }
    }
}

#[wasm_bindgen_test]
fn multiply_matches_the_f64_reference_for_different_matrices() {
    let mut g = poisoned();
    for kernel in kernels(&g) {
        for (seed, &n) in SIZES.iter().enumerate() {
            let a = uniform(100 + seed as u32, n * n);
            let b = uniform(200 + seed as u32, n * n);
            let got = g.multiply(n, n, n, &a, &b, &opts(kernel)).unwrap();
            let want = reference::multiply(Ordinary, n, n, n, &to_f64(&a), &to_f64(&b));
            assert_close(&format!("{kernel:?} A·B n={n}"), &got, &want, FROBENIUS_TOL);
        }
    }
}

#[wasm_bindgen_test]
fn non_square_products() {
    let mut g = poisoned();
    let n = 37;
    for kernel in kernels(&g) {
        for (rows, inner, cols) in [(3, 5, 2), (1, n, 1), (n, 1, n), (5, 3, 9), (2, 65, 1)] {
            let a = uniform(7, rows * inner);
            let b = uniform(8, inner * cols);
            let got = g
                .multiply(rows, inner, cols, &a, &b, &opts(kernel))
                .unwrap();
            let want = reference::multiply(Ordinary, rows, inner, cols, &to_f64(&a), &to_f64(&b));
            assert_eq!(got.len(), rows * cols);
            assert_close(
                &format!("{kernel:?} {rows}x{inner} · {inner}x{cols}"),
                &got,
                &want,
                FROBENIUS_TOL,
            );
        }
    }
}

#[wasm_bindgen_test]
fn integer_products_are_exact() {
    let mut g = poisoned();
    for kernel in kernels(&g) {
        for &n in &[1usize, 3, 17, 64, 257] {
            let what = |s: &str| format!("{kernel:?} {s} n={n}");
            // A · I = A for entries up to ±1000.
            let a = random::integers(n as u32, n * n, -1000, 1000);
            let id: Vec<f32> = reference::identity(Ordinary, n)
                .iter()
                .map(|&v| v as f32)
                .collect();
            let got = g.multiply(n, n, n, &a, &id, &opts(kernel)).unwrap();
            assert_exact(&what("A·I"), &got, &to_f64(&a));
            let got = g.multiply(n, n, n, &id, &a, &opts(kernel)).unwrap();
            assert_exact(&what("I·A"), &got, &to_f64(&a));
            // A permutation (i -> 3i+1 mod n when gcd allows, else a shift) permutes rows.
            let mut perm = vec![0f32; n * n];
            for i in 0..n {
                perm[i * n + (i * 5 + 1) % n] = 1.0;
            }
            let got = g.multiply(n, n, n, &perm, &a, &opts(kernel)).unwrap();
            let want = reference::multiply(Ordinary, n, n, n, &to_f64(&perm), &to_f64(&a));
            assert_exact(&what("P·A"), &got, &want);
            // Small integers: |sum| <= n · 9 · 9 < 2^24, so every entry is exact.
            let s = random::integers(n as u32 + 9, n * n, -9, 9);
            let got = g.square(n, &s, &opts(kernel)).unwrap();
            assert_exact(
                &what("S²"),
                &got,
                &reference::square(Ordinary, n, &to_f64(&s)),
            );
        }
    }
}

#[wasm_bindgen_test]
fn repeated_squaring_of_a_scaled_matrix() {
    let mut g = poisoned();
    for kernel in kernels(&g) {
        for &n in &[1usize, 17, 64, 100] {
            // Scaled by 1/sqrt(n) so powers neither explode nor vanish too fast.
            let scale = 1.0 / (n as f32).sqrt();
            let m: Vec<f32> = uniform(31, n * n).iter().map(|v| v * scale).collect();
            for times in 0..=4u32 {
                let got = g
                    .square_repeatedly(n, &m, times as u64, &opts(kernel))
                    .unwrap();
                let want = reference::repeated_square(Ordinary, n, &to_f64(&m), times);
                // Each squaring roughly doubles the float32 rounding error.
                let tol = FROBENIUS_TOL * (1u32 << times) as f64;
                assert_close(&format!("{kernel:?} M^(2^{times}) n={n}"), &got, &want, tol);
                if times == 0 {
                    assert_eq!(got, m, "times = 0 returns M");
                }
            }
        }
    }
}

#[wasm_bindgen_test]
fn powers_by_binary_exponentiation() {
    let mut g = poisoned();
    for kernel in kernels(&g) {
        for &n in &[1usize, 3, 64] {
            let scale = 1.0 / (n as f32).sqrt();
            let m: Vec<f32> = uniform(77, n * n).iter().map(|v| v * scale).collect();
            for p in [0u64, 1, 2, 3, 5, 8, 13] {
                let got = g.power(n, &m, p, &opts(kernel)).unwrap();
                let want = reference::power(Ordinary, n, &to_f64(&m), p);
                assert_close(
                    &format!("{kernel:?} M^{p} n={n}"),
                    &got,
                    &want,
                    4.0 * FROBENIUS_TOL,
                );
                if p == 0 {
                    assert_exact("M^0 = I", &got, &reference::identity(Ordinary, n));
                }
            }
        }
        // Integer powers stay exact while below 2^24: Fibonacci up to F(36).
        let fib = [1.0f32, 1.0, 1.0, 0.0];
        for p in [1u64, 2, 3, 5, 8, 13, 35] {
            let got = g.power(2, &fib, p, &opts(kernel)).unwrap();
            assert_exact(
                &format!("{kernel:?} fib^{p}"),
                &got,
                &reference::power(Ordinary, 2, &[1.0, 1.0, 1.0, 0.0], p),
            );
        }
    }
}

#[wasm_bindgen_test]
fn nan_and_infinity_follow_ieee_float32() {
    let mut g = poisoned();
    for kernel in kernels(&g) {
        let n = 5;
        let mut m = random::integers(3, n * n, 1, 4);
        m[2 * n + 3] = f32::INFINITY; // row 2, column 3
        m[4 * n] = f32::NAN; // row 4, column 0
        let got = g.square(n, &m, &opts(kernel)).unwrap();
        let want = reference::square(Ordinary, n, &to_f64(&m));
        let metrics = gpgpu_matrix::plan::metrics::compare(&got, &want);
        assert_eq!(
            metrics.nonfinite_mismatch, 0,
            "{kernel:?}: {got:?} vs {want:?}"
        );
        assert!(got.iter().any(|v| v.is_nan()) && got.iter().any(|v| v.is_infinite()));
        assert_eq!(
            metrics.max_abs, 0.0,
            "{kernel:?}: finite entries are small integers"
        );
    }
}

#[wasm_bindgen_test]
fn inputs_are_never_modified() {
    let mut g = poisoned();
    let m = uniform(5, 9 * 9);
    let copy = m.clone();
    for kernel in kernels(&g) {
        g.power(9, &m, 5, &opts(kernel)).unwrap();
        g.multiply(9, 9, 9, &m, &m, &opts(kernel)).unwrap();
    }
    assert_eq!(m, copy);
}
