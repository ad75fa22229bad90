//! Jacobi iteration for A x = b: x ← D⁻¹(b − O x), O = A − D, written as
//! x ← T x + c with T = −D⁻¹O and c = D⁻¹b. Each iteration is a matrix-vector
//! product and an affine pass on the GPU; the convergence test Σ|Δx| ≤ ε·Σ|x| comes
//! from a reduction by repeated halving passes (one texel read), never from
//! reading x. Converges for strictly diagonally dominant A; a growing Σ|Δx|
//! is reported as divergence.

use crate::apps::{square_input, Workspace};
use crate::engine::Handle;
use crate::error::{GpgpuError, Result};
use crate::plan::shape::{self, Shape};
use crate::work::Options;

/// Σ|Δx| growing past this multiple of the first update (or overflowing) means
/// the iteration diverges.
pub const DIVERGED_GROWTH: f32 = 1e6;

/// What [`jacobi`] (and the sparse Jacobi) found.
#[derive(Clone, Debug, PartialEq)]
pub struct Jacobi {
    /// The last iterate.
    pub x: Vec<f32>,
    /// Σ|Δx| ≤ epsilon·Σ|x| was met.
    pub converged: bool,
    /// Σ|Δx| overflowed or grew past [`DIVERGED_GROWTH`] times the first update.
    pub diverged: bool,
    /// Σ|Δx| after each iteration.
    pub deltas: Vec<f32>,
    /// Σ|x| after each iteration (the scale the stopping test compares Σ|Δx| with).
    pub norms: Vec<f32>,
    /// (iteration, x) every `record_every` iterations when asked for (a readback
    /// each: for plots of the error per iteration, not for the solve itself).
    pub history: Vec<(usize, Vec<f32>)>,
}

impl Jacobi {
    /// Before the first iteration (`x` is the last iterate, filled in at the end).
    pub(crate) fn start() -> Jacobi {
        Jacobi {
            x: vec![],
            converged: false,
            diverged: false,
            deltas: vec![],
            norms: vec![],
            history: vec![],
        }
    }

    /// Records an iteration's Σ|Δx| and Σ|x|, dense and sparse alike; true once the
    /// iteration diverged or converged.
    pub(crate) fn record(&mut self, sum: f32, norm: f32, epsilon: f32) -> bool {
        self.deltas.push(sum);
        self.norms.push(norm);
        let limit = DIVERGED_GROWTH * self.deltas[0].max(f32::MIN_POSITIVE);
        // NaN or ±Inf in x never goes away again (a NaN in A or b brings it at once).
        self.diverged = !sum.is_finite() || sum > limit;
        self.converged = !self.diverged && sum <= epsilon * norm;
        self.diverged || self.converged
    }
}

/// When to stop, and what to record on the way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JacobiSettings {
    /// Stop when Σ|Δx| ≤ epsilon · Σ|x|: relative, so scaling b by any factor does
    /// not change when the iteration stops.
    pub epsilon: f32,
    /// The most iterations (1 to [`MAX_ITERATIONS`]).
    pub max_iterations: usize,
    /// Read x back every this many iterations into `history` (None: never).
    pub record_every: Option<usize>,
}

impl Default for JacobiSettings {
    /// JavaScript's defaults: ε = 1e-6, at most 1000 iterations, no history.
    fn default() -> JacobiSettings {
        JacobiSettings {
            epsilon: 1e-6,
            max_iterations: 1000,
            record_every: None,
        }
    }
}

/// The most iterations a Jacobi run takes (JavaScript's `maxIterations` cap too).
pub const MAX_ITERATIONS: usize = 1_000_000;

impl JacobiSettings {
    /// Refuses what JavaScript's options refuse: an `epsilon` that is not a finite
    /// number > 0 (NaN never stopped, and ran every iteration for nothing),
    /// `max_iterations` outside 1 to [`MAX_ITERATIONS`] (0 returned the zero vector
    /// as if solved), and `record_every: Some(0)` (it would divide by zero).
    pub fn check(&self) -> Result<()> {
        if !(self.epsilon > 0.0 && self.epsilon.is_finite()) {
            return Err(GpgpuError::BadArgument {
                name: "epsilon".into(),
                detail: format!(
                    "is {}; it must be a finite number > 0 (stop when Σ|Δx| ≤ epsilon·Σ|x|; \
                     JacobiSettings::default() has 1e-6)",
                    crate::error::js_number(self.epsilon as f64)
                ),
            });
        }
        shape::count_from(
            "max_iterations",
            self.max_iterations as f64,
            1,
            MAX_ITERATIONS as f64,
        )?;
        if self.record_every == Some(0) {
            return Err(GpgpuError::BadArgument {
                name: "record_every".into(),
                detail: "is 0; record every 1 or more iterations, or pass None to record none"
                    .into(),
            });
        }
        Ok(())
    }
}

/// x with A·x = b for the n × n `a` by Jacobi iteration on the GPU, from x = 0.
/// `BadArgument` for a zero on the diagonal or settings [`JacobiSettings::check`]
/// refuses; NaN or infinite entries end it as `diverged`.
pub async fn jacobi(
    g: &Handle,
    n: usize,
    a: &[f32],
    b: &[f32],
    settings: JacobiSettings,
    options: &Options,
) -> Result<Jacobi> {
    settings.check()?;
    let n = square_input(g, n, "a", a)?;
    shape::check_len("b", Shape::new(n, 1), b.len())?;
    if let Some(i) = (0..n).find(|&i| a[i * n + i] == 0.0) {
        return Err(GpgpuError::BadArgument {
            name: "a".into(),
            detail: format!("a[{i}][{i}] is 0: Jacobi divides by the diagonal"),
        });
    }
    // T = −D⁻¹O and c = D⁻¹b, formed once on the CPU (O(n²), the data is here).
    let mut t = vec![0f32; n * n];
    for i in 0..n {
        let d = a[i * n + i] as f64;
        for j in 0..n {
            if j != i {
                t[i * n + j] = (-(a[i * n + j] as f64) / d) as f32;
            }
        }
    }
    let c: Vec<f32> = (0..n)
        .map(|i| (b[i] as f64 / a[i * n + i] as f64) as f32)
        .collect();
    g.ready().await?;
    let mut ws = Workspace::new(g, options, Shape::new(n, 1))?;
    let tm = ws.upload(Shape::square(n), &t)?;
    let cm = ws.upload(Shape::new(n, 1), &c)?;
    let mut x = ws.upload(Shape::new(n, 1), &vec![0.0; n])?;
    let mut r = Jacobi::start();
    let run = async {
        for iteration in 1..=settings.max_iterations {
            let tx = ws.mul(&tm, &x)?;
            let next = ws.affine(&tx, Some(&cm), 1.0, 1.0, 0.0);
            ws.free(tx);
            let next = next?;
            let delta = ws.affine(&next, Some(&x), 1.0, -1.0, 0.0)?;
            let stats = ws.stats_halving(&delta).await;
            ws.free(delta);
            ws.free(std::mem::replace(&mut x, next));
            let st = stats?;
            let sum = if st.nan + st.inf > 0.0 {
                f32::INFINITY
            } else {
                st.sum_abs
            };
            let norm = ws.stats_halving(&x).await?.sum_abs;
            let done = r.record(sum, norm, settings.epsilon);
            if settings.record_every.is_some_and(|m| iteration % m == 0) {
                r.history.push((iteration, ws.read(&x).await?));
            }
            if done {
                break;
            }
        }
        Ok(())
    }
    .await;
    ws.free(tm);
    ws.free(cm);
    let x_data = match run {
        Ok(()) => ws.read(&x).await,
        Err(e) => Err(e),
    };
    ws.free(x);
    Ok(Jacobi { x: x_data?, ..r })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recording_every_0_iterations_is_refused() {
        let settings = |record_every| JacobiSettings {
            epsilon: 1e-6,
            max_iterations: 10,
            record_every,
        };
        let e = settings(Some(0)).check().unwrap_err();
        assert_eq!(e.code(), "BAD_ARGUMENT");
        assert!(e.to_string().starts_with("record_every: is 0"), "{e}");
        assert!(settings(Some(1)).check().is_ok());
        assert!(settings(None).check().is_ok());
    }

    #[test]
    fn an_epsilon_or_iteration_count_javascript_refuses_is_refused() {
        let ok = JacobiSettings::default();
        assert!(ok.check().is_ok());
        for epsilon in [0.0, -1e-6, f32::NAN, f32::INFINITY] {
            let e = JacobiSettings { epsilon, ..ok }.check().unwrap_err();
            assert_eq!(e.code(), "BAD_ARGUMENT", "{epsilon}");
            assert!(e.to_string().starts_with("epsilon: is "), "{e}");
        }
        for max_iterations in [0, MAX_ITERATIONS + 1] {
            let e = JacobiSettings {
                max_iterations,
                ..ok
            }
            .check()
            .unwrap_err();
            assert_eq!(e.code(), "BAD_COUNT", "{e}");
            assert!(e.to_string().contains("from 1 to 1000000"), "{e}");
        }
    }
}
