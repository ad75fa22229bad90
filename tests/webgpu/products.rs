//! Every WebGPU kernel (global, tiled16, and register in the form the device
//! picks: on SwiftShader its CPU form) against the float64 reference: the product
//! checks of tests/common/products.rs (shapes, NaN and infinity).

use crate::common::*;

product_tests!(Setup::WebGpu);
checks!(Setup::WebGpu; common::products: a_long_k_is_summed_in_full);
