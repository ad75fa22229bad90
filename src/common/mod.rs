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

/// Source of engine ids, shared by every backend: a run checks its engine by id.
static NEXT_ENGINE_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A new engine id.
pub(crate) fn next_engine_id() -> u64 {
    NEXT_ENGINE_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// Changes the value in `cell` by `f` (a backend's counts of live objects).
pub(crate) fn adjust<T: Copy>(cell: &std::cell::Cell<T>, f: impl FnOnce(&mut T)) {
    let mut value = cell.get();
    f(&mut value);
    cell.set(value);
}
