//! Every WebGL kernel (naive, packed, blocked4, blocked8) on exact integer
//! products, repeated squaring and powers: the chain checks of
//! tests/common/products.rs, which browser_chains_{webgpu,staged}.rs run on WebGPU.

use crate::common::*;

chain_tests!(Setup::WebGl);
