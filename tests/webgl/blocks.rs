//! Partitioned matrices on WebGL: tiled products past a forced tile
//! limit, block-sparse products, repeated squaring, the JavaScript class, errors
//! and the leak check (tests/common/blocks.rs).

use crate::common::*;

block_tests!(Setup::WebGl);

// GPU-resident block-sparse matrices: WebGPU only, an error here.
gpu_block_tests!(errors: Backend::WebGl);
