//! The pure-Rust part: shapes and validation, texture layouts, pass plans, the
//! float64 reference, error metrics, seeded random inputs, and Fox's and Cannon's
//! message-passing algorithms as data. None of it touches WebGL, so `cargo test`
//! checks it natively without a browser.

pub mod batched;
pub mod blocks;
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
pub mod svd;
