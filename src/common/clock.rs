//! The wall clock the library's timings read (`performance.now()` in a page or a
//! worker) and its resolution, measured once. Browsers coarsen the clock against
//! timing attacks: Chromium to 100 µs (5 µs when cross-origin isolated), Firefox to
//! 1 ms unless the page is isolated, Safari to about 1 ms. The library returns its
//! wall-clock figures unrounded (a caller may average many readings, which resolves
//! finer than one) and states the resolution beside them (`info().timerResolutionMs`,
//! a lab timing's `timerResolutionMs`); the page rounds what it shows to it
//! (`www/ui/clock.js`, the same measurement).

use std::cell::Cell;

use js_sys::{Function, Reflect};
use wasm_bindgen::JsCast;

/// Sampling stops after this many steps of the clock…
const STEPS: u32 = 4;
/// …or this long once one step was seen (a 16.7 ms clock shows one step only)…
const SAMPLE_MS: f64 = 5.0;
/// …or this long by `Date.now()` with no step at all: the resolution is then at least this.
const CAP_MS: f64 = 50.0;

/// performance.now() in a page or a worker (Date.now() where there is none).
pub fn now_ms() -> f64 {
    let global = js_sys::global();
    Reflect::get(&global, &"performance".into())
        .ok()
        .filter(|p| p.is_object())
        .and_then(|p| {
            let now: Function = Reflect::get(&p, &"now".into()).ok()?.dyn_into().ok()?;
            now.call0(&p).ok()?.as_f64()
        })
        .unwrap_or_else(js_sys::Date::now)
}

thread_local! {
    static RESOLUTION: Cell<Option<f64>> = const { Cell::new(None) };
}

/// The resolution of [`now_ms`] in ms on this thread, measured on the first call (a
/// busy loop of about 0.4 ms on a 100 µs clock, 4 ms on a 1 ms one).
pub fn resolution_ms() -> f64 {
    RESOLUTION.with(|r| {
        r.get().unwrap_or_else(|| {
            let v = measure(now_ms, js_sys::Date::now);
            r.set(Some(v));
            v
        })
    })
}

/// The smallest nonzero step of `now()` seen in a short busy loop, to two significant
/// digits (0.1 − ε from subtracting two large timestamps reads as 0.1); CAP_MS when the
/// clock did not move within CAP_MS by `wall()`.
pub fn measure(mut now: impl FnMut() -> f64, mut wall: impl FnMut() -> f64) -> f64 {
    let start = now();
    let began = wall();
    let (mut last, mut least, mut steps) = (start, f64::INFINITY, 0);
    loop {
        let v = now();
        if v > last {
            least = least.min(v - last);
            steps += 1;
            last = v;
        }
        if steps >= STEPS || (steps > 0 && last - start >= SAMPLE_MS) || wall() - began >= CAP_MS {
            break;
        }
    }
    if steps == 0 {
        return CAP_MS;
    }
    let scale = 10f64.powi(1 - least.log10().floor() as i32);
    (least * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::measure;

    /// A clock read every 1 µs of true time, coarsened to `step` ms.
    fn coarse(step: f64, from: f64) -> impl FnMut() -> f64 {
        let mut t = from;
        move || {
            t += 0.001;
            (t / step).floor() * step
        }
    }

    #[test]
    fn the_smallest_step_of_a_coarsened_clock_is_its_resolution() {
        assert_eq!(measure(coarse(1.0, 1000.0), || 0.0), 1.0);
        // Far from zero, where 0.1 steps subtract to 0.0999…
        assert_eq!(measure(coarse(0.1, 5e5), || 0.0), 0.1);
        assert_eq!(measure(coarse(0.005, 123.0), || 0.0), 0.005);
    }

    #[test]
    fn a_clock_that_never_moves_gives_the_cap() {
        let mut wall = 0.0;
        let r = measure(
            || 42.0,
            move || {
                wall += 1.0;
                wall
            },
        );
        assert_eq!(r, 50.0);
    }
}
