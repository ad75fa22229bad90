//! Every WebGPU kernel (global, tiled16, and register in the form the device
//! picks) on exact integer products, repeated squaring and powers: the chain
//! checks of tests/common/products.rs.

use crate::common::*;

chain_tests!(Setup::WebGpu);
