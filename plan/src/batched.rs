//! Batched small matrices, the pure part: the sizes a batch may have, how its
//! matrices lie side by side in GPU memory ([`Atlas`], the developer's log's
//! "side by side" layout), and the float64 reference. Tested natively.

use crate::blocks::Atlas;
use crate::error::{GpgpuError, Result};
use crate::shape::{self, Shape};

/// The largest side of a batched matrix: small matrices, one invocation or
/// fragment per output entry looping over at most this many terms.
pub const MAX_SIDE: usize = 32;

/// A side of the batch's matrices: a whole number from 1 to [`MAX_SIDE`].
pub fn side(name: &str, value: f64) -> Result<usize> {
    // Compared as a number first: read as a usize up to usize::MAX, 2^32 and more were
    // SIZE_OVER_LIMIT "this device's limit of 4294967295", where 33 was this message.
    if value.is_finite() && value > MAX_SIDE as f64 {
        return Err(GpgpuError::BadArgument {
            name: name.into(),
            detail: format!(
                "is {}; batched matrices are small, at most {MAX_SIDE} on a side (for larger \
                 ones use multiply, one product at a time)",
                crate::error::js_number(value)
            ),
        });
    }
    shape::dimension(name, value, MAX_SIDE)
}

/// The number of matrices in a batch: a whole number from 1 (the device's memory
/// bounds it from above, checked when the atlases are made).
pub fn count(value: f64) -> Result<usize> {
    Ok(shape::count_from("batch", value, 1, u32::MAX as f64)? as usize)
}

/// Checks that `len` floats hold `count` matrices of `tile`.
pub fn check_len(name: &str, count: usize, tile: Shape, len: usize) -> Result<()> {
    match count.checked_mul(tile.rows) {
        Some(rows) => shape::check_len(name, Shape::new(rows, tile.cols), len),
        // More rows than a usize counts: no array could hold them.
        None => Err(GpgpuError::SizeOverLimit {
            name: "batch".into(),
            value: count as f64,
            limit: usize::MAX / tile.rows.max(1),
        }),
    }
}

/// What the batched product kernels are told: how many products, and the atlas of
/// A (rows×inner tiles), B (inner×cols) and C (rows×cols).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchedProduct {
    pub count: usize,
    pub a: Atlas,
    pub b: Atlas,
    pub c: Atlas,
}

impl BatchedProduct {
    /// `count` products of rows×inner by inner×cols, atlases at most `width` wide.
    pub fn new(count: usize, [rows, inner, cols]: [usize; 3], width: usize) -> BatchedProduct {
        BatchedProduct {
            count,
            a: Atlas::new(Shape::new(rows, inner), width),
            b: Atlas::new(Shape::new(inner, cols), width),
            c: Atlas::new(Shape::new(rows, cols), width),
        }
    }

    /// Output entries: one invocation or fragment each.
    pub fn entries(&self) -> usize {
        self.count * self.c.tile.len()
    }
}

/// The float64 reference: `count` products, each rows×inner by inner×cols.
pub fn reference_product(
    count: usize,
    [rows, inner, cols]: [usize; 3],
    a: &[f32],
    b: &[f32],
) -> Vec<f64> {
    let mut out = vec![0f64; count * rows * cols];
    for s in 0..count {
        let (a, b) = (&a[s * rows * inner..], &b[s * inner * cols..]);
        let c = &mut out[s * rows * cols..(s + 1) * rows * cols];
        for i in 0..rows {
            for k in 0..inner {
                let x = a[i * inner + k] as f64;
                for j in 0..cols {
                    c[i * cols + j] += x * b[k * cols + j] as f64;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_and_counts_are_checked() {
        assert_eq!(side("rows", 32.0).unwrap(), 32);
        assert!(matches!(
            side("rows", 33.0),
            Err(GpgpuError::BadArgument { .. })
        ));
        assert!(matches!(
            side("rows", 0.0),
            Err(GpgpuError::BadDimension { .. })
        ));
        // Past wasm32's usize too: the same message, not a device limit of 2^32 - 1.
        for big in [4294967296.0, 1e300] {
            let e = side("rows", big).unwrap_err();
            assert_eq!(e.code(), "BAD_ARGUMENT", "{e}");
            assert!(e.to_string().contains("at most 32 on a side"), "{e}");
        }
        assert!(matches!(count(0.0), Err(GpgpuError::BadCount { .. })));
        assert!(matches!(count(1.5), Err(GpgpuError::BadCount { .. })));
        assert_eq!(count(2000.0).unwrap(), 2000);
        assert!(check_len("a", 3, Shape::new(2, 2), 12).is_ok());
        assert!(matches!(
            check_len("a", 3, Shape::new(2, 2), 11),
            Err(GpgpuError::BadLength { .. })
        ));
        // 2^22 matrices of 32 x 32 are 2^32 floats: 4 numbers are not them (in a
        // wasm32 usize the product wraps to 0, which once let an empty array pass).
        let e = check_len("a", 1 << 22, Shape::new(32, 32), 4).unwrap_err();
        assert_eq!(e.code(), "BAD_LENGTH");
        assert!(e.to_string().contains("needs 4294967296"), "{e}");
        assert!(check_len("a", 1 << 22, Shape::new(32, 32), 0).is_err());
        // Every refusal states the one range a batch may have (0 and 1.5 alike).
        let zero = count(0.0).unwrap_err().to_string();
        assert_eq!(
            zero,
            "batch = 0: it must be a whole number from 1 to 4294967295."
        );
        let half = count(1.5).unwrap_err().to_string();
        assert_eq!(
            half,
            "batch = 1.5 is not an integer: it must be a whole number from 1 to 4294967295."
        );
    }

    #[test]
    fn the_reference_multiplies_each_pair() {
        let a = [1.0, 2.0, 3.0, 4.0, /* second */ 0.0, 1.0, 1.0, 0.0];
        let b = [5.0, 6.0, 7.0, 8.0, /* second */ 1.0, 2.0, 3.0, 4.0];
        let c = reference_product(2, [2, 2, 2], &a, &b);
        assert_eq!(c, [19.0, 22.0, 43.0, 50.0, 3.0, 4.0, 1.0, 2.0]);
        let p = BatchedProduct::new(2000, [3, 3, 3], 4096);
        assert_eq!(p.entries(), 18000);
        assert_eq!(p.c.per_row, 1365);
    }
}
