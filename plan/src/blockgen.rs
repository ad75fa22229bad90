//! The seeded block-sparse generator that the GPU runs (wgsl/block_sparse/gen_map.wgsl,
//! gen_values.wgsl), written again here so that the CPU can compute any block of a
//! generated matrix in O(1), without reading the matrix back: the float64 check of a
//! product's sampled blocks.
//!
//! A generated matrix has exactly k distinct stored blocks on its T×T block grid: the
//! first k outputs of a keyed permutation of the grid's cells (a Feistel network
//! over the smallest even power of two holding the cells, made a permutation of the
//! cells by cycle-walking). Stored slot s is cell `perm(s)`; cell x is stored, as
//! slot `perm⁻¹(x)`, exactly when `perm⁻¹(x) < k`. Entry e of slot s is a hash of
//! (the seed, s, e) made a number in [-1, 1) with 2⁻²³ steps: the same bits on
//! every device (integer hashing, then an exact conversion).

/// A map entry for a cell with no stored block.
pub const NONE: u32 = u32::MAX;

/// Rounds of the Feistel network.
const ROUNDS: usize = 4;

/// A 32-bit integer hash (lowbias32): every step wraps, as WGSL's u32 arithmetic does.
pub fn mix(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

/// A keyed permutation of [0, cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Permutation {
    pub cells: u32,
    /// Bits of each half of the Feistel network's words.
    pub half: u32,
    pub keys: [u32; ROUNDS],
}

impl Permutation {
    /// The permutation of `cells` (at least 1) keyed by `seed`.
    pub fn new(cells: u32, seed: u32) -> Permutation {
        // Words of 2·half bits hold every cell: fewer than 4·cells words, so a
        // cycle-walk takes under 4 steps on average.
        let bits = 32 - cells.max(4).saturating_sub(1).leading_zeros();
        let half = bits.div_ceil(2);
        let mut keys = [0; ROUNDS];
        for (r, key) in keys.iter_mut().enumerate() {
            *key = mix(seed ^ mix(0x9e37_79b9u32.wrapping_mul(r as u32 + 1)));
        }
        Permutation { cells, half, keys }
    }

    fn mask(&self) -> u32 {
        (1u32 << self.half) - 1
    }

    fn forward(&self, x: u32) -> u32 {
        let (mut l, mut r) = (x >> self.half, x & self.mask());
        for key in self.keys {
            (l, r) = (r, l ^ (mix(r ^ key) & self.mask()));
        }
        (l << self.half) | r
    }

    fn backward(&self, y: u32) -> u32 {
        let (mut l, mut r) = (y >> self.half, y & self.mask());
        for key in self.keys.iter().rev() {
            (l, r) = (r ^ (mix(l ^ key) & self.mask()), l);
        }
        (l << self.half) | r
    }

    /// The cell of slot `s` (< cells).
    pub fn apply(&self, s: u32) -> u32 {
        let mut y = self.forward(s);
        while y >= self.cells {
            y = self.forward(y);
        }
        y
    }

    /// The slot of cell `x` (< cells).
    pub fn invert(&self, x: u32) -> u32 {
        let mut s = self.backward(x);
        while s >= self.cells {
            s = self.backward(s);
        }
        s
    }
}

/// The key of a matrix's values (apart from its pattern's keys).
pub fn value_key(seed: u32) -> u32 {
    mix(seed ^ 0x5bd1_e995)
}

/// Entry `e` of stored slot `s` of the matrix whose values are keyed by `key`.
pub fn value(key: u32, s: u32, e: u32) -> f32 {
    let v = mix(mix(s ^ key).wrapping_add(e));
    // 24 bits times 2⁻²³, less one: exact, so every device gets the same number.
    (v >> 8) as f32 * (1.0 / 8_388_608.0) - 1.0
}

/// A generated square block-sparse matrix: a T×T grid of m×m blocks, k of them stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated {
    pub grid: u32,
    pub block_size: u32,
    pub stored: u32,
    pub seed: u32,
    pub perm: Permutation,
}

impl Generated {
    /// The matrix of `stored` (≤ grid²) blocks of `block_size` on a `grid`² grid.
    pub fn new(grid: u32, block_size: u32, stored: u32, seed: u32) -> Generated {
        Generated {
            grid,
            block_size,
            stored,
            seed,
            perm: Permutation::new(grid * grid, seed),
        }
    }

    /// The slot of block (i, j), if stored.
    pub fn slot(&self, i: u32, j: u32) -> Option<u32> {
        let s = self.perm.invert(i * self.grid + j);
        (s < self.stored).then_some(s)
    }

    /// Stored slot s's (block row, block column).
    pub fn coordinates(&self, s: u32) -> (u32, u32) {
        let x = self.perm.apply(s);
        (x / self.grid, x % self.grid)
    }

    /// Slot s's m² values, row-major.
    pub fn values(&self, s: u32) -> Vec<f32> {
        let key = value_key(self.seed);
        (0..self.block_size * self.block_size)
            .map(|e| value(key, s, e))
            .collect()
    }

    /// Block (i, j)'s values, if stored.
    pub fn block(&self, i: u32, j: u32) -> Option<Vec<f32>> {
        self.slot(i, j).map(|s| self.values(s))
    }
}

/// Block (i, j) of A·B in float64 and the block products that made it (A's block
/// row i against B's block column j: 2·T lookups).
pub fn reference_block(a: &Generated, b: &Generated, i: u32, j: u32) -> (Vec<f64>, u32) {
    let m = a.block_size as usize;
    let mut out = vec![0.0f64; m * m];
    let mut products = 0;
    for k in 0..a.grid {
        let (Some(x), Some(y)) = (a.block(i, k), b.block(k, j)) else {
            continue;
        };
        products += 1;
        for r in 0..m {
            for t in 0..m {
                let v = x[r * m + t] as f64;
                for c in 0..m {
                    out[r * m + c] += v * y[t * m + c] as f64;
                }
            }
        }
    }
    (out, products)
}

/// The relative error of `got` against `reference` (Frobenius norms; absolute where
/// the reference is zero).
pub fn relative_error(got: &[f32], reference: &[f64]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for (&g, &r) in got.iter().zip(reference) {
        num += (g as f64 - r) * (g as f64 - r);
        den += r * r;
    }
    if den > 0.0 {
        (num / den).sqrt()
    } else {
        num.sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_permutation_is_a_bijection_with_its_inverse() {
        for cells in [
            1u32, 2, 3, 4, 5, 7, 16, 17, 100, 255, 256, 1000, 4096, 65_537,
        ] {
            for seed in [0, 1, 0xdead_beef] {
                let p = Permutation::new(cells, seed);
                let mut seen = vec![false; cells as usize];
                for s in 0..cells {
                    let x = p.apply(s);
                    assert!(x < cells, "{cells}: {s} -> {x}");
                    assert!(!seen[x as usize], "{cells}: {x} twice");
                    seen[x as usize] = true;
                    assert_eq!(p.invert(x), s, "{cells}, seed {seed}");
                }
            }
        }
    }

    #[test]
    fn a_generated_matrix_has_exactly_k_distinct_blocks() {
        for (t, k) in [(1, 0), (1, 1), (3, 4), (7, 49), (16, 37), (64, 1000)] {
            let g = Generated::new(t, 2, k, 9);
            let present = (0..t * t)
                .filter(|&x| g.slot(x / t, x % t).is_some())
                .count();
            assert_eq!(present as u32, k, "T={t}");
            for s in 0..k {
                let (i, j) = g.coordinates(s);
                assert_eq!(g.slot(i, j), Some(s));
            }
        }
        // Not the first k cells in order: the pattern is scattered.
        let g = Generated::new(64, 2, 64, 3);
        assert!((0..64).any(|s| g.coordinates(s).0 != 0));
    }

    #[test]
    fn values_are_in_range_and_differ_by_seed() {
        let key = value_key(5);
        let vals: Vec<f32> = (0..1000).map(|e| value(key, 3, e)).collect();
        assert!(vals.iter().all(|v| (-1.0..1.0).contains(v)));
        let mean = vals.iter().map(|&v| v as f64).sum::<f64>() / 1000.0;
        assert!(mean.abs() < 0.1, "{mean}");
        assert_ne!(value(value_key(5), 0, 0), value(value_key(6), 0, 0));
        // Exact: 24-bit integers times 2^-23.
        assert!(vals
            .iter()
            .all(|v| ((v + 1.0) * 8_388_608.0).fract() == 0.0));
    }

    #[test]
    fn reference_blocks_match_a_dense_product() {
        let (t, m) = (5u32, 3u32);
        let (a, b) = (Generated::new(t, m, 9, 1), Generated::new(t, m, 14, 2));
        let n = (t * m) as usize;
        let dense = |g: &Generated| {
            let mut d = vec![0.0f64; n * n];
            for s in 0..g.stored {
                let (i, j) = g.coordinates(s);
                for (e, v) in g.values(s).into_iter().enumerate() {
                    let (r, c) = (e / m as usize, e % m as usize);
                    d[(i * m) as usize * n + r * n + (j * m) as usize + c] = v as f64;
                }
            }
            d
        };
        let (da, db) = (dense(&a), dense(&b));
        let mut total = 0;
        for i in 0..t {
            for j in 0..t {
                let (block, products) = reference_block(&a, &b, i, j);
                total += products;
                for (e, got) in block.iter().enumerate() {
                    let (r, c) = (
                        (i * m) as usize + e / m as usize,
                        (j * m) as usize + e % m as usize,
                    );
                    let want: f64 = (0..n).map(|q| da[r * n + q] * db[q * n + c]).sum();
                    assert!((got - want).abs() < 1e-12);
                }
            }
        }
        // Σ_k (A's blocks in column k)·(B's blocks in row k).
        let want: u32 = (0..t)
            .map(|k| {
                let ca = (0..t).filter(|&i| a.slot(i, k).is_some()).count() as u32;
                let rb = (0..t).filter(|&j| b.slot(k, j).is_some()).count() as u32;
                ca * rb
            })
            .sum();
        assert_eq!(total, want);
        assert!(total > 0);
    }
}
