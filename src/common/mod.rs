//! Backend-neutral pieces that every layer may use: a matrix's statistics, the
//! heatmap's style, the event loop's next turn and the blocking adaptor, and the safe
//! reading of the caller's JavaScript values and typed arrays. Nothing here knows a
//! backend or an operation; it imports only the error type.

pub mod arrays;
pub mod guard;
pub mod stats;
pub mod style;
pub mod tick;

pub use stats::Stats;
pub use style::{Drawn, Style};
pub use tick::{blocking, next_tick, now};

/// A shader file of the repository's `glsl/` or `wgsl/`, without its comments (build.rs
/// writes those copies): `shader!("wgsl/lu/update.wgsl")`. A kernel the page shows as
/// written (`Gpgpu.kernelSource`) is included with `include_str!` instead.
macro_rules! shader {
    ($path:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/shaders/", $path))
    };
}
pub(crate) use shader;

/// Source of engine ids, shared by every backend: a run checks its engine by id.
static NEXT_ENGINE_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A new engine id.
pub(crate) fn next_engine_id() -> u64 {
    NEXT_ENGINE_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
