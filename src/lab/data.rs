//! The cases of the exercises over other data than two dense matrices — many 3×3
//! products, a block-sparse product, CSR times a vector — run by the general form of
//! [`crate::ops::supplied`]: their inputs in binding order, the uniform block, the
//! grid, and the float64 reference from the plan crate.

use super::{Exercise, Speed, Timing};
use crate::common::clock::now_ms;
use crate::engine::program::Wgsl;
use crate::engine::Handle;
use crate::error::Result;
use crate::ops::supplied::{self, Dispatch};
use crate::plan::batched;
use crate::plan::blocks::{self, BlockSparse};
use crate::plan::random;
use crate::plan::reference;
use crate::plan::shape::Shape;
use crate::plan::sparse::{self, Csr};

/// The blocks of `blocksparse` (the CUDA report's m = 4), one workgroup each.
pub const BLOCK: usize = 4;

/// One case: what is bound and dispatched, and what should come out.
pub struct DataCase {
    /// The output read as dims\[0\] × dims\[2\] (batched: the 3×3 results stacked,
    /// 3·count × 3; spmv: y as rows × 1; inner is the other side).
    pub dims: [usize; 3],
    pub integers: bool,
    pub inputs: Vec<Vec<f32>>,
    pub words: [u32; 4],
    pub groups: (usize, usize),
    pub want: Vec<f64>,
    pub scale: Vec<f64>,
    /// Useful floating-point operations (2 per multiply-add), for GFLOP/s.
    pub flops: f64,
}

/// The size of case `index` for `ex`: batched counts, block-sparse shapes, spmv
/// rows × cols (with whether the inputs are small integers). `per_group` is the
/// learner's MATRICES (batched) or WORKGROUP (spmv).
pub fn sizes(ex: Exercise, per_group: usize) -> Vec<([usize; 3], bool)> {
    match ex {
        Exercise::Batched3x3 => [
            (1, false),
            (2, false),
            (per_group + 1, false),
            (64, true),
            (2 * per_group + 1, false),
            (4099, false),
        ]
        .map(|(n, int)| ([n, 3, 3], int))
        .to_vec(),
        Exercise::BlockSparse => vec![
            ([1, 1, 1], false),
            ([3, 5, 2], false),
            ([8, 8, 8], false),
            ([17, 33, 9], false),
            ([20, 31, 24], true),
            ([130, 100, 141], false),
        ],
        _ => vec![
            ([1, 1, 1], false),
            ([3, 5, 1], false),
            ([per_group + 1, 20, 1], false),
            ([100, 80, 1], true),
            ([1000, 1000, 0], false),
            ([5001, 4000, 1], false),
        ],
    }
}

/// The inputs of case `index` of `size`.
pub fn case(
    ex: Exercise,
    index: usize,
    size: ([usize; 3], bool),
    per_group: usize,
) -> Result<DataCase> {
    let mut c = inputs(ex, index, size, per_group)?;
    reference(ex, &mut c)?;
    Ok(c)
}

/// A case's inputs, without its reference (a timing case's is not needed).
fn inputs(
    ex: Exercise,
    index: usize,
    (size, integers): ([usize; 3], bool),
    per_group: usize,
) -> Result<DataCase> {
    let seed = 2000 + 3 * index as u32;
    let draw = |seed: u32, len: usize| match integers {
        true => random::integers(seed, len, -3, 3),
        false => random::uniform(seed, len, -1.0, 1.0),
    };
    let mut c = DataCase {
        dims: size,
        integers,
        inputs: Vec::new(),
        words: [0; 4],
        groups: (1, 1),
        want: Vec::new(),
        scale: Vec::new(),
        flops: 0.0,
    };
    match ex {
        Exercise::Batched3x3 => {
            let count = size[0];
            c.dims = [3 * count, 3, 3];
            c.inputs = vec![draw(seed, 9 * count), draw(seed + 1, 9 * count)];
            c.words = [count as u32, 0, 0, 0];
            c.groups = (count.div_ceil(per_group), 1);
            c.flops = 54.0 * count as f64;
        }
        Exercise::BlockSparse => {
            let [rows, inner, cols] = size;
            let (flags_a, flags_b) = zero_blocks(size);
            let (a, fa) = block_matrix(seed, rows, inner, integers, flags_a);
            let (b, fb) = block_matrix(seed + 1, inner, cols, integers, flags_b);
            c.inputs = vec![a, b, fa, fb];
            c.words = [rows as u32, inner as u32, cols as u32, 0];
            c.groups = (cols.div_ceil(BLOCK), rows.div_ceil(BLOCK));
            let (sa, sb) = library_operands(&c)?;
            let pairs: usize = sa
                .pattern
                .coordinates()
                .map(|(_, k)| sb.pattern.row_starts[k + 1] - sb.pattern.row_starts[k])
                .sum();
            c.flops = 2.0 * (BLOCK * BLOCK * BLOCK * pairs) as f64;
        }
        _ => {
            let [rows, cols, skewed] = size;
            let csr = if skewed == 0 {
                let mut m = sparse::random_skewed(rows, 8 * rows, seed);
                m.cols = cols;
                m
            } else {
                random_csr(seed, rows, cols, integers)
            };
            let bits = |l: &[u32]| l.iter().map(|&v| f32::from_bits(v)).collect();
            c.dims = [rows, cols, 1];
            c.words = [rows as u32, cols as u32, csr.nnz() as u32, 0];
            c.groups = (rows.div_ceil(per_group), 1);
            c.flops = 2.0 * csr.nnz() as f64;
            c.inputs = vec![
                csr.values.clone(),
                bits(&csr.columns),
                bits(&csr.row_offsets),
                draw(seed + 1, cols),
            ];
        }
    }
    Ok(c)
}

/// The float64 reference of a case, and each element's scale (the same sum over
/// magnitudes): the plan crate's batched, block-sparse and CSR references.
fn reference(ex: Exercise, c: &mut DataCase) -> Result<()> {
    let abs = |m: &[f32]| m.iter().map(|v| v.abs()).collect::<Vec<f32>>();
    match ex {
        Exercise::Batched3x3 => {
            let (a, b, count) = (&c.inputs[0], &c.inputs[1], c.dims[0] / 3);
            c.want = batched::reference_product(count, [3; 3], a, b);
            c.scale = batched::reference_product(count, [3; 3], &abs(a), &abs(b));
        }
        Exercise::BlockSparse => {
            let (sa, sb) = library_operands(c)?;
            c.want = blocks::reference_product(&sa, &sb)?;
            let magnitudes = |m: &BlockSparse| BlockSparse {
                values: abs(&m.values),
                ..m.clone()
            };
            c.scale = blocks::reference_product(&magnitudes(&sa), &magnitudes(&sb))?;
        }
        _ => {
            let csr = library_csr(c);
            let x = &c.inputs[3];
            c.want = csr.spmv(&reference::to_f64(x));
            let magnitudes = Csr {
                values: abs(&csr.values),
                ..csr
            };
            c.scale = magnitudes.spmv(&reference::to_f64(&abs(x)));
        }
    }
    Ok(())
}

/// What a case binds and dispatches, `inputs` being its lists as slices.
pub fn dispatch<'a>(c: &DataCase, inputs: &'a [&'a [f32]]) -> Dispatch<'a> {
    Dispatch {
        inputs,
        output: c.dims[0] * c.dims[2],
        words: c.words,
        groups: c.groups,
    }
}

/// A CSR matrix with 0 to 6 nonzeros a row (row 1 empty), seeded.
pub fn random_csr(seed: u32, rows: usize, cols: usize, integers: bool) -> Csr {
    let lens = random::uniform(seed + 5, rows, 0.0, 7.0);
    let mut offsets = vec![0u32];
    for (i, l) in lens.iter().enumerate() {
        // A row with nothing to sum, in every case that has a second row.
        let l = if i == 1 { 0 } else { *l as u32 };
        offsets.push(offsets[i] + l);
    }
    let nnz = offsets[rows] as usize;
    let columns = random::uniform(seed + 6, nnz, 0.0, cols as f64)
        .iter()
        .map(|&c| (c as usize).min(cols - 1) as u32)
        .collect();
    let values = match integers {
        true => random::integers(seed + 7, nnz, -3, 3),
        false => random::uniform(seed + 7, nnz, -1.0, 1.0),
    };
    Csr {
        rows,
        cols,
        values,
        columns,
        row_offsets: offsets,
    }
}

/// An r × c matrix with about half its 4×4 blocks stored, and its flags (1: stored,
/// as u32 bits: the kernel reads array<u32>). The blocks not stored are NaN in what
/// is bound — memory a sparse format never wrote: a kernel that reads a block whose
/// flag is 0 gets NaN — and zero for the library and the reference.
/// `stored`, where given, instead of the drawn flags.
fn block_matrix(
    seed: u32,
    r: usize,
    c: usize,
    integers: bool,
    stored: Option<&[bool]>,
) -> (Vec<f32>, Vec<f32>) {
    let side = |n: usize| n.div_ceil(BLOCK);
    let flags: Vec<bool> = match stored {
        Some(s) => s.to_vec(),
        None => random::uniform(seed + 9, side(r) * side(c), 0.0, 1.0)
            .iter()
            .map(|&u| u < 0.55)
            .collect(),
    };
    let mut values = match integers {
        true => random::integers(seed, r * c, -3, 3),
        false => random::uniform(seed, r * c, -1.0, 1.0),
    };
    for i in 0..r {
        for j in 0..c {
            if !flags[(i / BLOCK) * side(c) + j / BLOCK] {
                values[i * c + j] = f32::NAN;
            }
        }
    }
    let flags = flags.iter().map(|&f| f32::from_bits(f as u32)).collect();
    (values, flags)
}

/// The flags of A and B in the first two cases, whatever the draw, so that skipping
/// shows from the start: in case 0 (1×1·1×1) B's only block is not stored (C is 0;
/// a kernel that reads it gets NaN); in case 1 (3×5·5×2) A's first block along k is
/// not stored and its second is (C is that block's product: a kernel that drops the
/// partial last block gets 0).
fn zero_blocks(size: [usize; 3]) -> (Option<&'static [bool]>, Option<&'static [bool]>) {
    match size {
        [1, 1, 1] => (Some(&[true]), Some(&[false])),
        [3, 5, 2] => (Some(&[false, true]), Some(&[true, true])),
        _ => (None, None),
    }
}

/// The block-sparse operands of a case as the library takes them (NaN read as the
/// zero it stands for).
pub fn library_operands(c: &DataCase) -> Result<(BlockSparse, BlockSparse)> {
    let [rows, inner, cols] = c.dims;
    let zero = |m: &[f32]| {
        m.iter()
            .map(|&v| if v.is_nan() { 0.0 } else { v })
            .collect::<Vec<_>>()
    };
    Ok((
        BlockSparse::from_dense(Shape::new(rows, inner), &zero(&c.inputs[0]), BLOCK)?,
        BlockSparse::from_dense(Shape::new(inner, cols), &zero(&c.inputs[1]), BLOCK)?,
    ))
}

/// The CSR of an spmv case, from its bound lists.
pub fn library_csr(c: &DataCase) -> Csr {
    let ints = |l: &[f32]| l.iter().map(|v| v.to_bits()).collect();
    Csr {
        rows: c.dims[0],
        cols: c.dims[1],
        values: c.inputs[0].clone(),
        columns: ints(&c.inputs[1]),
        row_offsets: ints(&c.inputs[2]),
    }
}

/// One product of the learner's takes this long at the timing size (or the size
/// stops growing at its largest).
const TIMED_MS: f64 = 40.0;

/// Times the learner's kernel beside the library's own for the same operation
/// (batched products, the block-sparse product, SpMV): the median of three whole
/// calls after a warm-up, by the GPU timestamps of the two passes where the device
/// grants them (the wall clock of whole calls counts the uploads and readbacks
/// too), else the wall clock.
pub async fn time(
    handle: &Handle,
    ex: Exercise,
    wgsl: &Wgsl,
    per_group: usize,
    wall: bool,
) -> Result<Timing> {
    let max_groups = 65535;
    let (mut size, max, kernel) = match ex {
        Exercise::Batched3x3 => (
            [4096, 3, 3],
            (1 << 20).min(max_groups * per_group),
            "batched",
        ),
        Exercise::BlockSparse => ([128; 3], 2048, "block-sparse"),
        _ => (
            [4096, 4096, 1],
            (1 << 20).min(max_groups * per_group),
            "spmv",
        ),
    };
    let grow = |size: &mut [usize; 3]| match ex {
        Exercise::BlockSparse => *size = [size[0] * 2; 3],
        Exercise::Spmv => *size = [size[0] * 2, size[1] * 2, 1],
        _ => size[0] *= 2,
    };
    let mut c = inputs(ex, 0, (size, false), per_group)?;
    learner_run(handle, wgsl, &c).await?;
    while learner_run(handle, wgsl, &c).await?.0 < TIMED_MS && size[0] * 2 <= max {
        grow(&mut size);
        c = inputs(ex, 0, (size, false), per_group)?;
    }
    let library = || library_run(handle, ex, &c);
    library().await?;
    let (mut mine, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..3 {
        mine.push(learner_run(handle, wgsl, &c).await?);
        theirs.push(library().await?);
    }
    let (clock, mine, theirs) = super::timing::medians(&mine, &theirs, wall);
    let speed = |ms: f64| Speed {
        ms,
        gflops: c.flops / ms / 1e6,
    };
    Ok(Timing {
        dims: if ex == Exercise::Batched3x3 {
            [size[0], 3, 3]
        } else {
            c.dims
        },
        learner: speed(mine),
        kernel,
        reference: speed(theirs),
        clock,
    })
}

/// One timed run of the learner's kernel: wall ms of the whole call (its inputs
/// are uploaded and its output read back each time), and GPU ms of its pass alone
/// where granted.
async fn learner_run(handle: &Handle, wgsl: &Wgsl, c: &DataCase) -> Result<(f64, Option<f64>)> {
    let inputs: Vec<&[f32]> = c.inputs.iter().map(Vec::as_slice).collect();
    let start = now_ms();
    let (_, gpu) = supplied::dispatch(handle, wgsl, &dispatch(c, &inputs), true).await?;
    Ok((now_ms() - start, gpu))
}

/// One run of the library's own operation on a case's data, a whole call as the
/// learner's is (inputs uploaded, one pass, the result read back): wall ms, and the
/// GPU ms of its pass where the device grants timestamps, so that the two kernels
/// are compared by the GPU clock without their transfers.
async fn library_run(handle: &Handle, ex: Exercise, c: &DataCase) -> Result<(f64, Option<f64>)> {
    let start = now_ms();
    let gpu = match ex {
        Exercise::Batched3x3 => {
            let (a, b) = (&c.inputs[0][..], &c.inputs[1][..]);
            crate::batched::products::multiply_timed(handle, c.dims[0] / 3, [3; 3], a, b)
                .await?
                .1
        }
        Exercise::BlockSparse => {
            let (a, b) = library_operands(c)?;
            crate::blocks::sparse::multiply(handle, &a, &b)
                .await?
                .gpu_ms
        }
        _ => {
            let csr = library_csr(c);
            crate::sparse::multiply_timed(handle, &csr, &c.inputs[3], None, true)
                .await?
                .1
        }
    };
    Ok((now_ms() - start, gpu))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_and_scales_fit_the_outputs() {
        for ex in [Exercise::Batched3x3, Exercise::BlockSparse, Exercise::Spmv] {
            for (index, size) in sizes(ex, 7).into_iter().enumerate() {
                let c = case(ex, index, size, 7).unwrap();
                let [rows, _, cols] = c.dims;
                assert_eq!(c.want.len(), rows * cols.max(1), "{ex:?} {index}");
                assert_eq!(c.scale.len(), c.want.len());
                assert!(c.want.iter().all(|w| w.is_finite()), "{ex:?} {index}");
            }
        }
        // A skipped block is NaN where bound: a kernel that reads it shows.
        let c = case(
            Exercise::BlockSparse,
            5,
            sizes(Exercise::BlockSparse, 7)[5],
            7,
        )
        .unwrap();
        assert!(c.inputs[0].iter().any(|v| v.is_nan()));
        // Cases 0 and 1 hold blocks that are not stored, whatever the draw.
        for index in 0..2 {
            let size = sizes(Exercise::BlockSparse, 7)[index];
            let c = case(Exercise::BlockSparse, index, size, 7).unwrap();
            let flags = || c.inputs[2].iter().chain(&c.inputs[3]).map(|v| v.to_bits());
            assert!(
                flags().any(|f| f == 0) && flags().any(|f| f == 1),
                "{index}"
            );
            assert!(c.want.iter().all(|&w| w == 0.0) == (index == 0), "{index}");
        }
        let csr = library_csr(&case(Exercise::Spmv, 2, sizes(Exercise::Spmv, 64)[2], 64).unwrap());
        csr.check().unwrap();
        assert_eq!(csr.row_offsets[1], csr.row_offsets[2], "row 1 is empty");
    }
}
