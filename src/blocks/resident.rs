//! Block-sparse matrices that live on the GPU (WebGPU): the CUDA report's whole
//! table, up to n = 16384 with 10⁷ stored blocks, where neither the operands nor
//! the product fit WebAssembly memory. The host keeps only the sizes; the GPU
//! holds a matrix as
//!
//! - its **map**: one u32 per cell of the T×T block grid, the block's slot or none,
//! - its **cells**: the cell (i·T + j) of each slot,
//! - its **blocks**: m² floats per slot, row-major, one block after another.
//!
//! A matrix is made by the seeded generator ([`generate`]: exactly k distinct blocks,
//! the same blocks `plan::blockgen` computes on the CPU) or from blocks uploaded in
//! parts ([`GpuBlocks::empty`] then [`GpuBlocks::write`], in row-major order of the
//! cells). [`multiply`] finds C's pattern on the GPU (A's and B's block rows as CSR:
//! a count per row, a prefix sum, a fill; a flag per cell of C, set by listing the
//! block products A_ik·B_kj from A's entries through B's rows, or where that is more
//! work ([`flags_by_listing`]) by each cell walking A's block row; a prefix sum of
//! the flags makes C's map). Then C's blocks, Gustavson's way so that the work
//! follows P, the block products: the products are listed again, counted per block of
//! C, placed in each block's list (count, prefix sum, fill), and one invocation per
//! entry of a block of C sums its list, in bands of block rows whose lists fit
//! 256 MiB ([`bands`]). Only three lines of T words come back between the phases
//! (per block row: its products, C's blocks and A's entries up to it). The order of
//! a block's list, and so the rounding of its sum, varies from run to run. C keeps
//! every block its pattern has, also one whose products cancelled.
//! Where the blocks are dense enough for the dense product to win
//! ([`dense_pays`]), the numeric phase writes A and B out dense and runs the dense
//! product kernel instead ([`NumericPath`]). [`GpuBlocks::read`] reads a range of
//! slots back.

use crate::common::clock::now_ms;
use crate::engine::webgpu::{GpuEngine, GpuRead};
use crate::engine::{Engine, Handle};
use crate::error::{GpgpuError, Result};
use crate::kernels::Kernel;
use crate::ops::block_sparse::resident::{self as pass, Expand, Lines};
use crate::plan::blockgen::{self, Generated};
use crate::plan::blocks::{block_size as check_block_size, BlockSparse};
use crate::plan::semiring::Semiring;
use crate::plan::shape::Shape;
use crate::webgpu::buffer::check_size;
use crate::webgpu::Buffer;

/// What a GPU-resident call says on WebGL2 or the CPU.
const WEBGPU_ONLY: &str = "block-sparse matrices resident on the GPU need the WebGPU \
    backend: create the Gpgpu with { backend: 'webgpu' }, or use BlockSparse with \
    multiplyBlockSparseAsync";

/// The largest block grid side: the map numbers cells in a u32.
pub const MAX_GRID: usize = 65_535;

/// A block-sparse square matrix resident on the GPU.
pub struct GpuBlocks {
    n: usize,
    block_size: usize,
    grid: usize,
    stored: usize,
    capacity: usize,
    products: Option<u64>,
    /// For a product: whether its numeric phase ran dense, and the bytes of the
    /// temporary buffers it held besides A, B and C.
    dense: Option<bool>,
    scratch: u64,
    /// For a product: ms of its symbolic phase (until C's size came back) and of the
    /// numeric phase after it (until the GPU finished).
    phase_ms: Option<[f64; 2]>,
    generated: Option<Generated>,
    /// The engine and device generation the buffers belong to.
    owner: (u64, u32),
    /// The last cell written by [`GpuBlocks::write`] (parts come in row-major order).
    last: Option<usize>,
    map: Buffer,
    cells: Buffer,
    blocks: Buffer,
}

impl std::fmt::Debug for GpuBlocks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (n, m, k) = (self.n, self.block_size, self.stored);
        write!(f, "GpuBlocks {{ n: {n}, block_size: {m}, stored: {k} }}")
    }
}

/// A range of slots read back: each block's (row, column) on the block grid and
/// its m² values, row-major, block after block.
#[derive(Debug)]
pub struct Part {
    pub rows: Vec<u32>,
    pub cols: Vec<u32>,
    pub values: Vec<f32>,
}

/// The readbacks of a part: the slots' cells and their values (`GpuRead::wait_f32`
/// or `wait_js`); `grid` turns cells into coordinates.
pub struct PartRead {
    pub cells: Option<GpuRead>,
    pub values: Option<GpuRead>,
    pub grid: usize,
}

fn webgpu(e: &mut Engine) -> Result<&mut GpuEngine> {
    e.ensure()?;
    e.webgpu().ok_or_else(|| GpgpuError::NoWebGpu {
        detail: WEBGPU_ONLY.into(),
    })
}

fn bad(name: &str, detail: String) -> GpgpuError {
    GpgpuError::BadArgument {
        name: name.into(),
        detail,
    }
}

/// The block grid's side T for an n×n matrix of blocks of `bs`: n a positive
/// multiple of bs, T at most [`MAX_GRID`].
pub fn grid(n: usize, bs: usize) -> Result<usize> {
    check_block_size(bs as f64)?;
    if n == 0 || n % bs != 0 || n / bs > MAX_GRID {
        return Err(bad(
            "n",
            format!(
                "n = {n} with blocks of {bs}: give a positive multiple of the block size, \
                 at most {MAX_GRID} blocks along a side"
            ),
        ));
    }
    Ok(n / bs)
}

impl GpuBlocks {
    /// Buffers for `capacity` blocks on a `grid`² grid, their sizes checked against
    /// the device's limits before any is made; `reuse`: spare buffers of earlier
    /// products where they fit (their contents left as they were).
    fn alloc(g: &mut GpuEngine, [n, bs, capacity]: [usize; 3], reuse: bool) -> Result<GpuBlocks> {
        let t = grid(n, bs)?;
        let l = &g.info().limits;
        let cells = (t * t) as f64;
        check_size(&format!("the map of {t}x{t} blocks"), cells * 4.0, l)?;
        let values = capacity as f64 * (bs * bs) as f64;
        check_size(&format!("{capacity} blocks of {bs}x{bs}"), values * 4.0, l)?;
        let make = |g: &mut GpuEngine, bytes, label| match reuse {
            true => pass::reused(g, bytes, label),
            false => pass::buffer(g, bytes, label),
        };
        Ok(GpuBlocks {
            n,
            block_size: bs,
            grid: t,
            stored: 0,
            capacity,
            products: None,
            dense: None,
            scratch: 0,
            phase_ms: None,
            generated: None,
            owner: (g.id(), g.generation()),
            last: None,
            map: make(g, t * t * 4, "block map")?,
            cells: make(g, capacity * 4, "block cells")?,
            blocks: make(g, capacity * bs * bs * 4, "blocks")?,
        })
    }

    /// An n×n matrix of blocks of `bs` with room for `capacity` blocks and none
    /// stored yet: [`GpuBlocks::write`] adds them.
    pub fn empty(e: &mut Engine, n: usize, bs: usize, capacity: usize) -> Result<GpuBlocks> {
        let t = grid(n, bs)?;
        if capacity > t * t {
            return Err(bad(
                "capacity",
                format!(
                    "{capacity} blocks on a grid of {} cells: give at most that",
                    t * t
                ),
            ));
        }
        let g = webgpu(e)?;
        let m = GpuBlocks::alloc(g, [n, bs, capacity], false)?;
        let none = Generated::new(t as u32, bs as u32, 0, 0);
        pass::generate_map(g, &none.perm, 0, [&m.map, &m.cells])?;
        Ok(m)
    }

    /// Adds blocks at (`rows[b]`, `cols[b]`) with `values[b·m²..(b+1)·m²]`, after those
    /// written before; cells must come in strictly increasing row-major order across
    /// all parts (so no block is written twice).
    pub fn write(
        &mut self,
        e: &mut Engine,
        rows: &[u32],
        cols: &[u32],
        values: &[f32],
    ) -> Result<()> {
        let (t, b2) = (self.grid, self.block_size * self.block_size);
        let count = rows.len();
        if cols.len() != count || values.len() != count * b2 {
            return Err(bad(
                "blocks",
                format!(
                    "{count} rows, {} columns and {} values: give one row and one column \
                     per block and {b2} values per block",
                    cols.len(),
                    values.len()
                ),
            ));
        }
        if count > self.capacity - self.stored {
            return Err(bad(
                "blocks",
                format!(
                    "{count} more blocks with room for {} (capacity {}): make the matrix \
                     with a larger capacity",
                    self.capacity - self.stored,
                    self.capacity
                ),
            ));
        }
        let mut cells = Vec::with_capacity(count);
        let mut last = self.last;
        for (&i, &j) in rows.iter().zip(cols) {
            let (i, j) = (i as usize, j as usize);
            let cell = i * t + j;
            if i >= t || j >= t || last.is_some_and(|l| cell <= l) {
                return Err(bad(
                    "blocks",
                    format!(
                        "block ({i}, {j}) on a grid of {t}x{t}: give coordinates on the \
                         grid, in increasing row-major order over all parts, each once"
                    ),
                ));
            }
            last = Some(cell);
            cells.push(cell as u32);
        }
        let g = self.on(e)?;
        if count == 0 {
            return Ok(());
        }
        // After the passes already recorded, which may read these buffers.
        g.flush();
        self.cells.write_u32(self.stored as u64 * 4, &cells)?;
        self.blocks
            .write_f32((self.stored * b2) as u64 * 4, values)?;
        pass::scatter(g, &self.cells, &self.map, self.stored, count)?;
        self.stored += count;
        self.last = last;
        Ok(())
    }

    /// The engine, if the buffers are its device's.
    fn on<'e>(&self, e: &'e mut Engine) -> Result<&'e mut GpuEngine> {
        let g = webgpu(e)?;
        // Another Gpgpu's matrix is the caller's mix-up; the same Gpgpu on a newer
        // device means the buffers were lost with the old one.
        if g.id() != self.owner.0 {
            return Err(GpgpuError::BadArgument {
                name: "matrix".into(),
                detail: "this GpuBlockSparse was made by another Gpgpu, whose device holds \
                         its buffers: use it with the Gpgpu that made it"
                    .into(),
            });
        }
        if g.generation() != self.owner.1 {
            return Err(GpgpuError::RunOutlivedDevice);
        }
        Ok(g)
    }

    pub fn n(&self) -> usize {
        self.n
    }

    pub fn block_size(&self) -> usize {
        self.block_size
    }

    /// T, the blocks along a side.
    pub fn grid(&self) -> usize {
        self.grid
    }

    /// Blocks stored.
    pub fn stored(&self) -> usize {
        self.stored
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Block products computed, for a product.
    pub fn products(&self) -> Option<u64> {
        self.products
    }

    /// For a product: whether its numeric phase ran on the dense product kernel.
    pub fn ran_dense(&self) -> Option<bool> {
        self.dense
    }

    /// For a product: bytes of the temporary buffers the call held besides A, B and C.
    pub fn scratch_bytes(&self) -> u64 {
        self.scratch
    }

    /// For a product: ms of the symbolic phase, then of the numeric phase.
    pub fn phase_ms(&self) -> Option<[f64; 2]> {
        self.phase_ms
    }

    /// The generator's description, for a generated matrix.
    pub fn generated(&self) -> Option<Generated> {
        self.generated
    }

    /// Bytes of the GPU buffers held.
    pub fn gpu_bytes(&self) -> u64 {
        self.map.size() + self.cells.size() + self.blocks.size()
    }

    /// Starts reading slots `start..start + count` back.
    pub fn start_read(&self, e: &mut Engine, start: usize, count: usize) -> Result<PartRead> {
        if start.checked_add(count).is_none_or(|end| end > self.stored) {
            return Err(bad(
                "count",
                format!(
                    "blocks {start}..{start}+{count} of {}: read within the stored blocks",
                    self.stored
                ),
            ));
        }
        let g = self.on(e)?;
        let b2 = (self.block_size * self.block_size) as u64;
        let (from, count) = (start as u64, count as u64);
        let read = |g: &mut GpuEngine, b: &Buffer, from: u64, n: u64| match n {
            0 => Ok(None),
            n => g.read_range(b, from * 4, n * 4).map(Some),
        };
        Ok(PartRead {
            cells: read(g, &self.cells, from, count)?,
            values: read(g, &self.blocks, from * b2, count * b2)?,
            grid: self.grid,
        })
    }

    /// Slots `start..start + count`: their coordinates and values.
    pub async fn read(&self, handle: &Handle, start: usize, count: usize) -> Result<Part> {
        let r = handle.with(|e| self.start_read(e, start, count))?;
        let values = match r.values {
            Some(v) => v.wait_f32().await?,
            None => vec![],
        };
        let (rows, cols) = coordinates(r.cells, r.grid).await?;
        Ok(Part { rows, cols, values })
    }
}

/// The cells read back as block rows and columns.
pub async fn coordinates(cells: Option<GpuRead>, grid: usize) -> Result<(Vec<u32>, Vec<u32>)> {
    let cells = match cells {
        Some(c) => c.wait_f32().await?,
        None => vec![],
    };
    let t = grid as u32;
    Ok(cells
        .iter()
        .map(|c| (c.to_bits() / t, c.to_bits() % t))
        .unzip())
}

/// An n×n matrix of blocks of `bs` with exactly `k` distinct stored blocks at seeded
/// random cells, its values seeded too (`plan::blockgen`): made on the GPU, ready
/// (resolved once the GPU has made it).
pub async fn generate(
    handle: &Handle,
    n: usize,
    bs: usize,
    k: usize,
    seed: u32,
) -> Result<GpuBlocks> {
    let t = grid(n, bs)?;
    if k > t * t {
        return Err(bad(
            "k",
            format!("{k} blocks on a grid of {t}x{t}: give at most {}", t * t),
        ));
    }
    handle.ready().await?;
    let (m, idle) = handle.with(|e| {
        let g = webgpu(e)?;
        let mut m = GpuBlocks::alloc(g, [n, bs, k], false)?;
        let made = Generated::new(t as u32, bs as u32, k as u32, seed);
        pass::generate_map(g, &made.perm, k as u32, [&m.map, &m.cells])?;
        let key = blockgen::value_key(seed);
        pass::generate_values(g, &m.blocks, k * bs * bs, (bs * bs) as u32, key)?;
        (m.stored, m.last, m.generated) = (k, Some(t * t), Some(made));
        Ok((m, e.idle()?))
    })?;
    idle.wait().await?;
    Ok(m)
}

/// A CPU BlockSparse (square, its side a multiple of its block size) on the GPU.
pub fn upload(e: &mut Engine, m: &BlockSparse) -> Result<GpuBlocks> {
    m.check("m")?;
    if m.shape.rows != m.shape.cols {
        return Err(bad(
            "m",
            format!(
                "a {}x{} matrix: GPU-resident matrices are square",
                m.shape.rows, m.shape.cols
            ),
        ));
    }
    let stored = m.pattern.stored();
    let mut g = GpuBlocks::empty(e, m.shape.rows, m.block_size, stored)?;
    let (rows, cols) = m
        .pattern
        .coordinates()
        .map(|(i, j)| (i as u32, j as u32))
        .unzip::<_, _, Vec<u32>, Vec<u32>>();
    g.write(e, &rows, &cols, &m.values)?;
    Ok(g)
}

/// Temporaries of a product's symbolic phase: A's and B's block rows (inclusive row
/// ends, (column, slot) pairs), C's flags (then their prefix sums), and what each
/// block row holds (`pass::row_work`).
struct Symbolic {
    a_ends: Buffer,
    a_csr: Buffer,
    b_ends: Buffer,
    b_csr: Buffer,
    flags: Buffer,
    rows: Buffer,
}

impl Symbolic {
    fn buffers(self) -> [Buffer; 6] {
        let Symbolic {
            a_ends,
            a_csr,
            b_ends,
            b_csr,
            flags,
            rows,
        } = self;
        [a_ends, a_csr, b_ends, b_csr, flags, rows]
    }

    fn bytes(&self) -> u64 {
        let b = [&self.a_ends, &self.a_csr, &self.b_ends, &self.b_csr];
        b.iter()
            .chain([&&self.flags, &&self.rows])
            .map(|b| b.size())
            .sum()
    }
}

/// Whether C's flags come cheaper from listing the block products (expand.wgsl: P
/// steps, P ≈ k_A·k_B/T for random patterns) than from each cell walking A's block
/// row until B has a block under it (symbolic.wgsl: about T² · min(k_A/T, T²/k_B)
/// steps). Listing wins up to k ≈ T^(5/3) blocks; the CUDA report's rows 4 and 5,
/// denser, walk.
pub fn flags_by_listing(t: usize, ka: usize, kb: usize) -> bool {
    let (t, ka, kb) = (t as f64, ka as f64, kb as f64);
    ka * kb / t <= t * t * (ka / t).min(t * t / kb.max(1.0))
}

/// Queues the symbolic phase and starts reading what the host needs: per block row,
/// its block products, C's stored blocks and A's entries up to it (3T words).
fn symbolic(g: &mut GpuEngine, a: &GpuBlocks, b: &GpuBlocks) -> Result<(Symbolic, GpuRead)> {
    let t = a.grid;
    let l = &g.info().limits;
    check_size("the product's flags", (t * t) as f64 * 4.0, l)?;
    check_size("A's block rows", a.stored as f64 * 8.0, l)?;
    check_size("B's block rows", b.stored as f64 * 8.0, l)?;
    let s = Symbolic {
        a_ends: pass::reused(g, t * 4, "A's row ends")?,
        a_csr: pass::reused(g, a.stored * 8, "A's rows")?,
        b_ends: pass::reused(g, t * 4, "B's row ends")?,
        b_csr: pass::reused(g, b.stored * 8, "B's rows")?,
        flags: pass::reused(g, t * t * 4, "C's flags")?,
        rows: pass::reused(g, t * 3 * 4, "C's rows' work")?,
    };
    for (m, ends, csr) in [(a, &s.a_ends, &s.a_csr), (b, &s.b_ends, &s.b_csr)] {
        pass::lines(g, Lines::CountRows, &m.map, ends, csr, t)?;
        pass::scan(g, ends, t)?;
        pass::lines(g, Lines::FillRows, &m.map, ends, csr, t)?;
    }
    if flags_by_listing(t, a.stored, b.stored) {
        // Listing only sets flags: the rest must be 0 (a spare buffer holds old ones).
        pass::clear(g, &s.flags, t * t * 4)?;
        let unused = pass::buffer(g, 4, "unused")?;
        let m = [
            &s.a_csr, &a.cells, &s.b_ends, &s.b_csr, &a.cells, &s.flags, &unused,
        ];
        pass::expand(g, Expand::Flag, m, t, [0, a.stored, 0])?;
        g.keep(unused);
    } else {
        pass::symbolic(g, [&b.map, &s.a_ends, &s.a_csr, &s.flags], t)?;
    }
    pass::scan(g, &s.flags, t * t)?;
    pass::row_work(g, [&s.a_ends, &s.a_csr, &s.b_ends, &s.flags, &s.rows], t)?;
    let read = g.read_range(&s.rows, 0, t as u64 * 12)?;
    Ok((s, read))
}

/// A band of C's block rows whose block products are listed at once: A's entries
/// `entries`, C's blocks `blocks`, `products` of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Band {
    pub entries: std::ops::Range<usize>,
    pub blocks: std::ops::Range<usize>,
    pub products: u64,
}

/// Splits C's block rows into bands of at most `most` block products each (a row
/// with more is a band of its own), from each row's products, C's blocks up to it
/// and A's entries up to it (row_work.wgsl's three lines). Bands without blocks of
/// C are left out.
pub fn bands(products: &[u32], blocks_to: &[u32], entries_to: &[u32], most: u64) -> Vec<Band> {
    let mut out = vec![];
    let mut band = Band {
        entries: 0..0,
        blocks: 0..0,
        products: 0,
    };
    for i in 0..products.len() {
        let p = products[i] as u64;
        if band.products > 0 && band.products + p > most {
            let next = band.entries.end..band.entries.end;
            let blocks = band.blocks.end..band.blocks.end;
            out.push(std::mem::replace(
                &mut band,
                Band {
                    entries: next,
                    blocks,
                    products: 0,
                },
            ));
        }
        band.products += p;
        band.entries.end = entries_to[i] as usize;
        band.blocks.end = blocks_to[i] as usize;
    }
    out.push(band);
    out.retain(|b| !b.blocks.is_empty());
    out
}

/// How a product's numeric phase runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumericPath {
    /// Dense where [`dense_pays`] says so and the dense forms fit the device, else sparse.
    Auto,
    /// Each block of C from the list of its block products (expand.wgsl, listed.wgsl):
    /// work in proportion to the products, listed in bands of block rows.
    Sparse,
    /// A and B written out dense, the dense product kernel, C's blocks read from its
    /// result (three n×n buffers more).
    Dense,
}

/// Whether the dense product beats the block-sparse numeric pass, by their times on
/// the H100 (bench/NOTES.md): the dense path about 0.083 ps per n³ (364 ms at
/// n = 16384, its symbolic phase included), the sparse one about 0.15 ns + 0.2 ps·m³
/// per block product (0.26 ns at m = 8, 0.15–0.22 at m = 4).
pub fn dense_pays(n: usize, bs: usize, products: u64) -> bool {
    let sparse_ns = products as f64 * (0.15 + 2e-4 * (bs * bs * bs) as f64);
    sparse_ns >= 8.3e-5 * (n as f64).powi(3)
}

/// The bytes of block-product lists the sparse numeric phase holds at once (at most
/// the device's binding size): 256 MiB, 32M products, lists a product of 5·10⁸ in
/// 16 bands.
const LIST_BYTES: u64 = 256 << 20;

/// A·B for square GPU-resident A and B of one size and block size: C on the GPU,
/// with its block products counted. Resolves once the GPU has computed C.
pub async fn multiply(
    handle: &Handle,
    a: &GpuBlocks,
    b: &GpuBlocks,
    path: NumericPath,
) -> Result<GpuBlocks> {
    multiply_listing(handle, a, b, path, None).await
}

/// [`multiply`], the sparse numeric phase listing at most `most` block products at
/// once (None: as many as 256 MiB and the device's binding size hold).
pub async fn multiply_listing(
    handle: &Handle,
    a: &GpuBlocks,
    b: &GpuBlocks,
    path: NumericPath,
    most: Option<u64>,
) -> Result<GpuBlocks> {
    if (a.n, a.block_size) != (b.n, b.block_size) {
        return Err(bad(
            "b",
            format!(
                "a {0}x{0} matrix of blocks of {1} times a {2}x{2} one of blocks of {3}: \
                 give matrices of one size and block size",
                a.n, a.block_size, b.n, b.block_size
            ),
        ));
    }
    handle.ready().await?;
    let t0 = now_ms();
    let (s, rows) = handle.with(|e| {
        b.on(e)?;
        let g = a.on(e)?;
        let made = symbolic(g, a, b);
        // Buffers of a failed call go once the commands using them are submitted.
        g.flush();
        made
    })?;
    let rows: Vec<u32> = rows.wait_f32().await?.iter().map(|x| x.to_bits()).collect();
    let t = a.grid;
    let (row_products, blocks_to, entries_to) = (&rows[..t], &rows[t..2 * t], &rows[2 * t..]);
    let stored = blocks_to[t - 1] as usize;
    let products = row_products.iter().map(|&p| p as u64).sum();
    let t1 = now_ms();
    let (mut c, idle) = handle.with(|e| {
        let fits = e.check_shape(Shape::square(a.n)).is_ok();
        let dense = match path {
            NumericPath::Auto => fits && dense_pays(a.n, a.block_size, products),
            p => p == NumericPath::Dense,
        };
        let kernel = match dense {
            true => Some(e.choose_kernel(None, Shape::square(a.n))?),
            false => None,
        };
        let g = a.on(e)?;
        let lists = match kernel {
            Some(_) => vec![],
            None => {
                let l = &g.info().limits;
                let bound = (l.max_storage_buffer_binding_size.min(l.max_buffer_size) as u64)
                    .min(LIST_BYTES);
                let lists = bands(
                    row_products,
                    blocks_to,
                    entries_to,
                    most.unwrap_or(bound / 8),
                );
                let longest = lists.iter().map(|b| b.products).max().unwrap_or(0);
                check_size("a block row's block products", longest as f64 * 8.0, l)?;
                lists
            }
        };
        let made = numeric(g, [a, b], &s, stored, kernel, &lists).map(|mut c| {
            c.products = Some(products);
            c
        });
        s.buffers().into_iter().for_each(|b| pass::spare(g, b));
        g.flush();
        Ok((made?, e.idle()?))
    })?;
    idle.wait().await?;
    c.phase_ms = Some([t1 - t0, now_ms() - t1]);
    Ok(c)
}

/// Hands `m`'s buffers to the device's spares, for the C of later products
/// (`ops::block_sparse::resident::spare`); those of another engine or device go.
pub fn give_back(e: &mut Engine, m: GpuBlocks) {
    if let Some(g) = e.webgpu() {
        if m.owner == (g.id(), g.generation()) {
            let GpuBlocks {
                map, cells, blocks, ..
            } = m;
            [map, cells, blocks]
                .into_iter()
                .for_each(|b| pass::spare(g, b));
        }
    }
}

/// Queues C's map and blocks, `stored` of them, after the symbolic phase `s`: by
/// the dense product `kernel` if given, else band by band of `lists`.
fn numeric(
    g: &mut GpuEngine,
    [a, b]: [&GpuBlocks; 2],
    s: &Symbolic,
    stored: usize,
    kernel: Option<Kernel>,
    lists: &[Band],
) -> Result<GpuBlocks> {
    let (bs, t) = (a.block_size, a.grid);
    let mut c = GpuBlocks::alloc(g, [a.n, bs, stored], true)?;
    (c.stored, c.last, c.dense) = (stored, Some(t * t), Some(kernel.is_some()));
    pass::c_map(g, [&s.flags, &c.map, &c.cells], t * t)?;
    c.scratch = s.bytes();
    if let Some(kernel) = kernel {
        c.scratch += 3 * (a.n * a.n * 4) as u64;
        dense(g, [a, b, &c], kernel)?;
        return Ok(c);
    }
    let most = |f: fn(&Band) -> usize| lists.iter().map(f).max().unwrap_or(0).max(1);
    let pairs = pass::reused(g, most(|b| b.products as usize) * 8, "block products")?;
    let starts = pass::reused(g, most(|b| b.blocks.len()) * 4, "block products' starts")?;
    c.scratch += pairs.size() + starts.size();
    for band in lists {
        let (blocks, lo) = (band.blocks.len(), band.blocks.start);
        let entries = [band.entries.start, band.entries.len(), lo];
        let m = |at| [&s.a_csr, &a.cells, &s.b_ends, &s.b_csr, &c.map, at, &pairs];
        pass::clear(g, &starts, blocks * 4)?;
        pass::expand(g, Expand::Count, m(&starts), t, entries)?;
        pass::scan(g, &starts, blocks)?;
        pass::expand(g, Expand::List, m(&starts), t, entries)?;
        let m = [&a.blocks, &b.blocks, &pairs, &starts, &c.blocks];
        pass::listed(g, m, bs, [blocks, band.products as usize, lo])?;
    }
    pass::spare(g, pairs);
    pass::spare(g, starts);
    Ok(c)
}

/// C's blocks through the dense product: A and B written out dense (zeros between
/// their blocks), multiplied by `kernel`, C's blocks read from the result.
fn dense(g: &mut GpuEngine, [a, b, c]: [&GpuBlocks; 3], kernel: Kernel) -> Result<()> {
    let shape = Shape::square(a.n);
    let mut made = vec![];
    let ran = (|| {
        for _ in 0..3 {
            made.push(g.alloc(shape)?);
        }
        let dims = |m: &GpuBlocks| [m.grid, m.block_size, m.stored];
        for (m, d) in [(a, &made[0]), (b, &made[1])] {
            g.fill(d, 0.0)?;
            pass::block_dense(g, [&m.cells, &m.blocks, d.buffer()], dims(m), true)?;
        }
        let [x, y, z] = [&made[0], &made[1], &made[2]];
        g.product(kernel, Semiring::Ordinary, [x, y, z], None)?;
        pass::block_dense(g, [&c.cells, &c.blocks, z.buffer()], dims(c), false)
    })();
    for m in made {
        g.recycle(m);
    }
    ran
}

#[cfg(test)]
mod tests {
    use super::{bands, dense_pays, flags_by_listing, Band};

    #[test]
    fn bands_hold_at_most_their_products_and_cover_every_block() {
        // Per row: products, C's blocks up to it, A's entries up to it.
        let products = [3, 0, 5, 2, 9, 0, 1];
        let blocks_to = [2, 2, 5, 6, 10, 10, 11];
        let entries_to = [1, 1, 3, 4, 7, 7, 8];
        let band = |e: std::ops::Range<usize>, b: std::ops::Range<usize>, p| Band {
            entries: e,
            blocks: b,
            products: p,
        };
        assert_eq!(
            bands(&products, &blocks_to, &entries_to, 8),
            [
                // A row past the bound (9) is a band of its own.
                band(0..3, 0..5, 8),
                band(3..4, 5..6, 2),
                band(4..7, 6..10, 9),
                band(7..8, 10..11, 1),
            ]
        );
        assert_eq!(
            bands(&products, &blocks_to, &entries_to, 100),
            [band(0..8, 0..11, 20)]
        );
        // No products: no bands.
        assert!(bands(&[0, 0], &[0, 0], &[0, 0], 5).is_empty());
    }

    #[test]
    fn sparse_products_list_their_flags_and_the_reports_dense_rows_walk() {
        // T = 2048 blocks of 8: k = 10⁴ lists (P ≈ 5·10⁴ steps, a walk ≈ 2·10⁷);
        // row 4's k = 10⁶ walks (P ≈ 5·10⁸, the walk ≈ 1.8·10⁷).
        assert!(flags_by_listing(2048, 10_000, 10_000));
        assert!(!flags_by_listing(2048, 1_000_000, 1_000_000));
        assert!(!flags_by_listing(4096, 10_000_000, 10_000_000));
        assert!(flags_by_listing(4096, 0, 0));
    }

    #[test]
    fn the_cuda_reports_dense_rows_take_the_dense_product() {
        // (n, m, block products of the bench's seeded operands), as measured on the
        // H100: rows 2-4 list their block products (row 4: 129 ms against 364 ms dense);
        // row 5 (2.4·10¹⁰ products: 5.5 s against 0.35 s) and the tiny row 1 go dense.
        for (n, m, p, dense) in [
            (256, 4, 15_540, true),
            (2048, 8, 390_408, false),
            (4096, 4, 9_767_836, false),
            (16384, 8, 490_000_000, false),
            (16384, 4, 24_000_000_000, true),
        ] {
            assert_eq!(dense_pays(n, m, p), dense, "n = {n}");
        }
    }
}
