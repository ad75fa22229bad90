//! gpgpu-matrix: matrix products, repeated squaring and matrix powers computed by
//! WebGL2 fragment shaders (render-to-texture), from Rust compiled to WebAssembly.
//!
//! Layers, bottom up:
//! * [`plan`]: pure Rust (shapes, layouts, pass plans, float64 reference, metrics);
//! * [`gl`]: a thin safe layer over WebGL2 objects (each deleted on Drop);
//! * [`kernels`]: GLSL files in `glsl/` paired with the Rust that binds them;
//! * [`engine`]: upload → passes → readback on one context;
//! * [`api`] (Rust) and the wasm-bindgen `Gpgpu` class (JavaScript) on top.

pub mod api;
pub mod apps;
pub mod engine;
pub mod error;
pub mod gl;
pub mod js;
pub mod js_apps;
pub mod kernels;
pub mod plan;
pub mod readback;
pub mod run;

pub use api::{Gpgpu, Options};
pub use error::{GpgpuError, Result};
pub use kernels::Kernel;
pub use plan::semiring::Semiring;
pub use plan::shape::Shape;
