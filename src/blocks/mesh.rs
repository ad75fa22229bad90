//! Fox's and Cannon's algorithms simulated on one GPU: the plan (`plan::mesh`)
//! says which blocks each virtual node holds and multiplies at every step; here
//! every local product runs on the engine, C_ij accumulating on the GPU, and the
//! C blocks come back once at the end to be put together. Messages are not
//! copied: every block of A and B is uploaded once, and a node "holding" a block
//! reads that upload.

use crate::engine::Handle;
use crate::engine::{Engine, Matrix, PendingRead};
use crate::error::Result;
use crate::kernels::Kernel;
use crate::plan::mesh::{Algorithm, MeshPlan};
use crate::plan::semiring::Semiring;
use crate::plan::shape::{self, Shape};

/// The product and how it was reached.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshRun {
    /// A·B, n×n row-major.
    pub result: Vec<f32>,
    /// The steps: holds, messages and block products (counts and bytes included).
    pub plan: MeshPlan,
}

/// A·B by Fox's algorithm on a q×q mesh (q from 1 to 8, q ≤ n); A and B are n×n
/// row-major.
pub async fn fox(handle: &Handle, n: usize, a: &[f32], b: &[f32], q: usize) -> Result<MeshRun> {
    run(handle, Algorithm::Fox, n, a, b, q).await
}

/// A·B by Cannon's algorithm on a q×q mesh (q from 1 to 8, q ≤ n).
pub async fn cannon(handle: &Handle, n: usize, a: &[f32], b: &[f32], q: usize) -> Result<MeshRun> {
    run(handle, Algorithm::Cannon, n, a, b, q).await
}

/// Validates, plans, queues every pass and the C reads, then waits for the reads.
pub async fn run(
    handle: &Handle,
    algorithm: Algorithm,
    n: usize,
    a: &[f32],
    b: &[f32],
    q: usize,
) -> Result<MeshRun> {
    let n = handle.with(|e| e.dimension("n", n as f64))?;
    let plan = MeshPlan::new(algorithm, n, q)?;
    shape::check_len("a", Shape::square(n), a.len())?;
    shape::check_len("b", Shape::square(n), b.len())?;
    handle.ready().await?;
    let reads = handle.with(|e| {
        // One kernel, so one layout, for blocks of every size: the rule's choice for
        // the largest block (block (0, 0)).
        let kernel = e.choose_kernel(None, plan.block_shape([0, 0]))?;
        let mut resident = Resident::default();
        let reads = queue(e, &plan, kernel, [a, b], &mut resident);
        // The reads have copied what they need (or the queue failed): every matrix
        // goes back to the pool either way.
        resident.recycle(e);
        reads
    })?;
    let mut blocks = Vec::with_capacity(reads.len());
    for read in reads {
        blocks.push(read.wait().await?);
    }
    Ok(MeshRun {
        result: plan.assemble(&blocks),
        plan,
    })
}

/// What a run keeps on the GPU, indexed by block (r, c) at r·q + c; C by node.
#[derive(Default)]
struct Resident {
    a: Vec<Matrix>,
    b: Vec<Matrix>,
    c: Vec<Option<Matrix>>,
}

impl Resident {
    fn recycle(self, e: &mut Engine) {
        let c = self.c.into_iter().flatten();
        for m in self.a.into_iter().chain(self.b).chain(c) {
            e.recycle(m);
        }
    }
}

/// Uploads the blocks, runs the plan's products with C += A·B after the first,
/// and starts reading every C block.
fn queue(
    e: &mut Engine,
    plan: &MeshPlan,
    kernel: Kernel,
    [a, b]: [&[f32]; 2],
    held: &mut Resident,
) -> Result<Vec<PendingRead>> {
    let q = plan.q;
    let layout = kernel.layout();
    for r in 0..q {
        for c in 0..q {
            let shape = plan.block_shape([r, c]);
            held.a
                .push(e.upload(shape, layout, &plan.block(a, [r, c]), 0.0)?);
            held.b
                .push(e.upload(shape, layout, &plan.block(b, [r, c]), 0.0)?);
        }
    }
    held.c = (0..q * q).map(|_| None).collect();
    let at = |[r, c]: [usize; 2]| r * q + c;
    for p in plan.products() {
        let (ma, mb) = (&held.a[at(p.a)], &held.b[at(p.b)]);
        let product = multiply(e, kernel, ma, mb)?;
        let c = &mut held.c[at(p.node)];
        *c = Some(match c.take() {
            None => product,
            Some(sum) => {
                // A pass may not read the matrix it writes: the new sum is a fresh one.
                let next = add(e, &sum, &product);
                e.recycle(sum);
                e.recycle(product);
                next?
            }
        });
    }
    let mut reads = Vec::with_capacity(held.c.len());
    for c in held.c.iter().flatten() {
        reads.push(e.read(c, Semiring::Ordinary)?);
    }
    Ok(reads)
}

/// a·b into a new matrix (given back to the pool if the pass fails).
fn multiply(e: &mut Engine, kernel: Kernel, a: &Matrix, b: &Matrix) -> Result<Matrix> {
    let out = e.alloc(Shape::new(a.shape().rows, b.shape().cols), kernel.layout())?;
    match e.product(kernel, Semiring::Ordinary, [a, b, &out], false) {
        Ok(_) => Ok(out),
        Err(err) => {
            e.recycle(out);
            Err(err)
        }
    }
}

/// p + q into a new matrix.
fn add(e: &mut Engine, p: &Matrix, q: &Matrix) -> Result<Matrix> {
    let out = e.alloc(p.shape(), p.layout())?;
    match e.affine(&out, p, Some(q), [1.0, 1.0, 0.0], 0.0) {
        Ok(()) => Ok(out),
        Err(err) => {
            e.recycle(out);
            Err(err)
        }
    }
}
