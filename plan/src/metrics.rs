//! How far a float32 GPU result is from the float64 reference. The same
//! definitions live in www/reference.js for the page.

/// Error metrics of a result against a reference of the same length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Metrics {
    /// max |r − ref| over entries where both are finite.
    pub max_abs: f64,
    /// max |r − ref| / |ref| over entries where ref is finite and nonzero.
    pub max_rel: f64,
    /// ‖R − Ref‖_F / ‖Ref‖_F over finite entries (‖R − Ref‖_F itself when Ref is 0).
    pub rel_frobenius: f64,
    /// Entries equal to the reference rounded to float32 (NaN matching NaN counts).
    pub exact: usize,
    /// Entries where one side is NaN or ±Inf and the other is not the same.
    pub nonfinite_mismatch: usize,
    pub total: usize,
}

pub fn compare(result: &[f32], reference: &[f64]) -> Metrics {
    assert_eq!(result.len(), reference.len());
    let mut m = Metrics {
        max_abs: 0.0,
        max_rel: 0.0,
        rel_frobenius: 0.0,
        exact: 0,
        nonfinite_mismatch: 0,
        total: result.len(),
    };
    let (mut diff2, mut ref2) = (0.0f64, 0.0f64);
    for (&r, &x) in result.iter().zip(reference) {
        let rounded = x as f32;
        if r == rounded || (r.is_nan() && rounded.is_nan()) {
            m.exact += 1;
        }
        let r = r as f64;
        if !r.is_finite() || !x.is_finite() {
            let same = (r.is_nan() && x.is_nan()) || r == x;
            m.nonfinite_mismatch += !same as usize;
            continue;
        }
        let d = (r - x).abs();
        m.max_abs = m.max_abs.max(d);
        if x != 0.0 {
            m.max_rel = m.max_rel.max(d / x.abs());
        }
        diff2 += d * d;
        ref2 += x * x;
    }
    m.rel_frobenius = if ref2 > 0.0 {
        (diff2 / ref2).sqrt()
    } else {
        diff2.sqrt()
    };
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_results_have_zero_error() {
        let m = compare(&[1.0, 2.0, -3.5], &[1.0, 2.0, -3.5]);
        assert_eq!(m.exact, 3);
        assert_eq!((m.max_abs, m.max_rel, m.rel_frobenius), (0.0, 0.0, 0.0));
    }

    #[test]
    fn metrics_of_a_known_difference() {
        // ref (3, 4): ‖ref‖ = 5; result (3, 4.5): diff 0.5.
        let m = compare(&[3.0, 4.5], &[3.0, 4.0]);
        assert_eq!(m.max_abs, 0.5);
        assert_eq!(m.max_rel, 0.125);
        assert!((m.rel_frobenius - 0.1).abs() < 1e-15);
        assert_eq!(m.exact, 1);
    }

    #[test]
    fn float32_rounding_counts_as_exact() {
        // 2^24 + 1 is not a float32: the nearest float32 is 2^24.
        let m = compare(&[16_777_216.0], &[16_777_217.0]);
        assert_eq!(m.exact, 1);
        assert_eq!(m.max_abs, 1.0);
    }

    #[test]
    fn nonfinite_entries_match_or_are_counted() {
        let m = compare(
            &[f32::NAN, f32::INFINITY, 1.0, f32::NAN],
            &[f64::NAN, f64::INFINITY, 1.0, 2.0],
        );
        assert_eq!(m.nonfinite_mismatch, 1);
        assert_eq!(m.exact, 3);
        assert_eq!(m.max_abs, 0.0);
    }
}
