//! A matrix's statistics as every backend reports them (the WebGL reduction passes,
//! wgsl/stats/reduce.wgsl, the CPU's loop): one record, read by the page's figures.

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Largest |value| among finite entries.
    pub max_abs: f32,
    pub nan: f32,
    pub inf: f32,
    /// Sum of |value| over finite entries.
    pub sum_abs: f32,
    /// Sum of value² over finite entries (‖M‖_F²).
    pub sum_sq: f32,
    /// Smallest and largest finite entries (NaN when there is none).
    pub min: f32,
    pub max: f32,
}

impl Stats {
    /// From the 8-float record of wgsl/stats/reduce.wgsl (the same fields, in order).
    pub fn from_record(r: &[f32]) -> Stats {
        let at = |i: usize| r.get(i).copied().unwrap_or(f32::NAN);
        Stats {
            max_abs: at(0),
            nan: at(1),
            inf: at(2),
            sum_abs: at(3),
            sum_sq: at(4),
            min: at(5),
            max: at(6),
        }
        .finished()
    }

    /// The reductions start min and max at ∓ the largest finite float32; with no
    /// finite entry they are still there (min > max): say NaN instead.
    pub fn finished(self) -> Stats {
        if self.min > self.max {
            return Stats {
                min: f32::NAN,
                max: f32::NAN,
                ..self
            };
        }
        self
    }
}
