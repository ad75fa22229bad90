//! The boolean (OR, AND) and (min, +) semirings in every kernel of a setup:
//! exact 0/1 chains and exact integer path lengths against the float64 reference,
//! "no edge" given as Infinity or NO_EDGE and returned as Infinity, the (min, +)
//! identity for p = 0. Sizes 257 (past two k chunks, three register tiles) on
//! tests of their own.

use super::*;
use gpgpu_matrix::plan::random;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::plan::semiring::NO_EDGE;

/// The boolean checks, one test each, on `$setup`.
macro_rules! boolean_tests {
    ($setup:expr) => {
        checks!($setup; common::semirings:
            boolean_products_in_every_kernel,
            boolean_products_at_n_257,
        );
    };
}

/// The (min, +) checks, one test each, on `$setup`.
macro_rules! min_plus_tests {
    ($setup:expr) => {
        checks!($setup; common::semirings:
            min_plus_products_in_every_kernel,
            min_plus_products_at_n_257,
        );
    };
}

/// Odd sizes (scalar forms), multiples of 4 (vec4 forms) and 128 (whole tiles of the
/// staged register kernel: its pipeline without edge checks); 257 on its own test.
const SEMIRING_SIZES: [usize; 6] = [1, 3, 17, 64, 100, 128];

pub async fn boolean_products_in_every_kernel(setup: Setup) {
    boolean_products(setup, &SEMIRING_SIZES).await
}

pub async fn boolean_products_at_n_257(setup: Setup) {
    boolean_products(setup, &[257]).await
}

pub async fn min_plus_products_in_every_kernel(setup: Setup) {
    min_plus_products(setup, &SEMIRING_SIZES).await
}

pub async fn min_plus_products_at_n_257(setup: Setup) {
    min_plus_products(setup, &[257]).await
}

pub async fn boolean_products(setup: Setup, sizes: &[usize]) {
    let t = setup.shared().await;
    for &n in sizes {
        // Chains stay exactly 0/1 (257 spans two k chunks when chunked).
        let a = random_graph(n, 3.0 / n as f64, n as u32, true);
        let chain = reference::repeated_square(Semiring::Boolean, n, &to_f64(&a), 3);
        // Any nonzero is true, a NaN included; the answer is 0/1.
        let mut b = random::integers(n as u32 + 2, n * n, -2, 2);
        b[0] = f32::NAN;
        let bools = to_f64(&Semiring::Boolean.prepare(&b));
        let product = reference::multiply(Semiring::Boolean, n, n, n, &to_f64(&a), &bools);
        for (g, kernel, label) in t.pairs() {
            let sr = in_semiring(kernel, Semiring::Boolean);
            let got = g.square_repeatedly_async(n, &a, 3, &sr).await.unwrap();
            assert_exact(&format!("{label} boolean A^8 n={n}"), &got, &chain);
            let got = g.multiply_async(n, n, n, &a, &b, &sr).await.unwrap();
            assert_exact(&format!("{label} boolean A·B n={n}"), &got, &product);
        }
    }
}

pub async fn min_plus_products(setup: Setup, sizes: &[usize]) {
    let t = setup.shared().await;
    for &n in sizes {
        // Integer weights: exact. "No edge" may be given as Infinity or as NO_EDGE;
        // it comes back as Infinity.
        let mut w = random::integers(n as u32 + 1, n * n, 1, 9);
        for (i, v) in w.iter_mut().enumerate() {
            if (i * 7) % 5 == 0 {
                *v = if i % 2 == 0 { NO_EDGE } else { f32::INFINITY };
            }
        }
        let prepared = to_f64(&Semiring::MinPlus.prepare(&w));
        let square = no_edge_is_infinity(reference::square(Semiring::MinPlus, n, &prepared));
        let fifth = no_edge_is_infinity(reference::power(Semiring::MinPlus, n, &prepared, 5));
        for (g, kernel, label) in t.pairs() {
            let mp = in_semiring(kernel, Semiring::MinPlus);
            let got = g.square_async(n, &w, &mp).await.unwrap();
            assert_exact(&format!("{label} min-plus W² n={n}"), &got, &square);
            // p = 0: the (min, +) identity, 0 on the diagonal and no edge elsewhere.
            let id = g.power_async(n, &w, 0, &mp).await.unwrap();
            for (i, &v) in id.iter().enumerate() {
                let want = if i % (n + 1) == 0 { 0.0 } else { f32::INFINITY };
                assert_eq!(v, want, "{label} min-plus identity n={n} entry {i}");
            }
            // A chain: W^5 in three passes.
            let got = g.power_async(n, &w, 5, &mp).await.unwrap();
            assert_exact(&format!("{label} min-plus W^5 n={n}"), &got, &fifth);
        }
    }
}

pub fn no_edge_is_infinity(v: Vec<f64>) -> Vec<f64> {
    v.into_iter()
        .map(|v| {
            if v >= NO_EDGE as f64 {
                f64::INFINITY
            } else {
                v
            }
        })
        .collect()
}
