//! The float64 CPU reference the GPU is judged against. Deliberately simple and
//! independent of the GPU pass plans (its power walks the bits right to left).

use super::semiring::Semiring;

/// Row-major f64 copy of an f32 matrix.
pub fn to_f64(m: &[f32]) -> Vec<f64> {
    m.iter().map(|&v| v as f64).collect()
}

/// The n×n identity of a semiring.
pub fn identity(sr: Semiring, n: usize) -> Vec<f64> {
    let mut m = vec![sr.zero(); n * n];
    for i in 0..n {
        m[i * n + i] = sr.one();
    }
    m
}

/// A (rows×inner) · B (inner×cols) in the semiring, in f64.
pub fn multiply(
    sr: Semiring,
    rows: usize,
    inner: usize,
    cols: usize,
    a: &[f64],
    b: &[f64],
) -> Vec<f64> {
    assert_eq!(a.len(), rows * inner);
    assert_eq!(b.len(), inner * cols);
    let mut c = vec![sr.zero(); rows * cols];
    if sr == Semiring::Ordinary {
        // i-k-j order: streams rows of B, the fast order for row-major data.
        for i in 0..rows {
            let out = &mut c[i * cols..(i + 1) * cols];
            for k in 0..inner {
                let aik = a[i * inner + k];
                for (o, &bkj) in out.iter_mut().zip(&b[k * cols..(k + 1) * cols]) {
                    *o += aik * bkj;
                }
            }
        }
    } else {
        for i in 0..rows {
            for j in 0..cols {
                let mut acc = sr.zero();
                for k in 0..inner {
                    acc = sr.add(acc, sr.mul(a[i * inner + k], b[k * cols + j]));
                }
                c[i * cols + j] = acc;
            }
        }
    }
    c
}

pub fn square(sr: Semiring, n: usize, m: &[f64]) -> Vec<f64> {
    multiply(sr, n, n, n, m, m)
}

/// M^(2^times).
pub fn repeated_square(sr: Semiring, n: usize, m: &[f64], times: u32) -> Vec<f64> {
    (0..times).fold(m.to_vec(), |acc, _| square(sr, n, &acc))
}

/// M^p, right-to-left binary exponentiation.
pub fn power(sr: Semiring, n: usize, m: &[f64], mut p: u64) -> Vec<f64> {
    let mut result = identity(sr, n);
    let mut base = m.to_vec();
    while p > 0 {
        if p & 1 == 1 {
            result = multiply(sr, n, n, n, &result, &base);
        }
        p >>= 1;
        if p > 0 {
            base = square(sr, n, &base);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::semiring::NO_EDGE;

    #[test]
    fn products_of_known_matrices() {
        // [[1,2],[3,4]]^2 = [[7,10],[15,22]]
        let m = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(square(Semiring::Ordinary, 2, &m), [7.0, 10.0, 15.0, 22.0]);
        // 1×3 · 3×1 and 3×1 · 1×3
        let a = [1.0, 2.0, 3.0];
        assert_eq!(multiply(Semiring::Ordinary, 1, 3, 1, &a, &a), [14.0]);
        assert_eq!(
            multiply(Semiring::Ordinary, 3, 1, 3, &a, &a),
            [1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 3.0, 6.0, 9.0]
        );
    }

    #[test]
    fn fibonacci_by_power() {
        let f = [1.0, 1.0, 1.0, 0.0];
        // [[1,1],[1,0]]^p = [[F(p+1), F(p)], [F(p), F(p-1)]] with F(1) = F(2) = 1.
        let p10 = power(Semiring::Ordinary, 2, &f, 10);
        assert_eq!(p10, [89.0, 55.0, 55.0, 34.0]);
        assert_eq!(power(Semiring::Ordinary, 2, &f, 0), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(
            repeated_square(Semiring::Ordinary, 2, &f, 3),
            power(Semiring::Ordinary, 2, &f, 8)
        );
    }

    #[test]
    fn power_agrees_with_repeated_multiplication() {
        let m: Vec<f64> = (0..9).map(|v| (v as f64 - 4.0) / 3.0).collect();
        let mut slow = identity(Semiring::Ordinary, 3);
        for p in 0..20u64 {
            let fast = power(Semiring::Ordinary, 3, &m, p);
            for (x, y) in fast.iter().zip(&slow) {
                assert!((x - y).abs() <= 1e-9 * y.abs().max(1.0), "p = {p}");
            }
            slow = multiply(Semiring::Ordinary, 3, 3, 3, &slow, &m);
        }
    }

    #[test]
    fn boolean_and_min_plus_semirings() {
        // Path 0 -> 1 -> 2: reachability in two steps.
        let a = [0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
        assert_eq!(square(Semiring::Boolean, 3, &a)[2], 1.0);
        let x = NO_EDGE as f64;
        let w = [0.0, 2.0, x, x, 0.0, 3.0, x, x, 0.0];
        let d = square(Semiring::MinPlus, 3, &w);
        assert_eq!(d, [0.0, 2.0, 5.0, x, 0.0, 3.0, x, x, 0.0]);
    }
}
