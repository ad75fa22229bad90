//! How a row-major matrix is laid out in GPU textures (WebGL) or buffers (WebGPU),
//! and the packing and unpacking between the two. Pure Rust: tested natively.
//!
//! * `Scalar`: one R32F texture, one element per texel, texel (x = j, y = i).
//!   The tutorial's layout; no padding.
//! * `Packed { planes }`: `planes` RGBA32F textures; a texel holds four consecutive
//!   columns of one row, and row i lives in plane i % planes at y = i / planes.
//!   Rows and columns are padded to a multiple of `pad()` with the semiring's zero,
//!   so the kernels never read outside a texture and padding never adds to a sum.
//!   With one plane a row-major matrix whose sides are multiples of 4 uploads as is.
//! * `Linear`: the row-major array itself in one WebGPU storage buffer, no padding:
//!   the compute kernels check their edges instead.

use std::borrow::Cow;

use super::error::Result;
use super::shape::Shape;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    Scalar,
    Packed { planes: usize },
    Linear,
}

impl Layout {
    /// How many textures hold one matrix.
    pub fn planes(&self) -> usize {
        match *self {
            Layout::Scalar | Layout::Linear => 1,
            Layout::Packed { planes } => planes,
        }
    }

    /// Floats per texel.
    pub fn channels(&self) -> usize {
        match self {
            Layout::Scalar | Layout::Linear => 1,
            Layout::Packed { .. } => 4,
        }
    }

    /// Both sides are padded to a multiple of this.
    pub fn pad(&self) -> usize {
        match *self {
            Layout::Scalar | Layout::Linear => 1,
            Layout::Packed { planes } => planes.max(4),
        }
    }

    /// The shape after padding.
    pub fn padded(&self, shape: Shape) -> Shape {
        let p = self.pad();
        Shape::new(shape.rows.div_ceil(p) * p, shape.cols.div_ceil(p) * p)
    }

    /// Width and height in texels of each plane.
    pub fn texture_size(&self, shape: Shape) -> (usize, usize) {
        let padded = self.padded(shape);
        match self {
            Layout::Scalar | Layout::Linear => (shape.cols, shape.rows),
            Layout::Packed { planes } => (padded.cols / 4, padded.rows / planes),
        }
    }

    /// When the rows of the row-major array can be handed to the GPU as they are,
    /// plane by plane, with a row stride (UNPACK_/PACK_ROW_LENGTH) and an offset
    /// (UNPACK_/PACK_SKIP_PIXELS): Some((row_length, skip_per_plane)) in texels.
    /// That is when there are several planes and no padding: plane r's row y is the
    /// matrix's row planes·y + r, so texture rows are every planes-th matrix row.
    pub fn strided_rows(&self, shape: Shape) -> Option<(usize, usize)> {
        match *self {
            Layout::Packed { planes } if planes > 1 && self.padded(shape) == shape => {
                let texels_per_row = shape.cols / 4;
                Some((planes * texels_per_row, texels_per_row))
            }
            _ => None,
        }
    }

    /// The texel data of each plane, ready for texImage2D. `pad_value` fills the padding.
    pub fn pack<'a>(&self, shape: Shape, data: &'a [f32], pad_value: f32) -> Vec<Cow<'a, [f32]>> {
        debug_assert_eq!(data.len(), shape.len());
        let padded = self.padded(shape);
        if self.planes() == 1 && padded == shape {
            return vec![Cow::Borrowed(data)];
        }
        let planes = self.planes();
        let (w, h) = self.texture_size(shape);
        let row_len = w * self.channels();
        let mut out = vec![vec![pad_value; row_len * h]; planes];
        for (i, row) in data.chunks_exact(shape.cols).enumerate() {
            let start = (i / planes) * row_len;
            out[i % planes][start..start + shape.cols].copy_from_slice(row);
        }
        out.into_iter().map(Cow::Owned).collect()
    }

    /// Rebuilds the row-major matrix from each plane's texel data (as `pack` made it);
    /// OUT_OF_MEMORY where wasm memory cannot give it (a readback's copy, which
    /// aborted there).
    pub fn unpack(&self, shape: Shape, planes: &[&[f32]]) -> Result<Vec<f32>> {
        let (w, _) = self.texture_size(shape);
        let row_len = w * self.channels();
        let p = self.planes();
        let mut out = crate::error::room(shape.rows.saturating_mul(shape.cols), || {
            format!("the readback of a {}x{} matrix", shape.rows, shape.cols)
        })?;
        for i in 0..shape.rows {
            let start = (i / p) * row_len;
            out.extend_from_slice(&planes[i % p][start..start + shape.cols]);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matrix(shape: Shape) -> Vec<f32> {
        (0..shape.len()).map(|v| v as f32 + 1.0).collect()
    }

    #[test]
    fn scalar_and_linear_layouts_are_the_row_major_array_itself() {
        let s = Shape::new(3, 5);
        let m = matrix(s);
        for layout in [Layout::Scalar, Layout::Linear] {
            let planes = layout.pack(s, &m, 0.0);
            assert!(matches!(planes[0], Cow::Borrowed(_)));
            assert_eq!(layout.texture_size(s), (5, 3));
            assert_eq!(layout.padded(s), s);
            assert_eq!(layout.unpack(s, &[&planes[0]]).unwrap(), m);
        }
    }

    #[test]
    fn packed_layouts_round_trip_for_odd_shapes() {
        for planes in [1, 2, 4, 8] {
            let layout = Layout::Packed { planes };
            for (rows, cols) in [(1, 1), (3, 5), (17, 2), (8, 8), (257, 13), (1, 100)] {
                let s = Shape::new(rows, cols);
                let m = matrix(s);
                let packed = layout.pack(s, &m, -9.0);
                let (w, h) = layout.texture_size(s);
                assert_eq!(packed.len(), planes);
                for p in &packed {
                    assert_eq!(p.len(), w * h * 4);
                }
                let views: Vec<&[f32]> = packed.iter().map(|p| &p[..]).collect();
                let back = layout.unpack(s, &views).unwrap();
                assert_eq!(back, m, "planes {planes} shape {s:?}");
                // Padding holds exactly the pad value: count it.
                let pads = packed.iter().flat_map(|p| p.iter()).filter(|&&v| v == -9.0);
                assert_eq!(pads.count(), layout.padded(s).len() - s.len());
            }
        }
    }

    #[test]
    fn packed_planes_interleave_rows() {
        let layout = Layout::Packed { planes: 4 };
        let s = Shape::new(8, 4);
        let m = matrix(s);
        let packed = layout.pack(s, &m, 0.0);
        assert_eq!(layout.texture_size(s), (1, 2));
        // Row 5 = plane 1, y = 1.
        assert_eq!(&packed[1][4..8], &m[20..24]);
    }

    #[test]
    fn strided_rows_address_the_same_texels_as_pack() {
        let layout = Layout::Packed { planes: 4 };
        let s = Shape::new(8, 12);
        let m = matrix(s);
        let (row_length, skip) = layout.strided_rows(s).unwrap();
        let packed = layout.pack(s, &m, 0.0);
        let (w, h) = layout.texture_size(s);
        for (r, plane) in packed.iter().enumerate() {
            for y in 0..h {
                let start = (y * row_length + r * skip) * 4;
                assert_eq!(&plane[y * w * 4..(y + 1) * w * 4], &m[start..start + w * 4]);
            }
        }
        assert_eq!(
            layout.strided_rows(Shape::new(9, 12)),
            None,
            "padding needs a copy"
        );
        assert_eq!(Layout::Packed { planes: 1 }.strided_rows(s), None);
        assert_eq!(Layout::Scalar.strided_rows(s), None);
    }

    #[test]
    fn one_plane_aligned_uploads_without_copy() {
        let s = Shape::new(8, 12);
        let m = matrix(s);
        let packed = Layout::Packed { planes: 1 }.pack(s, &m, 0.0);
        assert!(matches!(packed[0], Cow::Borrowed(_)));
    }

    #[test]
    fn a_readback_memory_cannot_hold_is_out_of_memory_not_an_abort() {
        // Vec::with_capacity aborted ("capacity overflow") where this asks first.
        let e = Layout::Scalar
            .unpack(Shape::new(usize::MAX / 4, 2), &[&[]])
            .unwrap_err();
        assert_eq!(e.code(), "OUT_OF_MEMORY");
        assert!(e.to_string().contains("the readback of a"), "{e}");
    }
}
