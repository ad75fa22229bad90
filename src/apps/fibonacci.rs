//! Fibonacci numbers as a matrix power: `[[1,1],[1,0]]^k = [[F(k+1), F(k)],
//! [F(k), F(k−1)]]`, by binary exponentiation on the GPU, and whether float32
//! held the answer exactly (F(36) = 14,930,352 does; F(37) = 24,157,817 > 2^24
//! is the first that cannot).

use crate::apps::run_plan;
use crate::engine::Handle;
use crate::error::Result;
use crate::plan::linalg::fibonacci_exact;
use crate::plan::passes;
use crate::plan::semiring::Semiring;
use crate::work::Options;

/// What [`fibonacci`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fibonacci {
    /// The index asked for.
    pub k: u64,
    /// F(k) as the GPU computed it in float32; +Infinity once it overflows (k ≥ 187).
    pub value: f32,
    /// F(k) exactly, while it fits in 128 bits (k <= 186; beyond, float32 overflows).
    pub exact_value: Option<u128>,
    /// The GPU's value equals F(k) exactly.
    pub exact: bool,
    /// GPU product passes run (⌊log2 k⌋ squarings and popcount(k) − 1 products).
    pub passes: usize,
}

/// The largest k whose F(k) float32 can hold (F(186) ≈ 3.33e38 < 3.40e38).
const LAST_FINITE: u64 = 186;

/// F(k) as entry (0, 1) of [[1, 1], [1, 0]]^k, by binary exponentiation on the GPU
/// (k = 0 gives F(0) = 0 with no pass), compared with the exact integer. The
/// products are ordinary ones whatever `options.semiring` says (in (min, +),
/// F(10) came out 0).
pub async fn fibonacci(g: &Handle, k: u64, options: &Options) -> Result<Fibonacci> {
    let plan = passes::power(k);
    let passes = plan.steps.len();
    let options = Options {
        semiring: Semiring::Ordinary,
        ..*options
    };
    let m = run_plan(g, 2, &[1.0, 1.0, 1.0, 0.0], plan, &options).await?;
    // Past F(186) ≈ 3.3e38 float32 overflows to +Inf, and the next products turn
    // Inf·0 into NaN in some entries: for F(k) > 0 that NaN is the overflow itself.
    let value = if m[1].is_nan() && k > LAST_FINITE {
        f32::INFINITY
    } else {
        m[1]
    };
    let exact_value = fibonacci_exact(k);
    let exact = match exact_value {
        Some(x) => value.is_finite() && value.fract() == 0.0 && value as u128 == x,
        None => false,
    };
    Ok(Fibonacci {
        k,
        value,
        exact_value,
        exact,
        passes,
    })
}
