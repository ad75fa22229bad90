//! The passes of block-sparse matrices that live on the GPU (WebGPU only,
//! [`crate::blocks::resident`]): a matrix is a map of its T×T cells (each block's
//! slot, or none), the cell of each slot, and its blocks one after another by slot.
//! The generator (wgsl/block_sparse/gen_map.wgsl, gen_values.wgsl), the uploaded
//! parts' map entries (scatter.wgsl), the symbolic phase (lines.wgsl: A's block rows
//! as CSR; symbolic.wgsl: C's flags; scan.wgsl and scan_add.wgsl: their prefix sum;
//! c_map.wgsl: C's map; expand.wgsl: C's flags by listing the block products, where
//! that is less work than symbolic.wgsl's walk; row_work.wgsl: what each block row
//! holds) and the numeric phase (expand.wgsl listing each block's products, then
//! listed.wgsl, or listed4.wgsl where the block side is a multiple of 4; or
//! block_dense.wgsl around the dense product kernel).

use crate::engine::program::StaticWgsl;
use crate::engine::webgpu::DeviceState;
use crate::engine::webgpu::{line_workgroups, GpuEngine};
use crate::error::{GpgpuError, Result};
use crate::plan::blockgen::Permutation;
use crate::webgpu::buffer::{allocated_size, keep_recent, MATRIX};
use crate::webgpu::Buffer;

const HASH: &str = crate::common::shader!("wgsl/block_sparse/hash.wgsl");

/// The passes whose source is one file, as `NAME: "label" "file"` rows.
macro_rules! programs {
    ($($name:ident: $label:literal $file:literal),* $(,)?) => {
        $(pub const $name: StaticWgsl =
            StaticWgsl::new($label, || crate::common::shader!($file).into());)*
    };
}

pub const GEN_MAP: StaticWgsl = StaticWgsl::new("block-gen-map", || {
    [
        HASH,
        crate::common::shader!("wgsl/block_sparse/gen_map.wgsl"),
    ]
    .concat()
})
.following_data();
pub const GEN_VALUES: StaticWgsl = StaticWgsl::new("block-gen-values", || {
    [
        HASH,
        crate::common::shader!("wgsl/block_sparse/gen_values.wgsl"),
    ]
    .concat()
})
.following_data();
programs! {
    LINES: "block-lines" "wgsl/block_sparse/lines.wgsl",
    SCAN: "block-scan" "wgsl/block_sparse/scan.wgsl",
    SCAN_ADD: "block-scan-add" "wgsl/block_sparse/scan_add.wgsl",
    SYMBOLIC: "block-symbolic" "wgsl/block_sparse/symbolic.wgsl",
    C_MAP: "block-c-map" "wgsl/block_sparse/c_map.wgsl",
    EXPAND: "block-expand" "wgsl/block_sparse/expand.wgsl",
    ROW_WORK: "block-row-work" "wgsl/block_sparse/row_work.wgsl",
    LISTED: "block-listed" "wgsl/block_sparse/listed.wgsl",
    LISTED4: "block-listed4" "wgsl/block_sparse/listed4.wgsl",
    BLOCK_DENSE: "block-dense" "wgsl/block_sparse/block_dense.wgsl",
}
/// Its words change with every part: they live with the commands that use them.
pub const SCATTER: StaticWgsl = StaticWgsl::new("block-scatter", || {
    crate::common::shader!("wgsl/block_sparse/scatter.wgsl").into()
})
.following_data();

/// What lines.wgsl does along the lines of a map.
#[derive(Clone, Copy)]
pub enum Lines {
    CountRows = 0,
    CountCols = 1,
    /// A's block rows as (column, slot) pairs, from the rows' inclusive ends.
    FillRows = 2,
}

/// The most invocations one pass runs: the kernels number them in a u32.
const MOST_INVOCATIONS: f64 = (1u64 << 31) as f64;

/// Runs `program` over `count` invocations (workgroups of 256 folded into a 2D
/// grid) binding `buffers` then `words`, whose word `gx` gets the grid's width.
fn over<const N: usize>(
    e: &mut GpuEngine,
    program: &StaticWgsl,
    buffers: &[&Buffer],
    count: usize,
    mut words: [u32; N],
    gx: usize,
) -> Result<()> {
    if count as f64 > MOST_INVOCATIONS {
        return Err(GpgpuError::DeviceLimit {
            what: "a pass over a block-sparse matrix".into(),
            needed: count as f64,
            unit: "invocations",
            limit_name: "the most one pass numbers (2^31)",
            limit: MOST_INVOCATIONS,
            hint: "Use a smaller grid or smaller blocks.",
        });
    }
    let groups = line_workgroups(count, e.max_workgroups());
    words[gx] = groups.0 as u32;
    e.dispatch(program, buffers, &words, groups, None)
}

/// A storage buffer of `bytes` (the caller checked the size).
pub fn buffer(e: &GpuEngine, bytes: usize, label: &str) -> Result<Buffer> {
    Buffer::new(e.gpu(), bytes as u64, MATRIX, label)
}

/// Large buffers of earlier products kept for the next ones, with the device: a new
/// 1 GiB buffer cost 36 ms on the H100, writing into a kept one 0.5 ms
/// (bench/probes/alloc.html), and a product's time followed C's bytes (about 100 ms
/// per GiB in the middle of the fit) more than its block products.
#[derive(Default)]
struct Spares(Vec<Buffer>);

impl DeviceState for Spares {
    fn trim(&mut self) {
        self.0.clear();
    }
}

/// Buffers below this are made anew (they cost little), and the spares hold at most
/// `MOST_SPARES` buffers and `SPARE_BYTES` bytes (the oldest go first).
const LEAST_SPARE: u64 = 1 << 20;
const MOST_SPARES: usize = 8;
const SPARE_BYTES: u64 = 2 << 30;

/// A storage buffer of `bytes` whose contents are left as they were: a spare one at
/// most a quarter larger if there is one, else a new one.
pub fn reused(e: &mut GpuEngine, bytes: usize, label: &str) -> Result<Buffer> {
    let want = allocated_size(bytes as u64);
    let kept = &mut e.state(|_| Spares::default()).0;
    let fits = |b: &Buffer| b.size() >= want && b.size() - want <= want / 4;
    let best = (0..kept.len())
        .filter(|&i| fits(&kept[i]))
        .min_by_key(|&i| kept[i].size());
    match best {
        Some(i) => Ok(kept.remove(i)),
        None => buffer(e, bytes, label),
    }
}

/// Keeps `b` for [`reused`]; a small one, or the oldest spares past the bounds, go
/// once the commands recorded so far are submitted.
pub fn spare(e: &mut GpuEngine, b: Buffer) {
    if b.size() < LEAST_SPARE || !b.gpu().same(e.gpu()) {
        return e.keep(b);
    }
    let kept = &mut e.state(|_| Spares::default()).0;
    // Recorded commands may still use the spares let go: they go once submitted.
    let gone = keep_recent(kept, b, MOST_SPARES, SPARE_BYTES);
    gone.into_iter().for_each(|b| e.keep(b));
}

/// A generated matrix's map and slot cells: `stored` of the `cells` keyed by `perm`
/// (with `stored` 0, a map of no blocks).
pub fn generate_map(
    e: &mut GpuEngine,
    perm: &Permutation,
    stored: u32,
    [map, cells]: [&Buffer; 2],
) -> Result<()> {
    let k = perm.keys;
    e.ensure()?;
    let groups = line_workgroups(perm.cells as usize, e.max_workgroups());
    let words = [
        perm.cells,
        stored,
        perm.half,
        groups.0 as u32,
        k[0],
        k[1],
        k[2],
        k[3],
    ];
    e.dispatch(&GEN_MAP, &[map, cells], &words, groups, None)
}

/// A generated matrix's values: `count` entries, blocks of `b2`, keyed by `key`.
pub fn generate_values(
    e: &mut GpuEngine,
    blocks: &Buffer,
    count: usize,
    b2: u32,
    key: u32,
) -> Result<()> {
    over(
        e,
        &GEN_VALUES,
        &[blocks],
        count,
        [count as u32, b2, key, 0],
        3,
    )
}

/// `map[cells[s]] = s` for slots `from..from + count`.
pub fn scatter(
    e: &mut GpuEngine,
    cells: &Buffer,
    map: &Buffer,
    from: usize,
    count: usize,
) -> Result<()> {
    over(
        e,
        &SCATTER,
        &[cells, map],
        count,
        [from as u32, count as u32, 0, 0],
        2,
    )
}

/// lines.wgsl over the `t` lines of `map`.
pub fn lines(
    e: &mut GpuEngine,
    what: Lines,
    map: &Buffer,
    counts: &Buffer,
    csr: &Buffer,
    t: usize,
) -> Result<()> {
    over(
        e,
        &LINES,
        &[map, counts, csr],
        t,
        [t as u32, what as u32, 0, 0],
        2,
    )
}

/// `data`'s first `count` u32s ← their inclusive prefix sums, in levels of 1024.
pub fn scan(e: &mut GpuEngine, data: &Buffer, count: usize) -> Result<()> {
    let chunks = count.div_ceil(1024).max(1);
    let sums = buffer(e, chunks * 4, "scan sums")?;
    let words = [count as u32, chunks as u32, 0, 0];
    over(e, &SCAN, &[data, &sums], chunks * 256, words, 2)?;
    if chunks > 1 {
        scan(e, &sums, chunks)?;
        over(e, &SCAN_ADD, &[data, &sums], count, words, 2)?;
    }
    // Destroyed after the commands using it are submitted.
    e.keep(sums);
    Ok(())
}

/// C's flags over its `t`² cells, from B's map and A's rows (inclusive ends, pairs).
pub fn symbolic(
    e: &mut GpuEngine,
    [b_map, a_ends, a_csr, flags]: [&Buffer; 4],
    t: usize,
) -> Result<()> {
    let words = [t as u32, (t * t) as u32, 0, 0];
    over(
        e,
        &SYMBOLIC,
        &[b_map, a_ends, a_csr, flags],
        t * t,
        words,
        2,
    )
}

/// C's map and slot cells from its flags' inclusive sums.
pub fn c_map(e: &mut GpuEngine, [sums, map, cells]: [&Buffer; 3], count: usize) -> Result<()> {
    over(
        e,
        &C_MAP,
        &[sums, map, cells],
        count,
        [count as u32, 0, 0, 0],
        1,
    )
}

/// Entries of C one numeric dispatch computes at most (16M): a product of 10⁷ blocks
/// in one dispatch would keep the GPU busy for seconds without a break.
const NUMERIC_PART: usize = 1 << 24;

/// What expand.wgsl does with each block product it lists.
#[derive(Clone, Copy)]
pub enum Expand {
    /// Flags C's cell (`at`: C's t² flags).
    Flag = 0,
    /// Counts it for its block of C (`at`: a count per block of the band).
    Count = 1,
    /// Puts its (A slot, B slot) in its block's list (`at`: the counts' inclusive sums).
    List = 2,
}

/// expand.wgsl over A's CSR entries `first..first + count`, going through B's rows;
/// `m` is [A's pairs, A's slot cells, B's row ends, B's pairs, C's map, `at`, the
/// lists], `lo` the band's first block of C.
pub fn expand(
    e: &mut GpuEngine,
    what: Expand,
    m: [&Buffer; 7],
    t: usize,
    [first, count, lo]: [usize; 3],
) -> Result<()> {
    if count == 0 {
        return Ok(());
    }
    let words = [t, what as usize, first, count, lo, 0, 0, 0].map(|w| w as u32);
    over(e, &EXPAND, &m, count, words, 5)
}

/// row_work.wgsl: per block row, its block products, C's blocks up to it and A's
/// entries up to it (3t words in `out`), from A's rows, B's row ends and the flags'
/// inclusive sums.
pub fn row_work(
    e: &mut GpuEngine,
    [a_ends, a_csr, b_ends, sums, out]: [&Buffer; 5],
    t: usize,
) -> Result<()> {
    let m = [a_ends, a_csr, b_ends, sums, out];
    over(e, &ROW_WORK, &m, t, [t as u32, 0, 0, 0], 1)
}

/// C's `blocks` blocks of m×m from `lo` on, from their lists (`m`: [A's blocks, B's
/// blocks, the lists, the lists' starts, C's blocks]) of `total` products in all.
pub fn listed(
    e: &mut GpuEngine,
    m: [&Buffer; 5],
    bs: usize,
    [blocks, total, lo]: [usize; 3],
) -> Result<()> {
    // Sides that are a multiple of 4: four sums an invocation, a quarter of the
    // invocations; row 4 of the CUDA report 230 -> 129 ms on the H100 (bench/NOTES.md).
    // Below 2^32: C's blocks fit one binding.
    let (program, lanes) = match bs % 4 {
        0 => (&LISTED4, 4),
        _ => (&LISTED, 1),
    };
    let count = blocks * bs * bs / lanes;
    let mut first = 0;
    while first < count {
        let part = (NUMERIC_PART / lanes).min(count - first);
        let groups = line_workgroups(part, e.max_workgroups());
        let words = [bs, count, blocks, total, lo, first, groups.0, 0].map(|w| w as u32);
        e.dispatch(program, &m, &words, groups, None)?;
        first += part;
    }
    Ok(())
}

/// Zeroes `buffer`'s first `bytes`.
pub fn clear(e: &mut GpuEngine, buffer: &Buffer, bytes: usize) -> Result<()> {
    e.ensure()?;
    e.encoder()
        .clear_buffer_with_f64_and_f64(buffer.raw(), 0.0, bytes as f64);
    Ok(())
}

/// `dense` (n×n, n = t·bs) ← the `stored` blocks at `cells` (`to_dense`), or the
/// blocks ← their entries of `dense`.
pub fn block_dense(
    e: &mut GpuEngine,
    [cells, blocks, dense]: [&Buffer; 3],
    [t, bs, stored]: [usize; 3],
    to_dense: bool,
) -> Result<()> {
    let count = stored * bs * bs;
    let groups = line_workgroups(count, e.max_workgroups());
    let mode = usize::from(!to_dense);
    let words = [t, bs, count, groups.0, mode, 0, 0, 0].map(|w| w as u32);
    e.dispatch(&BLOCK_DENSE, &[cells, blocks, dense], &words, groups, None)
}
