//! A⁻¹ by the power series A⁻¹ = d·(I + C + C² + …), C = I − dA, summed by the
//! doubling product (I + C)(I + C²)(I + C⁴)…, all passes on the GPU, reporting
//! ‖A·X − I‖_F after every doubling and stopping when it stops improving.
//!
//! The chapter's condition max |c_ij| < 1 is not enough: the series converges iff
//! the spectral radius ρ(I − dA) < 1. A = I − ½J (J all ones, n = 4) has
//! max |c_ij| = ½ for d = 1 but eigenvalues 1 and −1, so ρ(I − dA) ≥ 1 for every d:
//! no scalar d makes that series converge. The default method therefore runs the
//! series on the normal equations, C = I − d·AᵀA with X₀ = d·Aᵀ and
//! d = 1 / (‖A‖₁‖A‖∞) ≤ 1/σ_max²: C's eigenvalues lie in [0, 1) for every
//! invertible A, so it converges whenever an inverse exists. In that form the
//! doubling product is exactly the Newton–Schulz iteration X ← X(2I − AX).

use crate::apps::{square_input, Workspace};
use crate::engine::Handle;
use crate::engine::Matrix as DeviceMatrix;
use crate::error::{GpgpuError, Result};
use crate::plan::decimal;
use crate::plan::linalg::{norm_1, norm_inf, transpose};
use crate::plan::reference::to_f64;
use crate::plan::shape::{self, Shape};
use crate::work::Options;

/// Below this ‖AX − I‖_F (computed on the GPU in float32) the result counts as an
/// inverse.
pub const CONVERGED_RESIDUAL: f32 = 1e-3;

/// The most doublings [`Stopping::max_doublings`] (and JavaScript's `maxDoublings`)
/// allows, and the most [`Stopping::patience`].
pub const MAX_DOUBLINGS: usize = 1000;

/// When to stop doubling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stopping {
    /// The most doublings (JavaScript's `maxDoublings`, default 60): 1 to
    /// [`MAX_DOUBLINGS`].
    pub max_doublings: usize,
    /// Doublings allowed past the best residual before stopping (0: stop at the
    /// first that does not improve), 0 to [`MAX_DOUBLINGS`]. More show a diverging
    /// series diverge.
    pub patience: usize,
}

impl Stopping {
    /// `BadCount` for `max_doublings` outside 1..=[`MAX_DOUBLINGS`] or `patience` over
    /// it, as JavaScript's `maxDoublings` and `patience` are checked: unchecked, a
    /// patience of `usize::MAX` kept an inverse that had stopped improving doubling
    /// on the GPU for ever.
    pub fn check(&self) -> Result<()> {
        let max = MAX_DOUBLINGS as f64;
        shape::count_from("stopping.max_doublings", self.max_doublings as f64, 1, max)?;
        shape::count("stopping.patience", self.patience as f64, max)?;
        Ok(())
    }
}

impl Default for Stopping {
    /// JavaScript's defaults: at most 60 doublings, stop at the first that does not
    /// improve.
    fn default() -> Stopping {
        Stopping {
            max_doublings: 60,
            patience: 0,
        }
    }
}

/// Which series [`inverse`] sums.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum InverseMethod {
    /// X ← X(2I − AX) from X₀ = d·Aᵀ, d = 1/(‖A‖₁‖A‖∞): converges for every invertible A.
    #[default]
    NewtonSchulz,
    /// The chapter's series C = I − dA; d defaults to 1/‖A‖∞ (enough for symmetric
    /// positive definite and strictly diagonally dominant A with a positive diagonal).
    Series {
        /// The scale d of C = I − dA (None: 1/‖A‖∞); a finite number > 0.
        d: Option<f64>,
    },
}

/// What [`inverse`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Inverse {
    /// The X with the smallest residual.
    pub matrix: Vec<f32>,
    /// The smallest residual is at most [`CONVERGED_RESIDUAL`].
    pub converged: bool,
    /// ‖A·X − I‖_F of X₀ (before any doubling), then after each doubling; the
    /// matrix returned is the one with the smallest, not necessarily the last.
    pub residuals: Vec<f32>,
    /// The d used.
    pub scale: f64,
    /// What happened, in words (converged where, or why not).
    pub message: String,
}

struct Outcome {
    best: DeviceMatrix,
    residuals: Vec<f32>,
}

/// A⁻¹ of the n × n `a` by `method`, doubling until `stopping` says stop. A singular
/// (or NaN, infinite or zero) `a` is no error: `converged` is false and `message`
/// says why; `BadArgument` for a `d` that is not a finite number > 0, `BadCount` for
/// `stopping` that [`Stopping::check`] refuses.
pub async fn inverse(
    g: &Handle,
    n: usize,
    a: &[f32],
    method: InverseMethod,
    stopping: Stopping,
    options: &Options,
) -> Result<Inverse> {
    stopping.check()?;
    let n = square_input(g, n, "a", a)?;
    g.ready().await?;
    let mut ws = Workspace::new(g, options, Shape::square(n))?;
    if let InverseMethod::Series { d: Some(d) } = method {
        if !(d > 0.0 && d.is_finite()) {
            return Err(GpgpuError::BadArgument {
                name: "options.d".into(),
                detail: format!(
                    "is {}; it must be a finite number > 0 (the series uses C = I − dA), \
                     or leave it out for d = 1/‖A‖∞",
                    decimal::display(d)
                ),
            });
        }
    }
    let a64 = to_f64(a);
    let no_inverse = |message: &str| Inverse {
        matrix: vec![f32::NAN; n * n],
        converged: false,
        residuals: vec![],
        scale: f64::NAN,
        message: message.into(),
    };
    if a64.iter().any(|v| !v.is_finite()) {
        return Ok(no_inverse(
            "A has a NaN or infinite entry: there is no inverse to compute",
        ));
    }
    let scale = match method {
        InverseMethod::NewtonSchulz => 1.0 / (norm_1(n, &a64) * norm_inf(n, &a64)),
        InverseMethod::Series { d } => d.unwrap_or(1.0 / norm_inf(n, &a64)),
    };
    if !scale.is_finite() || scale <= 0.0 {
        return Ok(no_inverse("A is zero: it has no inverse"));
    }
    let am = ws.upload(Shape::square(n), a)?;
    let outcome = match method {
        InverseMethod::NewtonSchulz => newton_schulz(&mut ws, &am, &a64, scale, stopping).await,
        InverseMethod::Series { .. } => series(&mut ws, &am, scale, stopping).await,
    };
    ws.free(am);
    let Outcome { best, residuals } = outcome?;
    let matrix = ws.read(&best).await;
    ws.free(best);
    let mut matrix = matrix?;
    if let InverseMethod::Series { .. } = method {
        // The series sums S = Σ C^k; the inverse is d·S.
        matrix
            .iter_mut()
            .for_each(|v| *v = (*v as f64 * scale) as f32);
    }
    let best = residuals.iter().copied().fold(f32::INFINITY, f32::min);
    let converged = best <= CONVERGED_RESIDUAL;
    let message = match (converged, method) {
        (true, _) => {
            let at = residuals.iter().position(|&r| r == best).unwrap_or(0);
            let run = residuals.len().saturating_sub(1);
            format!(
                "‖AX − I‖_F = {} {}",
                if best == 0.0 {
                    "0".to_string()
                } else {
                    decimal::exponential(best, Some(2))
                },
                match (at, run) {
                    (0, _) => "at the start X₀, before any doubling".to_string(),
                    (_, 1) => "after the 1 doubling run".to_string(),
                    _ => format!("after {at} of the {run} doublings run"),
                }
            )
        }
        // Not one doubling moved it: the iteration never got going.
        (false, _) if residuals.len() > 1 && residuals.iter().all(|&r| r == residuals[0]) => {
            format!(
                "does not converge: ‖AX − I‖_F stayed at {} for all {} doublings. \
                 Either A is singular, or its smallest singular values are too small \
                 against the largest for float32 to register (raise options.maxDoublings, \
                 Stopping::max_doublings in Rust, to wait longer)",
                decimal::fixed(best, 3),
                residuals.len() - 1
            )
        }
        // Out of doublings with the last one the best: it was still improving.
        (false, _)
            if residuals.len() > stopping.max_doublings
                && residuals.last() == Some(&best)
                && residuals.len() > 1 =>
        {
            format!(
                "not converged yet: ‖AX − I‖_F was still falling ({}) when the \
                 {} doublings allowed ran out; raise options.maxDoublings \
                 (Stopping::max_doublings in Rust)",
                decimal::exponential(best, Some(3)),
                stopping.max_doublings
            )
        }
        (false, InverseMethod::NewtonSchulz) => format!(
            "does not converge: ‖AX − I‖_F stopped improving at {}, above the {} that \
             counts as converged. Either A is singular, or it is too ill-conditioned for \
             float32 to get closer; X is the best iterate, as close as float32 got",
            decimal::fixed(best, 3),
            decimal::exponential(CONVERGED_RESIDUAL, None)
        ),
        (false, InverseMethod::Series { .. }) => format!(
            "does not converge: ‖AX − I‖_F stopped improving at {}; the series needs \
             every eigenvalue of I − dA inside the unit circle (d = {}). The default \
             method converges for every invertible A",
            decimal::fixed(best, 3),
            decimal::fixed(scale, 4)
        ),
    };
    Ok(Inverse {
        matrix,
        converged,
        residuals,
        scale,
        message,
    })
}

/// Keeps the iterate with the smallest residual while the iteration goes on for up
/// to `patience` doublings that do not improve on it.
struct Best {
    residual: f32,
    /// The best iterate, when it is not the current one.
    stash: Option<DeviceMatrix>,
    misses: usize,
    patience: usize,
    /// Whether any doubling has lowered the residual yet.
    improved: bool,
}

impl Best {
    fn new(residual: f32, patience: usize) -> Best {
        Best {
            residual,
            stash: None,
            misses: 0,
            patience,
            improved: false,
        }
    }

    /// Puts `next` (of residual `r`) in place of `current`; false once the iteration
    /// has gone more than `patience` doublings without improving.
    fn advance(
        &mut self,
        ws: &mut Workspace,
        current: &mut DeviceMatrix,
        next: DeviceMatrix,
        r: f32,
    ) -> bool {
        let previous = std::mem::replace(current, next);
        // Before the first improvement, a residual that stays exactly where it started
        // is not a failure: with diag(1, 1e-4), AX = diag(1, 1e-8) at first, and
        // 1 − 1e-8 rounds to 1 in float32 while X's small direction doubles each step
        // until the residual can show it. (A worse residual, or NaN, still counts.)
        let stuck_at_start = !self.improved && r == self.residual;
        if r < self.residual || stuck_at_start {
            self.improved |= r < self.residual;
            self.residual = r;
            self.misses = 0;
            ws.free(previous);
            if let Some(old) = self.stash.take() {
                ws.free(old);
            }
            return true;
        }
        self.misses += 1;
        match self.stash {
            None => self.stash = Some(previous),
            Some(_) => ws.free(previous),
        }
        self.misses <= self.patience
    }

    /// The best iterate: the stashed one, or else the current one.
    fn finish(self, ws: &mut Workspace, current: DeviceMatrix) -> DeviceMatrix {
        match self.stash {
            Some(best) => {
                ws.free(current);
                best
            }
            None => current,
        }
    }
}

/// ‖A·(s·X) − I‖_F by one product, one affine pass and a reduction.
async fn residual(
    ws: &mut Workspace,
    a: &DeviceMatrix,
    x: &DeviceMatrix,
    s: f32,
) -> Result<(f32, DeviceMatrix)> {
    let t = ws.mul(a, x)?;
    let r = ws.affine(&t, None, s, 0.0, -1.0);
    let stats = match r {
        Ok(r) => {
            let st = ws.stats(&r).await;
            ws.free(r);
            st
        }
        Err(e) => Err(e),
    };
    match stats {
        Ok(st) if st.nan + st.inf == 0.0 => Ok((st.sum_sq.sqrt(), t)),
        Ok(_) => Ok((f32::INFINITY, t)),
        Err(e) => {
            ws.free(t);
            Err(e)
        }
    }
}

async fn newton_schulz(
    ws: &mut Workspace,
    a: &DeviceMatrix,
    a64: &[f64],
    d: f64,
    stopping: Stopping,
) -> Result<Outcome> {
    let n = a.shape().rows;
    let x0: Vec<f32> = transpose(n, n, a64)
        .iter()
        .map(|v| (v * d) as f32)
        .collect();
    let mut x = ws.upload(a.shape(), &x0)?;
    let (r0, mut t) = residual(ws, a, &x, 1.0).await?;
    let mut residuals = vec![r0];
    let mut best = Best::new(r0, stopping.patience);
    for _ in 0..stopping.max_doublings {
        // Exact already (A = I, or 2I: X₀ = dAᵀ is its inverse): nothing to improve.
        if best.residual == 0.0 {
            break;
        }
        // X' = X (2I − AX), with AX = T from the residual just computed.
        let u = ws.affine(&t, None, -1.0, 0.0, 2.0)?;
        ws.free(t);
        let next = ws.mul(&x, &u);
        ws.free(u);
        let next = next?;
        let (r, t_next) = residual(ws, a, &next, 1.0).await?;
        residuals.push(r);
        t = t_next;
        if !best.advance(ws, &mut x, next, r) {
            break;
        }
    }
    ws.free(t);
    Ok(Outcome {
        best: best.finish(ws, x),
        residuals,
    })
}

async fn series(
    ws: &mut Workspace,
    a: &DeviceMatrix,
    d: f64,
    stopping: Stopping,
) -> Result<Outcome> {
    // S = I, P = C = I − dA; each doubling: S ← S(I + P), P ← P².
    let mut s = ws.affine(a, None, 0.0, 0.0, 1.0)?;
    let mut p = ws.affine(a, None, -(d as f32), 0.0, 1.0)?;
    let (r0, t) = residual(ws, a, &s, d as f32).await?;
    ws.free(t);
    let mut residuals = vec![r0];
    let mut best = Best::new(r0, stopping.patience);
    for _ in 0..stopping.max_doublings {
        if best.residual == 0.0 {
            break;
        }
        let ip = ws.affine(&p, None, 1.0, 0.0, 1.0)?;
        let next = ws.mul(&s, &ip);
        ws.free(ip);
        let next = next?;
        let (r, t) = residual(ws, a, &next, d as f32).await?;
        ws.free(t);
        residuals.push(r);
        if !best.advance(ws, &mut s, next, r) {
            break;
        }
        let p2 = ws.mul(&p, &p)?;
        ws.free(std::mem::replace(&mut p, p2));
    }
    ws.free(p);
    Ok(Outcome {
        best: best.finish(ws, s),
        residuals,
    })
}
