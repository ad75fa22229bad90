//! Partitioned matrices: a product cut into blocks that multiply like numbers
//! (C00 = A00·B00 + A01·B10), each block resident on the GPU, the block products
//! chained there without readback. [`mesh`] runs Fox's and Cannon's algorithms
//! this way, one GPU standing in for a q×q mesh of nodes.

pub mod mesh;
