//! Seeded inputs. Mulberry32 is tiny and has the same definition in
//! www/reference.js, so Rust tests and the page draw the same matrices from a seed.

pub struct Mulberry32(u32);

impl Mulberry32 {
    pub fn new(seed: u32) -> Self {
        Mulberry32(seed)
    }

    /// Uniform in [0, 1), as 32-bit numerator over 2^32.
    pub fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x6D2B_79F5);
        let mut t = self.0;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        ((t ^ (t >> 14)) as f64) / 4_294_967_296.0
    }
}

/// `len` values uniform in [lo, hi), rounded to f32.
pub fn uniform(seed: u32, len: usize, lo: f64, hi: f64) -> Vec<f32> {
    let mut rng = Mulberry32::new(seed);
    (0..len)
        .map(|_| (lo + (hi - lo) * rng.next_f64()) as f32)
        .collect()
}

/// `len` whole numbers in lo..=hi.
pub fn integers(seed: u32, len: usize, lo: i32, hi: i32) -> Vec<f32> {
    let mut rng = Mulberry32::new(seed);
    let span = (hi - lo + 1) as f64;
    (0..len)
        .map(|_| (lo + (rng.next_f64() * span).floor() as i32) as f32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_javascript_definition() {
        // First outputs of mulberry32(42) as computed by www/reference.js.
        let mut r = Mulberry32::new(42);
        let first: Vec<f64> = (0..3).map(|_| r.next_f64()).collect();
        assert_eq!(
            first,
            [0.6011037519201636, 0.44829055899754167, 0.8524657934904099]
        );
    }

    #[test]
    fn ranges_hold() {
        let u = uniform(7, 1000, -1.0, 1.0);
        assert!(u.iter().all(|&v| (-1.0..1.0).contains(&v)));
        let i = integers(7, 1000, -3, 3);
        assert!(i
            .iter()
            .all(|&v| v.fract() == 0.0 && (-3.0..=3.0).contains(&v)));
        assert!(i.contains(&-3.0) && i.contains(&3.0));
    }
}
