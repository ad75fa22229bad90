//! gpgpu-matrix's pure-Rust part: shapes and validation, texture layouts, pass plans,
//! the float64 reference, error metrics, seeded random inputs, symbolic phases, Fox's
//! and Cannon's message-passing algorithms as data, and the CPU backend's kernel and
//! passes (the error type is the crate below, `error/`, re-exported here). None of it touches WebGL or WebGPU, so `cargo test`
//! checks it natively without a browser. The library re-exports it (`gpgpu_matrix::plan`,
//! `gpgpu_matrix::error`, `gpgpu_matrix::cpu::{kernel, passes}`).
//!
//! A crate of its own so that its loops keep opt-level 3 while the library around it is
//! built for size (the workspace's Cargo.toml says why).

pub mod batched;
pub mod blockgen;
pub mod blocks;
pub mod cpu;
pub use gpgpu_matrix_error::decimal;
pub use gpgpu_matrix_error::error;
pub mod graphs;
pub mod homography;
pub mod layout;
pub mod linalg;
pub mod lu;
pub mod mesh;
pub mod metrics;
pub mod passes;
pub mod random;
pub mod reference;
pub mod semiring;
pub mod shape;
pub mod sparse;
pub mod stream_k;
pub mod svd;
pub mod tiles;
