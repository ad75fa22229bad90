//! Partitioned matrices: blocks multiply as if they were numbers
//! (C00 = A00·B00 + A01·B10), each block resident on the GPU and the block
//! products chained there without readback. [`grid`] holds a matrix as a grid of
//! tiles to take products past the device limit; [`sparse`] multiplies block-sparse
//! matrices, computing only the block products whose two blocks are stored;
//! [`mesh`] runs Fox's and Cannon's algorithms, one GPU standing in for a q×q mesh
//! of nodes.

pub mod grid;
pub mod mesh;
pub mod resident;
pub mod sparse;
