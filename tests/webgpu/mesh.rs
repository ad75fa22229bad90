//! Fox's and Cannon's algorithms simulated on one WebGPU device (checks in
//! tests/common/mesh.rs, also run on WebGL by browser_mesh.rs).

use crate::common::*;

mesh_tests!(Backend::WebGpu);
