//! Stream-K tails for the 128 × 128 register kernel (wgsl/matmul/4_stream_k.wgsl,
//! wgsl/matmul/4_stream_k_fixup.wgsl): which tiles of C are computed a workgroup each, and how
//! the k-slices of the rest are shared out among the workgroups of one wave.
//!
//! A GPU runs a fixed number of a kernel's workgroups at once (`resident`: measured by
//! the engine, 264 on the H200). With T tiles, the plain grid takes ⌈T / resident⌉
//! waves of equal length, the last one T mod resident tiles full. Stream-K keeps the
//! full waves as they are and spreads the last wave's tiles, slice by slice, over
//! `resident` workgroups, so that the last wave is as long as its share of the work.
//! Measured on the H200 (bench/NOTES.md, 2026-11-29 "stream-K"), GFLOP/s by GPU
//! time: n = 4096 45,700 → 47,300; 3072 34,200 → 46,900; 2560 35,200 → 46,300;
//! 6144 45,900 → 47,700.

/// The tile side and slice width of the kernel (matmul/3_register.wgsl's 128 × 128, BK).
pub const TILE: usize = 128;
pub const SLICE: usize = 16;

/// A last wave at least this full runs as it is: its idle share is too small for the
/// fix-up pass to pay (the tails measured were 18-88 % full and all gained 3-37 %).
pub const FULL_ENOUGH: f64 = 0.9;

/// A product's stream-K plan: the uniform block of matmul/4_stream_k.wgsl.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamK {
    /// Tiles computed a workgroup each, the first ones in row-major order.
    pub data_tiles: u32,
    /// Workgroups after those that share out the remaining tiles' slices.
    pub workgroups: u32,
    /// Slices of k in a tile.
    pub slices: u32,
    /// Slices of all the shared tiles.
    pub iterations: u32,
    /// Tiles in a row of C.
    pub tiles_x: u32,
    /// Slots of the scratch buffer per sharing workgroup: the most tiles its range
    /// can touch.
    pub parts: u32,
}

impl StreamK {
    /// The plan for C (rows × cols) = A (rows × inner) · B, in whole tiles and slices,
    /// on a GPU that runs `resident` workgroups of the kernel at once, dispatched as
    /// one row of at most `max_groups` workgroups; None where the plain grid is as
    /// good (fewer tiles than one wave, no partial wave or one at least
    /// [`FULL_ENOUGH`] full) or the shape is not whole tiles and slices.
    pub fn plan(
        [rows, inner, cols]: [usize; 3],
        resident: usize,
        max_groups: usize,
    ) -> Option<StreamK> {
        let whole = rows % TILE == 0 && cols % TILE == 0 && inner % SLICE == 0;
        if !whole || rows == 0 || cols == 0 || inner == 0 || resident == 0 {
            return None;
        }
        let tiles = (rows / TILE).checked_mul(cols / TILE)?;
        let shared = tiles % resident;
        if tiles < resident || shared == 0 || shared as f64 >= FULL_ENOUGH * resident as f64 {
            return None;
        }
        let slices = inner / SLICE;
        let iterations = shared.checked_mul(slices)?;
        if iterations > u32::MAX as usize {
            return None;
        }
        let data_tiles = tiles - shared;
        // The kernel computes w · iterations in 32 bits, and dispatches one row.
        let fits = (resident as u64).checked_mul(iterations as u64) < Some(1 << 32)
            && data_tiles + resident <= max_groups;
        if !fits {
            return None;
        }
        // A range of ⌈iterations / resident⌉ slices or fewer, fewer than a tile's
        // (shared < resident), touches at most two tiles.
        Some(StreamK {
            data_tiles: data_tiles as u32,
            workgroups: resident as u32,
            slices: slices as u32,
            iterations: iterations as u32,
            tiles_x: (cols / TILE) as u32,
            parts: 2,
        })
    }

    /// The uniform block `measure` words: every tile a workgroup of its own (no
    /// sharing), and the count of workgroups running at once switched on.
    pub fn measure([rows, inner, cols]: [usize; 3]) -> [u32; 8] {
        let tiles = rows.div_ceil(TILE) * cols.div_ceil(TILE);
        [
            tiles as u32,
            0,
            inner.div_ceil(SLICE) as u32,
            0,
            cols.div_ceil(TILE) as u32,
            0,
            1,
            0,
        ]
    }

    /// The uniform block (`struct StreamK` of matmul/4_stream_k.wgsl).
    pub fn words(&self) -> [u32; 8] {
        [
            self.data_tiles,
            self.workgroups,
            self.slices,
            self.iterations,
            self.tiles_x,
            self.parts,
            0,
            0,
        ]
    }

    /// Workgroups of the kernel's dispatch (one row).
    pub fn groups(&self) -> usize {
        self.data_tiles as usize + self.workgroups as usize
    }

    /// Tiles whose slices are shared out.
    pub fn shared_tiles(&self) -> usize {
        (self.iterations / self.slices) as usize
    }

    /// Floats of the scratch buffer (a tile per slot).
    pub fn scratch_floats(&self) -> usize {
        self.workgroups as usize * self.parts as usize * TILE * TILE
    }

    /// As the kernel's `first_iteration`.
    pub fn first_iteration(&self, w: u32) -> u32 {
        ((w as u64 * self.iterations as u64) / self.workgroups as u64) as u32
    }

    /// What sharing workgroup `w` computes, as the kernel's part_count and part_at
    /// do: (shared tile, first slice, end slice, slot) per part.
    pub fn parts_of(&self, w: u32) -> Vec<(u32, u32, u32, u32)> {
        let (lo, hi) = (self.first_iteration(w), self.first_iteration(w + 1));
        if hi <= lo {
            return Vec::new();
        }
        let s = self.slices;
        (lo / s..=(hi - 1) / s)
            .enumerate()
            .map(|(part, j)| {
                let from = lo.max(j * s) - j * s;
                let to = hi.min((j + 1) * s) - j * s;
                (j, from, to, w * self.parts + part as u32)
            })
            .collect()
    }

    /// The slots the fix-up pass adds up for shared tile `j`, found as it finds them.
    pub fn slots_of_tile(&self, j: u32) -> Vec<u32> {
        let (lo, hi) = (j * self.slices, (j + 1) * self.slices);
        let last = self.workgroups - 1;
        let mut w =
            ((lo as u64 * self.workgroups as u64) / self.iterations as u64).min(last as u64) as u32;
        while w + 1 < self.workgroups && self.first_iteration(w + 1) <= lo {
            w += 1;
        }
        while w > 0 && self.first_iteration(w) > lo {
            w -= 1;
        }
        let mut slots = Vec::new();
        while w < self.workgroups {
            let first = self.first_iteration(w);
            if first >= hi {
                break;
            }
            if self.first_iteration(w + 1) > first {
                slots.push(w * self.parts + j - first / self.slices);
            }
            w += 1;
        }
        slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_h200_sizes_share_their_last_wave() {
        let p = StreamK::plan([4096, 4096, 4096], 264, 65535).unwrap();
        assert_eq!((p.data_tiles, p.workgroups, p.slices), (792, 264, 256));
        assert_eq!(p.shared_tiles(), 232);
        assert_eq!(p.groups(), 1056);
        assert_eq!(p.scratch_floats(), 264 * 2 * 16384);
        let p = StreamK::plan([3072, 3072, 3072], 264, 65535).unwrap();
        assert_eq!((p.data_tiles, p.shared_tiles()), (528, 48));
        // Non-square: 2560 x 6144 is 20 x 48 = 960 tiles, 3 waves and 168.
        let p = StreamK::plan([2560, 512, 6144], 264, 65535).unwrap();
        assert_eq!(
            (p.data_tiles, p.shared_tiles(), p.tiles_x, p.slices),
            (792, 168, 48, 32)
        );
    }

    #[test]
    fn plain_grids_stay_where_stream_k_would_not_pay() {
        // Fewer tiles than a wave (2048: 256 tiles), whole waves, a nearly full last
        // wave (3584: 784 = 2 x 264 + 256, 97 % full).
        assert_eq!(StreamK::plan([2048, 2048, 2048], 264, 65535), None);
        assert_eq!(StreamK::plan([128 * 24, 64, 128 * 11], 264, 65535), None);
        assert_eq!(StreamK::plan([3584, 3584, 3584], 264, 65535), None);
        // Not whole tiles or slices, or empty.
        assert_eq!(StreamK::plan([4095, 4096, 4096], 264, 65535), None);
        assert_eq!(StreamK::plan([4096, 4088, 4096], 264, 65535), None);
        assert_eq!(StreamK::plan([4096, 0, 4096], 264, 65535), None);
        assert_eq!(StreamK::plan([4096, 4096, 4096], 0, 65535), None);
        // A dispatch row too long, or w · iterations past 32 bits.
        assert_eq!(StreamK::plan([4096, 4096, 4096], 264, 1000), None);
        assert_eq!(StreamK::plan([4096, 1 << 24, 4096], 264, 65535), None);
    }

    /// Every slice of every shared tile is computed by exactly one part, each part
    /// has a slot of its own within its workgroup's, and the fix-up finds exactly
    /// the slots holding a tile's parts.
    #[test]
    fn the_parts_cover_each_shared_tile_once() {
        let cases = [
            ([4096, 4096, 4096], 264),
            ([3072, 3072, 3072], 264),
            ([512, 16, 512], 3),
            ([512, 48, 512], 7),
            ([384, 160, 1152], 5),
            ([256, 32, 256], 3),
            ([640, 16, 128], 3),
        ];
        for (shape, resident) in cases {
            let p = StreamK::plan(shape, resident, 65535).unwrap();
            let mut covered = vec![vec![0u32; p.slices as usize]; p.shared_tiles()];
            let mut holders = vec![Vec::new(); p.shared_tiles()];
            for w in 0..p.workgroups {
                let parts = p.parts_of(w);
                assert!(parts.len() <= p.parts as usize, "{shape:?} w={w}");
                for &(j, from, to, slot) in &parts {
                    assert!(from < to && to <= p.slices);
                    assert!(slot / p.parts == w);
                    for s in from..to {
                        covered[j as usize][s as usize] += 1;
                    }
                    holders[j as usize].push(slot);
                }
            }
            assert!(covered.iter().flatten().all(|&c| c == 1), "{shape:?}");
            for (j, want) in holders.iter().enumerate() {
                assert_eq!(&p.slots_of_tile(j as u32), want, "{shape:?} tile {j}");
            }
        }
    }

    #[test]
    fn the_words_are_the_kernels_struct() {
        let p = StreamK::plan([4096, 4096, 4096], 264, 65535).unwrap();
        assert_eq!(p.words(), [792, 264, 256, 232 * 256, 32, 2, 0, 0]);
        assert_eq!(
            StreamK::measure([4096, 4096, 4096]),
            [1024, 0, 256, 0, 32, 0, 1, 0]
        );
    }
}
