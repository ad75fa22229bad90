//! Block-sparse matrices resident on the GPU (tests/common/gpu_blocks.rs).

use crate::common::*;

gpu_block_tests!(Backend::WebGpu);
