//! Sparse matrices (CSR, SpMV, PageRank, sparse Jacobi and power method) on the CPU
//! backend, with the JavaScript classes, errors and the leak check
//! (tests/common/sparse.rs).

use crate::common::*;

sparse_tests!(Setup::Cpu);
