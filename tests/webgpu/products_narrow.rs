//! WebGPU's register kernel in its staged GPU form with narrow tiles
//! (wgsl/matmul/3_register_64.wgsl with TILE_N4 = 8: 64 × 32 tiles, which a real GPU
//! runs on outputs of up to 256 tiles of 64 × 64, without edge checks where every tile
//! lies inside; forced here with RegisterParams::GPU_NARROW) against the float64
//! reference: the product, chain and semiring checks of tests/common, whose shapes
//! include whole tiles (64, 128) and partial ones.

use crate::common::*;

product_tests!(Setup::WebGpuNarrow);
boolean_tests!(Setup::WebGpuNarrow);
min_plus_tests!(Setup::WebGpuNarrow);
chain_tests!(Setup::WebGpuNarrow);
