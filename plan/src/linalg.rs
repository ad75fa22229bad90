//! Independent float64 references for the numerical applications: Gaussian
//! elimination, symmetric matrices with a chosen spectrum (QΛQᵀ), Fibonacci in
//! exact integers, norms.

use super::random::Mulberry32;

/// Solves A x = b by Gaussian elimination with partial pivoting (None if singular).
pub fn gaussian_solve(n: usize, a: &[f64], b: &[f64]) -> Option<Vec<f64>> {
    let mut m: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            let mut row = a[i * n..(i + 1) * n].to_vec();
            row.push(b[i]);
            row
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        let (top, rest) = m.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for row in rest.iter_mut() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| m[i][k] * x[k]).sum();
        x[i] = (m[i][n] - s) / m[i][i];
    }
    Some(x)
}

/// A random orthogonal n×n matrix (Gram–Schmidt on seeded uniform columns).
pub fn random_orthogonal(n: usize, seed: u32) -> Vec<f64> {
    let mut rng = Mulberry32::new(seed);
    let mut cols: Vec<Vec<f64>> = Vec::with_capacity(n);
    while cols.len() < n {
        let mut v: Vec<f64> = (0..n).map(|_| rng.next_f64() * 2.0 - 1.0).collect();
        for _ in 0..2 {
            // Twice, for orthogonality to rounding level.
            for c in &cols {
                let d: f64 = v.iter().zip(c).map(|(x, y)| x * y).sum();
                v.iter_mut().zip(c).for_each(|(x, y)| *x -= d * y);
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm > 1e-6 {
            cols.push(v.iter().map(|x| x / norm).collect());
        }
    }
    let mut q = vec![0.0; n * n];
    for (j, c) in cols.iter().enumerate() {
        for i in 0..n {
            q[i * n + j] = c[i];
        }
    }
    q
}

/// Q Λ Qᵀ: a symmetric matrix whose eigenvalues are `spectrum` and whose
/// eigenvectors are the columns of Q.
pub fn symmetric_with_spectrum(q: &[f64], spectrum: &[f64]) -> Vec<f64> {
    let n = spectrum.len();
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            a[i * n + j] = (0..n)
                .map(|k| q[i * n + k] * spectrum[k] * q[j * n + k])
                .sum();
        }
    }
    a
}

/// F(k) with F(0) = 0, F(1) = 1, exactly, while it fits in a u128 (k <= 186).
pub fn fibonacci_exact(k: u64) -> Option<u128> {
    if k == 0 {
        return Some(0);
    }
    let (mut a, mut b) = (0u128, 1u128);
    for _ in 1..k {
        (a, b) = (b, a.checked_add(b)?);
    }
    Some(b)
}

/// max over rows of the sum of |a_ij| (the ∞-norm).
pub fn norm_inf(n: usize, a: &[f64]) -> f64 {
    (0..n)
        .map(|i| a[i * n..(i + 1) * n].iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max)
}

/// max over columns of the sum of |a_ij| (the 1-norm).
pub fn norm_1(n: usize, a: &[f64]) -> f64 {
    (0..n)
        .map(|j| (0..n).map(|i| a[i * n + j].abs()).sum::<f64>())
        .fold(0.0, f64::max)
}

pub fn transpose(rows: usize, cols: usize, a: &[f64]) -> Vec<f64> {
    let mut t = vec![0.0; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            t[j * rows + i] = a[i * cols + j];
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::multiply;
    use crate::semiring::Semiring::Ordinary;

    #[test]
    fn gaussian_elimination_solves_and_detects_singularity() {
        let a = [2.0, 1.0, 1.0, 3.0];
        let x = gaussian_solve(2, &a, &[3.0, 5.0]).unwrap();
        assert!((x[0] - 0.8).abs() < 1e-12 && (x[1] - 1.4).abs() < 1e-12);
        assert!(gaussian_solve(2, &[1.0, 2.0, 2.0, 4.0], &[1.0, 1.0]).is_none());
    }

    #[test]
    fn q_lambda_qt_has_the_chosen_eigenpairs() {
        let n = 6;
        let q = random_orthogonal(n, 3);
        let qtq = multiply(Ordinary, n, n, n, &transpose(n, n, &q), &q);
        for i in 0..n {
            for j in 0..n {
                let want = (i == j) as u8 as f64;
                assert!((qtq[i * n + j] - want).abs() < 1e-12);
            }
        }
        let spectrum = [5.0, -3.0, 2.0, 1.0, 0.5, 0.1];
        let a = symmetric_with_spectrum(&q, &spectrum);
        for (k, &l) in spectrum.iter().enumerate() {
            let v: Vec<f64> = (0..n).map(|i| q[i * n + k]).collect();
            let av = multiply(Ordinary, n, n, 1, &a, &v);
            for i in 0..n {
                assert!((av[i] - l * v[i]).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn fibonacci_numbers() {
        assert_eq!(fibonacci_exact(0), Some(0));
        assert_eq!(fibonacci_exact(36), Some(14_930_352));
        assert_eq!(fibonacci_exact(37), Some(24_157_817));
        assert!(fibonacci_exact(186).is_some());
        assert_eq!(fibonacci_exact(187), None);
    }
}
