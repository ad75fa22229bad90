//! Statistics on the CPU: one loop over the matrix, when the queue reaches it.

use crate::common::Stats;
use crate::cpu::{CpuEngine, CpuMatrix, CpuRead};
use crate::plan::semiring::NO_EDGE;

/// Statistics of `m` (see [`stats`]), computed when the queue has run, from the
/// matrix itself (no copy).
pub fn stats(e: &mut CpuEngine, m: &CpuMatrix, no_edge: bool) -> CpuRead<Stats> {
    e.read_with(m, move |data| stats_of(data, no_edge))
}

/// Statistics as the GPU reductions compute them (finite entries only). `no_edge`: a
/// min-plus matrix, whose entries ≥ NO_EDGE / 2 mean "no edge" and read back as
/// +Infinity, so they count with the infinities.
pub fn stats_of(data: &[f32], no_edge: bool) -> Stats {
    let mut s = Stats {
        max_abs: 0.0,
        nan: 0.0,
        inf: 0.0,
        sum_abs: 0.0,
        sum_sq: 0.0,
        min: f32::MAX,
        max: -f32::MAX,
    };
    for &v in data {
        if v.is_nan() {
            s.nan += 1.0;
        } else if v.is_infinite() || (no_edge && v >= 0.5 * NO_EDGE) {
            s.inf += 1.0;
        } else {
            s.max_abs = s.max_abs.max(v.abs());
            s.sum_abs += v.abs();
            s.sum_sq += v * v;
            s.min = s.min.min(v);
            s.max = s.max.max(v);
        }
    }
    s.finished()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_plus_stats_count_no_edge_with_the_infinities() {
        let d = [0.0, 2.5, NO_EDGE, 0.6 * NO_EDGE, f32::INFINITY, -1.0];
        let s = stats_of(&d, true);
        assert_eq!((s.inf, s.max_abs, s.min, s.max), (3.0, 2.5, -1.0, 2.5));
        assert_eq!((s.sum_abs, s.sum_sq), (3.5, 7.25));
        // Ordinary data: 1e30 is finite.
        let s = stats_of(&d, false);
        assert_eq!((s.inf, s.max_abs, s.max), (1.0, NO_EDGE, NO_EDGE));
    }
}
