//! Eigenvalues by the power method in its "log" form: square B, normalise by its
//! largest entry (one reduced texel), repeat, so B^(2^t) in t passes; then
//! v = B^(2^t)·x / ‖·‖ and λ = vᵀBv. Deflation B ← B − λvvᵀ (on the GPU) gives
//! the next eigenpair. Meant for symmetric matrices (deflation assumes it).
//! Two dominant eigenvalues of equal magnitude (λ and −λ) make B^(2^t) converge
//! to a rank-two projection, never to one direction: the residual ‖Bv − λv‖ stays
//! large and the pair is reported as not converging rather than as a wrong answer.

use crate::api::{Gpgpu, Options};
use crate::apps::Workspace;
use crate::engine::DeviceMatrix;
use crate::error::{GpgpuError, Result};
use crate::plan::random;
use crate::plan::shape::{self, Shape};

/// ‖Bv − λv‖ below this fraction of ‖B‖_F counts as converged (float32).
pub const RESIDUAL_TOLERANCE: f64 = 1e-4;

#[derive(Clone, Debug, PartialEq)]
pub struct EigenPair {
    pub value: f64,
    /// Unit-length eigenvector (the latest estimate when not converged).
    pub vector: Vec<f32>,
    pub converged: bool,
    /// λ estimate after each squaring: the convergence plot.
    pub history: Vec<f64>,
    /// ‖Bv − λv‖ / ‖B‖_F after each squaring.
    pub residuals: Vec<f64>,
}

fn dot(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
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

/// The `k` eigenpairs of largest magnitude, in order, stopping at the first that
/// does not converge within `max_squarings`.
pub fn eigen(
    g: &mut Gpgpu,
    n: usize,
    a: &[f32],
    k: usize,
    max_squarings: usize,
    options: &Options,
) -> Result<Vec<EigenPair>> {
    let n = g.dimension("n", n)?;
    shape::check_len("a", Shape::square(n), a.len())?;
    if k == 0 || k > n {
        return Err(bad_k(&k.to_string(), n));
    }
    let kernel = g.choose_kernel(options, Shape::square(n))?;
    let mut ws = Workspace {
        engine: g.engine(),
        kernel,
    };
    // A start vector with no zero component, the same every run.
    let x0: Vec<f32> = random::uniform(7, n, 0.5, 1.5);
    let x0 = ws.upload(Shape::new(n, 1), &x0)?;
    let mut b = ws.upload(Shape::square(n), a)?;
    let mut pairs = Vec::new();
    let result = (|| {
        for _ in 0..k {
            let pair = dominant(&mut ws, &b, &x0, max_squarings)?;
            let converged = pair.converged;
            if converged && pairs.len() + 1 < k {
                let deflated = deflate(&mut ws, &b, &pair)?;
                ws.free(std::mem::replace(&mut b, deflated));
            }
            pairs.push(pair);
            if !converged {
                break;
            }
        }
        Ok(())
    })();
    ws.free(b);
    ws.free(x0);
    result.map(|_| pairs)
}

fn dominant(
    ws: &mut Workspace,
    b: &DeviceMatrix,
    x0: &DeviceMatrix,
    max_squarings: usize,
) -> Result<EigenPair> {
    let n = b.shape.rows;
    let norm_b = (ws.stats(b)?.sum_sq as f64).sqrt();
    let mut pair = EigenPair {
        value: 0.0,
        vector: vec![0.0; n],
        converged: false,
        history: vec![],
        residuals: vec![],
    };
    if norm_b == 0.0 {
        pair.converged = true; // B = 0: every vector is an eigenvector for 0
        pair.vector[0] = 1.0;
        return Ok(pair);
    }
    let mut m: Option<DeviceMatrix> = None;
    for _ in 0..max_squarings {
        let squared = ws.mul(m.as_ref().unwrap_or(b), m.as_ref().unwrap_or(b))?;
        let top = ws.stats(&squared)?.max_abs;
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
        let v = ws.read(&mx);
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
        let bv_data = ws.read(&bv);
        ws.free(bv);
        let bv: Vec<f64> = bv_data?.iter().map(|&x| x as f64).collect();
        let lambda = dot(&v, &bv);
        let residual = bv
            .iter()
            .zip(&v)
            .map(|(y, x)| (y - lambda * x).powi(2))
            .sum::<f64>()
            .sqrt()
            / norm_b;
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
    Ok(pair)
}

/// B − λ v vᵀ, the outer product and the difference computed on the GPU.
fn deflate(ws: &mut Workspace, b: &DeviceMatrix, pair: &EigenPair) -> Result<DeviceMatrix> {
    let n = b.shape.rows;
    let column = ws.upload(Shape::new(n, 1), &pair.vector)?;
    let row = ws.upload(Shape::new(1, n), &pair.vector);
    let outer = row.and_then(|row| {
        let o = ws.mul(&column, &row);
        ws.free(row);
        o
    });
    ws.free(column);
    let outer = outer?;
    let deflated = ws.affine(b, Some(&outer), 1.0, -(pair.value as f32), 0.0);
    ws.free(outer);
    deflated
}
