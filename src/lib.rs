//! gpgpu-matrix: matrix products, repeated squaring and matrix powers computed by
//! WebGL2 fragment shaders (render-to-texture), from Rust compiled to WebAssembly.
//!
//! It runs in a browser page or worker (`wasm32-unknown-unknown` with wasm-bindgen):
//! the GPU work needs WebGL2. The [`plan`] module is pure Rust and works anywhere.
//!
//! # From Rust
//!
//! ```no_run
//! use gpgpu_matrix::{passes, Gpgpu, GpgpuError, Kernel, Options, Semiring};
//!
//! async fn demo() -> Result<(), GpgpuError> {
//!     // A WebGL2 context on a canvas of the library's own (or `Some(canvas)`).
//!     let mut gpu = Gpgpu::new(None)?;
//!     let m = [1.0f32, 1.0, 1.0, 0.0]; // 2×2, row-major: (i, j) at i*cols + j
//!     let auto = Options::default(); // kernel chosen for the size, ordinary (+, ×)
//!     assert_eq!(gpu.square(2, &m, &auto)?, [2.0, 1.0, 1.0, 1.0]);
//!     let f = gpu.power(2, &m, 30, &auto)?; // M^30 by binary exponentiation
//!     let packed = Options { kernel: Some(Kernel::Packed), ..auto };
//!     let m8 = gpu.square_repeatedly(2, &m, 3, &packed)?; // M^(2^3), one readback
//!     let min_plus = Options { semiring: Semiring::MinPlus, ..auto };
//!     let paths = gpu.square(2, &[0.0, 3.0, f32::INFINITY, 0.0], &min_plus)?;
//!
//!     // Without blocking the page: queue the passes and the readback, then await
//!     // a fence polled from the event loop (e.g. in wasm_bindgen_futures::spawn_local).
//!     let run = gpu.start_plan(2, &m, passes::power(13), &auto)?;
//!     let pending = gpu.finish_async(run)?;
//!     let m13 = pending.wait().await?;
//!
//!     // Pass by pass, as the teaching page does.
//!     let mut run = gpu.start_plan(2, &m, passes::power(5), &auto)?;
//!     while run.step(gpu.engine(), false)? {}
//!     let m5 = gpu.finish(run)?;
//!
//!     // Every error is a GpgpuError: a variant to match, a message that says what to do.
//!     match gpu.square(3, &m, &auto) {
//!         Err(GpgpuError::BadLength { .. }) => {}
//!         other => panic!("{other:?}"),
//!     }
//! #   let _ = (f, m8, paths, m13, m5);
//!     Ok(())
//! }
//! ```
//!
//! The applications of matrix powers (reachability, shortest paths, Fibonacci,
//! inverse, eigenpairs, Jacobi) are in [`apps`]. The JavaScript API (the wasm-bindgen
//! class `Gpgpu` in [`js`]) offers the same operations to a page.
//!
//! # Layers, bottom up
//!
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
pub mod kernels;
pub mod plan;
pub mod run;
pub mod webgpu;

pub use api::{BackendChoice, CreateOptions, Gpgpu, Handle, Info, Options};
pub use engine::{Engine, Matrix, PendingRead};
pub use error::{GpgpuError, Result};
pub use gl::capabilities::DeviceInfo;
pub use gl::context::Canvas;
pub use kernels::{Backend, Kernel};
pub use plan::passes::{self, PassPlan, Step};
pub use plan::semiring::Semiring;
pub use plan::shape::Shape;
pub use run::Run;
pub use webgpu::GpuInfo;
