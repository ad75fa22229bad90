//! Backend-neutral pieces that every layer may use: a matrix's statistics, the
//! heatmap's style, the event loop's next turn and the blocking adaptor, the wall clock
//! and its resolution, the caches' map, and the safe reading of the caller's JavaScript
//! values and typed arrays. Nothing here knows a backend or an operation; it imports
//! only the error type.

pub mod arrays;
pub mod clock;
pub mod guard;
pub mod map;
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

/// A backend's counts of live GPU objects (for leak checks), one `u32` field each,
/// with the name `liveObjects()` gives it on the page: the struct and its
/// `named` list from one list of fields.
macro_rules! live_counts {
    ($(#[doc = $doc:tt])* $($field:ident $js:literal),* $(,)?) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct LiveCounts {
            $(pub $field: u32,)*
        }

        impl LiveCounts {
            /// Each count by the name the page gives it.
            pub fn named(&self) -> Vec<(&'static str, u32)> {
                vec![$(($js, self.$field)),*]
            }
        }
    };
}
pub(crate) use live_counts;

/// Sorts a short list (a few dozen items at most: an adapter's features, a handful of
/// timings or devices) by insertion, stably: the core sort's code is 4-6 KB of wasm for
/// each type it sorts, this is a few hundred bytes.
pub(crate) fn sort_short<T>(items: &mut [T], before: impl Fn(&T, &T) -> bool) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && before(&items[j], &items[j - 1]) {
            items.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// The median of a few timings (the upper one of an even count), None for none.
pub(crate) fn median(mut ms: Vec<f64>) -> Option<f64> {
    sort_short(&mut ms, |a, b| a < b);
    ms.get(ms.len() / 2).copied()
}

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

#[cfg(test)]
mod tests {
    use super::sort_short;

    #[test]
    fn a_short_sort_orders_and_keeps_ties_in_place() {
        let mut empty: [u8; 0] = [];
        sort_short(&mut empty, |a, b| a < b);
        let mut pairs = [(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')];
        sort_short(&mut pairs, |a, b| a.0 < b.0);
        assert_eq!(pairs, [(1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        let mut descending = [0.5, 2.0, -1.0, 2.0];
        sort_short(&mut descending, |a, b| a > b);
        assert_eq!(descending, [2.0, 2.0, 0.5, -1.0]);
        assert_eq!(super::median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(super::median(vec![4.0, 1.0]), Some(4.0));
        assert_eq!(super::median(vec![]), None);
    }
}
