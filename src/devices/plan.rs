//! The pure part of a split product: rows per device from ratios, and the
//! 'auto' ratios from measured throughput (tested natively).

use crate::error::{GpgpuError, Result};

/// Rows of C per device for `ratios` (each ≥ 0, not all 0): proportional, by the
/// largest remainder so they add up to `rows` exactly; a ratio of 0 gets no row.
pub fn split_rows(rows: usize, ratios: &[f64]) -> Result<Vec<usize>> {
    check_ratios(ratios)?;
    let exact: Vec<f64> = shares(ratios).iter().map(|s| s * rows as f64).collect();
    let mut parts: Vec<usize> = exact.iter().map(|x| x.floor() as usize).collect();
    let mut left = rows - parts.iter().sum::<usize>();
    let mut order: Vec<usize> = (0..ratios.len()).filter(|&i| ratios[i] > 0.0).collect();
    // Largest fractional part first; ties to the earlier device.
    let fraction = |i: usize| exact[i] - exact[i].floor();
    crate::common::sort_short(&mut order, |&i, &j| fraction(i) > fraction(j));
    for &i in order.iter().cycle() {
        if left == 0 {
            break;
        }
        parts[i] += 1;
        left -= 1;
    }
    Ok(parts)
}

/// `ratios[i] / Σ ratios` for ratios ≥ 0, not all 0: scaled by the largest first, as
/// the sum of finite ratios can overflow to Infinity (`[1e308, 1e308]` gave shares of 0).
pub fn shares(ratios: &[f64]) -> Vec<f64> {
    let top = ratios.iter().fold(0.0, |a: f64, &r| a.max(r));
    let sum: f64 = ratios.iter().map(|r| r / top).sum();
    ratios.iter().map(|r| r / top / sum).collect()
}

/// Ratios must be finite, ≥ 0, and not all 0.
pub fn check_ratios(ratios: &[f64]) -> Result<()> {
    let bad = |detail: String| GpgpuError::BadArgument {
        name: "options.ratios".into(),
        detail,
    };
    if let Some(r) = ratios.iter().find(|r| !r.is_finite() || **r < 0.0) {
        return Err(bad(format!(
            "holds {}; each ratio must be a finite number >= 0",
            crate::error::js_number(*r)
        )));
    }
    if ratios.iter().all(|&r| r == 0.0) {
        return Err(bad("are all 0; at least one device must get rows".into()));
    }
    Ok(())
}

/// What 'auto' knows, refined after each run: each device's throughput (multiply-adds
/// per ms, from its part's time), and the measured cost of the two ways to run
/// (ms per multiply-add of the whole call): split proportionally to throughput, or on
/// the fastest device alone. Devices that share the hardware (SwiftShader's WebGL and
/// WebGPU run on the same cores as the CPU workers) slow each other down, which no
/// throughput measured alone predicts: so 'auto' tries the fastest device alone once
/// and keeps whichever way measured faster.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Balance {
    /// None until the device has computed a part.
    pub throughput: Vec<Option<f64>>,
    /// ms per multiply-add of 'auto' runs that split.
    pub split_cost: Option<f64>,
    /// The device run alone and its ms per multiply-add.
    pub alone_cost: Option<(usize, f64)>,
    /// 'auto' runs so far.
    pub runs: usize,
}

/// How much of the new measurement an update keeps (the rest is the history): a
/// device's speed changes with the size and with what else runs.
const WEIGHT: f64 = 0.6;

fn blend(old: Option<f64>, now: f64) -> f64 {
    match old {
        Some(old) => WEIGHT * now + (1.0 - WEIGHT) * old,
        None => now,
    }
}

impl Balance {
    pub fn new(devices: usize) -> Balance {
        Balance {
            throughput: vec![None; devices],
            ..Balance::default()
        }
    }

    /// Ratios proportional to the known throughputs; a device not measured yet gets
    /// the mean of the others (all equal at first).
    pub fn proportional(&self) -> Vec<f64> {
        let known: Vec<f64> = self.throughput.iter().flatten().copied().collect();
        let mean = match known.len() {
            0 => 1.0,
            n => known.iter().sum::<f64>() / n as f64,
        };
        self.throughput.iter().map(|t| t.unwrap_or(mean)).collect()
    }

    /// The ratios 'auto' uses now: proportional for the first two runs (equal, then
    /// measured), the fastest device alone on the third, then whichever of the two
    /// measured faster.
    pub fn ratios(&self) -> Vec<f64> {
        let split = self.proportional();
        let n = split.len();
        let alone = |i: usize| (0..n).map(|k| f64::from(u8::from(k == i))).collect();
        if n < 2 || self.runs < 2 {
            return split;
        }
        match (self.split_cost, self.alone_cost) {
            (_, None) => {
                let fastest = (0..n)
                    .max_by(|&i, &j| split[i].total_cmp(&split[j]))
                    .unwrap_or(0);
                alone(fastest)
            }
            (Some(s), Some((i, a))) if a < s => alone(i),
            _ => split,
        }
    }

    /// Takes a run's measurements: `work[i]` multiply-adds done by device i in
    /// `ms[i]` milliseconds (devices with no work keep their estimate), the whole
    /// call in `total_ms`; `auto` if 'auto' chose the ratios.
    pub fn update(&mut self, work: &[f64], ms: &[f64], total_ms: f64, auto: bool) {
        for ((t, &w), &ms) in self.throughput.iter_mut().zip(work).zip(ms) {
            if w > 0.0 && ms.is_finite() && ms > 0.0 {
                *t = Some(blend(*t, w / ms));
            }
        }
        let all: f64 = work.iter().sum();
        if !auto || all <= 0.0 || !total_ms.is_finite() {
            return;
        }
        self.runs += 1;
        // The first run's split is equal, not balanced: it measures throughputs only.
        if self.runs == 1 {
            return;
        }
        let cost = total_ms / all;
        let used: Vec<usize> = (0..work.len()).filter(|&i| work[i] > 0.0).collect();
        match used[..] {
            [i] if work.len() > 1 => {
                let old = self.alone_cost.filter(|(k, _)| *k == i).map(|(_, c)| c);
                self.alone_cost = Some((i, blend(old, cost)));
            }
            _ => self.split_cost = Some(blend(self.split_cost, cost)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_follow_the_ratios_and_add_up() {
        assert_eq!(split_rows(10, &[1.0, 1.0]).unwrap(), [5, 5]);
        assert_eq!(split_rows(11, &[1.0, 1.0]).unwrap(), [6, 5]);
        assert_eq!(split_rows(7, &[0.0, 1.0]).unwrap(), [0, 7]);
        assert_eq!(split_rows(7, &[1.0, 0.0]).unwrap(), [7, 0]);
        assert_eq!(split_rows(1, &[1.0, 1.0, 1.0]).unwrap(), [1, 0, 0]);
        assert_eq!(split_rows(100, &[0.3, 0.7]).unwrap(), [30, 70]);
        assert_eq!(split_rows(101, &[1.0, 2.0, 2.0]).unwrap(), [20, 41, 40]);
        for rows in [1, 2, 3, 17, 1023] {
            for ratios in [[0.1, 0.2, 0.7], [5.0, 0.0, 1.0], [1e-9, 1.0, 1e9]] {
                let parts = split_rows(rows, &ratios).unwrap();
                assert_eq!(parts.iter().sum::<usize>(), rows);
                for (p, r) in parts.iter().zip(ratios) {
                    assert!(r > 0.0 || *p == 0);
                    let want = r / ratios.iter().sum::<f64>() * rows as f64;
                    assert!((*p as f64 - want).abs() < 1.0 + 1e-9, "{rows} {ratios:?}");
                }
            }
        }
    }

    /// Finite ratios whose sum overflows to Infinity split as any others: every share
    /// was 0, and the largest-remainder pass handed the rows round every device.
    #[test]
    fn ratios_whose_sum_overflows_split_in_proportion() {
        assert_eq!(
            split_rows(9, &[f64::MAX, f64::MAX, 1.0]).unwrap(),
            [5, 4, 0]
        );
        assert_eq!(shares(&[1e308, 1e308]), [0.5, 0.5]);
        assert_eq!(shares(&[f64::MAX, 0.0, f64::MAX / 4.0]), [0.8, 0.0, 0.2]);
    }

    #[test]
    fn bad_ratios_are_refused() {
        for r in [
            [0.0, 0.0],
            [-1.0, 2.0],
            [f64::NAN, 1.0],
            [f64::INFINITY, 1.0],
        ] {
            let e = split_rows(4, &r).unwrap_err();
            assert_eq!(e.code(), "BAD_ARGUMENT");
        }
    }

    /// Runs 'auto' `runs` times on devices of `speed` (multiply-adds per ms) with a
    /// fixed cost of 2 ms each; `contention` slows every device by that factor when
    /// more than one works. Returns the last run's per-device times and ratios.
    fn simulate(speed: [f64; 2], contention: f64, runs: usize) -> ([f64; 2], Vec<f64>, Balance) {
        let work = 1.0e9;
        let mut b = Balance::new(2);
        let (mut times, mut r) = ([0.0; 2], vec![]);
        for _ in 0..runs {
            r = b.ratios();
            let share: Vec<f64> = r.iter().map(|x| x / r.iter().sum::<f64>() * work).collect();
            let busy = share.iter().filter(|&&w| w > 0.0).count();
            let slow = if busy > 1 { contention } else { 1.0 };
            times = [0, 1].map(|i| match share[i] > 0.0 {
                true => 2.0 + share[i] / speed[i] * slow,
                false => 0.0,
            });
            b.update(&share, &times, times[0].max(times[1]), true);
        }
        (times, r, b)
    }

    #[test]
    fn auto_balances_independent_devices_to_equal_times() {
        let (times, r, _) = simulate([1.0e6, 3.0e6], 1.0, 10);
        assert!(r.iter().all(|&x| x > 0.0), "both devices work: {r:?}");
        assert!((times[0] - times[1]).abs() / times[1] < 0.02, "{times:?}");
    }

    #[test]
    fn auto_keeps_one_device_when_sharing_the_hardware_is_slower() {
        // Both "devices" on the same cores: together each runs at a third of its speed.
        let (times, r, b) = simulate([1.0e6, 3.0e6], 3.0, 10);
        assert_eq!(r[0], 0.0, "the slow device is left out: {r:?} {b:?}");
        assert_eq!(times[1], 2.0 + 1.0e9 / 3.0e6);
        // A device that got no work keeps its estimate.
        let mut after = b.clone();
        after.update(&[0.0, 1.0e6], &[0.0, 1.0], 1.0, false);
        assert_eq!(after.throughput[0], b.throughput[0]);
        assert_eq!(
            after.runs, b.runs,
            "given ratios are not counted as 'auto' runs"
        );
    }
}
