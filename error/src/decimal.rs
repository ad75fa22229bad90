//! Floats written in decimal, as Rust's `{}`, `{:e}`, `{:.p}` and `{:.pe}` write them,
//! without `core::fmt`'s float machinery (Grisu with a Dragon fallback, its tables and
//! its `u128` code): ~20 KB of wasm that only error messages and a few shader constants
//! used. Here one small exact algorithm (Steele & White's, on a few-word big integer)
//! serves both f64 and f32; its speed does not matter (no hot loop formats a float).
//! The tests compare every form with `format!` on 100,000s of values of each type.

use std::cmp::Ordering;

/// An unsigned integer of any size, little-endian 32-bit words.
#[derive(Clone)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        Big(vec![v as u32, (v >> 32) as u32])
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for w in &mut self.0 {
            let x = *w as u64 * m as u64 + carry;
            *w = x as u32;
            carry = x >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow2(&mut self, n: u32) {
        for _ in 0..n / 16 {
            self.mul_small(1 << 16);
        }
        self.mul_small(1 << (n % 16));
    }

    fn mul_pow10(&mut self, n: u32) {
        for _ in 0..n {
            self.mul_small(10);
        }
    }

    fn add(&self, other: &Big) -> Big {
        let len = self.0.len().max(other.0.len());
        let mut out = Vec::with_capacity(len + 1);
        let mut carry = 0u64;
        for i in 0..len {
            let x =
                *self.0.get(i).unwrap_or(&0) as u64 + *other.0.get(i).unwrap_or(&0) as u64 + carry;
            out.push(x as u32);
            carry = x >> 32;
        }
        out.push(carry as u32);
        Big(out)
    }

    /// self -= other, for other ≤ self.
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let x = self.0[i] as i64 - *other.0.get(i).unwrap_or(&0) as i64 - borrow;
            self.0[i] = x.rem_euclid(1 << 32) as u32;
            borrow = (x < 0) as i64;
        }
    }

    fn cmp(&self, other: &Big) -> Ordering {
        let len = self.0.len().max(other.0.len());
        for i in (0..len).rev() {
            let (a, b) = (*self.0.get(i).unwrap_or(&0), *other.0.get(i).unwrap_or(&0));
            if a != b {
                return a.cmp(&b);
            }
        }
        Ordering::Equal
    }

    /// The next digit of r / s (r < 10 s) and r's remainder.
    fn digit(&mut self, s: &Big) -> u8 {
        let mut d = 0;
        while self.cmp(s) != Ordering::Less {
            self.sub(s);
            d += 1;
        }
        d
    }
}

/// A finite, non-zero float as f · 2^e with its format's limits.
struct Parts {
    f: u64,
    e: i32,
    /// f is the smallest normal mantissa (the gap below is half the gap above).
    lower_closer: bool,
}

/// Decodes IEEE bits with `frac_bits` of fraction and `exp_bits` of exponent.
fn parts(bits: u64, frac_bits: u32, exp_bits: u32) -> Parts {
    let exp = ((bits >> frac_bits) & ((1 << exp_bits) - 1)) as i32;
    let frac = bits & ((1 << frac_bits) - 1);
    let bias = (1 << (exp_bits - 1)) - 1 + frac_bits as i32;
    match exp {
        0 => Parts {
            f: frac,
            e: 1 - bias,
            lower_closer: false,
        },
        _ => Parts {
            f: frac | 1 << frac_bits,
            e: exp - bias,
            lower_closer: frac == 0 && exp > 1,
        },
    }
}

/// Digits d1 d2 … dn and k with the value 0.d1d2…dn · 10^k.
struct Digits {
    digits: Vec<u8>,
    k: i32,
}

/// r / s = the value exactly, and k with 10^(k-1) ≤ value < 10^k (r scaled so that the
/// value's first digit comes out of r · 10 / s).
fn scaled(p: &Parts, mut r: Big, mut s: Big, extra: &mut [&mut Big]) -> (Big, Big, i32) {
    let bits = 64 - p.f.leading_zeros() as i32;
    // log10(2) rounded down: k is the true one or one less, fixed just below.
    let mut k = ((p.e + bits - 1) as f64 * 0.301_029_995_663_981_14).ceil() as i32;
    if k >= 0 {
        s.mul_pow10(k as u32);
    } else {
        r.mul_pow10((-k) as u32);
        for m in extra.iter_mut() {
            m.mul_pow10((-k) as u32);
        }
    }
    if r.cmp(&s) != Ordering::Less {
        s.mul_small(10);
        k += 1;
    }
    (r, s, k)
}

/// The value as r / s: r = f · 2^max(e, 0), s = 2^max(-e, 0).
fn exact_ratio(p: &Parts) -> (Big, Big) {
    let mut r = Big::from_u64(p.f);
    let mut s = Big::from_u64(1);
    if p.e >= 0 {
        r.mul_pow2(p.e as u32);
    } else {
        s.mul_pow2((-p.e) as u32);
    }
    (r, s)
}

/// The shortest digits that read back as the same float (round-half-even reading).
fn shortest(p: &Parts) -> Digits {
    let even = p.f % 2 == 0;
    // Doubled (quadrupled where the gap below is smaller) so the half-gaps are whole.
    let shift = if p.lower_closer { 2 } else { 1 };
    let (mut r, mut s) = exact_ratio(p);
    r.mul_pow2(shift);
    s.mul_pow2(shift);
    let mut low = if p.e >= 0 {
        exact_ratio(&Parts {
            f: 1,
            e: p.e,
            lower_closer: false,
        })
        .0
    } else {
        Big::from_u64(1)
    };
    let mut high = low.clone();
    if p.lower_closer {
        high.mul_small(2);
    }
    let (mut r, mut s, mut k) = scaled(p, r, s, &mut [&mut low, &mut high]);
    // `scaled` placed the value below 10^k; where the upper half-gap reaches 10^k, the
    // shortest form is 10^k itself, one digit further up.
    let reach = r.add(&high).cmp(&s);
    if reach == Ordering::Greater || (even && reach == Ordering::Equal) {
        s.mul_small(10);
        k += 1;
    }
    let mut digits = Vec::new();
    loop {
        r.mul_small(10);
        low.mul_small(10);
        high.mul_small(10);
        let d = r.digit(&s);
        let below = match r.cmp(&low) {
            Ordering::Less => true,
            Ordering::Equal => even,
            Ordering::Greater => false,
        };
        let above = match r.add(&high).cmp(&s) {
            Ordering::Greater => true,
            Ordering::Equal => even,
            Ordering::Less => false,
        };
        if !below && !above {
            digits.push(d);
            continue;
        }
        let up = match (below, above) {
            (true, false) => false,
            (false, true) => true,
            _ => r.add(&r).cmp(&s) != Ordering::Less,
        };
        digits.push(d + up as u8);
        break;
    }
    Digits { digits, k }
}

/// Exactly `count` digits from the first significant one (count ≥ 1), or the digits up
/// to 10^-`decimals`, rounded half to even on the exact value.
fn exact(p: &Parts, count: Option<usize>, decimals: usize) -> Digits {
    let (r, s) = exact_ratio(p);
    let (mut r, s, k) = scaled(p, r, s, &mut []);
    let n = match count {
        Some(n) => n as i64,
        None => k as i64 + decimals as i64,
    };
    if n < 0 {
        return Digits { digits: vec![], k };
    }
    let mut digits = Vec::with_capacity(n as usize);
    for _ in 0..n {
        r.mul_small(10);
        digits.push(r.digit(&s));
    }
    let twice = r.add(&r);
    let up = match twice.cmp(&s) {
        Ordering::Greater => true,
        Ordering::Less => false,
        Ordering::Equal => digits.last().is_some_and(|d| d % 2 == 1),
    };
    let mut k = k;
    if up {
        let mut i = digits.len();
        loop {
            if i == 0 {
                digits.insert(0, 1);
                k += 1;
                if count.is_some() {
                    digits.pop();
                }
                break;
            }
            i -= 1;
            if digits[i] == 9 {
                digits[i] = 0;
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    Digits { digits, k }
}

/// A float of either width, for the forms below.
#[derive(Clone, Copy)]
pub enum Float {
    F64(f64),
    F32(f32),
}

impl From<f64> for Float {
    fn from(v: f64) -> Float {
        Float::F64(v)
    }
}

impl From<f32> for Float {
    fn from(v: f32) -> Float {
        Float::F32(v)
    }
}

impl Float {
    fn wide(self) -> f64 {
        match self {
            Float::F64(v) => v,
            Float::F32(v) => v as f64,
        }
    }

    fn parts(self) -> Parts {
        match self {
            Float::F64(v) => parts(v.abs().to_bits(), 52, 11),
            Float::F32(v) => parts(v.abs().to_bits() as u64, 23, 8),
        }
    }

    /// "NaN", "inf", "0" and the sign, or None for a finite non-zero value.
    fn special(self, out: &mut String) -> bool {
        let v = self.wide();
        if v.is_nan() {
            out.push_str("NaN");
            return true;
        }
        if v.is_sign_negative() {
            out.push('-');
        }
        if v.is_infinite() {
            out.push_str("inf");
            return true;
        }
        false
    }
}

fn push_digits(out: &mut String, digits: &[u8]) {
    out.extend(digits.iter().map(|&d| (b'0' + d) as char));
}

/// Digits placed as 0.d1d2… · 10^k, with `decimals` places after the point (None: as
/// many as there are digits).
fn positional(out: &mut String, d: &Digits, decimals: Option<usize>) {
    let n = d.digits.len() as i64;
    let k = d.k as i64;
    let places = decimals.map_or((n - k).max(0), |p| p as i64);
    if k <= 0 {
        out.push('0');
    } else {
        for i in 0..k {
            out.push((b'0' + *d.digits.get(i as usize).unwrap_or(&0)) as char);
        }
    }
    if places > 0 {
        out.push('.');
        for i in k..k + places {
            let digit = if i < 0 {
                0
            } else {
                *d.digits.get(i as usize).unwrap_or(&0)
            };
            out.push((b'0' + digit) as char);
        }
    }
}

fn scientific(out: &mut String, d: &Digits, zero: bool) {
    push_digits(out, &d.digits[..1]);
    if d.digits.len() > 1 {
        out.push('.');
        push_digits(out, &d.digits[1..]);
    }
    out.push('e');
    out.push_str(&(if zero { 0 } else { d.k - 1 }).to_string());
}

/// `format!("{v}")`.
pub fn display(v: impl Into<Float>) -> String {
    let v = v.into();
    let mut out = String::new();
    if !v.special(&mut out) {
        match v.wide() == 0.0 {
            true => out.push('0'),
            false => positional(&mut out, &shortest(&v.parts()), None),
        }
    }
    out
}

/// `format!("{v:?}")`: as `{}` with at least one decimal ("1.0"), in exponential form
/// below 1e-4 and from 1e16 on.
pub fn debug(v: impl Into<Float>) -> String {
    let v = v.into();
    let a = v.wide().abs();
    if a != 0.0 && a.is_finite() && !(1e-4..1e16).contains(&a) {
        return exponential(v, None);
    }
    let mut out = display(v);
    if v.wide().is_finite() && !out.contains('.') {
        out.push_str(".0");
    }
    out
}

/// `format!("{v:.decimals$}")`.
pub fn fixed(v: impl Into<Float>, decimals: usize) -> String {
    let v = v.into();
    let mut out = String::new();
    if !v.special(&mut out) {
        let d = match v.wide() == 0.0 {
            true => Digits {
                digits: vec![],
                k: 0,
            },
            false => exact(&v.parts(), None, decimals),
        };
        positional(&mut out, &d, Some(decimals));
    }
    out
}

/// `format!("{v:e}")`, or `format!("{v:.decimals$e}")` with `Some(decimals)`.
pub fn exponential(v: impl Into<Float>, decimals: Option<usize>) -> String {
    let v = v.into();
    let mut out = String::new();
    if !v.special(&mut out) {
        let zero = v.wide() == 0.0;
        let d = match (zero, decimals) {
            (true, _) => Digits {
                digits: vec![0; 1 + decimals.unwrap_or(0)],
                k: 0,
            },
            (false, None) => shortest(&v.parts()),
            (false, Some(p)) => exact(&v.parts(), Some(p + 1), 0),
        };
        scientific(&mut out, &d, zero);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64* words: the plan crate's seeded generator is a crate above this one.
    fn words(mut state: u64) -> impl FnMut() -> u32 {
        move || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
        }
    }

    /// Every form of `v` as `format!` writes it, to `places` decimals.
    fn same<T>(v: T, places: usize)
    where
        T: Into<Float> + Copy + std::fmt::Display + std::fmt::Debug + std::fmt::LowerExp,
    {
        assert_eq!(display(v), format!("{v}"), "{v:e}");
        assert_eq!(debug(v), format!("{v:?}"), "{v:e}");
        assert_eq!(exponential(v, None), format!("{v:e}"), "{v:e}");
        for p in 0..places {
            assert_eq!(fixed(v, p), format!("{v:.p$}"), "{v:e} .{p}");
            assert_eq!(exponential(v, Some(p)), format!("{v:.p$e}"), "{v:e} .{p}e");
        }
    }

    fn same_f64(v: f64) {
        same(v, 5);
    }

    fn same_f32(v: f32) {
        same(v, 4);
    }

    #[test]
    fn special_values_and_edges_read_as_rust_writes_them() {
        for v in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.5,
            0.125,
            0.375,
            2.5,
            3.5,
            9.5,
            99.5,
            0.05,
            0.95,
            9.999,
            1e21,
            1e22,
            1e-7,
            1e30,
            123456789.0,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            4096000000.0 / 1073741824.0,
            1e-4,
            9.99e-5,
            1e16,
            9.999999999999998e15,
        ] {
            same_f64(v);
        }
        for v in [
            0.0f32,
            0.1,
            1e30,
            3.4028235e38,
            1e-45,
            f32::MIN_POSITIVE,
            16777216.0,
            0.3,
        ] {
            same_f32(v);
        }
    }

    #[test]
    fn random_floats_of_every_magnitude_read_as_rust_writes_them() {
        let mut word = words(7);
        for _ in 0..10_000 {
            let bits = (word() as u64) << 32 | word() as u64;
            same_f64(f64::from_bits(bits));
            same_f32(f32::from_bits(word()));
        }
        // Short decimals, where ties and round-trips bite.
        for _ in 0..10_000 {
            let v = (word() % 100_000) as f64 / [1.0, 10.0, 100.0, 1000.0][(word() % 4) as usize];
            same_f64(v);
            same_f32(v as f32);
        }
    }
}
