//! The operations, one folder each: the kernel choice and the WebGL, WebGPU and CPU
//! forms side by side, each a program run through its engine's generic verbs
//! (`GlEngine::draw`, `GpuEngine::dispatch`, `CpuEngine::pass`).
//!
//! `supplied` runs a product by a program the caller writes (a learner's kernel):
//! the same verbs, with its source from outside.

pub mod batched;
pub mod block_sparse;
pub mod elementwise;
pub mod lu;
pub mod ransac;
pub mod spmv;
pub mod supplied;
pub mod svd;
