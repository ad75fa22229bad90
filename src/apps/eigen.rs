//! Eigenvalues by the power method in its "log" form: square B, normalise by its
//! largest entry (one reduced texel), repeat, so B^(2^t) in t passes; then
//! v = B^(2^t)·x / ‖·‖ and λ = vᵀBv. Deflation B ← B − λvvᵀ (on the GPU) gives
//! the next eigenpair. Meant for symmetric matrices (deflation assumes it).
//! Two dominant eigenvalues of equal magnitude (λ and −λ) make B^(2^t) converge
//! to a rank-two projection, never to one direction: the residual ‖Bv − λv‖ stays
//! large and the pair is reported as not converging rather than as a wrong answer.

use crate::apps::{square_input, Workspace};
use crate::engine::Handle;
use crate::engine::Matrix as DeviceMatrix;
use crate::error::{GpgpuError, Result};
use crate::plan::decimal;
use crate::plan::random;
use crate::plan::shape::{self, Shape};
use crate::work::Options;

/// ‖Bv − λv‖ below this fraction of ‖B‖_F counts as converged (float32).
pub const RESIDUAL_TOLERANCE: f64 = 1e-4;

/// One eigenpair from the power method (and the sparse power method's result).
#[derive(Clone, Debug, PartialEq)]
pub struct EigenPair {
    /// λ, the Rayleigh quotient of `vector` (the latest estimate when not converged).
    pub value: f64,
    /// Unit-length eigenvector (the latest estimate when not converged).
    pub vector: Vec<f32>,
    /// The residual fell within the tolerance before the squarings ran out.
    pub converged: bool,
    /// λ estimate after each squaring: the convergence plot.
    pub history: Vec<f64>,
    /// ‖Bv − λv‖ / ‖B‖_F after each squaring.
    pub residuals: Vec<f64>,
}

fn dot(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

/// `x` minus its components along the (unit) `basis` vectors, then normalised;
/// None when nothing is left of it.
fn orthonormal_to(mut x: Vec<f64>, basis: &[Vec<f64>]) -> Option<Vec<f64>> {
    // Twice: one Gram–Schmidt sweep leaves float error along the basis.
    for _ in 0..2 {
        for u in basis {
            let c = dot(&x, u);
            x.iter_mut().zip(u).for_each(|(xi, ui)| *xi -= c * ui);
        }
    }
    let norm = dot(&x, &x).sqrt();
    (norm > 1e-12).then(|| x.into_iter().map(|v| v / norm).collect())
}

/// λ = vᵀ(Bv) for a unit v, and ‖Bv − λv‖: the Rayleigh quotient and its residual.
fn rayleigh(v: &[f64], bv: &[f64]) -> (f64, f64) {
    let lambda = dot(v, bv);
    let residual = bv
        .iter()
        .zip(v)
        .map(|(y, x)| (y - lambda * x).powi(2))
        .sum::<f64>()
        .sqrt();
    (lambda, residual)
}

/// A·v for row-major n×n A.
fn mat_vec(a: &[f64], v: &[f64]) -> Vec<f64> {
    a.chunks_exact(v.len()).map(|row| dot(row, v)).collect()
}

/// The first (i, j) where A differs from Aᵀ by more than float32 rounding.
fn asymmetry(n: usize, a: &[f64]) -> Option<(usize, usize)> {
    let scale = a.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let tol = 1e-5 * scale;
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .find(|&(i, j)| (a[i * n + j] - a[j * n + i]).abs() > tol)
}

/// The error for a k outside 1..=n (`k` as the caller wrote it).
pub fn bad_k(k: &str, n: usize) -> GpgpuError {
    GpgpuError::BadArgument {
        name: "k".into(),
        detail: format!(
            "is {k}, but a {n}x{n} matrix has n = {n} eigenpairs: k must be a whole number \
             from 1 to {n}"
        ),
    }
}

/// The most squarings [`eigen`] (and JavaScript's `maxSquarings`) allows per
/// eigenpair.
pub const MAX_EIGEN_SQUARINGS: usize = 120;

/// The `k` eigenpairs of largest magnitude, in order, stopping at the first that
/// does not converge within `max_squarings` (1 to [`MAX_EIGEN_SQUARINGS`], else
/// `BadCount`), of the n × n `a` (finite; symmetric when k > 1, as deflation needs).
/// `BadArgument` for k outside 1..=n, a NaN or infinite entry or an asymmetric `a`
/// with k > 1.
pub async fn eigen(
    g: &Handle,
    n: usize,
    a: &[f32],
    k: usize,
    max_squarings: usize,
    options: &Options,
) -> Result<Vec<EigenPair>> {
    // As JavaScript's maxSquarings: unchecked, usize::MAX squared a matrix whose
    // dominant pair never settles (eigenvalues ±λ) on the GPU for ever.
    shape::count_from(
        "max_squarings",
        max_squarings as f64,
        1,
        MAX_EIGEN_SQUARINGS as f64,
    )?;
    let n = square_input(g, n, "a", a)?;
    if k == 0 || k > n {
        return Err(bad_k(&k.to_string(), n));
    }
    let a64: Vec<f64> = a.iter().map(|&v| v as f64).collect();
    if let Some(i) = a64.iter().position(|v| !v.is_finite()) {
        return Err(GpgpuError::BadArgument {
            name: "a".into(),
            detail: format!(
                "a[{}][{}] is {}: eigenpairs need finite entries",
                i / n,
                i % n,
                crate::error::js_number(a64[i])
            ),
        });
    }
    if let Some((i, j)) = asymmetry(n, &a64) {
        return Err(GpgpuError::BadArgument {
            name: "a".into(),
            detail: format!(
                "is not symmetric: a[{i}][{j}] = {} but a[{j}][{i}] = {}. The power method \
                 with deflation here needs a symmetric matrix",
                decimal::display(a64[i * n + j]),
                decimal::display(a64[j * n + i])
            ),
        });
    }
    let norm_a = dot(&a64, &a64).sqrt();
    // The GPU works on A / s, s a power of two near max |a_ij| (exact in float32):
    // squaring A itself overflows float32 once entries pass about 1.8e19 (and
    // underflows below about 1e-19) before the first normalisation.
    let top = a64.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let scale = if top > 0.0 {
        2f64.powi(top.log2().round() as i32)
    } else {
        1.0
    };
    let scaled: Vec<f32> = a64.iter().map(|&v| (v / scale) as f32).collect();
    g.ready().await?;
    let mut ws = Workspace::new(g, options, Shape::square(n))?;
    let mut b = ws.upload(Shape::square(n), &scaled)?;
    let mut pairs: Vec<EigenPair> = Vec::new();
    let mut found: Vec<Vec<f64>> = Vec::new();
    let result = async {
        for p in 0..k {
            // A fresh start vector per pair, orthogonal to the vectors found: with one
            // start vector for all, a repeated eigenvalue's second vector is orthogonal
            // to it and never shows (diag(2, 2, 1) gave 2, then 1).
            let start = random::uniform(7 + p as u32, n, 0.5, 1.5);
            let start = orthonormal_to(start.iter().map(|&v| v as f64).collect(), &found)
                .unwrap_or_else(|| vec![0.0; n]);
            let mut pair =
                dominant(&mut ws, &b, &start, 1e-6 * norm_a / scale, max_squarings).await?;
            pair.history.iter_mut().for_each(|h| *h *= scale);
            // Checked against A itself, in float64: a deflated B that is only float32
            // noise can make any vector look like an eigenvector of B.
            let v = orthonormal_to(pair.vector.iter().map(|&v| v as f64).collect(), &found)
                .unwrap_or(start);
            let (lambda, residual) = rayleigh(&v, &mat_vec(&a64, &v));
            let residual = residual / norm_a.max(f64::MIN_POSITIVE);
            pair.value = lambda;
            pair.vector = v.iter().map(|&x| x as f32).collect();
            pair.converged &= residual <= RESIDUAL_TOLERANCE;
            found.push(v);
            let converged = pair.converged;
            if converged && pairs.len() + 1 < k {
                let deflated = deflate(&mut ws, &b, pair.value / scale, &pair.vector)?;
                ws.free(std::mem::replace(&mut b, deflated));
            }
            pairs.push(pair);
            if !converged {
                break;
            }
        }
        Ok(())
    }
    .await;
    ws.free(b);
    result.map(|_| pairs)
}

/// The dominant pair of B from the unit start vector `start`. A B whose ‖B‖_F is
/// at most `zero` is taken as 0: every vector is then an eigenvector for 0.
async fn dominant(
    ws: &mut Workspace,
    b: &DeviceMatrix,
    start: &[f64],
    zero: f64,
    max_squarings: usize,
) -> Result<EigenPair> {
    let n = b.shape().rows;
    let norm_b = (ws.stats(b).await?.sum_sq as f64).sqrt();
    let start32: Vec<f32> = start.iter().map(|&x| x as f32).collect();
    let mut pair = EigenPair {
        value: 0.0,
        vector: start32.clone(),
        converged: false,
        history: vec![],
        residuals: vec![],
    };
    if norm_b <= zero {
        pair.converged = true;
        return Ok(pair);
    }
    let x0 = ws.upload(Shape::new(n, 1), &start32)?;
    let found = squarings(ws, b, &x0, norm_b, max_squarings, &mut pair).await;
    ws.free(x0);
    found.map(|_| pair)
}

/// The squaring loop of `dominant`: fills `pair` with each estimate.
async fn squarings(
    ws: &mut Workspace,
    b: &DeviceMatrix,
    x0: &DeviceMatrix,
    norm_b: f64,
    max_squarings: usize,
    pair: &mut EigenPair,
) -> Result<()> {
    let n = b.shape().rows;
    let mut m: Option<DeviceMatrix> = None;
    for _ in 0..max_squarings {
        let squared = ws.mul(m.as_ref().unwrap_or(b), m.as_ref().unwrap_or(b))?;
        let top = ws.stats(&squared).await?.max_abs;
        if !(top.is_finite() && top > 0.0) {
            ws.free(squared);
            break; // underflow or overflow: keep the last estimate
        }
        let normalised = ws.affine(&squared, None, 1.0 / top, 0.0, 0.0);
        ws.free(squared);
        if let Some(old) = m.replace(normalised?) {
            ws.free(old);
        }
        // v = M x0 / ‖M x0‖, then λ = vᵀ B v and the residual ‖B v − λ v‖.
        let mx = ws.mul(m.as_ref().expect("set above"), x0)?;
        let v = ws.read(&mx).await;
        ws.free(mx);
        let v: Vec<f64> = v?.iter().map(|&x| x as f64).collect();
        let norm = dot(&v, &v).sqrt();
        if norm == 0.0 {
            break;
        }
        let v: Vec<f64> = v.iter().map(|x| x / norm).collect();
        let v32: Vec<f32> = v.iter().map(|&x| x as f32).collect();
        let vm = ws.upload(Shape::new(n, 1), &v32)?;
        let bv = ws.mul(b, &vm);
        ws.free(vm);
        let bv = bv?;
        let bv_data = ws.read(&bv).await;
        ws.free(bv);
        let bv: Vec<f64> = bv_data?.iter().map(|&x| x as f64).collect();
        let (lambda, residual) = rayleigh(&v, &bv);
        let residual = residual / norm_b;
        pair.history.push(lambda);
        pair.residuals.push(residual);
        pair.value = lambda;
        pair.vector = v32;
        if residual <= RESIDUAL_TOLERANCE {
            pair.converged = true;
            break;
        }
    }
    if let Some(m) = m {
        ws.free(m);
    }
    Ok(())
}

/// B − λ v vᵀ (λ in B's scale), the outer product and the difference on the GPU.
fn deflate(
    ws: &mut Workspace,
    b: &DeviceMatrix,
    lambda: f64,
    vector: &[f32],
) -> Result<DeviceMatrix> {
    let n = b.shape().rows;
    let column = ws.upload(Shape::new(n, 1), vector)?;
    let row = ws.upload(Shape::new(1, n), vector);
    let outer = row.and_then(|row| {
        let o = ws.mul(&column, &row);
        ws.free(row);
        o
    });
    ws.free(column);
    let outer = outer?;
    let deflated = ws.affine(b, Some(&outer), 1.0, -(lambda as f32), 0.0);
    ws.free(outer);
    deflated
}
