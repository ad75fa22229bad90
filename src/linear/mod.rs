//! Linear systems on the GPU (issue 16): [`lu`] factors a square matrix by
//! Gaussian elimination with partial pivoting and solves systems with it.

pub mod lu;
