//! Gaussian elimination and linear systems, written once for both backends:
//! factorizations and solutions against the float64 reference (crate::plan::lu)
//! on random, diagonally dominant, zero-diagonal (pivot-requiring), Hilbert and
//! singular matrices at n = 1, odd and power-of-two sizes up to 64, a
//! factorization stopped part way, the errors of bad systems and the leak
//! check. Outputs are poisoned with NaN before every pass. One random system of
//! n = 1024 runs on WebGPU (~20 s on SwiftShader); the other heavy cases (Hilbert
//! past float32's reach, every kind up to 1024) are native tests of plan/src/lu.rs.

use super::*;
use gpgpu_matrix::linear::lu::{Lu, Solution};
use gpgpu_matrix::plan::lu::{
    dominant, eliminate, factor_error, hilbert, rank_deficient, reference, reference_solve,
    threshold, zero_diagonal, EPS_F32,
};

/// The linear-system checks, one test each, on `$backend`.
macro_rules! linear_tests {
    ($backend:expr) => {
        checks!($backend; common::linear:
            factorizations_match_the_reference,
            systems_are_solved_with_their_residual,
            singular_matrices_say_at_which_step,
            bad_systems_say_what_is_wrong,
            a_hundred_solves_leak_nothing,
        );
    };
}

/// A factorization on `g`: blocking on WebGL, async on WebGPU.
async fn lu(g: &Gpgpu, n: usize, a: &[f32]) -> Lu {
    match g.backend() {
        Backend::WebGl => g.lu(n, a).unwrap(),
        Backend::WebGpu | Backend::Cpu => g.lu_async(n, a).await.unwrap(),
    }
}

async fn solve(g: &Gpgpu, n: usize, a: &[f32], b: &[f32], nrhs: usize) -> Solution {
    match g.backend() {
        Backend::WebGl => g.solve(n, a, b, nrhs).unwrap(),
        Backend::WebGpu | Backend::Cpu => g.solve_async(n, a, b, nrhs).await.unwrap(),
    }
}

/// Partial pivoting's promises: each pivot row at or below its step, every
/// multiplier at most 1 in size, P·A = L·U to float32 rounding.
fn assert_factors(what: &str, n: usize, a: &[f32], r: &Lu) {
    assert_eq!(r.lu.len(), n * n, "{what}");
    for (k, &p) in r.pivots.iter().enumerate() {
        assert!(
            p as usize >= k && (p as usize) < n,
            "{what}: pivot {p} at step {k}"
        );
    }
    for i in 0..n {
        for j in 0..i {
            let l = r.lu[i * n + j];
            assert!(l.abs() <= 1.0, "{what}: multiplier ({i}, {j}) = {l}");
        }
    }
    let err = factor_error(n, a, &r.lu, &r.pivots);
    assert!(
        err < 1e-6 * (n as f64).sqrt() + 1e-7,
        "{what}: ‖PA − LU‖/‖A‖ = {err}"
    );
}

pub async fn factorizations_match_the_reference(backend: Backend) {
    let g = &shared_on(backend).await.g;
    // By hand: the zero pivot swaps the rows, everything exact.
    let r = lu(g, 2, &[0.0, 2.0, 1.0, 1.0]).await;
    assert_eq!(
        (r.lu, r.pivots, r.singular),
        (vec![1.0, 1.0, 0.0, 2.0], vec![1, 1], None)
    );
    let r = lu(g, 1, &[-3.0]).await;
    assert_eq!((r.lu, r.pivots, r.singular), (vec![-3.0], vec![0], None));
    // Random, odd and power-of-two sizes: the same pivots as float64 (no near
    // ties in random data), the same factors to float32 rounding.
    for (seed, n) in [(1u32, 7usize), (2, 33), (3, 64)] {
        let a = random::uniform(seed, n * n, -1.0, 1.0);
        let r = lu(g, n, &a).await;
        let want = reference(n, &a);
        assert_eq!(r.pivots, want.pivots, "random n = {n}");
        assert_eq!(r.singular, None, "random n = {n}");
        assert_close(&format!("random n = {n}"), &r.lu, &want.lu, 1e-5);
        assert_factors(&format!("random n = {n}"), n, &a, &r);
    }
    // Diagonally dominant: no swaps.
    let n = 17;
    let r = lu(g, n, &dominant(4, n)).await;
    assert_eq!(r.pivots, (0..n as u32).collect::<Vec<_>>(), "dominant");
    assert_factors("dominant", n, &dominant(4, n), &r);
    // Zeros on the diagonal: the first step must swap (integers: ties are exact,
    // and go to the first row on both sides).
    for n in [5, 9] {
        let a = zero_diagonal(n as u32, n);
        let r = lu(g, n, &a).await;
        assert_eq!(
            r.pivots[0],
            reference(n, &a).pivots[0],
            "zero diagonal n = {n}"
        );
        assert_ne!(r.pivots[0], 0);
        assert_factors(&format!("zero diagonal n = {n}"), n, &a, &r);
    }
    // Hilbert 5 (condition ≈ 5e5): still a factorization in float32.
    let r = lu(g, 5, &hilbert(5)).await;
    assert_eq!(r.singular, None);
    assert_factors("hilbert 5", 5, &hilbert(5), &r);
    // Stopped after 2 of 6 steps: what the same 2 steps give in float64.
    let (n, steps) = (6, 2);
    let a = random::uniform(9, n * n, -1.0, 1.0);
    let r = g.lu_steps_async(n, &a, steps).await.unwrap();
    let mut w: Vec<f64> = a.iter().map(|&v| v as f64).collect();
    let (pivots, _) = eliminate(n, n, steps, &mut w, threshold(n, &a, EPS_F32));
    assert_eq!(r.steps, steps);
    // Two passes a step, and on WebGPU one more storing the last step's multipliers;
    // one a step on the CPU.
    let passes = match backend {
        Backend::WebGl => 2 * steps,
        Backend::WebGpu => 2 * steps + 1,
        Backend::Cpu => steps,
    };
    assert_eq!(r.passes, passes);
    assert_eq!(r.pivots, pivots, "part way");
    assert_close("part way", &r.lu, &w, 1e-5);
}

pub async fn systems_are_solved_with_their_residual(backend: Backend) {
    let g = &shared_on(backend).await.g;
    // n = 1, two right-hand sides: exact.
    let s = solve(g, 1, &[4.0], &[2.0, -8.0], 2).await;
    assert_eq!(s.x, Some(vec![0.5, -2.0]));
    assert_eq!(s.residual, Some(0.0));
    // (what, n, A, nrhs, the residual allowed)
    let cases: Vec<(&str, usize, Vec<f32>, usize, f64)> = vec![
        (
            "random",
            33,
            random::uniform(21, 33 * 33, -1.0, 1.0),
            3,
            1e-5,
        ),
        ("dominant", 64, dominant(22, 64), 1, 1e-6),
        ("zero diagonal", 9, zero_diagonal(23, 9), 2, 1e-6),
        // Backward stable: the residual is about ε·‖A‖·‖x‖/‖b‖, and Hilbert's x
        // is large (3e-5 measured).
        ("hilbert", 4, hilbert(4), 1, 1e-4),
    ];
    for (what, n, a, nrhs, tol) in cases {
        let b = random::uniform(30 + n as u32, n * nrhs, -1.0, 1.0);
        let s = solve(g, n, &a, &b, nrhs).await;
        assert_eq!(s.singular, None, "{what}");
        let x = s.x.expect(what);
        let res = s.residual.expect(what);
        // The reported residual is the one of the x returned, and small.
        let own = gpgpu_matrix::plan::lu::residual(n, nrhs, &a, &x, &b);
        assert_eq!(res, own, "{what}");
        assert!(res < tol, "{what}: residual {res}");
        if what != "hilbert" {
            let want = reference_solve(n, nrhs, &a, &b).unwrap();
            assert_close(what, &x, &want, 1e-4);
        }
    }
}

pub async fn singular_matrices_say_at_which_step(backend: Backend) {
    let g = &shared_on(backend).await.g;
    // Row 2 = row 0 + row 1: singular at step 2, as float64 says.
    let a = [1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 5.0, 7.0, 10.0];
    let r = lu(g, 3, &a).await;
    assert_eq!(r.singular, Some(2));
    assert!(r.lu.iter().all(|v| v.is_finite()), "{:?}", r.lu);
    let s = solve(g, 3, &a, &[1.0, 2.0, 3.0], 1).await;
    assert_eq!((s.x, s.residual, s.singular), (None, None, Some(2)));
    // A zero matrix at its first step; an integer matrix of rank n − 1; Hilbert
    // 8 (condition 1.5e10, past float32).
    let r = lu(g, 4, &[0.0; 16]).await;
    assert_eq!((r.singular, r.lu), (Some(0), vec![0.0; 16]));
    for (what, n, a) in [
        ("rank n − 1", 6, rank_deficient(6, 6)),
        ("hilbert 8", 8, hilbert(8)),
    ] {
        let r = lu(g, n, &a).await;
        assert!(r.singular.is_some(), "{what}");
        assert!(r.lu.iter().all(|v| v.is_finite()), "{what}: {:?}", r.lu);
        let s = solve(g, n, &a, &vec![1.0; n], 1).await;
        assert_eq!(s.singular, r.singular, "{what}");
        assert_eq!((s.x, s.residual), (None, None), "{what}");
    }
}

pub async fn bad_systems_say_what_is_wrong(backend: Backend) {
    let g = &shared_on(backend).await.g;
    // A wrong length is BAD_LENGTH naming both lengths, as in every other call.
    let e = g.lu_async(3, &[0.0; 8]).await;
    assert_error(e, "BAD_LENGTH", "a has 8 elements but a 3x3 matrix needs 9");
    assert_error(g.lu_async(0, &[]).await, "BAD_DIMENSION", "n");
    assert_error(
        g.lu_steps_async(2, &[0.0; 4], 3).await,
        "BAD_COUNT",
        "steps",
    );
    let e = g.solve_async(2, &[1.0; 4], &[1.0; 3], 2).await;
    assert_error(
        e,
        "BAD_LENGTH",
        "b has 3 entries but needs 4: a system with n = 2 and nrhs = 2",
    );
    assert_error(
        g.solve_async(2, &[1.0; 6], &[1.0; 2], 1).await,
        "BAD_LENGTH",
        "a has 6 elements but a 2x2 matrix needs 4",
    );
    assert_error(
        g.solve_async(2, &[1.0; 4], &[], 0).await,
        "BAD_DIMENSION",
        "nrhs",
    );
    let e = g
        .solve_async(2, &[1.0, f32::NAN, 0.0, 1.0], &[1.0; 2], 1)
        .await;
    assert_error(e, "BAD_ARGUMENT", "a[1] is NaN");
    let e = g.solve_async(1, &[1.0], &[f32::INFINITY], 1).await;
    assert_error(e, "BAD_ARGUMENT", "b[0] is Infinity");
    let too_big = g.engine().max_dimension();
    let e = g.solve_async(too_big, &[], &[], 1).await;
    assert_error(e, "SIZE_OVER_LIMIT", "n + nrhs");
    // n·n past 2^32 with n within WebGPU's limit: counted in u64 (in a wasm32 usize
    // the product overflowed, a panic in Rust's debug builds).
    let e = g.lu_async(70_000, &[1.0]).await;
    match too_big >= 70_000 {
        true => assert_error(e, "BAD_LENGTH", "a 70000x70000 matrix needs 4900000000"),
        false => assert_error(e, "SIZE_OVER_LIMIT", "n = 70000"),
    };
    // The JavaScript API: numbers checked, the same messages.
    let api = js_on(backend).await;
    let num = |v: f64| JsValue::from(v);
    let arr = |len: usize| JsValue::from(Float32Array::new_with_length(len as u32));
    let e = JsFuture::from(api.solve_async(num(2.0), arr(4), arr(3), JsValue::UNDEFINED)).await;
    assert_js_error(e, "BAD_LENGTH", "b has 3 entries but needs 2");
    let e = JsFuture::from(api.lu_async(JsValue::from("3"), arr(9), JsValue::UNDEFINED)).await;
    assert_js_error(e, "BAD_ARGUMENT", "must be a number");
    let e = JsFuture::from(api.lu_async(num(1.5), arr(1), JsValue::UNDEFINED)).await;
    assert_js_error(e, "BAD_DIMENSION", "n");
    // Past wasm32's usize the device's limit is named as below it: it was "this
    // device's limit of 4294967295", which no device has, for n and for nrhs.
    let limit = format!("limit of {too_big}");
    for n in [2147483648.0, 4294967296.0] {
        let e = JsFuture::from(api.lu_async(num(n), arr(1), JsValue::UNDEFINED)).await;
        assert_js_error(e, "SIZE_OVER_LIMIT", &limit);
    }
    let e = JsFuture::from(api.solve_async(num(2.0), arr(4), arr(2), num(4294967296.0))).await;
    assert_js_error(e, "SIZE_OVER_LIMIT", &limit);
    // Steps past n are refused, 2^32 and past too (once cast to a wasm32 usize,
    // 2^32 stopped after no step and 2^32 + 1 after one, with no error).
    for steps in [3.0, 4294967296.0, 4294967297.0] {
        let e = JsFuture::from(api.lu_async(num(2.0), arr(4), num(steps))).await;
        assert_js_error(e, "BAD_COUNT", "from 0 to 2");
    }
    if backend == Backend::WebGpu {
        let e = api
            .lu(num(1.0), arr(1), JsValue::UNDEFINED)
            .map(JsValue::from);
        assert_js_error(e, "NEEDS_ASYNC", "luAsync");
        let e = api
            .solve(num(1.0), arr(1), arr(1), num(1.0))
            .map(JsValue::from);
        assert_js_error(e, "NEEDS_ASYNC", "solveAsync");
    } else {
        // The blocking forms answer at once on WebGL.
        let r = api.solve(
            num(1.0),
            js_sys::Array::of1(&num(2.0)).into(),
            arr(1),
            num(1.0),
        );
        assert!(r.is_ok());
    }
}

pub async fn a_hundred_solves_leak_nothing(backend: Backend) {
    let g = poisoned_on(backend).await;
    let n = 8;
    let a = dominant(40, n);
    let b = uniform(41, n);
    solve(&g, n, &a, &b, 1).await;
    lu(&g, n, &a).await;
    let after_first = g.live_objects();
    for i in 0..100 {
        let s = solve(&g, n, &a, &b, 1).await;
        assert!(s.residual.unwrap() < 1e-6, "poisoned run {i}");
        if i % 10 == 0 {
            lu(&g, n, &a).await;
        }
        // A new matrix each time too: its pivot threshold follows its entries (on
        // WebGPU a uniform block cached by its words once grew with every new one).
        lu(&g, n, &dominant(100 + i as u32, n)).await;
    }
    assert_eq!(g.live_objects(), after_first, "after 100 solves");
}

/// The largest size on the GPU: a random 1024 × 1024 system factored and solved,
/// against float64 (factors to float32 rounding, the residual, x normwise). Run on
/// WebGPU only in `make test`: SwiftShader takes ~20 s for it there, ~45 s on WebGL.
pub async fn a_random_1024_system_factors_and_solves(backend: Backend) {
    let g = &shared_on(backend).await.g;
    let n = 1024;
    let a = random::uniform(41, n * n, -1.0, 1.0);
    let b = random::uniform(42, n, -1.0, 1.0);
    let r = lu(g, n, &a).await;
    assert_eq!(r.singular, None);
    let e = factor_error(n, &a, &r.lu, &r.pivots);
    // ‖PA − LU‖/‖A‖ grows like n·ε: 2.5e-6 measured on SwiftShader and the H100.
    assert!(e < 1e-4, "factor error {e}");
    let s = solve(g, n, &a, &b, 1).await;
    let res = s.residual.expect("a residual");
    // 2.2e-4 measured on the H100 (float32 on a matrix of condition ~10^3-10^4).
    assert!(res < 2e-3, "residual {res}");
    let x = s.x.expect("x");
    let want = reference_solve(n, 1, &a, &b).unwrap();
    let (mut d, mut w) = (0.0f64, 0.0f64);
    for (&got, &exact) in x.iter().zip(&want) {
        d += (got as f64 - exact).powi(2);
        w += exact * exact;
    }
    assert!(
        (d / w).sqrt() < 0.05,
        "x off by {} normwise",
        (d / w).sqrt()
    );
}
