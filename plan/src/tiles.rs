//! Cutting a row-major matrix into tiles and pasting them back: the tiling that
//! takes products past the device limit (and Fox's and Cannon's blocks).

/// The pieces `n` is cut into by tiles of at most `tile`: (start, length), every
/// piece `tile` long but the last. The chapter's 3 = 2 + 1 is `pieces(3, 2)`.
pub fn pieces(n: usize, tile: usize) -> Vec<(usize, usize)> {
    let tile = tile.max(1);
    (0..n.div_ceil(tile))
        .map(|p| (p * tile, tile.min(n - p * tile)))
        .collect()
}

/// Rows `rows` (a range of pieces) and columns `cols` of a row-major matrix with
/// `width` columns, as a row-major array of their own.
pub fn cut(
    data: &[f32],
    width: usize,
    (r0, rows): (usize, usize),
    (c0, cols): (usize, usize),
) -> Vec<f32> {
    let mut out = Vec::with_capacity(rows * cols);
    for i in r0..r0 + rows {
        out.extend_from_slice(&data[i * width + c0..i * width + c0 + cols]);
    }
    out
}

/// Writes a row-major `rows`×`cols` piece into `data` (row-major, `width` columns)
/// at (r0, c0).
pub fn paste(data: &mut [f32], width: usize, (r0, c0): (usize, usize), piece: &[f32], cols: usize) {
    for (i, row) in piece.chunks(cols.max(1)).enumerate() {
        let at = (r0 + i) * width + c0;
        data[at..at + row.len()].copy_from_slice(row);
    }
}
