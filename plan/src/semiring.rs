//! The algebra a product runs in. The GPU kernels take the same choice as a
//! compile-time define (see glsl/common/semiring.glsl), so one kernel serves every use.

use std::borrow::Cow;

use crate::error::{GpgpuError, Result};

/// "No edge" in the (min, +) semiring. GLSL ES does not promise IEEE infinities, so
/// unreachable is this explicit finite value, far above any real path length
/// (|weights| · n must stay below 1e29), and sums involving it stay at it.
pub const NO_EDGE: f32 = 1.0e30;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Semiring {
    /// (+, ×): the ordinary matrix product.
    #[default]
    Ordinary,
    /// (OR, AND) on 0/1 values: nonzero counts as 1 and results are exactly 0 or 1.
    Boolean,
    /// (min, +): shortest paths; `NO_EDGE` is its zero.
    MinPlus,
}

impl Semiring {
    pub fn name(&self) -> &'static str {
        match self {
            Semiring::Ordinary => "ordinary",
            Semiring::Boolean => "boolean",
            Semiring::MinPlus => "min-plus",
        }
    }

    pub fn parse(name: &str) -> Option<Semiring> {
        [Semiring::Ordinary, Semiring::Boolean, Semiring::MinPlus]
            .into_iter()
            .find(|s| s.name() == name)
    }

    /// The additive identity: what padding and "nothing yet" hold.
    pub fn zero(&self) -> f64 {
        match self {
            Semiring::Ordinary | Semiring::Boolean => 0.0,
            Semiring::MinPlus => NO_EDGE as f64,
        }
    }

    /// The multiplicative identity: the diagonal of the identity matrix.
    pub fn one(&self) -> f64 {
        match self {
            Semiring::Ordinary | Semiring::Boolean => 1.0,
            Semiring::MinPlus => 0.0,
        }
    }

    pub fn add(&self, x: f64, y: f64) -> f64 {
        match self {
            Semiring::Ordinary => x + y,
            Semiring::Boolean => (x != 0.0 || y != 0.0) as u8 as f64,
            Semiring::MinPlus => x.min(y),
        }
    }

    /// Refuses data the semiring has no meaning for: in (min, +) a length at or below
    /// −NO_EDGE / 2 (−Infinity included) would beat every path, and added to "no edge"
    /// it would even make a path through an edge that does not exist.
    pub fn check_domain(&self, name: &str, data: &[f32]) -> Result<()> {
        if *self != Semiring::MinPlus {
            return Ok(());
        }
        match data.iter().position(|&v| v <= -0.5 * NO_EDGE) {
            None => Ok(()),
            Some(i) => Err(GpgpuError::BadArgument {
                name: name.into(),
                detail: format!(
                    "entry {i} is {}, which the (min, +) semiring cannot use: give a length \
                     above −5e29, or +Infinity (or NaN) for no edge",
                    if data[i] == f32::NEG_INFINITY {
                        "−Infinity".to_string()
                    } else {
                        crate::decimal::exponential(data[i], None)
                    }
                ),
            }),
        }
    }

    /// Brings caller data into the semiring's domain before upload: Boolean maps
    /// nonzero (NaN included) to 1; MinPlus maps +Inf, NaN and anything at or above
    /// NO_EDGE / 2 to NO_EDGE. Ordinary data passes untouched.
    pub fn prepare<'a>(&self, data: &'a [f32]) -> Cow<'a, [f32]> {
        match self {
            Semiring::Ordinary => Cow::Borrowed(data),
            Semiring::Boolean => {
                Cow::Owned(data.iter().map(|&v| (v != 0.0) as u8 as f32).collect())
            }
            Semiring::MinPlus => Cow::Owned(
                data.iter()
                    .map(|&v| {
                        if v.is_nan() || v >= 0.5 * NO_EDGE {
                            NO_EDGE
                        } else {
                            v
                        }
                    })
                    .collect(),
            ),
        }
    }

    /// Brings GPU results back into the caller's terms, undoing `prepare`: MinPlus
    /// turns NO_EDGE (and anything at or above NO_EDGE / 2) back into +Infinity.
    pub fn decode(&self, mut data: Vec<f32>) -> Vec<f32> {
        self.decode_in_place(&mut data);
        data
    }

    /// [`Self::decode`] on a slice.
    pub fn decode_in_place(&self, data: &mut [f32]) {
        if *self == Semiring::MinPlus {
            for v in data.iter_mut().filter(|v| **v >= 0.5 * NO_EDGE) {
                *v = f32::INFINITY;
            }
        }
    }

    pub fn mul(&self, x: f64, y: f64) -> f64 {
        match self {
            Semiring::Ordinary => x * y,
            Semiring::Boolean => (x != 0.0 && y != 0.0) as u8 as f64,
            Semiring::MinPlus => {
                let none = NO_EDGE as f64;
                if x >= none || y >= none {
                    none
                } else {
                    x + y
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_brought_into_the_domain() {
        let data = [0.0, 2.5, -1.0, f32::NAN, f32::INFINITY, 1e31];
        assert_eq!(
            &*Semiring::Boolean.prepare(&data),
            &[0.0, 1.0, 1.0, 1.0, 1.0, 1.0]
        );
        assert_eq!(
            &*Semiring::MinPlus.prepare(&data),
            &[0.0, 2.5, -1.0, NO_EDGE, NO_EDGE, NO_EDGE]
        );
        assert!(matches!(
            Semiring::Ordinary.prepare(&data),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn min_plus_refuses_lengths_that_beat_no_edge() {
        let ok = [0.0, -3.0, f32::INFINITY, f32::NAN, -4e29];
        for s in [Semiring::Ordinary, Semiring::Boolean, Semiring::MinPlus] {
            assert_eq!(s.check_domain("m", &ok), Ok(()));
        }
        let err = Semiring::MinPlus
            .check_domain("weights", &[0.0, f32::NEG_INFINITY])
            .unwrap_err();
        assert_eq!(err.code(), "BAD_ARGUMENT");
        assert!(err.to_string().contains("entry 1 is −Infinity"), "{err}");
        let err = Semiring::MinPlus.check_domain("a", &[-6e29]).unwrap_err();
        assert!(err.to_string().starts_with("a: entry 0 is -6e29"), "{err}");
        assert_eq!(
            Semiring::Ordinary.check_domain("m", &[f32::NEG_INFINITY]),
            Ok(())
        );
    }

    #[test]
    fn min_plus_results_come_back_with_infinity_for_no_path() {
        let prepared = Semiring::MinPlus
            .prepare(&[3.0, f32::INFINITY, 0.6e30])
            .into_owned();
        assert_eq!(
            Semiring::MinPlus.decode(prepared),
            vec![3.0, f32::INFINITY, f32::INFINITY]
        );
        assert_eq!(Semiring::Ordinary.decode(vec![1e30]), vec![1e30]);
    }

    #[test]
    fn names_round_trip() {
        for s in [Semiring::Ordinary, Semiring::Boolean, Semiring::MinPlus] {
            assert_eq!(Semiring::parse(s.name()), Some(s));
        }
    }
}
