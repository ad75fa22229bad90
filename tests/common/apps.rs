//! The applications of matrix powers against independent references, through the
//! async applications (`apps::…(&g.handle(), …).await`) on a backend: BFS and
//! Floyd–Warshall for graphs, exact integers for Fibonacci, Gaussian elimination
//! for Jacobi, QΛQᵀ spectra for the power method, ‖AX − I‖ for the inverse.

use super::*;
use gpgpu_matrix::apps::inverse::{InverseMethod, Stopping};
use gpgpu_matrix::apps::jacobi::JacobiSettings;
use gpgpu_matrix::apps::{eigen, fibonacci, graphs, inverse, jacobi};
use gpgpu_matrix::plan::graphs::{bfs_reachability, floyd_warshall};
use gpgpu_matrix::plan::linalg::{gaussian_solve, random_orthogonal, symmetric_with_spectrum};
use gpgpu_matrix::plan::random::Mulberry32;
use gpgpu_matrix::plan::reference::{self, to_f64};
use gpgpu_matrix::{Options, Semiring};

/// The graph checks, one test each, on `$backend`.
macro_rules! graph_tests {
    ($backend:expr) => {
        checks!($backend; common::apps:
            reachability_matches_bfs_from_every_vertex,
            reachability_of_a_large_undirected_graph,
            reachability_of_a_large_directed_graph,
            shortest_paths_match_floyd_warshall,
        );
    };
}

/// The inverse and eigenpair checks, one test each, on `$backend`.
macro_rules! algebra_tests {
    ($backend:expr) => {
        checks!($backend; common::apps:
            inverse_by_the_doubling_product,
            newton_schulz_waits_out_a_residual_float32_cannot_move_yet,
            eigenpairs_of_a_known_spectrum,
            eigenpairs_of_repeated_and_zero_eigenvalues,
            eigenvalues_do_not_depend_on_the_scale_of_a,
            inverse_and_eigen_refuse_unbounded_counts,
        );
    };
}

/// The Jacobi and Fibonacci checks, one test each, on `$backend`.
macro_rules! iteration_tests {
    ($backend:expr) => {
        checks!($backend; common::apps:
            fibonacci_is_exact_up_to_f36_and_not_at_f37,
            fibonacci_past_f186_is_infinity_never_nan,
            applications_fix_their_semiring_and_tile_as_asked,
            jacobi_records_x_when_asked,
            jacobi_matches_gaussian_elimination_and_detects_divergence,
            jacobi_stops_on_a_relative_update_whatever_the_scale_of_b,
        );
    };
}

fn auto() -> Options {
    Options::default()
}

fn graph(n: usize, edges: impl Iterator<Item = (usize, usize)>, directed: bool) -> Vec<f32> {
    let mut a = vec![0f32; n * n];
    for (i, j) in edges {
        a[i * n + j] = 1.0;
        if !directed {
            a[j * n + i] = 1.0;
        }
    }
    a
}

pub async fn reachability_matches_bfs_from_every_vertex(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    let n = 40;
    let cases: Vec<(&str, Vec<f32>, bool)> = vec![
        (
            "path",
            graph(n, (0..n - 1).map(|i| (i, i + 1)), false),
            true,
        ),
        (
            "directed path",
            graph(n, (0..n - 1).map(|i| (i, i + 1)), true),
            false,
        ),
        (
            "directed cycle",
            graph(n, (0..n).map(|i| (i, (i + 1) % n)), true),
            true,
        ),
        (
            "two components",
            graph(
                n,
                (0..n - 1).filter(|&i| i != n / 2 - 1).map(|i| (i, i + 1)),
                false,
            ),
            false,
        ),
        ("star", graph(n, (1..n).map(|i| (0, i)), false), true),
        (
            "directed star",
            graph(n, (1..n).map(|i| (0, i)), true),
            false,
        ),
        (
            "complete",
            graph(n, (0..n).flat_map(|i| (0..n).map(move |j| (i, j))), true),
            true,
        ),
    ];
    for (name, a, connected) in cases {
        let r = graphs::reachability(&g, n, &a, &auto()).await.unwrap();
        assert_eq!(r.matrix, bfs_reachability(n, &a), "{name}");
        assert_eq!(r.connected, connected, "{name}");
        assert_eq!(r.squarings, 6, "⌈log2(39)⌉");
    }
    for directed in [false, true] {
        for (n, p) in [(2usize, 0.5), (33, 0.05), (100, 0.02), (257, 0.01)] {
            let seed = 1000 * (1 + directed as u32);
            let a = random_graph(n, p, seed + n as u32, directed);
            let r = graphs::reachability(&g, n, &a, &auto()).await.unwrap();
            let want = bfs_reachability(n, &a);
            assert_eq!(r.matrix, want, "random n={n} directed={directed}");
            assert_eq!(r.connected, want.iter().all(|&v| v == 1.0));
        }
    }
    let r = graphs::reachability(&g, 1, &[0.0], &auto()).await.unwrap();
    assert!(r.connected && r.matrix == [1.0]);
}

/// A large sparse graph: n = 1024 on WebGL (10 squarings); on WebGPU n = 512 (9),
/// as SwiftShader's compute path is about 3× slower than its fragment path and
/// the tests of one file share the runner's 20 s.
async fn reachability_of_a_large_graph(backend: Backend, directed: bool) {
    let t = shared_on(backend).await;
    let n = match backend {
        Backend::WebGl => 1024,
        Backend::WebGpu | Backend::Cpu => 512,
    };
    let a = random_graph(n, 2.0 / n as f64, 77 + directed as u32, directed);
    let r = graphs::reachability(&t.handle(), n, &a, &auto())
        .await
        .unwrap();
    assert_eq!(r.squarings, (n - 1).ilog2() + 1, "⌈log2(n − 1)⌉");
    assert!(
        r.matrix == bfs_reachability(n, &a),
        "n={n} directed={directed}"
    );
    t.g.engine().trim();
}

pub async fn reachability_of_a_large_undirected_graph(backend: Backend) {
    reachability_of_a_large_graph(backend, false).await
}

pub async fn reachability_of_a_large_directed_graph(backend: Backend) {
    reachability_of_a_large_graph(backend, true).await
}

pub async fn shortest_paths_match_floyd_warshall(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    for (seed, &n) in [1usize, 2, 5, 33, 100].iter().enumerate() {
        let mut rng = Mulberry32::new(seed as u32 + 5);
        let mut w = vec![f32::INFINITY; n * n];
        for v in w.iter_mut() {
            if rng.next_f64() < 2.0 / n as f64 {
                *v = (1.0 + 9.0 * rng.next_f64()).floor() as f32; // integer: exact sums
            }
        }
        let r = graphs::shortest_paths(&g, n, &w, &auto()).await.unwrap();
        let want = floyd_warshall(n, &to_f64(&w));
        assert!(!r.negative_cycle);
        assert_exact(&format!("shortest paths n={n}"), &r.distances, &want);
        if n == 100 {
            assert!(
                want.iter().any(|d| d.is_infinite()),
                "the case has unreachable pairs"
            );
        }
    }
    // Fractional weights: close, not exact.
    let n = 50;
    let mut rng = Mulberry32::new(99);
    let w: Vec<f32> = (0..n * n)
        .map(|_| {
            if rng.next_f64() < 0.1 {
                rng.next_f64() as f32
            } else {
                f32::INFINITY
            }
        })
        .collect();
    let r = graphs::shortest_paths(&g, n, &w, &auto()).await.unwrap();
    for (got, want) in r.distances.iter().zip(floyd_warshall(n, &to_f64(&w))) {
        assert!(
            (want.is_infinite() && got.is_infinite())
                || (*got as f64 - want).abs() <= 1e-5 * want.max(1.0),
            "{got} vs {want}"
        );
    }
    // A negative cycle is reported.
    let x = f32::INFINITY;
    let w = [0.0, 1.0, x, x, 0.0, -3.0, 1.0, x, 0.0];
    assert!(
        graphs::shortest_paths(&g, 3, &w, &auto())
            .await
            .unwrap()
            .negative_cycle
    );
}

pub async fn fibonacci_is_exact_up_to_f36_and_not_at_f37(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    for k in 0..=36u64 {
        let f = fibonacci::fibonacci(&g, k, &auto()).await.unwrap();
        assert!(
            f.exact,
            "F({k}) = {} should be exact, got {}",
            f.exact_value.unwrap(),
            f.value
        );
    }
    let f36 = fibonacci::fibonacci(&g, 36, &auto()).await.unwrap();
    assert_eq!(
        (f36.value, f36.exact_value),
        (14_930_352.0, Some(14_930_352))
    );
    let f37 = fibonacci::fibonacci(&g, 37, &auto()).await.unwrap();
    assert_eq!(f37.exact_value, Some(24_157_817));
    assert!(!f37.exact, "F(37) > 2^24 is odd: float32 cannot hold it");
    assert_eq!(f37.value, 24_157_816.0);
    let f100 = fibonacci::fibonacci(&g, 100, &auto()).await.unwrap();
    let rel = (f100.value as f64 - f100.exact_value.unwrap() as f64).abs() / 3.54e20;
    assert!(
        !f100.exact && rel < 1e-5,
        "F(100) close but not exact: {rel}"
    );
    assert_eq!(
        f100.passes,
        6 + 2,
        "100 = 0b1100100: 6 squarings, 2 products"
    );
}

const STOP: Stopping = Stopping {
    max_doublings: 60,
    patience: 0,
};

fn residual_f64(n: usize, a: &[f32], x: &[f32]) -> f64 {
    let ax = reference::multiply(Semiring::Ordinary, n, n, n, &to_f64(a), &to_f64(x));
    let mut s = 0.0;
    for i in 0..n {
        for j in 0..n {
            let d = ax[i * n + j] - (i == j) as u8 as f64;
            s += d * d;
        }
    }
    s.sqrt()
}

/// Uniform entries in [-1, 1] from `seed` with n on the diagonal: strictly
/// diagonally dominant, so both the inverse series and Jacobi converge.
fn diagonally_dominant(seed: u32, n: usize) -> Vec<f32> {
    let mut a = uniform(seed, n * n);
    for i in 0..n {
        a[i * n + i] = n as f32;
    }
    a
}

pub async fn inverse_by_the_doubling_product(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    let n = 48;
    // Strictly diagonally dominant.
    let dd = diagonally_dominant(3, n);
    // Symmetric positive definite: Q diag(1..10) Qᵀ.
    let q = random_orthogonal(n, 4);
    let spectrum: Vec<f64> = (0..n)
        .map(|i| 1.0 + 9.0 * i as f64 / (n - 1) as f64)
        .collect();
    let spd: Vec<f32> = symmetric_with_spectrum(&q, &spectrum)
        .iter()
        .map(|&v| v as f32)
        .collect();
    for (name, a) in [("diagonally dominant", &dd), ("SPD", &spd)] {
        for method in [
            InverseMethod::NewtonSchulz,
            InverseMethod::Series { d: None },
        ] {
            let r = inverse::inverse(&g, n, a, method, STOP, &auto())
                .await
                .unwrap();
            assert!(r.converged, "{name} {method:?}: {}", r.message);
            let best = r.residuals.iter().copied().fold(f32::INFINITY, f32::min);
            assert!(best <= 1e-4, "{name} {method:?}: GPU residual {best}");
            let cpu = residual_f64(n, a, &r.matrix);
            assert!(cpu <= 1e-4, "{name} {method:?}: ‖AX − I‖ = {cpu} in f64");
        }
    }
    // Exact at the start (2I: X₀ = dAᵀ = ½I is the inverse): no doubling at all.
    let two_i: Vec<f32> = (0..n * n)
        .map(|i| if i % (n + 1) == 0 { 2.0 } else { 0.0 })
        .collect();
    let r = inverse::inverse(&g, n, &two_i, InverseMethod::NewtonSchulz, STOP, &auto())
        .await
        .unwrap();
    assert!(r.converged, "{}", r.message);
    assert_eq!(r.residuals, [0.0], "{}", r.message);
    assert!(r
        .matrix
        .iter()
        .enumerate()
        .all(|(i, &v)| v == if i % (n + 1) == 0 { 0.5 } else { 0.0 }));
    // Singular: a clear "does not converge", not garbage presented as an inverse.
    let mut singular = uniform(5, n * n);
    for j in 0..n {
        singular[(n - 1) * n + j] = singular[j] + singular[n + j]; // row n−1 = row 0 + row 1
    }
    let r = inverse::inverse(&g, n, &singular, InverseMethod::NewtonSchulz, STOP, &auto())
        .await
        .unwrap();
    assert!(
        !r.converged && r.message.contains("does not converge"),
        "{}",
        r.message
    );
    // The chapter's condition max |c_ij| < 1 is not enough: A = I − ½J (n = 4).
    let a: Vec<f32> = (0..16)
        .map(|i| if i % 5 == 0 { 0.5 } else { -0.5 })
        .collect();
    let series = inverse::inverse(
        &g,
        4,
        &a,
        InverseMethod::Series { d: Some(1.0) },
        Stopping {
            max_doublings: 30,
            patience: 3,
        },
        &auto(),
    )
    .await
    .unwrap();
    assert!(!series.converged, "{}", series.message);
    // With patience the diverging series shows itself: the residual keeps growing.
    // (X0 = I has ‖A − I‖ = 2; every doubling is worse, so 1 + (patience + 1) values.)
    let r = &series.residuals;
    assert_eq!(r.len(), 5, "{r:?}");
    assert!(
        r.windows(2).all(|w| w[1] > w[0]),
        "grows every doubling: {r:?}"
    );
    let ns = inverse::inverse(&g, 4, &a, InverseMethod::NewtonSchulz, STOP, &auto())
        .await
        .unwrap();
    assert!(ns.converged, "{}", ns.message);
    assert!(residual_f64(4, &a, &ns.matrix) <= 1e-5);
}

pub async fn eigenpairs_of_a_known_spectrum(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    let n = 24;
    let q = random_orthogonal(n, 11);
    let mut spectrum = vec![8.0, -5.0, 3.0];
    spectrum.extend((3..n).map(|i| 1.0 - i as f64 / n as f64));
    let a: Vec<f32> = symmetric_with_spectrum(&q, &spectrum)
        .iter()
        .map(|&v| v as f32)
        .collect();
    let pairs = eigen::eigen(&g, n, &a, 3, 30, &auto()).await.unwrap();
    assert_eq!(pairs.len(), 3);
    for (k, p) in pairs.iter().enumerate() {
        assert!(p.converged, "pair {k}");
        assert!(
            (p.value - spectrum[k]).abs() <= 1e-3 * 8.0,
            "λ{k} = {} vs {}",
            p.value,
            spectrum[k]
        );
        let along: f64 = (0..n).map(|i| p.vector[i] as f64 * q[i * n + k]).sum();
        assert!(along.abs() >= 1.0 - 1e-3, "v{k} · q{k} = {along}");
    }
    // Two dominant eigenvalues of equal magnitude: reported as not converging.
    let mut tie = vec![5.0, -5.0];
    tie.extend((2..n).map(|i| 1.0 / i as f64));
    let a: Vec<f32> = symmetric_with_spectrum(&q, &tie)
        .iter()
        .map(|&v| v as f32)
        .collect();
    let pairs = eigen::eigen(&g, n, &a, 2, 30, &auto()).await.unwrap();
    assert_eq!(
        pairs.len(),
        1,
        "stops at the first pair that does not converge"
    );
    assert!(!pairs[0].converged);
    assert_eq!(pairs[0].history.len(), 30);
}

/// Asserts k unit, mutually orthogonal vectors with A v = λ v (float64 check).
fn assert_eigenpairs(what: &str, n: usize, a: &[f32], pairs: &[eigen::EigenPair], want: &[f64]) {
    assert_eq!(pairs.len(), want.len(), "{what}: pairs");
    for (k, p) in pairs.iter().enumerate() {
        assert!(p.converged, "{what}: pair {k} converged");
        assert!(
            (p.value - want[k]).abs() <= 1e-4,
            "{what}: λ{k} = {} vs {}",
            p.value,
            want[k]
        );
        let v: Vec<f64> = p.vector.iter().map(|&x| x as f64).collect();
        for i in 0..n {
            let av: f64 = (0..n).map(|j| a[i * n + j] as f64 * v[j]).sum();
            assert!(
                (av - p.value * v[i]).abs() <= 1e-4,
                "{what}: (Av − λv)[{i}] of pair {k}"
            );
        }
        for (l, q) in pairs[..k].iter().enumerate() {
            let d: f64 = (0..n).map(|i| v[i] * q.vector[i] as f64).sum();
            assert!(d.abs() <= 1e-4, "{what}: v{k} · v{l} = {d}");
        }
    }
}

pub async fn eigenpairs_of_repeated_and_zero_eigenvalues(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    // A repeated eigenvalue: its second vector is orthogonal to the first.
    let a = [2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0];
    let pairs = eigen::eigen(&g, 3, &a, 3, 30, &auto()).await.unwrap();
    assert_eigenpairs("diag(2, 2, 1)", 3, &a, &pairs, &[2.0, 2.0, 1.0]);
    // λ = 2 and 0: after deflation B is float32 noise; the 0-vector is (1, 1)/√2.
    let a = [1.0, -1.0, -1.0, 1.0];
    let pairs = eigen::eigen(&g, 2, &a, 2, 30, &auto()).await.unwrap();
    assert_eigenpairs("[[1, −1], [−1, 1]]", 2, &a, &pairs, &[2.0, 0.0]);
    // The zero matrix: orthonormal vectors for 0.
    let a = [0.0; 9];
    let pairs = eigen::eigen(&g, 3, &a, 3, 30, &auto()).await.unwrap();
    assert_eigenpairs("zero", 3, &a, &pairs, &[0.0, 0.0, 0.0]);
    // Not symmetric: refused (deflation assumes symmetry).
    let e = eigen::eigen(&g, 2, &[1.0, 2.0, 0.0, 3.0], 2, 30, &auto())
        .await
        .unwrap_err();
    assert_eq!(e.code(), "BAD_ARGUMENT");
    assert!(e.to_string().contains("not symmetric"), "{e}");
}

fn settings(max_iterations: usize, record_every: Option<usize>) -> JacobiSettings {
    JacobiSettings {
        epsilon: 1e-6,
        max_iterations,
        record_every,
    }
}

pub async fn jacobi_records_x_when_asked(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    let n = 20;
    let a = diagonally_dominant(8, n);
    let b = uniform(9, n);
    let r = jacobi::jacobi(&g, n, &a, &b, settings(2000, Some(3)), &auto())
        .await
        .unwrap();
    assert!(r.converged);
    let iterations: Vec<usize> = r.history.iter().map(|(k, _)| *k).collect();
    assert_eq!(
        iterations,
        (1..=r.deltas.len() / 3).map(|k| 3 * k).collect::<Vec<_>>()
    );
    // The recorded iterates approach the solution.
    let want = gaussian_solve(n, &to_f64(&a), &to_f64(&b)).unwrap();
    let err = |x: &[f32]| -> f64 {
        x.iter()
            .zip(&want)
            .map(|(x, w)| (*x as f64 - w).abs())
            .sum()
    };
    let errors: Vec<f64> = r.history.iter().map(|(_, x)| err(x)).collect();
    assert!(errors.windows(2).all(|w| w[1] <= w[0] + 1e-6), "{errors:?}");
}

pub async fn jacobi_matches_gaussian_elimination_and_detects_divergence(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    for &n in &[1usize, 7, 64, 150] {
        let mut a = uniform(n as u32, n * n);
        for i in 0..n {
            let off: f32 = (0..n).filter(|&j| j != i).map(|j| a[i * n + j].abs()).sum();
            a[i * n + i] = off + 1.0 + (i % 3) as f32;
        }
        let b = uniform(n as u32 + 100, n);
        let r = jacobi::jacobi(&g, n, &a, &b, settings(2000, None), &auto())
            .await
            .unwrap();
        assert!(
            r.converged && !r.diverged,
            "n={n}: {:?}",
            &r.deltas[r.deltas.len().saturating_sub(3)..]
        );
        let want = gaussian_solve(n, &to_f64(&a), &to_f64(&b)).unwrap();
        let scale = want.iter().fold(0f64, |m, v| m.max(v.abs()));
        for (x, w) in r.x.iter().zip(&want) {
            assert!(
                (*x as f64 - w).abs() <= 1e-4 * scale.max(1.0),
                "n={n}: {x} vs {w}"
            );
        }
    }
    // Not diagonally dominant: diverges, and says so.
    let n = 16;
    let a: Vec<f32> = (0..n * n)
        .map(|i| if i % (n + 1) == 0 { 1.0 } else { 0.5 })
        .collect();
    let b = vec![1.0f32; n];
    let r = jacobi::jacobi(&g, n, &a, &b, settings(2000, None), &auto())
        .await
        .unwrap();
    assert!(r.diverged && !r.converged, "{:?}", r.deltas);
    // A zero on the diagonal is refused with a clear message.
    let e = jacobi::jacobi(
        &g,
        2,
        &[0.0, 1.0, 1.0, 2.0],
        &[1.0, 1.0],
        settings(10, None),
        &auto(),
    )
    .await;
    assert!(e.unwrap_err().to_string().contains("a[0][0] is 0"));
}

// Found by a new-user trial: answers that depended on the scale of the input.

pub async fn newton_schulz_waits_out_a_residual_float32_cannot_move_yet(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    // d = 1, AX₀ = diag(1, 4e-8): 1 − 4e-8 rounds to 1, so the residual stays at 1
    // for the first doublings while X's second entry doubles each time.
    for tiny in [2e-4f32, 1e-5] {
        let a = [1.0, 0.0, 0.0, tiny];
        let r = inverse::inverse(&g, 2, &a, InverseMethod::NewtonSchulz, STOP, &auto())
            .await
            .unwrap();
        assert!(
            r.converged,
            "diag(1, {tiny}): {} {:?}",
            r.message, r.residuals
        );
        let want = [1.0, 0.0, 0.0, 1.0 / tiny as f64];
        for (got, want) in r.matrix.iter().zip(want) {
            assert!(
                (*got as f64 - want).abs() <= 1e-4 * want.abs().max(1.0),
                "diag(1, {tiny}): {:?}",
                r.matrix
            );
        }
    }
    // A singular matrix whose residual never moves still stops, and says so.
    let r = inverse::inverse(
        &g,
        2,
        &[1.0, 0.0, 0.0, 0.0],
        InverseMethod::NewtonSchulz,
        STOP,
        &auto(),
    )
    .await
    .unwrap();
    assert!(!r.converged);
    assert!(r.message.contains("stayed at"), "{}", r.message);
}

pub async fn jacobi_stops_on_a_relative_update_whatever_the_scale_of_b(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    let a = [4.0, 1.0, 2.0, 5.0];
    for s in [1e-9f32, 1.0, 1e6] {
        let b = [s, 2.0 * s];
        let r = jacobi::jacobi(&g, 2, &a, &b, settings(1000, None), &auto())
            .await
            .unwrap();
        assert!(r.converged && !r.diverged, "b = {b:?}: {:?}", r.deltas);
        // x* = (1/6, 1/3)·s
        let want = [s as f64 / 6.0, s as f64 / 3.0];
        for (got, want) in r.x.iter().zip(want) {
            assert!(
                ((*got as f64) - want).abs() <= 1e-5 * want,
                "b = {b:?}: x = {:?}",
                r.x
            );
        }
        let last = r.deltas.len() - 1;
        assert!(r.deltas[last] <= 1e-6 * r.norms[last]);
    }
}

pub async fn fibonacci_past_f186_is_infinity_never_nan(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    for k in [187u64, 189, 191, 255, 1001] {
        let f = fibonacci::fibonacci(&g, k, &auto()).await.unwrap();
        assert_eq!(f.value, f32::INFINITY, "F({k})");
        assert!(!f.exact);
    }
    assert!(fibonacci::fibonacci(&g, 186, &auto())
        .await
        .unwrap()
        .value
        .is_finite());
}

pub async fn eigenvalues_do_not_depend_on_the_scale_of_a(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    let base = [2.0f64, 1.0, 0.0, 1.0, 3.0, 0.0, 0.0, 0.0, -1.0];
    let top = (5.0f64.sqrt() + 5.0) / 2.0; // 3.618…, then 1.381…
    for s in [1e-30f64, 1e-20, 1.0, 1e19, 1e30] {
        let a: Vec<f32> = base.iter().map(|&v| (v * s) as f32).collect();
        let pairs = eigen::eigen(&g, 3, &a, 2, 30, &auto()).await.unwrap();
        assert!(pairs[0].converged, "s = {s:e}: {:?}", pairs[0].residuals);
        let rel = (pairs[0].value - top * s).abs() / (top * s);
        assert!(
            rel <= 1e-5,
            "s = {s:e}: λ₁ = {} against {}",
            pairs[0].value,
            top * s
        );
        let h = pairs[0].history.last().unwrap();
        assert!(
            (h - top * s).abs() <= 1e-4 * top * s,
            "history in A's scale: {h}"
        );
    }
}

/// The applications take the same `Options` as the products: one that names a
/// semiring does not change what an application computes (each fixes its own, as in
/// JavaScript: Fibonacci in (min, +) gave F(10) = 0), and `max_tile` tiles their
/// powers as it tiles a plain power (it was refused as a "step-by-step run").
pub async fn applications_fix_their_semiring_and_tile_as_asked(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    for semiring in [Semiring::Ordinary, Semiring::Boolean, Semiring::MinPlus] {
        for max_tile in [None, Some(1)] {
            let options = Options {
                semiring,
                max_tile,
                ..auto()
            };
            let f = fibonacci::fibonacci(&g, 10, &options).await.unwrap();
            assert_eq!(f.value, 55.0, "{semiring:?}, max_tile {max_tile:?}");
            let path = graph(4, [(0, 1), (1, 2), (2, 3)].into_iter(), true);
            let r = graphs::reachability(&g, 4, &path, &options).await.unwrap();
            assert_eq!(
                r.matrix,
                bfs_reachability(4, &path),
                "{semiring:?}, {max_tile:?}"
            );
            let w: Vec<f32> = path
                .iter()
                .map(|&e| if e != 0.0 { 2.0 } else { f32::INFINITY })
                .collect();
            let d = graphs::shortest_paths(&g, 4, &w, &options).await.unwrap();
            let expected = floyd_warshall(4, &to_f64(&w));
            let got: Vec<f64> = d.distances.iter().map(|&v| v as f64).collect();
            assert_eq!(got, expected, "{semiring:?}, max_tile {max_tile:?}");
        }
    }
}

/// Rust's `Stopping` and `max_squarings` are checked as JavaScript's `maxDoublings`,
/// `patience` and `maxSquarings` are: unchecked, `usize::MAX` doubled an inverse that
/// had stopped improving (or squared a matrix whose dominant pair never settles, with
/// eigenvalues ±1) on the GPU for ever, and 0 gave a result that claimed a residual
/// "stopped improving" with no doubling run.
pub async fn inverse_and_eigen_refuse_unbounded_counts(backend: Backend) {
    let t = shared_on(backend).await;
    let h = t.handle();
    let a = [4.0f32, 1.0, 1.0, 3.0];
    let newton = InverseMethod::NewtonSchulz;
    for (max_doublings, patience, name) in [
        (0, 0, "stopping.max_doublings"),
        (inverse::MAX_DOUBLINGS + 1, 0, "stopping.max_doublings"),
        (usize::MAX, usize::MAX, "stopping.max_doublings"),
        (60, inverse::MAX_DOUBLINGS + 1, "stopping.patience"),
    ] {
        let stopping = Stopping {
            max_doublings,
            patience,
        };
        let err = inverse::inverse(&h, 2, &a, newton, stopping, &auto())
            .await
            .expect_err("a count out of range");
        assert_eq!(err.code(), "BAD_COUNT", "{stopping:?}: {err}");
        assert!(err.to_string().starts_with(name), "{err}");
        assert!(err.to_string().contains("1000"), "{err}");
    }
    let most = Stopping {
        max_doublings: inverse::MAX_DOUBLINGS,
        patience: 3,
    };
    let r = inverse::inverse(&h, 2, &a, newton, most, &auto())
        .await
        .unwrap();
    assert!(r.converged, "{}", r.message);
    // Eigenvalues +1 and -1: squaring gives I at once and never settles on a vector.
    let swap = [0.0f32, 1.0, 1.0, 0.0];
    for squarings in [0, eigen::MAX_EIGEN_SQUARINGS + 1, usize::MAX] {
        let err = eigen::eigen(&h, 2, &swap, 1, squarings, &auto())
            .await
            .expect_err("a count out of range");
        assert_eq!(err.code(), "BAD_COUNT", "{squarings}: {err}");
        assert!(err.to_string().contains("max_squarings"), "{err}");
    }
    let pairs = eigen::eigen(&h, 2, &a, 2, eigen::MAX_EIGEN_SQUARINGS, &auto())
        .await
        .unwrap();
    assert!(pairs.iter().all(|p| p.converged), "{pairs:?}");
}
