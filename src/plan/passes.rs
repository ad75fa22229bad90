//! Pass plans: which GPU products run, in which order, between which textures
//! ("slots"). Pure Rust, tested natively by running a plan on exponents.
//!
//! Slot 0 always holds the input matrix M. A step never reads the slot it writes
//! (a WebGL feedback loop), and the plan uses as few slots as it can: three for a
//! power (M plus a ping-pong pair), two for repeated squaring.

use crate::error::{GpgpuError, NumberProblem, Result};

/// Most squarings `repeated_square` accepts: M^(2^64) already overflows float32 for
/// any |entry| other than 0 and 1, and a larger count would only burn GPU time (or,
/// as a `usize` on wasm32, wrap around).
pub const MAX_SQUARINGS: u64 = 64;

/// One render-to-texture pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// slot `dst` ← slot `src` · slot `src`
    Square { src: usize, dst: usize },
    /// slot `dst` ← slot `a` · slot `b`
    Multiply { a: usize, b: usize, dst: usize },
}

impl Step {
    pub fn dst(&self) -> usize {
        match *self {
            Step::Square { dst, .. } | Step::Multiply { dst, .. } => dst,
        }
    }
    pub fn sources(&self) -> (usize, usize) {
        match *self {
            Step::Square { src, .. } => (src, src),
            Step::Multiply { a, b, .. } => (a, b),
        }
    }
}

/// What to compute and with how many textures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassPlan {
    pub steps: Vec<Step>,
    /// Number of slots (textures of the matrix's size) the plan needs.
    pub slots: usize,
    /// The slot holding the answer, or None when the answer is the identity (p = 0).
    pub result: Option<usize>,
}

impl PassPlan {
    /// The power of M each slot holds after each step: `exponents()[s][slot]`.
    /// Used by the page to label passes ("M^4 = M^2 · M^2") and by tests.
    pub fn exponents(&self) -> Vec<Vec<u128>> {
        let mut cur = vec![0u128; self.slots.max(1)];
        cur[0] = 1;
        self.steps
            .iter()
            .map(|step| {
                let (a, b) = step.sources();
                cur[step.dst()] = cur[a] + cur[b];
                cur.clone()
            })
            .collect()
    }

    /// One label per step for the page's pass timeline, e.g. "M^6 = M^3 · M^3".
    pub fn labels(&self) -> Vec<String> {
        if *self == product() {
            return vec!["C = A · B".into()];
        }
        let mut before = vec![0u128; self.slots.max(1)];
        before[0] = 1;
        self.exponents()
            .iter()
            .zip(&self.steps)
            .map(|(after, step)| {
                let (a, b) = step.sources();
                let label = format!(
                    "M^{} = M^{} · M^{}",
                    after[step.dst()],
                    before[a],
                    before[b]
                );
                before.clone_from(after);
                label
            })
            .collect()
    }
}

/// M^p by left-to-right binary exponentiation: for each bit after the leading one,
/// square, then multiply by M if the bit is set. floor(log2 p) squarings and
/// popcount(p) − 1 products; one readback at the end.
pub fn power(p: u64) -> PassPlan {
    if p == 0 {
        return PassPlan {
            steps: vec![],
            slots: 1,
            result: None,
        };
    }
    let other = |cur: usize| if cur == 1 { 2 } else { 1 };
    let mut steps = vec![];
    let mut cur = 0;
    let top = 63 - p.leading_zeros();
    for bit in (0..top).rev() {
        let dst = other(cur);
        steps.push(Step::Square { src: cur, dst });
        cur = dst;
        if p >> bit & 1 == 1 {
            let dst = other(cur);
            steps.push(Step::Multiply { a: cur, b: 0, dst });
            cur = dst;
        }
    }
    let slots = steps.iter().map(|s| s.dst() + 1).max().unwrap_or(1);
    PassPlan {
        steps,
        slots,
        result: Some(cur),
    }
}

/// A · B: slot 0 holds A, slot 1 holds B, the product goes to slot 2.
pub fn product() -> PassPlan {
    PassPlan {
        steps: vec![Step::Multiply { a: 0, b: 1, dst: 2 }],
        slots: 3,
        result: Some(2),
    }
}

/// M^(2^times): `times` squarings ping-ponging between two slots; `times` from 0
/// to [`MAX_SQUARINGS`], else `BadCount`.
pub fn repeated_square(times: u64) -> Result<PassPlan> {
    if times > MAX_SQUARINGS {
        return Err(GpgpuError::BadCount {
            name: "times".into(),
            value: times as f64,
            problem: NumberProblem::TooLarge {
                limit: MAX_SQUARINGS as f64,
            },
        });
    }
    let steps: Vec<Step> = (0..times as usize)
        .map(|t| Step::Square {
            src: t % 2,
            dst: (t + 1) % 2,
        })
        .collect();
    Ok(PassPlan {
        result: Some(steps.len() % 2),
        slots: if times == 0 { 1 } else { 2 },
        steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn final_exponent(plan: &PassPlan) -> u128 {
        match plan.result {
            None => 0,
            Some(slot) => plan.exponents().last().map_or(1, |e| e[slot]),
        }
    }

    #[test]
    fn power_plans_compute_the_right_exponent_with_the_fewest_passes() {
        for p in 0..5000u64 {
            let plan = power(p);
            assert_eq!(final_exponent(&plan), p as u128, "p = {p}");
            if p > 0 {
                let squarings = 63 - p.leading_zeros() as usize;
                let products = p.count_ones() as usize - 1;
                assert_eq!(plan.steps.len(), squarings + products, "p = {p}");
                assert!(plan.slots <= 3);
            }
            for step in &plan.steps {
                let (a, b) = step.sources();
                assert!(
                    a != step.dst() && b != step.dst(),
                    "feedback loop in {step:?}"
                );
                assert!(step.dst() != 0, "the input slot must survive for products");
            }
        }
        let big = power(u64::MAX);
        assert_eq!(big.steps.len(), 63 + 63);
        assert_eq!(power(1).steps.len(), 0);
        assert_eq!(power(1).result, Some(0));
        assert_eq!(power(0).result, None);
    }

    #[test]
    fn power_13_is_square_multiply_square_square_multiply() {
        // 13 = 0b1101: M -> M^2 -> M^3 -> M^6 -> M^12 -> M^13
        let plan = power(13);
        let kinds: Vec<bool> = plan
            .steps
            .iter()
            .map(|s| matches!(s, Step::Square { .. }))
            .collect();
        assert_eq!(kinds, [true, false, true, true, false]);
        let exps: Vec<u128> = plan
            .exponents()
            .iter()
            .zip(&plan.steps)
            .map(|(e, s)| e[s.dst()])
            .collect();
        assert_eq!(exps, [2, 3, 6, 12, 13]);
    }

    #[test]
    fn labels_name_the_powers() {
        assert_eq!(
            power(5).labels(),
            ["M^2 = M^1 · M^1", "M^4 = M^2 · M^2", "M^5 = M^4 · M^1"]
        );
        assert_eq!(product().labels(), ["C = A · B"]);
        assert_eq!(
            repeated_square(2).unwrap().labels(),
            ["M^2 = M^1 · M^1", "M^4 = M^2 · M^2"]
        );
    }

    #[test]
    fn repeated_squaring_ping_pongs_two_slots() {
        for times in 0..10u64 {
            let plan = repeated_square(times).unwrap();
            assert_eq!(plan.steps.len(), times as usize);
            assert_eq!(final_exponent(&plan), 1u128 << times);
            assert!(plan.slots <= 2);
            for step in &plan.steps {
                let (a, _) = step.sources();
                assert_ne!(a, step.dst());
            }
        }
    }

    #[test]
    fn repeated_squaring_stops_at_64_squarings() {
        let plan = repeated_square(MAX_SQUARINGS).unwrap();
        assert_eq!(plan.steps.len(), 64);
        assert_eq!(final_exponent(&plan), 1u128 << 64);
        // 2^32 once wrapped to 0 squarings as a wasm32 usize; u64::MAX ran out of memory.
        for times in [65, 1 << 32, u64::MAX] {
            let e = repeated_square(times).unwrap_err();
            assert_eq!(e.code(), "BAD_COUNT", "times = {times}");
            assert!(e.to_string().contains("larger than 64"), "{e}");
        }
    }
}
