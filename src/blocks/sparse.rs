//! Block-sparse products on the GPU (the CUDA report): a symbolic phase on the CPU
//! finds C's block pattern row by row ([`symbolic`], Gustavson's algorithm on
//! blocks), then a numeric phase on the GPU computes only the block products whose
//! two blocks are stored, and a second pass flags which of C's blocks came out
//! nonzero. Matrices travel as block atlases (the same layout on both backends);
//! repeated squaring keeps the atlases on the GPU between squarings and reads back
//! only each squaring's flags, so that blocks which came out zero are skipped by
//! the next squaring, as the report's flags are.

use crate::engine::Handle;
use crate::engine::{Engine, Matrix, Timer};
use crate::error::{GpgpuError, Result};
use crate::plan::blocks::{symbolic, Atlas, BlockSparse, IndexTable, Numeric, Pattern};
use crate::plan::layout::Layout;
use crate::plan::passes::MAX_SQUARINGS;
use crate::plan::semiring::Semiring;
use crate::plan::shape::{self, Shape};

/// What one block-sparse product did.
#[derive(Clone, Debug, PartialEq)]
pub struct Product {
    /// C, without the blocks that came out all zero.
    pub result: BlockSparse,
    /// Block products computed (both blocks stored).
    pub products: u64,
    /// Block products a dense product over the same block grids computes.
    pub dense_products: u64,
    /// The numeric pass's GPU time in ms, where the device times passes (WebGPU
    /// timestamp queries, WebGL's EXT_disjoint_timer_query_webgl2); None elsewhere.
    pub gpu_ms: Option<f64>,
}

/// One squaring of [`square_repeatedly`].
#[derive(Clone, Debug, PartialEq)]
pub struct Squaring {
    /// Blocks the symbolic phase stored.
    pub stored_blocks: usize,
    /// Of those, blocks with a nonzero entry (the GPU's flags): the pattern the
    /// next squaring starts from.
    pub nonzero_blocks: usize,
    /// Nonzero blocks over the grid's blocks.
    pub density: f64,
    /// Block products computed.
    pub products: u64,
}

/// What [`square_repeatedly`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Squarings {
    pub result: BlockSparse,
    pub steps: Vec<Squaring>,
    /// The first squaring (1-based) after which every block held a nonzero, if any.
    pub dense_after: Option<usize>,
}

/// A block-sparse matrix on the GPU: its pattern, its atlas, and the atlas slot
/// of each stored block (after zero blocks are dropped, not every slot is used).
struct Resident {
    pattern: Pattern,
    atlas: Matrix,
    slots: Vec<usize>,
}

/// One product's GPU work, queued.
struct Queued {
    out: Resident,
    flags: Matrix,
    products: u64,
    dense_products: u64,
    timer: Option<Timer>,
}

/// What helps when blocks do not fit the device: the atlases hold every stored block.
const BLOCKS_HINT: &str = "Use fewer or smaller blocks per call (a sparser or smaller matrix).";

fn atlas(engine: &Engine, block_size: usize) -> Atlas {
    Atlas::square(block_size, engine.atlas_width().max(block_size))
}

fn upload(engine: &mut Engine, what: &str, m: &BlockSparse) -> Result<Resident> {
    let atlas = atlas(engine, m.block_size);
    let shape = atlas.shape(m.pattern.stored());
    engine.check_atlas(what, shape, BLOCKS_HINT)?;
    let data = atlas.pack(&m.values);
    Ok(Resident {
        pattern: m.pattern.clone(),
        atlas: engine.upload(shape, Layout::Scalar, &data, 0.0)?,
        slots: (0..m.pattern.stored()).collect(),
    })
}

/// Queues C = A·B: the symbolic phase now, the numeric phase and the flags on the GPU.
fn queue(
    engine: &mut Engine,
    a: &Resident,
    b: &Resident,
    block_size: usize,
    timed: bool,
) -> Result<Queued> {
    let s = symbolic(&a.pattern, &b.pattern)?;
    let table = IndexTable::new((&a.pattern, &a.slots), (&b.pattern, &b.slots), &s.out)?;
    let (w, atlas) = (engine.atlas_width(), atlas(engine, block_size));
    let numeric = Numeric::new(atlas, &table, &b.pattern, &s.out, w);
    let out_shape = atlas.shape(s.out.stored());
    engine.check_atlas("the product", out_shape, BLOCKS_HINT)?;
    engine.check_atlas("the index table", table.shape(w), BLOCKS_HINT)?;
    let index = engine.upload(table.shape(w), Layout::Scalar, &table.padded(w), 0.0)?;
    let out = engine.alloc(out_shape, Layout::Scalar);
    let flags = engine.alloc(numeric.flags_shape(), Layout::Scalar);
    let ran = match (&out, &flags) {
        (Ok(out), Ok(flags)) => engine
            .block_product(&numeric, [&a.atlas, &b.atlas, &index, out], timed)
            .and_then(|timer| engine.block_flags(&numeric, out, flags).map(|_| timer)),
        (Err(e), _) | (_, Err(e)) => Err(e.clone()),
    };
    engine.recycle(index);
    match (ran, out, flags) {
        (Ok(timer), Ok(out), Ok(flags)) => Ok(Queued {
            timer,
            out: Resident {
                slots: (0..s.out.stored()).collect(),
                pattern: s.out,
                atlas: out,
            },
            flags,
            products: s.products,
            dense_products: s.dense_products,
        }),
        (ran, out, flags) => {
            for m in [out, flags].into_iter().flatten() {
                engine.recycle(m);
            }
            Err(ran.err().unwrap_or_else(|| GpgpuError::WebGpu {
                detail: "allocation failed".into(),
            }))
        }
    }
}

/// Checks that A·B is defined blockwise (inner dimensions and block sizes agree) and
/// that C is a BlockSparse JavaScript's fromDense and fromBlocks would make: a shape
/// whose dense form one WebAssembly array holds. C has A's rows and B's columns, so two
/// vectors made a result of any size: a 30000 x 30000 one panicked in toDense (3.6 GB,
/// "capacity overflow"), and one of 2^32 blocks of 1 in occupancy and density.
pub fn check_operands(a: &BlockSparse, b: &BlockSparse) -> Result<()> {
    a.check("a")?;
    b.check("b")?;
    if a.shape.cols != b.shape.rows {
        return Err(GpgpuError::BadArgument {
            name: "b".into(),
            detail: format!(
                "a {}x{} matrix times a {}x{} one: b needs {} rows",
                a.shape.rows, a.shape.cols, b.shape.rows, b.shape.cols, a.shape.cols
            ),
        });
    }
    if a.block_size != b.block_size {
        return Err(GpgpuError::BadArgument {
            name: "b".into(),
            detail: format!(
                "blocks of {} times blocks of {}: give both matrices the same block size",
                a.block_size, b.block_size
            ),
        });
    }
    // As JavaScript's fromBlocks bounds its shape (js::blocks::dims).
    let result = Shape::new(a.shape.rows, b.shape.cols);
    BlockSparse::check_dense_size("the block-sparse product A·B's result", result)
}

/// C from its atlas read back: the stored blocks of `pattern`, less those whose
/// flag is 0 (all zero after cancellation).
fn assemble(
    shape: Shape,
    atlas: Atlas,
    pattern: Pattern,
    data: &[f32],
    flags: &[f32],
) -> BlockSparse {
    let keep: Vec<bool> = flags[..pattern.stored()]
        .iter()
        .map(|&f| f != 0.0)
        .collect();
    // Only the kept blocks are copied out of the atlas (C is the largest thing in
    // wasm memory here; a second full copy would double the peak).
    let slots: Vec<usize> = (0..keep.len()).filter(|&s| keep[s]).collect();
    BlockSparse {
        shape,
        block_size: atlas.tile.rows,
        values: atlas.unpack_slots(data, &slots),
        pattern: pattern.filter(&keep),
    }
}

/// Uploads A and B, queues C = A·B and lets A and B go back to the pool.
fn prepare(e: &mut Engine, a: &BlockSparse, b: &BlockSparse) -> Result<Queued> {
    check_operands(a, b)?;
    e.ensure()?;
    let ra = upload(e, "a", a)?;
    let queued = upload(e, "b", b).and_then(|rb| {
        let q = queue(e, &ra, &rb, a.block_size, true);
        e.recycle(rb.atlas);
        q
    });
    e.recycle(ra.atlas);
    queued
}

/// A·B for block-sparse A and B, on either backend.
pub async fn multiply(handle: &Handle, a: &BlockSparse, b: &BlockSparse) -> Result<Product> {
    check_operands(a, b)?;
    handle.ready().await?;
    let (q, atlas, reads) = handle.with(|e| {
        let q = prepare(e, a, b)?;
        let reads = (
            crate::engine::read_for_caller(e, &q.out.atlas, Semiring::Ordinary),
            crate::engine::read_for_caller(e, &q.flags, Semiring::Ordinary),
        );
        let atlas = atlas(e, a.block_size);
        // The reads have copied what they need: the pool may have these back.
        let Queued {
            out,
            flags,
            products,
            dense_products,
            timer,
        } = q;
        e.recycle(out.atlas);
        e.recycle(flags);
        Ok(((out.pattern, products, dense_products, timer), atlas, reads))
    })?;
    let (pattern, products, dense_products, timer) = q;
    let (data, flags) = (reads.0?.wait().await?, reads.1?.wait().await?);
    let shape = Shape::new(a.shape.rows, b.shape.cols);
    let gpu_ms = match timer {
        // A blocking call cannot wait for the answer: it is there now or not at all.
        Some(t) if crate::common::blocking() => handle
            .with(|e| Ok(e.timer_ms(&t)))?
            .filter(|ms| ms.is_finite()),
        Some(t) => handle.timer_ms(&t).await,
        None => None,
    };
    Ok(Product {
        result: assemble(shape, atlas, pattern, &data, &flags),
        products,
        dense_products,
        gpu_ms,
    })
}

/// M^(2^times) for a square block-sparse M: `times` squarings on the GPU, the
/// atlases staying there between them. After each squaring only its flags come
/// back, and the next symbolic phase starts from the blocks that held a nonzero
/// (read through a slot list, so the atlas is not compacted); the values come back
/// once, at the end. `times` from 0 to [`MAX_SQUARINGS`] (64), as for a dense
/// matrix, else BAD_COUNT.
pub async fn square_repeatedly(
    handle: &Handle,
    m: &BlockSparse,
    times: usize,
) -> Result<Squarings> {
    // As JavaScript's squareBlockSparseRepeatedlyAsync reads it: unchecked, 65 ran 65
    // squarings with no error and usize::MAX would have squared for ever.
    shape::count("times", times as f64, MAX_SQUARINGS as f64)?;
    m.check("m")?;
    if m.shape.rows != m.shape.cols {
        return Err(GpgpuError::BadArgument {
            name: "m".into(),
            detail: format!(
                "a {}x{} matrix cannot be squared: give a square one",
                m.shape.rows, m.shape.cols
            ),
        });
    }
    if times == 0 {
        return Ok(Squarings {
            result: m.clone(),
            steps: vec![],
            dense_after: None,
        });
    }
    handle.ready().await?;
    let bs = m.block_size;
    let mut current = handle.with(|e| {
        e.ensure()?;
        upload(e, "m", m)
    })?;
    let mut steps = vec![];
    let squared = async {
        for _ in 0..times {
            let (next, flags_read) = handle.with(|e| {
                let q = queue(e, &current, &current, bs, false)?;
                let read = crate::engine::read_for_caller(e, &q.flags, Semiring::Ordinary);
                e.recycle(q.flags);
                steps.push(Squaring {
                    stored_blocks: q.out.pattern.stored(),
                    nonzero_blocks: 0,
                    density: 0.0,
                    products: q.products,
                });
                match read {
                    Ok(read) => Ok((q.out, read)),
                    Err(err) => {
                        e.recycle(q.out.atlas);
                        Err(err)
                    }
                }
            })?;
            let old = std::mem::replace(&mut current, next);
            let _ = handle.with(|e| {
                e.recycle(old.atlas);
                Ok(())
            });
            let flags = flags_read.wait().await?;
            let keep: Vec<bool> = flags[..current.pattern.stored()]
                .iter()
                .map(|&f| f != 0.0)
                .collect();
            current.slots = (0..keep.len()).filter(|&s| keep[s]).collect();
            current.pattern = current.pattern.filter(&keep);
            let step = steps.last_mut().expect("pushed above");
            step.nonzero_blocks = current.pattern.stored();
            step.density = current.pattern.density();
        }
        let read = handle
            .with(|e| crate::engine::read_for_caller(e, &current.atlas, Semiring::Ordinary))?;
        read.wait().await
    };
    let data = squared.await;
    let atlas = handle.with(|e| {
        let a = atlas(e, bs);
        e.recycle(current.atlas);
        Ok(a)
    });
    let (data, atlas) = (data?, atlas?);
    let dense_after = steps
        .iter()
        .position(|s| s.nonzero_blocks == current.pattern.grid_blocks())
        .map(|p| p + 1);
    // The kept blocks, gathered from their slots.
    let values = atlas.unpack_slots(&data, &current.slots);
    Ok(Squarings {
        result: BlockSparse {
            shape: m.shape,
            block_size: bs,
            pattern: current.pattern,
            values,
        },
        steps,
        dense_after,
    })
}
