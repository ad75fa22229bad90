//! gpgpu-matrix's one error type, [`error::GpgpuError`] (a variant per thing a caller
//! can act on, a stable code, a message that says what to do), and [`decimal`], the
//! writing of the numbers its messages quote. The plan crate and the library re-export
//! both (`gpgpu_matrix::error`, `gpgpu_matrix_plan::decimal`).
//!
//! A crate of its own, below the plan crate, so that it is built for size: the plan
//! crate keeps opt-level 3 for its loops, and this code, which runs when a call is
//! refused or a message is written, took 3.5 KB more of the gzipped wasm there
//! (bench/NOTES.md, 2026-12-06).

pub mod decimal;
pub mod error;
