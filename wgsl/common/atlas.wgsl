// Many small matrices in one buffer (block-sparse blocks, batches): an atlas,
// `per_row` tiles of tile_rows × tile_cols side by side per band of tile_rows
// rows, row-major (the same layout as WebGL's textures, glsl/common/atlas.glsl).
// The index of entry (r, col) of tile s:
fn atlas_at(s: u32, r: u32, col: u32, tile_rows: u32, tile_cols: u32, per_row: u32) -> u32 {
    let band = s / per_row;
    let slot = s % per_row;
    return (band * tile_rows + r) * (per_row * tile_cols) + slot * tile_cols + col;
}
