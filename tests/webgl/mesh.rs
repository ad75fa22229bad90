//! Fox's and Cannon's algorithms simulated on one WebGL2 context (checks in
//! tests/common/mesh.rs, also run on WebGPU by browser_mesh_webgpu.rs).

use crate::common::*;

mesh_tests!(Backend::WebGl);
