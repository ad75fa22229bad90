//! Shapes and the validation of everything a caller passes in: dimensions,
//! counts and array lengths. Pure Rust, so it is tested natively.

use crate::error::{GpgpuError, NumberProblem, Result};

/// Largest exponent accepted: every integer up to 2^53 is exact in an f64.
pub const MAX_COUNT: f64 = 9_007_199_254_740_992.0;

/// The most bytes one array may take in WebAssembly memory: an allocation on wasm32 is
/// at most isize::MAX bytes (2 GiB). Past it Rust panics with "capacity overflow"
/// (RuntimeError: unreachable in the page), however much of the 4 GiB is free.
pub const MAX_ARRAY_BYTES: f64 = i32::MAX as f64;

/// A matrix shape: `rows` × `cols`, stored row-major (element (i, j) at i·cols + j).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
}

impl Shape {
    pub fn new(rows: usize, cols: usize) -> Self {
        Shape { rows, cols }
    }
    pub fn square(n: usize) -> Self {
        Shape { rows: n, cols: n }
    }
    pub fn len(&self) -> usize {
        self.rows * self.cols
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Checks that `out` = `a` · `b` fits: `a`'s columns are `b`'s rows and `out` is
/// a.rows × b.cols. A public engine call made with the wrong matrices is an error
/// here, not a panic.
pub fn check_product(what: &str, a: Shape, b: Shape, out: Shape) -> Result<()> {
    if a.cols == b.rows && out == Shape::new(a.rows, b.cols) {
        return Ok(());
    }
    Err(GpgpuError::BadArgument {
        name: what.into(),
        detail: format!(
            "a {}x{} matrix times a {}x{} one into a {}x{} one: the shapes do not fit",
            a.rows, a.cols, b.rows, b.cols, out.rows, out.cols
        ),
    })
}

fn number_problem(value: f64) -> Option<NumberProblem> {
    if !value.is_finite() {
        Some(NumberProblem::NotFinite)
    } else if value.fract() != 0.0 {
        Some(NumberProblem::NotInteger)
    } else if value < 0.0 {
        Some(NumberProblem::Negative)
    } else {
        None
    }
}

/// A bound on rows or columns other than the device's (WebAssembly's memory, a
/// format's own), named in the SIZE_OVER_LIMIT error of a dimension past it.
pub struct SideBound {
    pub limit: usize,
    /// What the limit is, as the error names it.
    pub named: &'static str,
    /// What to do instead.
    pub hint: &'static str,
}

impl SideBound {
    /// The error for dimension `name` = `value`, past this bound.
    pub fn refuse(&self, name: &str, value: f64) -> GpgpuError {
        GpgpuError::DeviceLimit {
            what: format!("{name} = {}", crate::error::js_number(value)),
            needed: value,
            unit: "rows or columns",
            limit_name: self.named,
            limit: self.limit as f64,
            hint: self.hint,
        }
    }
}

/// A dimension: a whole number in 1..=limit (limit = the device's texture/viewport limit).
pub fn dimension(name: &str, value: f64, limit: usize) -> Result<usize> {
    let bad = |problem| GpgpuError::BadDimension {
        name: name.into(),
        value,
        problem,
    };
    if let Some(p) = number_problem(value) {
        return Err(bad(p));
    }
    if value == 0.0 {
        return Err(bad(NumberProblem::Zero));
    }
    if value > limit as f64 {
        return Err(GpgpuError::SizeOverLimit {
            name: name.into(),
            value,
            limit,
        });
    }
    Ok(value as usize)
}

/// An exponent or repeat count: a whole number in 0..=max.
pub fn count(name: &str, value: f64, max: f64) -> Result<u64> {
    count_from(name, value, 0, max)
}

/// A count that must be a whole number in min..=max (min 0 or 1): BadCount, whose
/// message states that range, otherwise.
pub fn count_from(name: &str, value: f64, min: u64, max: f64) -> Result<u64> {
    let bad = |problem| GpgpuError::BadCount {
        name: name.into(),
        value,
        problem,
        min,
        max,
    };
    if let Some(p) = number_problem(value) {
        return Err(bad(p));
    }
    if value > max {
        return Err(bad(NumberProblem::TooLarge { limit: max }));
    }
    if value < min as f64 {
        // Only 0 is a whole number >= 0 below min = 1.
        return Err(bad(NumberProblem::Zero));
    }
    Ok(value as u64)
}

/// Checks that every entry of `values` is finite, for an algorithm (`who`) that a
/// NaN or an infinity would derail: BAD_ARGUMENT naming the first that is not.
pub fn check_finite(name: &str, values: &[f32], who: &str) -> Result<()> {
    match values.iter().position(|v| !v.is_finite()) {
        None => Ok(()),
        Some(at) => Err(GpgpuError::BadArgument {
            name: name.into(),
            detail: format!(
                "{name}[{at}] is {}: {who} needs finite numbers",
                crate::error::js_number(values[at] as f64)
            ),
        }),
    }
}

/// Checks that `len` elements make a `shape` matrix.
pub fn check_len(name: &str, shape: Shape, len: usize) -> Result<()> {
    // In u64: rows × cols of a huge batch wraps a wasm32 usize (to 0 for 2^32).
    if len as u64 != shape.rows as u64 * shape.cols as u64 {
        return Err(GpgpuError::BadLength {
            name: name.into(),
            rows: shape.rows,
            cols: shape.cols,
            actual: len,
        });
    }
    Ok(())
}

/// The shapes of A (rows × inner), B (inner × cols) and their product, once the
/// lengths of `a` and `b` are checked against the first two.
pub fn product_shapes([rows, inner, cols]: [usize; 3], a: usize, b: usize) -> Result<[Shape; 3]> {
    let (sa, sb) = (Shape::new(rows, inner), Shape::new(inner, cols));
    check_len("a", sa, a)?;
    check_len("b", sb, b)?;
    Ok([sa, sb, Shape::new(rows, cols)])
}

/// The order of `(row, column, index)` cells by row, then column, then index: the
/// sorted cells' indices. One sort for every caller (each sort's type is a copy of
/// the whole sort in the wasm), and with the index in the key equal cells keep their
/// input order, as a stable sort would.
pub(crate) fn cell_order(mut cells: Vec<(usize, usize, usize)>) -> Vec<usize> {
    cells.sort_unstable();
    cells.into_iter().map(|(_, _, k)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimensions_must_be_whole_positive_and_within_the_limit() {
        assert_eq!(dimension("n", 1.0, 8192), Ok(1));
        assert_eq!(dimension("n", 8192.0, 8192), Ok(8192));
        let code = |v: f64| dimension("n", v, 8192).unwrap_err().code();
        assert_eq!(code(0.0), "BAD_DIMENSION");
        assert_eq!(code(-3.0), "BAD_DIMENSION");
        assert_eq!(code(2.5), "BAD_DIMENSION");
        assert_eq!(code(f64::NAN), "BAD_DIMENSION");
        assert_eq!(code(f64::INFINITY), "BAD_DIMENSION");
        assert_eq!(code(8193.0), "SIZE_OVER_LIMIT");
        assert_eq!(code(1e300), "SIZE_OVER_LIMIT");
        let msg = dimension("rows", 2.5, 10).unwrap_err().to_string();
        assert!(msg.contains("rows = 2.5 is not an integer"), "{msg}");
    }

    #[test]
    fn counts_may_be_zero_but_not_negative_or_fractional() {
        assert_eq!(count("p", 0.0, MAX_COUNT), Ok(0));
        assert_eq!(count("p", 13.0, MAX_COUNT), Ok(13));
        for bad in [-1.0, 0.5, f64::NAN, f64::NEG_INFINITY, 1e17] {
            assert_eq!(count("p", bad, MAX_COUNT).unwrap_err().code(), "BAD_COUNT");
        }
        assert_eq!(count("times", 65.0, 64.0).unwrap_err().code(), "BAD_COUNT");
    }

    #[test]
    fn lengths_must_match_the_shape() {
        assert!(check_len("a", Shape::new(3, 5), 15).is_ok());
        let e = check_len("a", Shape::new(3, 5), 14).unwrap_err();
        assert_eq!(e.code(), "BAD_LENGTH");
        assert!(e.to_string().contains("3x5"));
    }
}
