//! Partitioned matrices on the CPU backend: tiled products, block-sparse products,
//! repeated squaring, the JavaScript class, errors and the leak check
//! (tests/common/blocks.rs); Fox's and Cannon's algorithms (tests/common/mesh.rs).

use crate::common::*;

block_tests!(Setup::Cpu);
mesh_tests!(Backend::Cpu);
