// Many small matrices in one R32F texture (block-sparse blocks, batches): an
// atlas, `per_row` tiles of tile_rows × tile_cols side by side per band of
// tile_rows rows (the same layout as WebGPU's buffers, wgsl/common/atlas.wgsl).
// The texel of entry (r, c) of tile s:
ivec2 atlas_at(int s, int r, int c, int tile_rows, int tile_cols, int per_row) {
    return ivec2((s % per_row) * tile_cols + c, (s / per_row) * tile_rows + r);
}
