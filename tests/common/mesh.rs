//! Fox's and Cannon's algorithms simulated on one GPU (blocks::mesh and the JS
//! `foxAsync` / `cannonAsync`): the product against the float64 reference, the
//! message and byte totals against their closed forms, the holds after Cannon's
//! skew, argument errors, and no GPU objects left behind.

use super::*;
use gpgpu_matrix::blocks::mesh::{self, MeshRun};
use gpgpu_matrix::plan::reference::{self, to_f64};
use js_sys::{Array, JSON};

/// The mesh checks, one test each, on `$backend`.
macro_rules! mesh_tests {
    ($backend:expr) => {
        checks!($backend; common::mesh:
            fox_gives_a_times_b,
            cannon_gives_a_times_b,
            blocks_too_large_for_the_packed_kernel_give_a_times_b,
            js_results_count_the_messages_and_bytes,
            cannon_nodes_hold_a_i_i_plus_j_and_b_i_plus_j_j_after_the_skew,
            bad_arguments_reject_with_their_codes,
            fifty_calls_leave_the_same_live_objects_as_one,
        );
    };
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Algorithm {
    Fox,
    Cannon,
}

/// The (n, q) pairs of the product checks: q = 1, 2, 3, 8 on n = 1, 3, 7, 10, 16.
fn sizes() -> impl Iterator<Item = (usize, usize)> {
    [1, 2, 3, 8].into_iter().flat_map(|q| {
        [1, 3, 7, 10, 16]
            .into_iter()
            .filter(move |&n| q <= n)
            .map(move |n| (n, q))
    })
}

async fn rust_run(g: &Handle, alg: Algorithm, n: usize, a: &[f32], b: &[f32], q: usize) -> MeshRun {
    let run = match alg {
        Algorithm::Fox => mesh::fox(g, n, a, b, q).await,
        Algorithm::Cannon => mesh::cannon(g, n, a, b, q).await,
    };
    run.unwrap_or_else(|e| panic!("{alg:?} n={n} q={q}: {e}"))
}

fn want(n: usize, a: &[f32], b: &[f32]) -> Vec<f64> {
    reference::multiply(Semiring::Ordinary, n, n, n, &to_f64(a), &to_f64(b))
}

/// Random floats within FROBENIUS_TOL, small integers exactly (every partial sum
/// is an integer far below 2^24).
async fn gives_a_times_b(backend: Backend, alg: Algorithm) {
    let t = shared_on(backend).await;
    let g = t.handle();
    for (n, q) in sizes() {
        let seed = (100 * n + q) as u32;
        let (a, b) = (uniform(seed, n * n), uniform(seed + 1, n * n));
        let run = rust_run(&g, alg, n, &a, &b, q).await;
        let what = format!("{alg:?} n={n} q={q}");
        assert_close(&what, &run.result, &want(n, &a, &b), FROBENIUS_TOL);
        assert_eq!((run.plan.n, run.plan.q), (n, q), "{what}");
        let a = random::integers(seed + 2, n * n, -9, 9);
        let b = random::integers(seed + 3, n * n, -9, 9);
        let run = rust_run(&g, alg, n, &a, &b, q).await;
        assert_exact(&format!("{what} (integers)"), &run.result, &want(n, &a, &b));
    }
}

pub async fn fox_gives_a_times_b(backend: Backend) {
    gives_a_times_b(backend, Algorithm::Fox).await
}

pub async fn cannon_gives_a_times_b(backend: Backend) {
    gives_a_times_b(backend, Algorithm::Cannon).await
}

/// Blocks of 66/65 and 512/511 rows: WebGL's rule picks blocked4 and blocked8 for
/// the larger ones, whose layouts pad block sides to a multiple of 4 and 8 (65 and
/// 511 are not), and the smaller blocks share the larger ones' kernel.
pub async fn blocks_too_large_for_the_packed_kernel_give_a_times_b(backend: Backend) {
    let t = shared_on(backend).await;
    let g = t.handle();
    for (n, q, alg) in [(131, 2, Algorithm::Fox), (1023, 2, Algorithm::Cannon)] {
        let a = random::integers(n as u32, n * n, -9, 9);
        let b = random::integers(n as u32 + 1, n * n, -9, 9);
        let run = rust_run(&g, alg, n, &a, &b, q).await;
        assert_exact(
            &format!("{alg:?} n={n} q={q}"),
            &run.result,
            &want(n, &a, &b),
        );
    }
    t.g.engine().trim();
}

async fn js_call(
    g: &JsGpgpu,
    alg: Algorithm,
    n: JsValue,
    a: JsValue,
    b: JsValue,
    q: JsValue,
) -> Result<JsValue, JsValue> {
    settle(match alg {
        Algorithm::Fox => g.fox_async(n, a, b, q),
        Algorithm::Cannon => g.cannon_async(n, a, b, q),
    })
    .await
}

/// A JS result of n×n inputs on q×q nodes.
async fn js_result(
    g: &JsGpgpu,
    alg: Algorithm,
    n: usize,
    a: &[f32],
    b: &[f32],
    q: usize,
) -> JsValue {
    js_call(g, alg, num(n as f64), js(a), js(b), num(q as f64))
        .await
        .unwrap_or_else(|e| panic!("{alg:?} n={n} q={q}: {e:?}"))
}

fn index(v: &JsValue) -> [usize; 2] {
    let a = Array::from(v);
    assert_eq!(a.length(), 2, "an index is [i, j]");
    [
        a.get(0).as_f64().unwrap() as usize,
        a.get(1).as_f64().unwrap() as usize,
    ]
}

fn steps(r: &JsValue) -> Vec<JsValue> {
    Array::from(&prop(r, "steps")).to_vec()
}

pub async fn js_results_count_the_messages_and_bytes(backend: Backend) {
    let g = js_on(backend).await;
    g.set_poison(num(f64::NAN)).unwrap();
    for alg in [Algorithm::Fox, Algorithm::Cannon] {
        for (n, q) in [(1, 1), (5, 1), (4, 2), (7, 3), (10, 3), (16, 8), (17, 8)] {
            let what = format!("{alg:?} n={n} q={q}");
            let a = random::integers(n as u32, n * n, -9, 9);
            let b = random::integers(q as u32 + 50, n * n, -9, 9);
            let r = js_result(&g, alg, n, &a, &b, q).await;
            assert_exact(&what, &floats(&prop(&r, "result")), &want(n, &a, &b));
            // Closed forms: Fox sends every A block to q − 1 nodes and rolls every B
            // block q − 1 times; Cannon's skew moves all of A but row 0's blocks and
            // all of B but column 0's, then it rolls both q − 1 times.
            let (nn, first) = (n * n, n.div_ceil(q));
            let (messages, bytes) = match alg {
                Algorithm::Fox => (2 * q * q * (q - 1), 8 * (q - 1) * nn),
                Algorithm::Cannon => (
                    2 * q * (q - 1) + 2 * q * q * (q - 1),
                    8 * (nn - n * first) + 8 * (q - 1) * nn,
                ),
            };
            assert_eq!(get(&r, "messages") as usize, messages, "{what}");
            assert_eq!(get(&r, "bytes") as usize, bytes, "{what}");
            assert_eq!(get(&r, "blockProducts") as usize, q * q * q, "{what}");
            assert_eq!(get(&r, "q") as usize, q, "{what}");
            let all = steps(&r);
            let kinds: Vec<String> = all
                .iter()
                .map(|s| prop(s, "kind").as_string().unwrap())
                .collect();
            let stage = match alg {
                Algorithm::Fox if q > 1 => vec!["broadcast", "multiply", "roll"],
                _ => vec!["multiply", "roll"],
            };
            let mut expected: Vec<&str> = Vec::new();
            if alg == Algorithm::Cannon && q > 1 {
                expected.push("skew");
            }
            for k in 0..q {
                let last = if k + 1 < q {
                    stage.len()
                } else {
                    stage.len() - 1
                };
                expected.extend(&stage[..last]);
            }
            assert_eq!(kinds, expected, "{what}");
            // The totals are the sums over the steps' sends.
            let (mut count, mut sum) = (0, 0);
            for s in &all {
                assert!(prop(s, "label").as_string().is_some_and(|l| !l.is_empty()));
                assert_eq!(Array::from(&prop(s, "holds")).length() as usize, q * q);
                for m in Array::from(&prop(s, "sends")).iter() {
                    let [r, c] = index(&prop(&m, "block"));
                    let part = |p: usize| n / q + (p < n % q) as usize;
                    assert_eq!(get(&m, "bytes") as usize, part(r) * part(c) * 4, "{what}");
                    let matrix = prop(&m, "matrix").as_string().unwrap();
                    assert!(matrix == "A" || matrix == "B", "{matrix}");
                    assert_ne!(index(&prop(&m, "from")), index(&prop(&m, "to")));
                    count += 1;
                    sum += get(&m, "bytes") as usize;
                }
            }
            assert_eq!((count, sum), (messages, bytes), "{what}");
        }
    }
}

pub async fn cannon_nodes_hold_a_i_i_plus_j_and_b_i_plus_j_j_after_the_skew(backend: Backend) {
    let g = js_on(backend).await;
    for (n, q) in [(7, 3), (10, 4), (16, 8), (3, 1)] {
        let a = uniform(1, n * n);
        let r = js_result(&g, Algorithm::Cannon, n, &a, &a, q).await;
        let first = steps(&r)
            .into_iter()
            .find(|s| prop(s, "kind").as_string().as_deref() == Some("multiply"))
            .expect("a multiply step");
        let holds = Array::from(&prop(&first, "holds"));
        let mut seen = 0;
        for h in holds.iter() {
            let [i, j] = index(&prop(&h, "node"));
            assert_eq!(
                index(&prop(&h, "a")),
                [i, (i + j) % q],
                "n={n} q={q} node ({i}, {j})"
            );
            assert_eq!(
                index(&prop(&h, "b")),
                [(i + j) % q, j],
                "n={n} q={q} node ({i}, {j})"
            );
            seen += 1;
        }
        assert_eq!(seen, q * q);
    }
}

pub async fn bad_arguments_reject_with_their_codes(backend: Backend) {
    let g = js_on(backend).await;
    let m = f32s(16);
    for alg in [Algorithm::Fox, Algorithm::Cannon] {
        let call = |n: f64, a: JsValue, b: JsValue, q: JsValue| js_call(&g, alg, num(n), a, b, q);
        for (q, needle) in [
            (0.0, "less than 1"),
            (9.0, "more than 8"),
            (5.0, "more than n = 4"),
            (1.5, "not a whole number"),
            (f64::NAN, "not a finite number"),
        ] {
            let r = call(4.0, m.clone(), m.clone(), num(q)).await;
            let msg = assert_js_error(r, "BAD_ARGUMENT", needle);
            assert!(msg.contains("from 1 to 4"), "{msg}");
        }
        let r = call(4.0, m.clone(), m.clone(), "2".into()).await;
        assert_js_error(r, "BAD_ARGUMENT", "must be a number");
        let r = call(4.0, f32s(15), m.clone(), num(2.0)).await;
        assert_js_error(r, "BAD_LENGTH", "a has 15 elements");
        let r = call(4.0, m.clone(), f32s(17), num(2.0)).await;
        assert_js_error(r, "BAD_LENGTH", "b has 17 elements");
        let r = call(0.0, m.clone(), m.clone(), num(1.0)).await;
        assert_js_error(r, "BAD_DIMENSION", "n = 0");
        let r = call(4.0, "x".into(), m.clone(), num(2.0)).await;
        assert_js_error(r, "BAD_ARGUMENT", "a:");
    }
    // The Rust functions refuse the same.
    let t = shared_on(backend).await;
    let h = t.handle();
    let m = vec![0.0; 16];
    assert_error(
        mesh::fox(&h, 4, &m, &m, 0).await,
        "BAD_ARGUMENT",
        "less than 1",
    );
    assert_error(
        mesh::cannon(&h, 4, &m, &m, 9).await,
        "BAD_ARGUMENT",
        "more than 8",
    );
    assert_error(
        mesh::fox(&h, 4, &m[..15], &m, 2).await,
        "BAD_LENGTH",
        "15 elements",
    );
    assert_error(
        mesh::cannon(&h, 4, &m, &m[..3], 2).await,
        "BAD_LENGTH",
        "3 elements",
    );
}

pub async fn fifty_calls_leave_the_same_live_objects_as_one(backend: Backend) {
    // An engine of its own: the counts are of this engine's objects only.
    let g = js_on(backend).await;
    let count = || {
        JSON::stringify(&g.live_objects())
            .unwrap()
            .as_string()
            .unwrap()
    };
    let (n, q) = (10, 3);
    let a = uniform(5, n * n);
    let b = uniform(6, n * n);
    for alg in [Algorithm::Fox, Algorithm::Cannon] {
        js_result(&g, alg, n, &a, &b, q).await;
    }
    let after_first = count();
    assert_ne!(after_first, "{}", "live objects are counted");
    for i in 0..50 {
        let alg = if i % 2 == 0 {
            Algorithm::Fox
        } else {
            Algorithm::Cannon
        };
        js_result(&g, alg, n, &a, &b, q).await;
    }
    assert_eq!(count(), after_first, "after 50 calls");
}
