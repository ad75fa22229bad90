//! gpgpu-matrix: matrix products, repeated squaring and matrix powers on the GPU
//! from Rust compiled to WebAssembly, two ways: WebGL2 fragment shaders rendering
//! into float textures (the classic GPGPU technique), and WebGPU compute shaders
//! (one invocation per element, workgroup-memory tiles, register tiles); and, to
//! compare honestly, the CPU's cores (a SIMD128 kernel in Web Workers, [`cpu`]).
//! [`devices`] splits a product's rows across several of them at once.
//!
//! It runs in a browser page or worker (`wasm32-unknown-unknown` with wasm-bindgen).
//! The [`plan`] module is pure Rust and works anywhere. Building needs
//! `--cfg=web_sys_unstable_apis` (web-sys's WebGPU bindings; this crate's
//! `.cargo/config.toml` sets it, a crate depending on this one must set it too).
//!
//! # From Rust
//!
//! ```no_run
//! use gpgpu_matrix::apps::graphs;
//! use gpgpu_matrix::{passes, Backend, BackendChoice, CreateOptions, Gpgpu, GpgpuError};
//! use gpgpu_matrix::{Kernel, Options, Semiring};
//!
//! async fn demo() -> Result<(), GpgpuError> {
//!     // WebGPU on a hardware adapter, else WebGL2 (see api::choose_backend).
//!     let gpu = Gpgpu::create(CreateOptions::default()).await?;
//!     let m = [1.0f32, 1.0, 1.0, 0.0]; // 2×2, row-major: (i, j) at i*cols + j
//!     let auto = Options::default(); // kernel chosen for the size, ordinary (+, ×)
//!     // The async forms work on both backends.
//!     assert_eq!(gpu.square_async(2, &m, &auto).await?, [2.0, 1.0, 1.0, 1.0]);
//!     let f = gpu.power_async(2, &m, 30, &auto).await?; // M^30 by binary exponentiation
//!     let min_plus = Options { semiring: Semiring::MinPlus, ..auto };
//!     let paths = gpu.square_async(2, &[0.0, 3.0, f32::INFINITY, 0.0], &min_plus).await?;
//!     let reach = graphs::reachability(&gpu.handle(), 2, &m, &auto).await?;
//!
//!     // Pass by pass, as the teaching page does.
//!     let mut run = gpu.start_plan(2, &m, passes::power(5), &auto)?;
//!     while run.step(&mut gpu.engine(), true)? {}
//!     let m5 = gpu.finish_async(run)?.wait().await?;
//!
//!     // WebGL2 can also block until the GPU is done; WebGPU cannot (NeedsAsync).
//!     let webgl = Gpgpu::new(None)?; // a WebGL2 context on a canvas of its own
//!     let packed = Options { kernel: Some(Kernel::Packed), ..auto };
//!     let m8 = webgl.square_repeatedly(2, &m, 3, &packed)?; // M^(2^3), one readback
//!     if gpu.backend() == Backend::WebGpu {
//!         assert!(matches!(gpu.square(2, &m, &auto), Err(GpgpuError::NeedsAsync { .. })));
//!     }
//!
//!     // Every error is a GpgpuError: a variant to match, a message that says what to do.
//!     match webgl.square(3, &m, &auto) {
//!         Err(GpgpuError::BadLength { .. }) => {}
//!         other => panic!("{other:?}"),
//!     }
//!     let _explicit = CreateOptions { backend: BackendChoice::WebGpu, ..Default::default() };
//!
//!     // The CPU's cores (two Web Workers here), and C's rows split between devices.
//!     let cpu = Gpgpu::create(CreateOptions {
//!         backend: BackendChoice::Cpu,
//!         threads: Some(2),
//!         ..Default::default()
//!     })
//!     .await?;
//!     use gpgpu_matrix::devices::{Devices, Ratios};
//!     let both = Devices::new(vec![(gpu.handle(), gpu.backend()), (cpu.handle(), cpu.backend())])?;
//!     let split = both.multiply_split([2, 2, 2], &m, &m, &Ratios::Auto, &auto).await?;
//!     assert_eq!(split.c, [2.0, 1.0, 1.0, 1.0]);
//! #   let _ = (f, paths, reach, m5, m8);
//!     Ok(())
//! }
//! ```
//!
//! The applications of matrix powers (reachability, shortest paths, Fibonacci,
//! inverse, eigenpairs, Jacobi) are in [`apps`], as async functions over a
//! [`Handle`]. The JavaScript API (the wasm-bindgen class `Gpgpu` in [`js`]) offers
//! the same operations to a page.
//!
//! # Layers, bottom up
//!
//! * [`plan`]: pure Rust (shapes, layouts, pass plans, float64 reference, metrics);
//! * [`gl`] and [`webgpu`]: thin safe layers over WebGL2 and WebGPU objects (each
//!   released on Drop);
//! * [`kernels`]: shader files (`glsl/`, `wgsl/`) paired with the Rust that binds them;
//! * [`engine`]: one run engine over both backends: upload → passes → readback;
//! * [`run`]: an operation's pass plan on the engine, step by step;
//! * [`apps`] and [`blocks`]: work built from many passes (the applications of
//!   matrix powers; partitioned products: tiles past the device limit,
//!   block-sparse products, Fox's and Cannon's algorithms), [`batched`]: many
//!   small problems at once, and [`sparse`]: CSR matrices on the GPU (sparse
//!   matrix × vector, PageRank, sparse Jacobi and power method);
//! * [`cpu`]: the CPU backend (the engine's third variant) and [`devices`]: products
//!   split across engines;
//! * [`api`] (Rust) and the wasm-bindgen `Gpgpu` class (JavaScript) on top.

#[cfg(not(any(web_sys_unstable_apis, doc)))]
compile_error!(
    "gpgpu-matrix needs web-sys's WebGPU bindings: build with \
     RUSTFLAGS=\"--cfg=web_sys_unstable_apis\" (or, in your crate's .cargo/config.toml, \
     [build] rustflags = [\"--cfg=web_sys_unstable_apis\"])"
);

pub mod api;
pub mod apps;
pub mod batched;
pub mod blocks;
pub mod common;
pub mod cpu;
pub mod devices;
pub mod engine;
pub use gpgpu_matrix_plan::error;
pub mod gl;
pub mod js;
pub mod kernels;
pub mod lab;
pub mod linear;
pub mod ops;
/// The pure-Rust part, a crate of its own (`plan/`): shapes and validation, texture
/// layouts, pass plans, the float64 reference, metrics, seeded inputs, symbolic
/// phases, Fox's and Cannon's algorithms as data. None of it touches WebGL or WebGPU.
pub mod plan {
    pub use gpgpu_matrix_plan::{
        batched, blockgen, blocks, decimal, graphs, homography, layout, linalg, lu, mesh, metrics,
        passes, random, reference, semiring, shape, sparse, stream_k, svd, tiles,
    };
}
pub mod run;
pub mod sparse;
pub mod wasm_view;
pub mod webgpu;
pub mod work;

/// The Rust example of docs/rust.md and the paths its notes name, compiled by
/// `cargo test --doc`, so that they are what a user of the crate writes.
#[cfg(doctest)]
#[doc = include_str!("../docs/rust.md")]
pub struct RustDocsExample;

pub use api::{BackendChoice, CreateOptions, Gpgpu, Info};
pub use engine::Handle;
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
pub use work::Options;

/// The wasm's allocator: talc, 2.4 KB gzipped smaller than the standard library's dlmalloc
/// and as fast where the benches allocate (bench/NOTES.md, 2026-12-07). It grows WebAssembly
/// memory as dlmalloc did; a matrix memory cannot hold is still OUT_OF_MEMORY, through the
/// same fallible reservations. The `talc` feature (default) brings it: a crate with an
/// allocator of its own turns default features off.
#[cfg(all(
    feature = "talc",
    target_arch = "wasm32",
    not(target_feature = "atomics")
))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
