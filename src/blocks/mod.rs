//! Partitioned matrices: blocks multiply as if they were numbers
//! (C00 = A00·B00 + A01·B10). [`grid`] holds a matrix as a grid of tiles to take
//! products past the device limit; [`sparse`] multiplies block-sparse matrices,
//! computing only the block products whose two blocks are stored.

pub mod grid;
pub mod sparse;
