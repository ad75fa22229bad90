//! The pure part of a split product: rows per device from ratios, and the
//! 'auto' ratios from measured throughput (tested natively).

use crate::error::{GpgpuError, Result};

/// Rows of C per device for `ratios` (each ≥ 0, not all 0): proportional, by the
/// largest remainder so they add up to `rows` exactly; a ratio of 0 gets no row.
pub fn split_rows(rows: usize, ratios: &[f64]) -> Result<Vec<usize>> {
    check_ratios(ratios)?;
    let total: f64 = ratios.iter().sum();
    let exact: Vec<f64> = ratios.iter().map(|r| r / total * rows as f64).collect();
    let mut parts: Vec<usize> = exact.iter().map(|x| x.floor() as usize).collect();
    let mut left = rows - parts.iter().sum::<usize>();
    let mut order: Vec<usize> = (0..ratios.len()).filter(|&i| ratios[i] > 0.0).collect();
    // Largest fractional part first; ties to the earlier device.
    order.sort_by(|&i, &j| {
        let (fi, fj) = (exact[i] - exact[i].floor(), exact[j] - exact[j].floor());
        fj.total_cmp(&fi).then(i.cmp(&j))
    });
    for &i in order.iter().cycle() {
        if left == 0 {
            break;
        }
        parts[i] += 1;
        left -= 1;
    }
    Ok(parts)
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

/// Each device's throughput estimate (multiply-adds per ms), refined after each
/// run: the 'auto' ratios are proportional to it, which makes every device's time
/// equal when time is proportional to work.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Balance {
    /// None until the device has computed a part.
    pub throughput: Vec<Option<f64>>,
}

/// How much of the new measurement an update keeps (the rest is the history): a
/// device's speed changes with the size and with what else runs.
const WEIGHT: f64 = 0.6;

impl Balance {
    pub fn new(devices: usize) -> Balance {
        Balance {
            throughput: vec![None; devices],
        }
    }

    /// The ratios to use now: proportional to the known throughputs; a device not
    /// measured yet gets the mean of the others (all equal at first).
    pub fn ratios(&self) -> Vec<f64> {
        let known: Vec<f64> = self.throughput.iter().flatten().copied().collect();
        let mean = match known.len() {
            0 => 1.0,
            n => known.iter().sum::<f64>() / n as f64,
        };
        self.throughput.iter().map(|t| t.unwrap_or(mean)).collect()
    }

    /// Takes a run's measurements: `work[i]` multiply-adds done by device i in
    /// `ms[i]` milliseconds (devices with no work keep their estimate).
    pub fn update(&mut self, work: &[f64], ms: &[f64]) {
        for ((t, &w), &ms) in self.throughput.iter_mut().zip(work).zip(ms) {
            if w > 0.0 && ms.is_finite() && ms > 0.0 {
                let now = w / ms;
                *t = Some(match *t {
                    Some(old) => WEIGHT * now + (1.0 - WEIGHT) * old,
                    None => now,
                });
            }
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

    #[test]
    fn the_balance_converges_to_equal_times() {
        // Two devices, the second 3x as fast, each with a fixed cost of 2 ms.
        let speed = [1.0e6, 3.0e6];
        let work = 1.0e9;
        let mut b = Balance::new(2);
        assert_eq!(b.ratios(), [1.0, 1.0]);
        let mut times = [0.0; 2];
        for _ in 0..8 {
            let r = b.ratios();
            let share: Vec<f64> = r.iter().map(|x| x / r.iter().sum::<f64>() * work).collect();
            times = [0, 1].map(|i| 2.0 + share[i] / speed[i]);
            b.update(&share, &times);
        }
        assert!((times[0] - times[1]).abs() / times[1] < 0.02, "{times:?}");
        // A device that got no work keeps its estimate.
        let before = b.clone();
        b.update(&[0.0, 1.0e6], &[0.0, 1.0]);
        assert_eq!(b.throughput[0], before.throughput[0]);
    }
}
