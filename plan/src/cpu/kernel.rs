//! The CPU backend's product kernel: C rows ← A rows · B in a semiring, for a range
//! of C's rows (what one worker computes, as OpenMP's static schedule gives each
//! thread a block of the loop).
//!
//! The ordinary product is blocked the GotoBLAS/BLIS way: for each KC×NC block of B
//! (packed into panels of [`NR`] columns, [`KC`]·[`NC`] floats = 256 KiB, an L2's
//! share for two hyper-threads), each MC×KC block of A is packed into slivers of
//! [`MR`] rows (k-major, [`MC`]·[`KC`] floats = 128 KiB, also in L2), and a
//! micro-kernel keeps an [`MR`]×[`NR`] block of C in registers (8 f32x4
//! accumulators on wasm SIMD128) while one B panel (8 KiB, in L1) meets every A
//! sliver of the block: both operands are read contiguously, and what a worker
//! streams from memory or the shared L3 is a small fraction of its arithmetic.
//! The host build runs the same tiling with a scalar micro-kernel (tested
//! natively); the wasm build's SIMD one is checked in the browser tests.
//! Min-plus and Boolean products are simple loops: they teach, they are not timed.

use crate::semiring::{Semiring, NO_EDGE};

/// Rows of C per micro-kernel call.
pub const MR: usize = 4;
/// Columns of C per micro-kernel call (two f32x4 vectors).
pub const NR: usize = 8;
/// Values of k per packed block: a KC×NR panel of B is 8 KiB, well inside L1.
pub const KC: usize = 256;
/// Columns of B packed at once: KC×NC floats = 256 KiB, so two hyper-threads' blocks
/// share a 512 KiB-2 MiB per-core L2.
pub const NC: usize = 256;
/// Rows of A packed at once: MC×KC floats = 128 KiB.
pub const MC: usize = 128;

/// The sizes of one product part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub rows: usize,
    pub inner: usize,
    pub cols: usize,
}

/// c (rows×cols) ← a (rows×inner) · b (inner×cols) in `semiring`, all row-major.
/// Panics if a slice is shorter than its shape (callers check lengths first).
pub fn product(semiring: Semiring, d: Dims, a: &[f32], b: &[f32], c: &mut [f32]) {
    let (a, b, c) = (
        &a[..d.rows * d.inner],
        &b[..d.inner * d.cols],
        &mut c[..d.rows * d.cols],
    );
    match semiring {
        Semiring::Ordinary => ordinary(d, a, b, c),
        Semiring::Boolean => boolean(d, a, b, c),
        Semiring::MinPlus => min_plus(d, a, b, c),
    }
}

/// The blocked, packed, register-tiled plus-times product: loops jc → pc → pack B →
/// ic → pack A → jr → ir.
fn ordinary(d: Dims, a: &[f32], b: &[f32], c: &mut [f32]) {
    c.fill(0.0);
    let mut b_pack = vec![0f32; KC * NC.div_ceil(NR) * NR];
    let mut a_pack = vec![0f32; KC * MC.div_ceil(MR) * MR];
    for jc in (0..d.cols).step_by(NC) {
        let nc = NC.min(d.cols - jc);
        for pc in (0..d.inner).step_by(KC) {
            let kc = KC.min(d.inner - pc);
            pack_b(b, d.cols, (pc, kc), (jc, nc), &mut b_pack);
            for ic in (0..d.rows).step_by(MC) {
                let mc = MC.min(d.rows - ic);
                pack_a(a, d.inner, (ic, mc), (pc, kc), &mut a_pack);
                for (p, jr) in (0..nc).step_by(NR).enumerate() {
                    let nr = NR.min(nc - jr);
                    let bp = &b_pack[p * kc * NR..(p + 1) * kc * NR];
                    for (s, ir) in (0..mc).step_by(MR).enumerate() {
                        let mr = MR.min(mc - ir);
                        let ap = &a_pack[s * kc * MR..(s + 1) * kc * MR];
                        let mut acc = [0f32; MR * NR];
                        micro(kc, ap, bp, &mut acc);
                        for r in 0..mr {
                            let out = &mut c[(ic + ir + r) * d.cols + jc + jr..][..nr];
                            for (o, v) in out.iter_mut().zip(&acc[r * NR..r * NR + nr]) {
                                *o += v;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Packs b[pc..pc+kc, jc..jc+nc] into panels of NR columns, k-major within a panel,
/// zero-padded past the last column.
fn pack_b(
    b: &[f32],
    cols: usize,
    (pc, kc): (usize, usize),
    (jc, nc): (usize, usize),
    out: &mut [f32],
) {
    for (p, jr) in (0..nc).step_by(NR).enumerate() {
        let nr = NR.min(nc - jr);
        let dst = &mut out[p * kc * NR..(p + 1) * kc * NR];
        for k in 0..kc {
            let src = &b[(pc + k) * cols + jc + jr..][..nr];
            let row = &mut dst[k * NR..(k + 1) * NR];
            row[..nr].copy_from_slice(src);
            row[nr..].fill(0.0);
        }
    }
}

/// Packs a[ic..ic+mc, pc..pc+kc] into slivers of MR rows, k-major within a sliver
/// (sliver[k·MR + r]), zero-padded past the last row.
fn pack_a(
    a: &[f32],
    inner: usize,
    (ic, mc): (usize, usize),
    (pc, kc): (usize, usize),
    out: &mut [f32],
) {
    for (s, ir) in (0..mc).step_by(MR).enumerate() {
        let mr = MR.min(mc - ir);
        let dst = &mut out[s * kc * MR..(s + 1) * kc * MR];
        for r in 0..MR {
            if r < mr {
                let src = &a[(ic + ir + r) * inner + pc..][..kc];
                for (k, &v) in src.iter().enumerate() {
                    dst[k * MR + r] = v;
                }
            } else {
                for k in 0..kc {
                    dst[k * MR + r] = 0.0;
                }
            }
        }
    }
}

/// acc (MR×NR) ← Σ_k sliver[k][0..MR]ᵀ · panel[k][0..NR].
#[cfg(target_arch = "wasm32")]
fn micro(kc: usize, sliver: &[f32], panel: &[f32], acc: &mut [f32; MR * NR]) {
    // SAFETY: every browser this library runs in has SIMD128 (Chromium 91, Firefox
    // 89, Safari 16.4); the module would not validate otherwise.
    unsafe { simd::micro(kc, sliver, panel, acc) }
}

#[cfg(not(target_arch = "wasm32"))]
fn micro(kc: usize, sliver: &[f32], panel: &[f32], acc: &mut [f32; MR * NR]) {
    for k in 0..kc {
        let bk = &panel[k * NR..(k + 1) * NR];
        for r in 0..MR {
            let x = sliver[k * MR + r];
            for (o, &y) in acc[r * NR..(r + 1) * NR].iter_mut().zip(bk) {
                *o += x * y;
            }
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod simd {
    use super::{MR, NR};
    use core::arch::wasm32::*;

    /// SIMD128 only in this function (not crate-wide), so the rest of the module
    /// is as before.
    #[target_feature(enable = "simd128")]
    pub unsafe fn micro(kc: usize, sliver: &[f32], panel: &[f32], acc: &mut [f32; MR * NR]) {
        assert!(panel.len() >= kc * NR && sliver.len() >= kc * MR);
        let a = sliver.as_ptr();
        let b = panel.as_ptr();
        let (mut c00, mut c01, mut c10, mut c11) = (
            f32x4_splat(0.0),
            f32x4_splat(0.0),
            f32x4_splat(0.0),
            f32x4_splat(0.0),
        );
        let (mut c20, mut c21, mut c30, mut c31) = (
            f32x4_splat(0.0),
            f32x4_splat(0.0),
            f32x4_splat(0.0),
            f32x4_splat(0.0),
        );
        // SAFETY: the assert above bounds every read: k < kc, slivers of MR and panel
        // rows of NR floats.
        unsafe {
            for k in 0..kc {
                let b0 = v128_load(b.add(k * NR) as *const v128);
                let b1 = v128_load(b.add(k * NR + 4) as *const v128);
                let ak = a.add(k * MR);
                let a0 = v128_load32_splat(ak as *const u32);
                let a1 = v128_load32_splat(ak.add(1) as *const u32);
                let a2 = v128_load32_splat(ak.add(2) as *const u32);
                let a3 = v128_load32_splat(ak.add(3) as *const u32);
                c00 = f32x4_add(c00, f32x4_mul(a0, b0));
                c01 = f32x4_add(c01, f32x4_mul(a0, b1));
                c10 = f32x4_add(c10, f32x4_mul(a1, b0));
                c11 = f32x4_add(c11, f32x4_mul(a1, b1));
                c20 = f32x4_add(c20, f32x4_mul(a2, b0));
                c21 = f32x4_add(c21, f32x4_mul(a2, b1));
                c30 = f32x4_add(c30, f32x4_mul(a3, b0));
                c31 = f32x4_add(c31, f32x4_mul(a3, b1));
            }
            let out = acc.as_mut_ptr() as *mut v128;
            for (i, v) in [c00, c01, c10, c11, c20, c21, c30, c31]
                .into_iter()
                .enumerate()
            {
                v128_store(out.add(i), v);
            }
        }
    }
}

/// Boolean product: c_ij = 1 if some k has a_ik ≠ 0 and b_kj ≠ 0.
fn boolean(d: Dims, a: &[f32], b: &[f32], c: &mut [f32]) {
    c.fill(0.0);
    for i in 0..d.rows {
        let out = &mut c[i * d.cols..(i + 1) * d.cols];
        for k in (0..d.inner).filter(|&k| a[i * d.inner + k] != 0.0) {
            for (o, &y) in out.iter_mut().zip(&b[k * d.cols..(k + 1) * d.cols]) {
                if y != 0.0 {
                    *o = 1.0;
                }
            }
        }
    }
}

/// Min-plus product: c_ij = min_k a_ik + b_kj, NO_EDGE (the semiring's zero) where
/// no k joins i to j.
fn min_plus(d: Dims, a: &[f32], b: &[f32], c: &mut [f32]) {
    c.fill(NO_EDGE);
    let far = 0.5 * NO_EDGE;
    for i in 0..d.rows {
        let out = &mut c[i * d.cols..(i + 1) * d.cols];
        for k in (0..d.inner).filter(|&k| a[i * d.inner + k] < far) {
            let x = a[i * d.inner + k];
            for (o, &y) in out.iter_mut().zip(&b[k * d.cols..(k + 1) * d.cols]) {
                if y < far {
                    *o = o.min(x + y);
                }
            }
        }
    }
}

/// Splits `rows` among `parts` workers as OpenMP's static schedule does: contiguous
/// ranges whose sizes differ by at most one, earlier ranges taking the extra rows.
pub fn static_schedule(rows: usize, parts: usize) -> Vec<std::ops::Range<usize>> {
    let parts = parts.max(1).min(rows.max(1));
    let (base, extra) = (rows / parts, rows % parts);
    let mut start = 0;
    (0..parts)
        .map(|p| {
            let len = base + usize::from(p < extra);
            let range = start..start + len;
            start += len;
            range
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random;
    use crate::reference;

    fn check(semiring: Semiring, d: Dims, seed: u32) {
        let mut a = random::uniform(seed, d.rows * d.inner, -1.0, 1.0);
        let mut b = random::uniform(seed + 1, d.inner * d.cols, -1.0, 1.0);
        if semiring != Semiring::Ordinary {
            // Integers, some of them the semiring's zero: exact in f32.
            for v in a.iter_mut().chain(b.iter_mut()) {
                *v = (*v * 4.0).round().abs();
                if *v == 3.0 {
                    *v = semiring.zero() as f32;
                }
            }
        }
        let mut c = vec![f32::NAN; d.rows * d.cols];
        product(semiring, d, &a, &b, &mut c);
        let (fa, fb) = (reference::to_f64(&a), reference::to_f64(&b));
        let want = reference::multiply(semiring, d.rows, d.inner, d.cols, &fa, &fb);
        for (i, (&got, &want)) in c.iter().zip(&want).enumerate() {
            let tol = match semiring {
                Semiring::Ordinary => 1e-5 * (d.inner as f64).sqrt() + 1e-6,
                _ => 0.0,
            };
            assert!(
                (got as f64 - want).abs() <= tol || (got as f64 >= 1e29 && want >= 1e29),
                "{semiring:?} {d:?} entry {i}: {got} against {want}"
            );
        }
    }

    #[test]
    fn products_match_the_reference_across_tile_edges() {
        // Shapes straddling MR, NR, MC, KC and NC, including 1 and primes.
        let shapes = [
            (1, 1, 1),
            (3, 5, 7),
            (4, 8, 8),
            (5, 9, 17),
            (13, 257, 9),
            (33, 300, 515),
            (64, 64, 64),
            (7, 513, 1030),
            (130, 257, 260),
            (257, 40, 3),
        ];
        for (s, &(rows, inner, cols)) in shapes.iter().enumerate() {
            for semiring in [Semiring::Ordinary, Semiring::Boolean, Semiring::MinPlus] {
                check(semiring, Dims { rows, inner, cols }, 10 + s as u32);
            }
        }
    }

    #[test]
    fn static_schedule_covers_every_row_once() {
        for rows in [1, 2, 7, 100, 1023] {
            for parts in [1, 2, 3, 16, 2000] {
                let ranges = static_schedule(rows, parts);
                assert_eq!(ranges.first().unwrap().start, 0);
                assert_eq!(ranges.last().unwrap().end, rows);
                assert!(ranges.windows(2).all(|w| w[0].end == w[1].start));
                let lens: Vec<_> = ranges.iter().map(|r| r.len()).collect();
                assert!(lens.iter().max().unwrap() - lens.iter().min().unwrap() <= 1);
                assert!(lens.iter().all(|&l| l > 0));
            }
        }
    }
}
