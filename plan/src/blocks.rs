//! Partitioned matrices, the pure part: how a matrix is cut into tiles (the
//! tiling that takes products past the device limit), block-sparse matrices (a
//! pattern of stored blocks and their values), and the symbolic phase of a
//! block-sparse product, which finds the output's pattern before the GPU computes
//! a single number. Tested natively.
//!
//! Blocks multiply as if they were numbers: C_ij = Σ_k A_ik · B_kj. A block-sparse
//! product computes only the terms whose two blocks are both stored.

use crate::error::{GpgpuError, Result};
use crate::shape::{self, Shape};

pub use crate::tiles::{cut, paste, pieces};

/// The largest block side accepted: a block's products cost its side cubed per pair,
/// and WebGL's block atlas needs a block to fit one texture row.
pub const MAX_BLOCK_SIZE: usize = 1024;

/// The most stored blocks of an operand, and the most block rows or columns:
/// the index table holds these numbers as float32 (WebGL keeps it in a float
/// texture), exact below 2^24.
pub const MAX_INDEX: usize = (1 << 24) - 2;

/// A block size given as a JS number: a whole number from 1 to [`MAX_BLOCK_SIZE`].
pub fn block_size(value: f64) -> Result<usize> {
    let v = shape::count_from("blockSize", value, 1, MAX_BLOCK_SIZE as f64)?;
    Ok(v as usize)
}

/// Which blocks of a grid are stored, in block compressed sparse row form: the
/// stored blocks of block row i are `cols[row_starts[i]..row_starts[i + 1]]`,
/// sorted by column. Stored block number s is the s-th in row-major order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    pub grid_rows: usize,
    pub grid_cols: usize,
    pub row_starts: Vec<usize>,
    pub cols: Vec<usize>,
}

impl Pattern {
    /// A grid with no stored block.
    pub fn empty(grid_rows: usize, grid_cols: usize) -> Pattern {
        Pattern {
            grid_rows,
            grid_cols,
            row_starts: vec![0; grid_rows + 1],
            cols: vec![],
        }
    }

    /// From one boolean per block, row-major over the grid (the CUDA report's flags).
    pub fn from_occupancy(grid_rows: usize, grid_cols: usize, occupied: &[bool]) -> Pattern {
        let mut p = Pattern::empty(grid_rows, grid_cols);
        for i in 0..grid_rows {
            for j in 0..grid_cols {
                if occupied[i * grid_cols + j] {
                    p.cols.push(j);
                }
            }
            p.row_starts[i + 1] = p.cols.len();
        }
        p
    }

    /// How many blocks are stored.
    pub fn stored(&self) -> usize {
        self.cols.len()
    }

    /// Blocks of the whole grid.
    pub fn grid_blocks(&self) -> usize {
        self.grid_rows * self.grid_cols
    }

    /// Stored blocks over grid blocks (1 for an empty grid: nothing is missing).
    pub fn density(&self) -> f64 {
        match self.grid_blocks() {
            0 => 1.0,
            g => self.stored() as f64 / g as f64,
        }
    }

    /// Whether every block of the grid is stored.
    pub fn is_full(&self) -> bool {
        self.stored() == self.grid_blocks()
    }

    /// One byte per block, 1 where stored, row-major over the grid.
    pub fn occupancy(&self) -> Vec<u8> {
        let mut out = vec![0u8; self.grid_blocks()];
        for (i, j) in self.coordinates() {
            out[i * self.grid_cols + j] = 1;
        }
        out
    }

    /// (block row, block column) of each stored block, in storage order.
    pub fn coordinates(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.grid_rows).flat_map(move |i| {
            self.cols[self.row_starts[i]..self.row_starts[i + 1]]
                .iter()
                .map(move |&j| (i, j))
        })
    }

    /// The stored-block number of block (i, j), if it is stored.
    pub fn find(&self, i: usize, j: usize) -> Option<usize> {
        let row = &self.cols[self.row_starts[i]..self.row_starts[i + 1]];
        row.binary_search(&j).ok().map(|k| self.row_starts[i] + k)
    }

    /// The stored blocks kept where `keep[s]` holds.
    pub fn filter(&self, keep: &[bool]) -> Pattern {
        let mut p = Pattern::empty(self.grid_rows, self.grid_cols);
        for i in 0..self.grid_rows {
            let range = self.row_starts[i]..self.row_starts[i + 1];
            let kept = self.cols[range.clone()].iter().zip(&keep[range]);
            p.cols.extend(kept.filter(|(_, &k)| k).map(|(&j, _)| j));
            p.row_starts[i + 1] = p.cols.len();
        }
        p
    }
}

/// The symbolic phase of C = A·B on block patterns: C's pattern and how many
/// block products the numeric phase will compute.
#[derive(Clone, Debug, PartialEq)]
pub struct Symbolic {
    pub out: Pattern,
    /// Block products A_ik·B_kj with both blocks stored (P of the bench's t ≈ c₀ + c₁·P).
    pub products: u64,
    /// Block products a dense product over the same grids computes.
    pub dense_products: u64,
}

/// Gustavson's algorithm on blocks, row by row: block row i of C is the union of
/// the block rows k of B for every stored A_ik. The union is kept as a bitset over
/// C's block columns, so a row costs (stored blocks of A's row) × (grid columns / 64)
/// word operations, however many products they stand for.
pub fn symbolic(a: &Pattern, b: &Pattern) -> Result<Symbolic> {
    if a.grid_cols != b.grid_rows {
        return Err(GpgpuError::BadArgument {
            name: "b".into(),
            detail: format!(
                "a grid of {}x{} blocks times one of {}x{}: the inner grids differ (use \
                 matrices whose inner dimensions and block sizes match)",
                a.grid_rows, a.grid_cols, b.grid_rows, b.grid_cols
            ),
        });
    }
    let words = b.grid_cols.div_ceil(64);
    // B's block rows as bitsets.
    let mut b_rows = vec![0u64; b.grid_rows * words];
    for (k, j) in b.coordinates() {
        b_rows[k * words + j / 64] |= 1 << (j % 64);
    }
    let b_count: Vec<u64> = (0..b.grid_rows)
        .map(|k| (b.row_starts[k + 1] - b.row_starts[k]) as u64)
        .collect();
    let mut out = Pattern::empty(a.grid_rows, b.grid_cols);
    let mut row = vec![0u64; words];
    let mut products = 0u64;
    for i in 0..a.grid_rows {
        row.fill(0);
        for &k in &a.cols[a.row_starts[i]..a.row_starts[i + 1]] {
            products += b_count[k];
            for (w, bits) in row.iter_mut().zip(&b_rows[k * words..(k + 1) * words]) {
                *w |= bits;
            }
        }
        for (w, &bits) in row.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                out.cols.push(w * 64 + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
        out.row_starts[i + 1] = out.cols.len();
    }
    Ok(Symbolic {
        out,
        products,
        dense_products: (a.grid_rows * a.grid_cols) as u64 * b.grid_cols as u64,
    })
}

/// A block-sparse matrix on the CPU: its shape, the block side, which blocks are
/// stored, and each stored block's block_size² values, row-major within the block.
/// Blocks at the right and bottom edges are padded with zeros past the matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockSparse {
    pub shape: Shape,
    pub block_size: usize,
    pub pattern: Pattern,
    pub values: Vec<f32>,
}

impl BlockSparse {
    fn grid(shape: Shape, block_size: usize) -> (usize, usize) {
        (
            shape.rows.div_ceil(block_size),
            shape.cols.div_ceil(block_size),
        )
    }

    /// Rows and columns from 1, BAD_DIMENSION otherwise, as JavaScript's fromDense and
    /// fromBlocks take them: a 0x0 matrix was made here, and refused there.
    fn check_sides(shape: Shape) -> Result<()> {
        shape::dimension("rows", shape.rows as f64, usize::MAX)?;
        shape::dimension("cols", shape.cols as f64, usize::MAX)?;
        Ok(())
    }

    /// A shape whose dense form one WebAssembly array holds (fewer than 2^29 entries),
    /// SIZE_OVER_LIMIT otherwise, naming `what` is that shape: JavaScript's fromDense
    /// and fromBlocks bound their shapes so. Rust's from_blocks took a 30000 x 30000
    /// shape, whose to_dense then asked wasm32 for 3.6 GB at once ("capacity
    /// overflow"), as reading back its square did; a product checks its result so.
    pub fn check_dense_size(what: &str, shape: Shape) -> Result<()> {
        let bytes = shape.rows as f64 * shape.cols as f64 * 4.0;
        if bytes > shape::MAX_ARRAY_BYTES {
            return Err(GpgpuError::DeviceLimit {
                what: format!(
                    "{what}: its dense form, one {}x{} matrix,",
                    shape.rows, shape.cols
                ),
                needed: bytes,
                unit: "bytes of WebAssembly memory",
                limit_name: "the largest array WebAssembly allocates",
                limit: shape::MAX_ARRAY_BYTES,
                hint: "A BlockSparse has fewer than 2^29 entries, as BlockSparse.fromDense \
                       and fromBlocks take them: use smaller matrices, or a block of rows \
                       (or of columns) at a time.",
            });
        }
        Ok(())
    }

    /// Refuses a grid whose pattern could not be allocated: its row starts are one
    /// usize per block row, plus one. `from_blocks` takes a shape with no data behind
    /// it, so nothing else bounds it: a usize::MAX-row shape panicked on
    /// `grid_rows + 1`, and 2^29 rows in blocks of 1 asked wasm32 for 2 GiB of
    /// offsets ("capacity overflow") for an empty matrix.
    fn check_grid(grid_rows: usize) -> Result<()> {
        let bytes = (grid_rows as f64 + 1.0) * std::mem::size_of::<usize>() as f64;
        if bytes > shape::MAX_ARRAY_BYTES {
            return Err(GpgpuError::DeviceLimit {
                what: format!("a BlockSparse of {grid_rows} block rows"),
                needed: bytes,
                unit: "bytes of WebAssembly memory (its block row offsets)",
                limit_name: "the largest array WebAssembly allocates",
                limit: shape::MAX_ARRAY_BYTES,
                hint: "Use fewer rows, or larger blocks (blockSize up to 1024).",
            });
        }
        Ok(())
    }

    /// Cuts a row-major matrix into blocks, storing those with any nonzero entry
    /// (NaN counts as nonzero). `block_size` from 1 to [`MAX_BLOCK_SIZE`], else
    /// `BadCount`.
    pub fn from_dense(shape: Shape, data: &[f32], block_size: usize) -> Result<BlockSparse> {
        Self::check_sides(shape)?;
        shape::check_len("data", shape, data.len())?;
        let bs = self::block_size(block_size as f64)?;
        let (gr, gc) = Self::grid(shape, bs);
        let mut pattern = Pattern::empty(gr, gc);
        let mut values = vec![];
        let mut block = vec![0f32; bs * bs];
        for bi in 0..gr {
            for bj in 0..gc {
                block.fill(0.0);
                let mut any = false;
                for r in 0..bs.min(shape.rows - bi * bs) {
                    let i = bi * bs + r;
                    for c in 0..bs.min(shape.cols - bj * bs) {
                        let v = data[i * shape.cols + bj * bs + c];
                        any |= v != 0.0;
                        block[r * bs + c] = v;
                    }
                }
                if any {
                    pattern.cols.push(bj);
                    values.extend_from_slice(&block);
                }
            }
            pattern.row_starts[bi + 1] = pattern.cols.len();
        }
        Ok(BlockSparse {
            shape,
            block_size: bs,
            pattern,
            values,
        })
    }

    /// From a list of blocks: (block row, block column, block_size² values row-major).
    /// Entries of edge blocks that fall outside the matrix are ignored (stored as 0),
    /// and a block with no nonzero entry inside the matrix is not stored.
    pub fn from_blocks(
        shape: Shape,
        block_size: usize,
        blocks: &[(usize, usize, &[f32])],
    ) -> Result<BlockSparse> {
        Self::check_sides(shape)?;
        Self::check_dense_size("a BlockSparse", shape)?;
        let bs = self::block_size(block_size as f64)?;
        let (gr, gc) = Self::grid(shape, bs);
        Self::check_grid(gr)?;
        for &(i, j, data) in blocks {
            if i >= gr || j >= gc {
                return Err(GpgpuError::BadArgument {
                    name: "blocks".into(),
                    detail: format!(
                        "block ({i}, {j}) is outside the {gr}x{gc} block grid of a {}x{} \
                         matrix with blocks of {bs}: block rows run 0..{gr}, columns 0..{gc}",
                        shape.rows, shape.cols
                    ),
                });
            }
            shape::check_len(&format!("block ({i}, {j})"), Shape::square(bs), data.len())?;
        }
        let order = shape::cell_order(
            blocks
                .iter()
                .enumerate()
                .map(|(s, b)| (b.0, b.1, s))
                .collect(),
        );
        if let Some(w) = order
            .windows(2)
            .find(|w| (blocks[w[0]].0, blocks[w[0]].1) == (blocks[w[1]].0, blocks[w[1]].1))
        {
            let (i, j, _) = blocks[w[0]];
            return Err(GpgpuError::BadArgument {
                name: "blocks".into(),
                detail: format!("block ({i}, {j}) is given twice: give each block once"),
            });
        }
        let mut pattern = Pattern::empty(gr, gc);
        let mut values = Vec::with_capacity(blocks.len() * bs * bs);
        let mut next = 0;
        for bi in 0..gr {
            while next < order.len() && blocks[order[next]].0 == bi {
                let (_, bj, data) = blocks[order[next]];
                pattern.cols.push(bj);
                let (rows, cols) = (bs.min(shape.rows - bi * bs), bs.min(shape.cols - bj * bs));
                for r in 0..bs {
                    for c in 0..bs {
                        let inside = r < rows && c < cols;
                        values.push(if inside { data[r * bs + c] } else { 0.0 });
                    }
                }
                next += 1;
            }
            pattern.row_starts[bi + 1] = pattern.cols.len();
        }
        // Only blocks with a nonzero entry are stored, as from_dense stores them: a
        // block given as zeros (or nonzero only past the edge) was stored and counted
        // among the nonzero blocks.
        let given = BlockSparse {
            shape,
            block_size: bs,
            pattern,
            values,
        };
        Ok(given.pruned())
    }

    /// The matrix, row-major, with zeros where no block is stored; OUT_OF_MEMORY where
    /// WebAssembly memory cannot give it (its allocation aborted: a trap).
    pub fn to_dense(&self) -> Result<Vec<f32>> {
        let (bs, s) = (self.block_size, self.shape);
        Self::check_dense_size("toDense", s)?;
        let mut out = crate::error::filled(s.len(), 0f32, || {
            format!("the dense form of a {}x{} BlockSparse", s.rows, s.cols)
        })?;
        for (n, (bi, bj)) in self.pattern.coordinates().enumerate() {
            let block = &self.values[n * bs * bs..(n + 1) * bs * bs];
            for r in 0..bs.min(s.rows - bi * bs) {
                let at = (bi * bs + r) * s.cols + bj * bs;
                let cols = bs.min(s.cols - bj * bs);
                out[at..at + cols].copy_from_slice(&block[r * bs..r * bs + cols]);
            }
        }
        Ok(out)
    }

    /// Checks that the parts agree (they are public, so a Rust caller can build one
    /// by hand): the grid fits the shape and block size, the pattern is well formed
    /// (row starts rising to the stored count, columns inside the grid and rising
    /// within a row), and there are block_size² values per stored block.
    pub fn check(&self, name: &str) -> Result<()> {
        let bad = |detail: String| GpgpuError::BadArgument {
            name: name.into(),
            detail: format!("{detail}; build it with BlockSparse::from_dense or from_blocks"),
        };
        let (bs, p) = (self.block_size, &self.pattern);
        Self::check_dense_size(name, self.shape)?;
        if bs == 0 || bs > MAX_BLOCK_SIZE {
            return Err(bad(format!(
                "its block size is {bs}, not 1 to {MAX_BLOCK_SIZE}"
            )));
        }
        if (p.grid_rows, p.grid_cols) != Self::grid(self.shape, bs) {
            return Err(bad(format!(
                "its grid is {}x{} blocks, but a {}x{} matrix in blocks of {bs} has {}x{}",
                p.grid_rows,
                p.grid_cols,
                self.shape.rows,
                self.shape.cols,
                self.shape.rows.div_ceil(bs),
                self.shape.cols.div_ceil(bs)
            )));
        }
        let rows_ok = p.row_starts.len() == p.grid_rows + 1
            && p.row_starts.first() == Some(&0)
            && p.row_starts.last() == Some(&p.cols.len())
            && p.row_starts.windows(2).all(|w| w[0] <= w[1]);
        let cols_ok = rows_ok
            && (0..p.grid_rows).all(|i| {
                let row = &p.cols[p.row_starts[i]..p.row_starts[i + 1]];
                row.iter().all(|&j| j < p.grid_cols) && row.windows(2).all(|w| w[0] < w[1])
            });
        if !cols_ok {
            return Err(bad("its pattern is not well formed".into()));
        }
        if self.values.len() != p.stored() * bs * bs {
            return Err(bad(format!(
                "it has {} values for {} stored blocks of {bs}x{bs}",
                self.values.len(),
                p.stored()
            )));
        }
        Ok(())
    }

    /// Stored block number `s`'s values.
    pub fn block(&self, s: usize) -> &[f32] {
        let b2 = self.block_size * self.block_size;
        &self.values[s * b2..(s + 1) * b2]
    }

    /// The same matrix without the stored blocks that are all zero.
    pub fn pruned(&self) -> BlockSparse {
        let keep: Vec<bool> = (0..self.pattern.stored())
            .map(|s| self.block(s).iter().any(|&v| v != 0.0))
            .collect();
        self.keep(&keep)
    }

    /// The same matrix with only the stored blocks where `keep[s]` holds.
    pub fn keep(&self, keep: &[bool]) -> BlockSparse {
        let values = (0..self.pattern.stored())
            .filter(|&s| keep[s])
            .flat_map(|s| self.block(s).iter().copied())
            .collect();
        BlockSparse {
            shape: self.shape,
            block_size: self.block_size,
            pattern: self.pattern.filter(keep),
            values,
        }
    }
}

/// How many small matrices lie in GPU memory: an atlas, `per_row` tiles of one
/// shape side by side in each band of `tile.rows` rows, as one row-major matrix (a
/// WebGL texture or a WebGPU buffer; the same layout on both backends, so one
/// packing serves both). The stored blocks of a block-sparse matrix and the
/// matrices of a batch both travel this way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Atlas {
    pub tile: Shape,
    pub per_row: usize,
}

impl Atlas {
    /// Atlas rows at most `width` entries wide (at least one tile; a tile with no
    /// columns counts as one column wide there, where it divided by zero).
    pub fn new(tile: Shape, width: usize) -> Atlas {
        Atlas {
            tile,
            per_row: (width / tile.cols.max(1)).max(1),
        }
    }

    /// Square tiles of side `side` (blocks).
    pub fn square(side: usize, width: usize) -> Atlas {
        Atlas::new(Shape::square(side), width)
    }

    /// The atlas matrix holding `tiles` tiles (at least one, so that an empty
    /// matrix still has a GPU object to bind).
    pub fn shape(&self, tiles: usize) -> Shape {
        let t = self.tile;
        Shape::new(
            tiles.div_ceil(self.per_row).max(1) * t.rows,
            self.per_row * t.cols,
        )
    }

    /// Where entry (r, col) of tile `s` sits in the atlas matrix (row-major): the
    /// shaders' `atlas_at` (wgsl/common/atlas.wgsl).
    pub fn at(&self, s: usize, r: usize, col: usize) -> usize {
        let t = self.tile;
        let (band, slot) = (s / self.per_row, s % self.per_row);
        (band * t.rows + r) * (self.per_row * t.cols) + slot * t.cols + col
    }

    /// Tiles (tile.rows × tile.cols values each, row-major, one after another) as
    /// the atlas matrix.
    pub fn pack(&self, values: &[f32]) -> Vec<f32> {
        let t = self.tile;
        if t.is_empty() {
            // Tiles with no entries: nothing to place (len / 0 and chunks(0) panicked).
            return vec![0f32; self.shape(0).len()];
        }
        let shape = self.shape(values.len() / t.len());
        let mut out = vec![0f32; shape.len()];
        for (s, tile) in values.chunks(t.len()).enumerate() {
            let (band, slot) = (s / self.per_row, s % self.per_row);
            paste(
                &mut out,
                shape.cols,
                (band * t.rows, slot * t.cols),
                tile,
                t.cols,
            );
        }
        out
    }

    /// The first `tiles` tiles of an atlas matrix, one after another.
    pub fn unpack(&self, atlas: &[f32], tiles: usize) -> Vec<f32> {
        self.unpack_slots(atlas, &(0..tiles).collect::<Vec<_>>())
    }

    /// The tiles in `slots` of an atlas matrix, one after another.
    pub fn unpack_slots(&self, atlas: &[f32], slots: &[usize]) -> Vec<f32> {
        let t = self.tile;
        let width = self.per_row * t.cols;
        let mut out = Vec::with_capacity(slots.len() * t.len());
        for &s in slots {
            let (band, slot) = (s / self.per_row, s % self.per_row);
            out.extend(cut(
                atlas,
                width,
                (band * t.rows, t.rows),
                (slot * t.cols, t.cols),
            ));
        }
        out
    }
}

/// Products up to this many are listed pair by pair for the numeric phase, so its
/// work is proportional to them (8 MB of indices at most); beyond, each entry of C
/// walks its block row of A and looks B's blocks up in a map (no list to hold,
/// but work that grows with C's blocks times A's row, not with the products).
pub const MAX_LISTED: u64 = 1 << 21;

/// The block products of C = A·B, listed per stored block of C in C's order:
/// `pairs[starts[o]..starts[o + 1]]` are (A's stored number, B's stored number).
/// Gustavson's algorithm again, row by row, with a bucket per block column.
pub fn list_pairs(a: &Pattern, b: &Pattern, out: &Pattern) -> (Vec<usize>, Vec<[usize; 2]>) {
    let mut buckets: Vec<Vec<[usize; 2]>> = vec![vec![]; b.grid_cols];
    let (mut starts, mut pairs) = (vec![0], vec![]);
    for i in 0..a.grid_rows {
        for sa in a.row_starts[i]..a.row_starts[i + 1] {
            let k = a.cols[sa];
            for sb in b.row_starts[k]..b.row_starts[k + 1] {
                buckets[b.cols[sb]].push([sa, sb]);
            }
        }
        for &j in &out.cols[out.row_starts[i]..out.row_starts[i + 1]] {
            pairs.append(&mut buckets[j]);
            starts.push(pairs.len());
        }
    }
    (starts, pairs)
}

/// The index table the numeric phase reads, one list of whole numbers (as f32,
/// exact below 2^24), with the offset of each part:
/// * A's row starts (grid rows + 1), A's block columns and the atlas slot of each
///   of A's stored blocks (a slot list lets a pattern whose zero blocks were dropped
///   keep reading the atlas they were computed in);
/// * B's map: for block (k, j) of B's grid, 1 + its atlas slot, 0 if not stored;
/// * C's stored blocks as (block row, block column) pairs;
/// * when the products are listed (at most [`MAX_LISTED`]): where each stored block
///   of C starts in the list, then the list, as atlas slots of A and B.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexTable {
    pub data: Vec<f32>,
    /// Whether the products are listed (else the kernel walks the map).
    pub listed: bool,
    pub pair_starts: usize,
    pub pairs: usize,
    pub a_row_starts: usize,
    pub a_cols: usize,
    pub a_slots: usize,
    pub b_map: usize,
    pub out_coords: usize,
}

impl IndexTable {
    /// The table of C = A·B, where stored block s of A sits in atlas slot
    /// `a_slots[s]` and stored block s of B in `b_slots[s]`.
    pub fn new(
        (a, a_slots): (&Pattern, &[usize]),
        (b, b_slots): (&Pattern, &[usize]),
        out: &Pattern,
    ) -> Result<IndexTable> {
        let len = a.row_starts.len() + 2 * a.stored() + b.grid_blocks() + 2 * out.stored();
        let largest = |slots: &[usize]| slots.iter().max().map_or(0, |&m| m + 1);
        // The numbers stored must be exact in float32; the table's length is not
        // stored (WebGL's texture size bounds it, see blocks::sparse).
        for (what, n) in [
            ("stored blocks of a", a.stored()),
            ("stored blocks of b", b.stored()),
            ("atlas slots", largest(a_slots).max(largest(b_slots))),
            ("block rows or columns", a.grid_rows.max(b.grid_cols)),
        ] {
            if n > MAX_INDEX {
                return Err(GpgpuError::DeviceLimit {
                    what: format!("a block-sparse product whose {what}"),
                    needed: n as f64,
                    unit: "entries",
                    limit_name: "the largest index exact in float32 (2^24 - 2)",
                    limit: MAX_INDEX as f64,
                    hint: "Use larger blocks, so that fewer of them are stored.",
                });
            }
        }
        let products: u64 = a
            .cols
            .iter()
            .map(|&k| (b.row_starts[k + 1] - b.row_starts[k]) as u64)
            .sum();
        let listed = products <= MAX_LISTED;
        let mut data = Vec::with_capacity(len);
        let a_row_starts = 0;
        // The walk's parts only where the kernel walks: B's map alone is T² entries
        // (4.2 M at n = 16384 in blocks of 8), a fixed cost the listed path skips.
        if !listed {
            data.extend(a.row_starts.iter().map(|&v| v as f32));
        }
        let a_cols = data.len();
        if !listed {
            data.extend(a.cols.iter().map(|&v| v as f32));
        }
        let a_slots_at = data.len();
        if !listed {
            data.extend(a_slots.iter().map(|&v| v as f32));
        }
        let b_map = data.len();
        if !listed {
            let mut map = vec![0f32; b.grid_blocks()];
            for ((k, j), slot) in b.coordinates().zip(b_slots) {
                map[k * b.grid_cols + j] = (slot + 1) as f32;
            }
            data.extend(map);
        }
        let out_coords = data.len();
        for (i, j) in out.coordinates() {
            data.push(i as f32);
            data.push(j as f32);
        }
        let (pair_starts, pairs_at) = (data.len(), data.len() + out.stored() + 1);
        if listed {
            let (starts, pairs) = list_pairs(a, b, out);
            data.extend(starts.iter().map(|&v| v as f32));
            for [sa, sb] in pairs {
                data.push(a_slots[sa] as f32);
                data.push(b_slots[sb] as f32);
            }
        }
        Ok(IndexTable {
            data,
            listed,
            pair_starts,
            pairs: pairs_at,
            a_row_starts,
            a_cols,
            a_slots: a_slots_at,
            b_map,
            out_coords,
        })
    }

    /// The table as a matrix `width` wide (a WebGL texture; the tail is 0). A width
    /// of 0 is taken as 1, where it divided by zero.
    pub fn shape(&self, width: usize) -> Shape {
        crate::sparse::list_shape(self.data.len(), width)
    }

    /// The table padded to fill [`IndexTable::shape`].
    pub fn padded(&self, width: usize) -> Vec<f32> {
        let mut d = self.data.clone();
        d.resize(self.shape(width).len(), 0.0);
        d
    }
}

/// What the numeric phase's kernels are told (wgsl/block_sparse/block_sparse.wgsl and
/// glsl/block_sparse/block_sparse.frag): the atlas layout, C's stored blocks, where each part
/// of the index table starts, and B's grid width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numeric {
    pub atlas: Atlas,
    pub out_blocks: usize,
    pub index_width: usize,
    pub a_row_starts: usize,
    pub a_cols: usize,
    pub a_slots: usize,
    pub b_map: usize,
    pub out_coords: usize,
    pub b_grid_cols: usize,
    pub listed: bool,
    pub pair_starts: usize,
    pub pairs: usize,
}

impl Numeric {
    pub fn new(
        atlas: Atlas,
        table: &IndexTable,
        b: &Pattern,
        out: &Pattern,
        index_width: usize,
    ) -> Numeric {
        Numeric {
            atlas,
            out_blocks: out.stored(),
            index_width,
            a_row_starts: table.a_row_starts,
            a_cols: table.a_cols,
            a_slots: table.a_slots,
            b_map: table.b_map,
            out_coords: table.out_coords,
            b_grid_cols: b.grid_cols,
            listed: table.listed,
            pair_starts: table.pair_starts,
            pairs: table.pairs,
        }
    }

    /// The flags matrix: one float per stored block of C, `index_width` per row (an
    /// `index_width` of 0 taken as 1, where it divided by zero).
    pub fn flags_shape(&self) -> Shape {
        crate::sparse::list_shape(self.out_blocks, self.index_width)
    }
}

/// The float64 reference of a block-sparse product, block by block over the stored
/// pairs only (tests compare it with the dense reference too).
pub fn reference_product(a: &BlockSparse, b: &BlockSparse) -> Result<Vec<f64>> {
    symbolic(&a.pattern, &b.pattern)?;
    let bs = a.block_size;
    let mut out = vec![0f64; a.shape.rows * b.shape.cols];
    for (sa, (i, k)) in a.pattern.coordinates().enumerate() {
        for sb in b.pattern.row_starts[k]..b.pattern.row_starts[k + 1] {
            let j = b.pattern.cols[sb];
            let (ab, bb) = (a.block(sa), b.block(sb));
            for r in 0..bs.min(a.shape.rows - i * bs) {
                for c in 0..bs.min(b.shape.cols - j * bs) {
                    let mut acc = 0f64;
                    for t in 0..bs {
                        acc += ab[r * bs + t] as f64 * bb[t * bs + c] as f64;
                    }
                    out[(i * bs + r) * b.shape.cols + j * bs + c] += acc;
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_widths_and_empty_tiles_do_not_divide_by_zero() {
        // Public, so a Rust caller can pass these: each divided by zero (a panic).
        let atlas = Atlas::new(Shape::new(2, 0), 8);
        assert_eq!(atlas.per_row, 8);
        assert!(Atlas::square(0, 8).pack(&[]).is_empty());
        let p = Pattern::empty(1, 1);
        let table = IndexTable::new((&p, &[]), (&p, &[]), &p).unwrap();
        assert_eq!(table.shape(0).cols, 1);
        assert_eq!(table.padded(0).len(), table.shape(1).len());
        let numeric = Numeric::new(Atlas::square(2, 8), &table, &p, &p, 0);
        assert_eq!(numeric.flags_shape(), Shape::new(1, 1));
        let passes = crate::homography::RansacPasses {
            count: 1,
            points: 4,
            width: 0,
            threshold: 1.0,
        };
        assert_eq!(passes.list(16), Shape::new(16, 1));
    }

    #[test]
    fn a_grid_too_large_to_hold_is_an_error_not_a_panic() {
        for shape in [Shape::new(usize::MAX, usize::MAX), Shape::new(1 << 29, 1)] {
            let e = BlockSparse::from_blocks(shape, 1, &[]).unwrap_err();
            assert_eq!(e.code(), "SIZE_OVER_LIMIT", "{shape:?}: {e}");
        }
        assert!(BlockSparse::from_blocks(Shape::new(1 << 20, 1), 1, &[]).is_ok());
    }

    #[test]
    fn a_shape_whose_dense_form_no_array_holds_is_refused_as_javascript_refuses_it() {
        // JavaScript's fromBlocks refuses a 30000 x 30000 shape (3.6 GB dense); Rust's
        // took it, with one block, and its to_dense then asked wasm32 for 3.6 GB at once
        // ("capacity overflow"), as squaring it and reading the result back did.
        let one = vec![1.0f32; 1024 * 1024];
        let shape = Shape::square(30000);
        let e = BlockSparse::from_blocks(shape, 1024, &[(0, 0, &one[..])]);
        let e = e.map(|_| ()).unwrap_err();
        assert_eq!(e.code(), "SIZE_OVER_LIMIT", "{e}");
        assert!(e.to_string().contains("one 30000x30000 matrix"), "{e}");
        // Built by hand, it is refused where it is used (every product checks it).
        let small = BlockSparse::from_blocks(Shape::square(1024), 1024, &[(0, 0, &one[..])]);
        let by_hand = BlockSparse {
            shape,
            pattern: Pattern {
                grid_rows: 30,
                grid_cols: 30,
                row_starts: [vec![0], vec![1; 30]].concat(),
                cols: vec![0],
            },
            ..small.unwrap()
        };
        assert_eq!(by_hand.check("m").unwrap_err().code(), "SIZE_OVER_LIMIT");
        // The largest square that fits one array still passes.
        assert!(BlockSparse::from_blocks(Shape::square(23170), 1024, &[]).is_ok());
    }

    #[test]
    fn zero_rows_or_columns_are_refused_as_javascript_refuses_them() {
        for (rows, cols, name) in [(0, 0, "rows"), (0, 3, "rows"), (3, 0, "cols")] {
            let shape = Shape::new(rows, cols);
            for e in [
                BlockSparse::from_dense(shape, &[], 2).unwrap_err(),
                BlockSparse::from_blocks(shape, 2, &[]).unwrap_err(),
            ] {
                assert_eq!(e.code(), "BAD_DIMENSION");
                let want = format!("{name} = 0: a dimension must be a whole number >= 1.");
                assert_eq!(e.to_string(), want);
            }
        }
    }

    use crate::random::Mulberry32 as Rng;

    fn random_sparse(rng: &mut Rng, shape: Shape, bs: usize, density: f64) -> BlockSparse {
        let (gr, gc) = (shape.rows.div_ceil(bs), shape.cols.div_ceil(bs));
        let mut data = vec![0f32; shape.len()];
        for bi in 0..gr {
            for bj in 0..gc {
                if rng.next_f64() < density {
                    for r in bi * bs..(bi * bs + bs).min(shape.rows) {
                        for c in bj * bs..(bj * bs + bs).min(shape.cols) {
                            data[r * shape.cols + c] = (rng.next_f64() * 4.0).floor() as f32 - 1.0;
                        }
                    }
                }
            }
        }
        BlockSparse::from_dense(shape, &data, bs).unwrap()
    }

    #[test]
    fn a_block_size_of_zero_or_past_the_maximum_is_an_error_not_a_panic() {
        // Rust callers pass a usize that no JavaScript check has seen: 0 divided by
        // zero in the grid, and a huge one asked for a block of bs² floats.
        let shape = Shape::new(2, 2);
        for bs in [0, MAX_BLOCK_SIZE + 1, usize::MAX] {
            let e = BlockSparse::from_dense(shape, &[1.0; 4], bs).unwrap_err();
            assert_eq!(e.code(), "BAD_COUNT", "{bs}: {e}");
            assert!(e.to_string().contains("blockSize"), "{e}");
            let e = BlockSparse::from_blocks(shape, bs, &[]).unwrap_err();
            assert_eq!(e.code(), "BAD_COUNT", "{bs}: {e}");
        }
        assert!(BlockSparse::from_dense(shape, &[1.0; 4], MAX_BLOCK_SIZE).is_ok());
    }

    fn dense_product(a: &[f32], b: &[f32], [n, k, m]: [usize; 3]) -> Vec<f64> {
        let mut out = vec![0f64; n * m];
        for i in 0..n {
            for t in 0..k {
                for j in 0..m {
                    out[i * m + j] += a[i * k + t] as f64 * b[t * m + j] as f64;
                }
            }
        }
        out
    }

    #[test]
    fn pieces_cover_n() {
        assert_eq!(pieces(3, 2), vec![(0, 2), (2, 1)]);
        assert_eq!(pieces(4, 2), vec![(0, 2), (2, 2)]);
        assert_eq!(pieces(1, 64), vec![(0, 1)]);
        for n in 1..40 {
            for t in 1..9 {
                let p = pieces(n, t);
                assert_eq!(p.iter().map(|x| x.1).sum::<usize>(), n);
                assert!(p.iter().all(|x| x.1 >= 1 && x.1 <= t));
            }
        }
    }

    #[test]
    fn cut_and_paste_are_inverse() {
        let data: Vec<f32> = (0..35).map(|v| v as f32).collect();
        let piece = cut(&data, 7, (1, 3), (2, 4));
        assert_eq!(piece[..4], [9.0, 10.0, 11.0, 12.0]);
        let mut back = vec![0f32; 35];
        paste(&mut back, 7, (1, 2), &piece, 4);
        assert_eq!(back[9], 9.0);
        assert_eq!(back[26], 26.0);
        assert_eq!(back[0], 0.0);
    }

    #[test]
    fn block_sizes_are_checked() {
        assert_eq!(block_size(4.0).unwrap(), 4);
        assert_eq!(block_size(1.0).unwrap(), 1);
        assert_eq!(block_size(1024.0).unwrap(), 1024);
        // Each refusal states the same range, the one that holds: 1 to 1024.
        for bad in [0.0, -1.0, 1.5, f64::NAN, 1025.0] {
            let e = block_size(bad).unwrap_err();
            assert!(matches!(e, GpgpuError::BadCount { .. }), "{bad}");
            assert!(
                e.to_string()
                    .ends_with("it must be a whole number from 1 to 1024."),
                "{e}"
            );
        }
    }

    #[test]
    fn dense_round_trip_with_edges() {
        let mut rng = Rng::new(7);
        for (rows, cols, bs) in [(1, 1, 1), (5, 7, 2), (9, 4, 3), (3, 3, 8), (16, 16, 4)] {
            let shape = Shape::new(rows, cols);
            let data: Vec<f32> = (0..shape.len())
                .map(|_| if rng.next_f64() < 0.3 { 1.5 } else { 0.0 })
                .collect();
            let m = BlockSparse::from_dense(shape, &data, bs).unwrap();
            assert_eq!(m.to_dense().unwrap(), data);
            assert_eq!(m.values.len(), m.pattern.stored() * bs * bs);
            let occ = m.pattern.occupancy();
            assert_eq!(occ.len(), rows.div_ceil(bs) * cols.div_ceil(bs));
            assert_eq!(occ.iter().filter(|&&o| o == 1).count(), m.pattern.stored());
        }
    }

    #[test]
    fn an_all_zero_matrix_stores_nothing() {
        let m = BlockSparse::from_dense(Shape::new(6, 5), &[0.0; 30], 2).unwrap();
        assert_eq!(m.pattern.stored(), 0);
        assert_eq!(m.pattern.density(), 0.0);
        assert_eq!(m.to_dense().unwrap(), vec![0.0; 30]);
    }

    #[test]
    fn from_blocks_sorts_checks_and_zeroes_padding() {
        let shape = Shape::new(3, 3);
        let b1 = [1.0, 2.0, 3.0, 4.0];
        let b2 = [5.0, 6.0, 7.0, 8.0];
        let m = BlockSparse::from_blocks(shape, 2, &[(1, 1, &b2), (0, 0, &b1)]).unwrap();
        assert_eq!(m.pattern.cols, vec![0, 1]);
        assert_eq!(m.block(1), &[5.0, 0.0, 0.0, 0.0]);
        assert_eq!(
            m.to_dense().unwrap(),
            vec![1.0, 2.0, 0.0, 3.0, 4.0, 0.0, 0.0, 0.0, 5.0]
        );
        let dup = BlockSparse::from_blocks(shape, 2, &[(0, 0, &b1), (0, 0, &b2)]);
        assert!(matches!(dup, Err(GpgpuError::BadArgument { .. })));
        let outside = BlockSparse::from_blocks(shape, 2, &[(2, 0, &b1)]);
        assert!(matches!(outside, Err(GpgpuError::BadArgument { .. })));
        let short = BlockSparse::from_blocks(shape, 2, &[(0, 0, &b1[..3])]);
        assert!(matches!(short, Err(GpgpuError::BadLength { .. })));
        // Blocks given as zeros, or nonzero only past the matrix's edge, are not
        // stored: only blocks with a nonzero entry are (they were stored and counted
        // as nonzero blocks).
        let edge_only = [0.0, 9.0, 0.0, 9.0]; // block (1, 1) of a 3 x 3 matrix: 1 x 1 inside
        let z = BlockSparse::from_blocks(shape, 2, &[(0, 1, &[0.0; 4]), (1, 1, &edge_only)]);
        assert_eq!(z.unwrap().pattern.stored(), 0);
        let mixed = BlockSparse::from_blocks(shape, 2, &[(0, 1, &[0.0; 4]), (1, 0, &b1)]).unwrap();
        assert_eq!(mixed.pattern.cols, vec![0]);
        assert_eq!(mixed.pattern.row_starts, vec![0, 0, 1]);
        assert_eq!(
            mixed.to_dense().unwrap(),
            vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0]
        );
        // Hand-built parts are checked before use.
        assert!(m.check("a").is_ok());
        let mut broken = m.clone();
        broken.values.pop();
        assert!(matches!(
            broken.check("a"),
            Err(GpgpuError::BadArgument { .. })
        ));
        let mut broken = m.clone();
        broken.pattern.cols[1] = 7;
        assert!(broken.check("a").is_err());
        let mut broken = m.clone();
        broken.pattern.row_starts = vec![0, 2];
        assert!(broken.check("a").is_err());
        let mut broken = m;
        broken.block_size = 3;
        assert!(broken.check("a").is_err());
    }

    #[test]
    fn symbolic_counts_pairs_and_finds_the_pattern() {
        let mut rng = Rng::new(11);
        for (n, bs, density) in [
            (7, 2, 0.3),
            (20, 3, 0.1),
            (16, 4, 1.0),
            (9, 1, 0.05),
            (130, 1, 0.02),
        ] {
            let shape = Shape::square(n);
            let a = random_sparse(&mut rng, shape, bs, density);
            let b = random_sparse(&mut rng, shape, bs, density);
            let s = symbolic(&a.pattern, &b.pattern).unwrap();
            // Brute force over the grid.
            let g = n.div_ceil(bs);
            let (oa, ob) = (a.pattern.occupancy(), b.pattern.occupancy());
            let mut products = 0;
            for i in 0..g {
                for j in 0..g {
                    let pairs = (0..g)
                        .filter(|&k| oa[i * g + k] == 1 && ob[k * g + j] == 1)
                        .count();
                    products += pairs;
                    assert_eq!(
                        s.out.find(i, j).is_some(),
                        pairs > 0,
                        "n {n} bs {bs} ({i},{j})"
                    );
                }
            }
            assert_eq!(s.products, products as u64);
            assert_eq!(s.dense_products, (g * g * g) as u64);
            // The listed pairs: each product once, under the block of C it adds to.
            let (starts, pairs) = list_pairs(&a.pattern, &b.pattern, &s.out);
            assert_eq!(pairs.len() as u64, s.products);
            for (o, (i, j)) in s.out.coordinates().enumerate() {
                for &[sa, sb] in &pairs[starts[o]..starts[o + 1]] {
                    let (ai, ak) = a.pattern.coordinates().nth(sa).unwrap();
                    let (bk, bj) = b.pattern.coordinates().nth(sb).unwrap();
                    assert_eq!((ai, ak, bj), (i, bk, j));
                }
            }
            // The blockwise reference equals the dense one.
            let dense = dense_product(&a.to_dense().unwrap(), &b.to_dense().unwrap(), [n, n, n]);
            assert_eq!(reference_product(&a, &b).unwrap(), dense);
        }
    }

    #[test]
    fn symbolic_refuses_mismatched_grids() {
        let a = Pattern::empty(2, 3);
        let b = Pattern::empty(2, 3);
        assert!(matches!(
            symbolic(&a, &b),
            Err(GpgpuError::BadArgument { .. })
        ));
    }

    #[test]
    fn atlas_packs_and_unpacks() {
        let values: Vec<f32> = (0..5 * 9).map(|v| v as f32).collect();
        let atlas = Atlas::square(3, 7); // two blocks per band
        assert_eq!(atlas.per_row, 2);
        assert_eq!(atlas.shape(5), Shape::new(9, 6));
        assert_eq!(atlas.shape(0), Shape::new(3, 6));
        let packed = atlas.pack(&values);
        assert_eq!(packed.len(), 54);
        // Block 1's first row sits right of block 0's.
        assert_eq!(packed[3..6], [9.0, 10.0, 11.0]);
        assert_eq!(atlas.unpack(&packed, 5), values);
        assert_eq!(Atlas::square(64, 10).per_row, 1);
        // Non-square tiles: 2x3, two per band of width 7.
        let wide = Atlas::new(Shape::new(2, 3), 7);
        let v: Vec<f32> = (0..18).map(|x| x as f32).collect();
        assert_eq!(wide.shape(3), Shape::new(4, 6));
        assert_eq!(wide.pack(&v)[..6], [0.0, 1.0, 2.0, 6.0, 7.0, 8.0]);
        assert_eq!(wide.unpack(&wide.pack(&v), 3), v);
    }

    #[test]
    fn index_table_parts() {
        let a = Pattern::from_occupancy(2, 2, &[true, false, true, true]);
        let b = Pattern::from_occupancy(2, 2, &[false, true, true, false]);
        let s = symbolic(&a, &b).unwrap();
        // A's blocks in slots 0, 4, 5 (as after dropping zero blocks), B's in 0, 1.
        let t = IndexTable::new((&a, &[0, 4, 5]), (&b, &[0, 1]), &s.out).unwrap();
        // Three products: listed, so the walk's parts (A's rows, B's map) are left out.
        assert!(t.listed);
        assert_eq!((t.a_cols, t.a_slots, t.b_map, t.out_coords), (0, 0, 0, 0));
        // C = [[0, x], [x, x]]: stored (0,1), (1,0), (1,1).
        assert_eq!(
            t.data[t.out_coords..t.pair_starts],
            [0.0, 1.0, 1.0, 0.0, 1.0, 1.0]
        );
        // C01 = A00·B01; C10 = A11·B10; C11 = A10·B01 (A's stored 1 and 2 sit in
        // slots 4 and 5; B's stored 0 and 1 in slots 0 and 1).
        assert_eq!(t.data[t.pair_starts..t.pairs], [0.0, 1.0, 2.0, 3.0]);
        assert_eq!(t.data[t.pairs..], [0.0, 0.0, 5.0, 1.0, 4.0, 0.0]);
        assert_eq!(t.shape(4), Shape::new(4, 4));
        assert_eq!(t.padded(4).len(), 16);
        // Past MAX_LISTED products the walk's parts are there instead.
        let n = 130; // 130³ > 2^21
        let full = Pattern::from_occupancy(n, n, &vec![true; n * n]);
        let slots: Vec<usize> = (0..n * n).collect();
        let w = IndexTable::new((&full, &slots), (&full, &slots), &full).unwrap();
        assert!(!w.listed);
        assert_eq!(w.data[w.a_row_starts..w.a_cols].len(), n + 1);
        assert_eq!(w.data[w.b_map..w.out_coords].len(), n * n);
        assert_eq!(w.data[w.b_map + 5], 6.0);
        assert_eq!(w.pair_starts, w.data.len());
    }

    #[test]
    fn pruning_drops_zero_blocks() {
        // A stored block that became zero (as a product's cancelled blocks do).
        let mut m = BlockSparse::from_blocks(
            Shape::square(4),
            2,
            &[(0, 0, &[1.0; 4]), (1, 1, &[1.0, 0.0, 0.0, 0.0])],
        )
        .unwrap();
        m.values[..4].fill(0.0);
        assert_eq!(m.pattern.stored(), 2);
        let p = m.pruned();
        assert_eq!(p.pattern.stored(), 1);
        assert_eq!(p.to_dense().unwrap(), m.to_dense().unwrap());
    }
}
