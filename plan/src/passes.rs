//! Pass plans: which GPU products run, in which order, between which textures
//! ("slots"). Pure Rust, tested natively by running a plan on exponents
//! ([`PassPlan::powers`]).
//!
//! Slot 0 always holds the input matrix M. A step never reads the slot it writes
//! (a WebGL feedback loop), and the plan uses as few slots as it can: three for a
//! power (M plus a ping-pong pair), two for repeated squaring. A hand-made plan is
//! checked by [`PassPlan::check`] before it runs.

use crate::error::{GpgpuError, NumberProblem, Result};
use crate::shape::Shape;

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
    /// Checks the plan against the shapes of its inputs (slot i holds `inputs[i]`)
    /// and returns the shape of every slot. A run refuses a plan that fails, which
    /// would otherwise read a texture that does not exist, render into the texture
    /// it reads (a WebGL feedback loop) or multiply shapes that do not fit.
    pub fn check(&self, inputs: &[Shape]) -> Result<Vec<Shape>> {
        let bad = |detail: String| GpgpuError::BadArgument {
            name: "plan".into(),
            detail,
        };
        let Some(&first) = inputs.first() else {
            return Err(bad("a plan needs an input matrix in slot 0".into()));
        };
        let k = inputs.len();
        if self.slots < k {
            return Err(bad(format!(
                "slots = {}, fewer than its {k} input(s)",
                self.slots
            )));
        }
        // Written slots only: `slots` itself is checked last, so that a plan with a
        // wrong step hears about the step.
        let mut shapes = Slots(inputs.iter().copied().enumerate().collect());
        let inputs_at = match k {
            1 => "slot 0 holds the input".to_string(),
            _ => format!("slots 0 to {} hold the inputs", k - 1),
        };
        let empty = |s: usize, what: String| {
            bad(format!(
                "{what} slot {s}, which holds no matrix yet ({inputs_at}; any other is \
                 filled by the first step writing it)"
            ))
        };
        for (i, step) in self.steps.iter().enumerate() {
            let (a, b) = step.sources();
            let dst = step.dst();
            let (sa, sb) = match (shapes.get(a), shapes.get(b)) {
                (Some(sa), Some(sb)) => (sa, sb),
                (None, _) => return Err(empty(a, format!("step {i} reads"))),
                (_, None) => return Err(empty(b, format!("step {i} reads"))),
            };
            if dst >= self.slots {
                return Err(bad(format!(
                    "step {i} writes slot {dst}, but the plan has slots 0 to {}",
                    self.slots - 1
                )));
            }
            if dst == a || dst == b {
                return Err(bad(format!(
                    "step {i} reads and writes slot {dst}: WebGL cannot read a texture \
                     while rendering into it; write another slot"
                )));
            }
            if sa.cols != sb.rows {
                return Err(bad(format!(
                    "step {i} multiplies a {}x{} matrix by a {}x{} one: the inner \
                     dimensions differ",
                    sa.rows, sa.cols, sb.rows, sb.cols
                )));
            }
            let out = Shape::new(sa.rows, sb.cols);
            // One texture per slot, allocated once: every write must fit it.
            if let Some(was) = shapes.get(dst).filter(|&was| was != out) {
                return Err(bad(format!(
                    "step {i} writes a {}x{} matrix into slot {dst}, which holds a {}x{} one",
                    out.rows, out.cols, was.rows, was.cols
                )));
            }
            shapes.insert(dst, out);
        }
        match self.result {
            Some(r) if r >= self.slots => {
                return Err(bad(format!(
                    "result = slot {r}, but the plan has slots 0 to {}",
                    self.slots - 1
                )))
            }
            Some(r) if shapes.get(r).is_none() => return Err(empty(r, "result =".into())),
            None if first.rows != first.cols => {
                return Err(bad(format!(
                    "result = None (the identity) needs a square input, not {}x{}",
                    first.rows, first.cols
                )))
            }
            _ => {}
        }
        // Slots that nothing fills would be wasted textures; a huge count, a huge
        // allocation.
        if self.slots > k + self.steps.len() {
            return Err(bad(format!(
                "slots = {}, but {k} input(s) and {} step(s) fill at most {}",
                self.slots,
                self.steps.len(),
                k + self.steps.len()
            )));
        }
        Ok((0..self.slots)
            .map(|s| shapes.get(s).unwrap_or(first))
            .collect())
    }

    /// The powers of M each step multiplies and the one it writes, as
    /// `(written, a, b)` for "M^written = M^a · M^b". Slot 0 starts as M^1, any
    /// other as M^0. Tracked per slot named, not per slot of `slots`, so that a plan
    /// that fails `check` still gets an answer rather than a panic or a huge vector.
    pub fn powers(&self) -> Vec<(u128, u128, u128)> {
        let mut power = Slots(vec![(0, 1u128)]);
        self.steps
            .iter()
            .map(|step| {
                let (a, b) = step.sources();
                let of = |s| power.get(s).unwrap_or(0);
                let (pa, pb) = (of(a), of(b));
                // Saturates rather than overflows past 128 squarings of a hand-made plan.
                let written = pa.saturating_add(pb);
                power.insert(step.dst(), written);
                (written, pa, pb)
            })
            .collect()
    }

    /// The power of M the plan computes (0: the identity).
    pub fn result_power(&self) -> u128 {
        let Some(r) = self.result else { return 0 };
        let last_write = self.steps.iter().zip(self.powers()).rev();
        last_write
            .into_iter()
            .find(|(step, _)| step.dst() == r)
            .map_or(u128::from(r == 0), |(_, (written, _, _))| written)
    }

    /// One label per step for the page's pass timeline, e.g. "M^6 = M^3 · M^3".
    pub fn labels(&self) -> Vec<String> {
        if *self == product() {
            return vec!["C = A · B".into()];
        }
        self.powers()
            .iter()
            .map(|(written, a, b)| format!("M^{written} = M^{a} · M^{b}"))
            .collect()
    }
}

/// What each slot holds, as (slot, value) pairs. A plan names a few slots (each is a
/// texture of the matrix's size), so a scan finds one quickly; the scan's cost grows
/// with the number of distinct slots, which only a plan of thousands of textures
/// would notice. A B-tree here cost the wasm 7.5 KB (2.7 KB gzipped), a hash map
/// more gzipped bytes still.
struct Slots<T>(Vec<(usize, T)>);

impl<T: Copy> Slots<T> {
    fn get(&self, slot: usize) -> Option<T> {
        self.0.iter().find(|&&(s, _)| s == slot).map(|&(_, v)| v)
    }

    fn insert(&mut self, slot: usize, value: T) {
        match self.0.iter_mut().find(|(s, _)| *s == slot) {
            Some(held) => held.1 = value,
            None => self.0.push((slot, value)),
        }
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
            min: 0,
            max: MAX_SQUARINGS as f64,
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
        plan.result_power()
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
        let exps: Vec<u128> = plan.powers().iter().map(|p| p.0).collect();
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
    fn the_library_s_own_plans_pass_the_check() {
        let sq = [Shape::square(5)];
        for p in (0..300).chain([u64::MAX]) {
            let shapes = power(p).check(&sq).unwrap();
            assert!(shapes.iter().all(|s| *s == sq[0]), "p = {p}");
        }
        for times in 0..=MAX_SQUARINGS {
            repeated_square(times).unwrap().check(&sq).unwrap();
        }
        let ab = [Shape::new(2, 3), Shape::new(3, 4)];
        let shapes = product().check(&ab).unwrap();
        assert_eq!(shapes[2], Shape::new(2, 4));
    }

    #[test]
    fn hand_made_plans_that_cannot_run_are_bad_arguments() {
        let plan = |steps: Vec<Step>, slots, result| PassPlan {
            steps,
            slots,
            result,
        };
        let sq = [Shape::square(2)];
        let refused = |p: PassPlan, inputs: &[Shape], needle: &str| {
            let e = p.check(inputs).unwrap_err();
            assert_eq!(e.code(), "BAD_ARGUMENT", "{e}");
            assert!(
                e.to_string().contains(needle),
                "'{e}' should mention '{needle}'"
            );
            // Labels never panic, even for a plan that cannot run.
            p.labels();
        };
        // A product plan on one input reads B from an empty slot.
        refused(
            product(),
            &sq,
            "step 0 reads slot 1, which holds no matrix yet",
        );
        let square = |src, dst| Step::Square { src, dst };
        refused(plan(vec![square(0, 5)], 2, Some(1)), &sq, "writes slot 5");
        refused(
            plan(vec![square(0, 0)], 1, Some(0)),
            &sq,
            "reads and writes slot 0",
        );
        refused(plan(vec![square(0, 1)], 2, Some(7)), &sq, "result = slot 7");
        refused(plan(vec![], 1, Some(0)), &[], "needs an input");
        refused(plan(vec![], usize::MAX, Some(0)), &sq, "slots = ");
        refused(
            plan(vec![], 0, None),
            &sq,
            "slots = 0, fewer than its 1 input",
        );
        let ab = [Shape::new(2, 3), Shape::new(3, 4)];
        refused(
            plan(vec![Step::Multiply { a: 1, b: 0, dst: 2 }], 3, Some(2)),
            &ab,
            "inner dimensions differ",
        );
        refused(
            plan(vec![Step::Multiply { a: 0, b: 1, dst: 2 }], 3, Some(2)),
            &[ab[0], ab[1], Shape::square(5)],
            "writes a 2x4 matrix into slot 2, which holds a 5x5 one",
        );
        refused(power(0), &ab[..1], "needs a square input");
        // Reading a slot before the step that fills it.
        refused(
            plan(vec![square(2, 1), square(0, 2)], 3, Some(1)),
            &sq,
            "step 0 reads slot 2",
        );
        // 200 squarings: the exponent saturates instead of overflowing.
        let long = plan(
            (0..200).map(|t| square(t % 2, (t + 1) % 2)).collect(),
            2,
            Some(0),
        );
        assert_eq!(long.result_power(), u128::MAX);
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
