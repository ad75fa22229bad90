//! Sparse matrices on the GPU: a CSR matrix uploaded once as lists (values, column
//! indices, row offsets), sparse matrix × vector as one pass (one fragment or
//! invocation per row), and the iterations built on it — Jacobi, the power method
//! and PageRank — which keep x on the GPU and read back only a few reduced numbers
//! per iteration (the statistics reduction's record), never the vector.
//!
//! On WebGPU, rows longer than a threshold can go to a workgroup each instead
//! ([`multiply_with`], the bench's `longRow`): for a graph's hub rows.

use crate::apps::eigen::EigenPair;
use crate::apps::jacobi::{Jacobi, JacobiSettings, MAX_ITERATIONS};
use crate::engine::Handle;
use crate::engine::{Engine, Matrix, PendingRead};
use crate::error::{GpgpuError, Result};
use crate::kernels::Backend;
use crate::plan::layout::Layout;
use crate::plan::random;
use crate::plan::shape;
use crate::plan::sparse::{self, Csr};

pub mod timing;

/// Floats per row of a list (fewer when the device's textures are narrower).
pub const LIST_WIDTH: usize = 4096;

/// A CSR matrix resident on the GPU. Its sizes are read-only (the getters): they
/// describe the lists uploaded, and a row count set by hand made the pass read past
/// the row offsets (on the CPU "index out of bounds: the len is 4096 but the index is
/// 4096"; a wrong y on the GPUs).
///
/// ```no_run
/// fn describe(d: &gpgpu_matrix::sparse::DeviceCsr) -> String {
///     format!("{}x{}, {} nonzeros, lists {} wide", d.rows(), d.cols(), d.nnz(), d.width())
/// }
/// ```
///
/// ```compile_fail
/// fn grow(d: &mut gpgpu_matrix::sparse::DeviceCsr) {
///     d.rows = 5000;
/// }
/// ```
pub struct DeviceCsr {
    rows: usize,
    cols: usize,
    nnz: usize,
    width: usize,
    values: Matrix,
    columns: Matrix,
    offsets: Matrix,
    /// WebGPU with the long-row pass: the rows longer than the threshold, their
    /// count, the threshold.
    long: Option<(Matrix, usize, usize)>,
}

/// The list width on this engine.
/// Rows with more entries than this are summed by a workgroup each on a hardware WebGPU
/// adapter: on the H100, Zipf-skewed matrices (a hub row of nnz / ln(rows) entries) ran
/// 50-90× faster that way at 10^6-10^8 nonzeros (bench/NOTES.md, sparse matrix × vector).
/// Not on a software adapter: SwiftShader runs a workgroup on one CPU thread and was 10×
/// slower with it.
pub const LONG_ROW: usize = 1024;

pub fn width(e: &Engine) -> usize {
    LIST_WIDTH.min(e.max_dimension())
}

fn upload_list(e: &mut Engine, data: &[f32], width: usize) -> Result<Matrix> {
    let (shape, packed) = sparse::pack(data, width)?;
    e.upload(shape, Layout::Scalar, &packed, 0.0)
}

fn upload_indices(e: &mut Engine, data: &[u32], width: usize) -> Result<Matrix> {
    // WebGL samples floats: indices must be exact as floats there.
    let as_bits = e.backend() != Backend::WebGl;
    let (shape, packed) = sparse::pack_indices(data, width, as_bits)?;
    e.upload(shape, Layout::Scalar, &packed, 0.0)
}

/// Both uploads, or the first error with the other upload freed.
fn both(e: &mut Engine, a: Result<Matrix>, b: Result<Matrix>) -> Result<(Matrix, Matrix)> {
    match (a, b) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err(err), other) | (other, Err(err)) => {
            if let Ok(m) = other {
                e.recycle(m);
            }
            Err(err)
        }
    }
}

/// Rows from which a row gets a workgroup of its own by default: [`LONG_ROW`] on a
/// hardware WebGPU adapter, none elsewhere.
fn long_default(e: &mut Engine) -> Option<usize> {
    e.webgpu()
        .filter(|g| !g.info().is_software())
        .map(|_| LONG_ROW)
}

impl DeviceCsr {
    /// Uploads `csr` (WebGL: its indices must be exact as floats, below 2^24). On a
    /// hardware WebGPU adapter rows longer than [`LONG_ROW`] get a workgroup each.
    pub fn upload(e: &mut Engine, csr: &Csr) -> Result<DeviceCsr> {
        csr.check()?;
        let long = long_default(e);
        DeviceCsr::upload_checked(e, csr, long)
    }

    /// Uploads `csr`; on WebGPU with `long_from`, rows longer than that get a
    /// workgroup each (wgsl/spmv/long.wgsl), the others an invocation each. WebGL
    /// ignores it (a fragment cannot share its row with others).
    pub fn upload_with(e: &mut Engine, csr: &Csr, long_from: Option<usize>) -> Result<DeviceCsr> {
        csr.check()?;
        DeviceCsr::upload_checked(e, csr, long_from)
    }

    /// `upload_with` of a Csr that has passed [`Csr::check`] already: the calls
    /// below check their argument first (`check_vector`, `check_square`, through
    /// which a hand-built Csr is refused before anything is uploaded) or upload a
    /// Csr built from a checked one; a second scan of its lists would find nothing.
    fn upload_checked(e: &mut Engine, csr: &Csr, long_from: Option<usize>) -> Result<DeviceCsr> {
        if e.backend() == Backend::WebGl {
            csr.check_f32_indices()?;
        }
        let w = width(e);
        let values = upload_list(e, &csr.values, w)?;
        let columns = upload_indices(e, &csr.columns, w);
        let offsets = upload_indices(e, &csr.row_offsets, w);
        match both(e, columns, offsets) {
            Ok((columns, offsets)) => {
                let mut dev = DeviceCsr {
                    rows: csr.rows,
                    cols: csr.cols,
                    nnz: csr.nnz(),
                    width: w,
                    values,
                    columns,
                    offsets,
                    long: None,
                };
                let threshold = long_from.filter(|_| e.backend() == Backend::WebGpu);
                if let Some(t) = threshold {
                    let rows = csr.long_rows(t);
                    let list = if rows.is_empty() {
                        vec![0]
                    } else {
                        rows.clone()
                    };
                    match upload_indices(e, &list, w) {
                        Ok(m) => dev.long = Some((m, rows.len(), t)),
                        Err(err) => {
                            dev.free(e);
                            return Err(err);
                        }
                    }
                }
                Ok(dev)
            }
            Err(err) => {
                e.recycle(values);
                Err(err)
            }
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Stored values.
    pub fn nnz(&self) -> usize {
        self.nnz
    }

    /// Floats per row of its lists (and of its vectors').
    pub fn width(&self) -> usize {
        self.width
    }

    /// A vector's list for this matrix's products: `data` has one entry per column,
    /// else BAD_ARGUMENT (a list is padded with zeros to its width, so a short x was
    /// multiplied as if its missing entries were 0, with no error).
    pub fn vector(&self, e: &mut Engine, data: &[f32]) -> Result<Matrix> {
        if data.len() != self.cols {
            return Err(GpgpuError::BadArgument {
                name: "x".into(),
                detail: format!(
                    "has {} entries, but the matrix has {} columns: A·x needs one entry per \
                     column",
                    data.len(),
                    self.cols
                ),
            });
        }
        upload_list(e, data, self.width)
    }

    /// Refuses a list that is not this matrix's `what` (x: one entry per column, y: one
    /// per row, as `vector` and `multiply` make them): the pass reads and writes them by
    /// the matrix's own sizes, so a shorter one was read past (a panic on the CPU, a
    /// wrong y on the GPUs).
    fn check_list(&self, what: &str, m: &Matrix, len: usize) -> Result<()> {
        let want = sparse::list_shape(len, self.width);
        let scalar = matches!(m.layout(), Layout::Scalar | Layout::Linear);
        if m.shape() == want && scalar {
            return Ok(());
        }
        let s = m.shape();
        Err(GpgpuError::BadArgument {
            name: what.into(),
            detail: format!(
                "is a {}x{} matrix ({:?}), not this matrix's list of {len} entries ({}x{} \
                 scalars): make x with DeviceCsr::vector, and let multiply make y",
                s.rows,
                s.cols,
                m.layout(),
                want.rows,
                want.cols
            ),
        })
    }

    /// y ← A·x (a fresh list of `rows` entries); `timed` measures the pass.
    pub fn multiply(
        &self,
        e: &mut Engine,
        x: &Matrix,
        timed: bool,
    ) -> Result<(Matrix, Option<crate::engine::Timer>)> {
        let shape = sparse::list_shape(self.rows, self.width);
        let y = e.alloc(shape, Layout::Scalar)?;
        match self.multiply_into(e, x, &y, timed) {
            Ok(t) => Ok((y, t)),
            Err(err) => {
                e.recycle(y);
                Err(err)
            }
        }
    }

    /// y ← A·x into an existing list of `rows` entries.
    pub fn multiply_into(
        &self,
        e: &mut Engine,
        x: &Matrix,
        y: &Matrix,
        timed: bool,
    ) -> Result<Option<crate::engine::Timer>> {
        self.check_list("x", x, self.cols)?;
        self.check_list("y", y, self.rows)?;
        let operands = [&self.values, &self.columns, &self.offsets, x, y];
        let long = self.long.as_ref().map(|(m, count, t)| (m, *count, *t));
        e.spmv(self.rows, operands, long, timed)
    }

    /// This matrix with what `make` uploads beside it (its vectors), or make's
    /// error with the matrix freed.
    pub fn and_vectors<T>(
        self,
        e: &mut Engine,
        make: impl FnOnce(&DeviceCsr, &mut Engine) -> Result<T>,
    ) -> Result<(DeviceCsr, T)> {
        match make(&self, e) {
            Ok(vectors) => Ok((self, vectors)),
            Err(err) => {
                self.free(e);
                Err(err)
            }
        }
    }

    pub fn free(self, e: &mut Engine) {
        e.recycle(self.values);
        e.recycle(self.columns);
        e.recycle(self.offsets);
        if let Some((m, _, _)) = self.long {
            e.recycle(m);
        }
    }
}

/// A list's first `len` values, when the GPU has them.
async fn read(h: &Handle, m: &Matrix, len: usize) -> Result<Vec<f32>> {
    let pending = h.with(|e| match e.backend() {
        Backend::WebGl => Ok(PendingRead::ready(e.download(
            m,
            "read",
            "an Async form",
        )?)),
        Backend::WebGpu | Backend::Cpu => e.read(m, crate::Semiring::Ordinary),
    })?;
    let mut v = pending.wait().await?;
    v.truncate(len);
    Ok(v)
}

async fn stats(h: &Handle, m: &Matrix) -> Result<crate::common::Stats> {
    h.with(|e| e.stats(m))?.wait().await
}

/// alpha·p + beta·q (q = p when absent) into a fresh list.
fn affine(h: &Handle, p: &Matrix, q: Option<&Matrix>, alpha: f32, beta: f32) -> Result<Matrix> {
    h.with(|e| {
        let out = e.alloc(p.shape(), Layout::Scalar)?;
        match e.affine(&out, p, q, [alpha, beta, 0.0], 0.0) {
            Ok(()) => Ok(out),
            Err(err) => {
                e.recycle(out);
                Err(err)
            }
        }
    })
}

fn free(h: &Handle, m: Matrix) {
    let _ = h.with(|e| {
        e.recycle(m);
        Ok(())
    });
}

/// The statistics of `m`, which is then freed.
async fn measure(h: &Handle, m: Matrix) -> Result<crate::common::Stats> {
    let st = stats(h, &m).await;
    free(h, m);
    st
}

/// Makes `next` the iterate `x` (the old one freed) and returns Σ|next − x|
/// (infinite where the change holds NaN or ±Inf).
async fn advance(h: &Handle, x: &mut Matrix, next: Matrix) -> Result<f32> {
    let delta = affine(h, &next, Some(x), 1.0, -1.0);
    free(h, std::mem::replace(x, next));
    let st = measure(h, delta?).await?;
    Ok(if st.nan + st.inf > 0.0 {
        f32::INFINITY
    } else {
        st.sum_abs
    })
}

/// An iteration's end: the iterate `x` read back (its first `n` values) unless the
/// loop failed, then `x`, the `others` and the matrix given back to the engine.
async fn read_and_free(
    h: &Handle,
    run: Result<()>,
    (x, n): (Matrix, usize),
    others: Vec<Matrix>,
    dev: DeviceCsr,
) -> Result<Vec<f32>> {
    let data = match run {
        Ok(()) => read(h, &x, n).await,
        Err(err) => Err(err),
    };
    let _ = h.with(|e| {
        e.recycle(x);
        for m in others {
            e.recycle(m);
        }
        dev.free(e);
        Ok(())
    });
    data
}

/// y = A·x on the GPU, read back.
pub async fn multiply(h: &Handle, a: &Csr, x: &[f32]) -> Result<Vec<f32>> {
    multiply_with(h, a, x, None).await
}

/// `multiply`, on WebGPU with rows longer than `long_from` done by a workgroup each.
pub async fn multiply_with(
    h: &Handle,
    a: &Csr,
    x: &[f32],
    long_from: Option<usize>,
) -> Result<Vec<f32>> {
    Ok(multiply_timed(h, a, x, long_from, false).await?.0)
}

/// [`multiply_with`], with the pass's GPU ms when `timed` and the device grants
/// timestamps: the kernel lab times the library's SpMV as the learner's, a whole call
/// whose pass alone is on the GPU clock.
pub async fn multiply_timed(
    h: &Handle,
    a: &Csr,
    x: &[f32],
    long_from: Option<usize>,
    timed: bool,
) -> Result<(Vec<f32>, Option<f64>)> {
    a.check_vector("x", x.len())?;
    h.ready().await?;
    let (dev, xm) = h.with(|e| {
        let dev = DeviceCsr::upload_checked(e, a, long_from)?;
        dev.and_vectors(e, |dev, e| dev.vector(e, x))
    })?;
    let y = h.with(|e| dev.multiply(e, &xm, timed));
    let out = match &y {
        Ok((y, _)) => read(h, y, a.rows).await,
        Err(err) => Err(err.clone()),
    };
    let ms = match &y {
        Ok((_, Some(t))) => h.timer_ms(t).await,
        _ => None,
    };
    let _ = h.with(|e| {
        if let Ok((y, _)) = y {
            e.recycle(y);
        }
        e.recycle(xm);
        dev.free(e);
        Ok(())
    });
    Ok((out?, ms))
}

/// The smallest tolerance PageRank on the GPU takes: 2^-22, two float32 units in the
/// last place of ranks that sum to 1. The ranks are float32 (every backend), resolved
/// to about 2^-23 of their sum, and once the true change is below that, rounding
/// keeps Σ|Δx| at up to about 2^-23 for good: on one backend it may happen to dip
/// below a smaller tolerance, on another (WebGPU, a 4-node graph at 1e-7) it stays
/// at 2^-23 for every iteration. Measured after 80 iterations on graphs of 4 to 60,000
/// nodes on WebGL, WebGPU and the CPU: at most 1.04 · 2^-23.
pub const MIN_PAGERANK_TOLERANCE: f64 = 1.0 / (1u32 << 22) as f64;

/// PageRank's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageRankSettings {
    /// The chance of following a link (strictly between 0 and 1).
    pub damping: f64,
    /// Stop when Σ|Δx| ≤ tolerance (the ranks sum to 1); at least
    /// [`MIN_PAGERANK_TOLERANCE`].
    pub tolerance: f64,
    pub max_iterations: usize,
}

impl Default for PageRankSettings {
    fn default() -> Self {
        PageRankSettings {
            damping: 0.85,
            tolerance: 1e-6,
            max_iterations: 200,
        }
    }
}

impl PageRankSettings {
    /// Refuses what JavaScript's options refuse: a damping outside (0, 1), a
    /// tolerance that is not a finite number of at least [`MIN_PAGERANK_TOLERANCE`],
    /// and `max_iterations` outside 1 to [`MAX_ITERATIONS`] (0 returned the uniform
    /// start as the ranks).
    pub fn check(&self) -> Result<()> {
        sparse::check_damping(self.damping)?;
        positive(
            "tolerance",
            self.tolerance,
            "the L1 change of the ranks to stop at",
        )?;
        if self.tolerance < MIN_PAGERANK_TOLERANCE {
            return Err(GpgpuError::BadArgument {
                name: "tolerance".into(),
                detail: format!(
                    "is {}, below what float32 resolves: the ranks (summing to 1) are float32 \
                     on every backend, and rounding keeps Σ|Δx| at up to 2^-23 ≈ 1.19e-7 for \
                     good, so a smaller tolerance may never be met (or met on one backend and \
                     not another). Give at least 2^-22 ≈ 2.4e-7 ({}); for more digits use \
                     the float64 reference (csr.pagerankReference in JavaScript, \
                     plan::sparse::pagerank in Rust).",
                    crate::error::js_number(self.tolerance),
                    crate::error::js_number(MIN_PAGERANK_TOLERANCE)
                ),
            });
        }
        iterations(self.max_iterations)
    }
}

/// A positive finite number, else BadArgument saying what it is for.
fn positive(name: &str, value: f64, what: &str) -> Result<()> {
    if value > 0.0 && value.is_finite() {
        return Ok(());
    }
    Err(GpgpuError::BadArgument {
        name: name.into(),
        detail: format!(
            "is {}: a positive number ({what})",
            crate::error::js_number(value)
        ),
    })
}

/// An iteration cap from 1 to [`MAX_ITERATIONS`], as JavaScript's `maxIterations`.
fn iterations(max_iterations: usize) -> Result<()> {
    shape::count_from(
        "max_iterations",
        max_iterations as f64,
        1,
        MAX_ITERATIONS as f64,
    )
    .map(|_| ())
}

/// The power method's `tolerance` (a positive finite number: NaN never stopped) and
/// `max_iterations` (1 to [`MAX_ITERATIONS`]: 0 returned λ = 0 and no vector).
pub fn check_power(tolerance: f64, max_iterations: usize) -> Result<()> {
    positive(
        "tolerance",
        tolerance,
        "the residual relative to |λ| to stop at",
    )?;
    iterations(max_iterations)
}

/// PageRank's GPU result.
#[derive(Clone, Debug, PartialEq)]
pub struct PageRank {
    pub ranks: Vec<f32>,
    pub converged: bool,
    /// Σ|x_k − x_(k−1)| after each iteration.
    pub deltas: Vec<f32>,
}

/// PageRank of the graph whose adjacency matrix is `graph` (entry (i, j): the weight
/// of link i → j) by the power method on the GPU: x ← d·Mᵀx + (1 − Σ d·Mᵀx)/n, the
/// lost rank (teleports and dangling nodes) spread evenly. Two reduced records come
/// back per iteration (Σ of d·Mᵀx and Σ|Δx|), the ranks once at the end.
pub async fn pagerank(h: &Handle, graph: &Csr, s: PageRankSettings) -> Result<PageRank> {
    s.check()?;
    sparse::check_graph(graph)?;
    let n = graph.rows;
    let m = sparse::pagerank_matrix(graph, s.damping);
    h.ready().await?;
    let (dev, mut x, ones) = h.with(|e| {
        // M is built from the checked graph.
        let long = long_default(e);
        let dev = DeviceCsr::upload_checked(e, &m, long)?;
        let (dev, (x, ones)) = dev.and_vectors(e, |dev, e| {
            let x = dev.vector(e, &vec![1.0 / n as f32; n]);
            let ones = dev.vector(e, &vec![1.0; n]);
            both(e, x, ones)
        })?;
        Ok((dev, x, ones))
    })?;
    let mut deltas = vec![];
    let mut converged = false;
    let run = async {
        for _ in 0..s.max_iterations {
            let (y, _) = h.with(|e| dev.multiply(e, &x, false))?;
            let kept = stats(h, &y).await;
            let next = kept.and_then(|k| {
                let lost = ((1.0 - k.sum_abs as f64) / n as f64) as f32;
                affine(h, &y, Some(&ones), 1.0, lost)
            });
            free(h, y);
            let d = advance(h, &mut x, next?).await?;
            deltas.push(d);
            if (d as f64) <= s.tolerance {
                converged = true;
                break;
            }
            if !d.is_finite() {
                break;
            }
        }
        Ok::<(), GpgpuError>(())
    }
    .await;
    let ranks = read_and_free(h, run, (x, n), vec![ones], dev).await;
    Ok(PageRank {
        ranks: ranks?,
        converged,
        deltas,
    })
}

/// Jacobi's iteration for A x = b with a sparse A: x ← T·x + c, T = −D⁻¹O kept in
/// CSR (one SpMV and one affine pass per iteration), the same stopping rule and
/// report as the dense [`crate::apps::jacobi::jacobi`].
pub async fn jacobi(h: &Handle, a: &Csr, b: &[f32], settings: JacobiSettings) -> Result<Jacobi> {
    settings.check()?;
    let (t, c) = sparse::jacobi_parts(a, b)?;
    let n = a.rows;
    h.ready().await?;
    let (dev, cm, mut x) = h.with(|e| {
        // T is built from the checked A (jacobi_parts).
        let long = long_default(e);
        let dev = DeviceCsr::upload_checked(e, &t, long)?;
        let (dev, (cm, x)) = dev.and_vectors(e, |dev, e| {
            let cm = dev.vector(e, &c);
            let x = dev.vector(e, &vec![0.0; n]);
            both(e, cm, x)
        })?;
        Ok((dev, cm, x))
    })?;
    let mut r = Jacobi::start();
    let run = async {
        for iteration in 1..=settings.max_iterations {
            let (tx, _) = h.with(|e| dev.multiply(e, &x, false))?;
            let next = affine(h, &tx, Some(&cm), 1.0, 1.0);
            free(h, tx);
            let sum = advance(h, &mut x, next?).await?;
            let norm = stats(h, &x).await?.sum_abs;
            let done = r.record(sum, norm, settings.epsilon);
            if settings.record_every.is_some_and(|m| iteration % m == 0) {
                r.history.push((iteration, read(h, &x, n).await?));
            }
            if done {
                break;
            }
        }
        Ok::<(), GpgpuError>(())
    }
    .await;
    let x_data = read_and_free(h, run, (x, n), vec![cm], dev).await;
    Ok(Jacobi { x: x_data?, ..r })
}

/// The power method on a sparse square A: x ← A·x / ‖A·x‖ from a seeded start, λ =
/// xᵀAx by the polarisation identity (‖Ax + x‖² − ‖Ax − x‖²)/4 and the residual
/// ‖Ax − λx‖ from three reduced records per iteration; stops when the residual is
/// within `tolerance`·|λ|. Returns the dense method's [`EigenPair`], its residuals
/// relative to |λ|.
pub async fn power(
    h: &Handle,
    a: &Csr,
    tolerance: f64,
    max_iterations: usize,
) -> Result<EigenPair> {
    check_power(tolerance, max_iterations)?;
    a.check_square("the power method")?;
    if let Some(k) = a.values.iter().position(|v| !v.is_finite()) {
        return Err(GpgpuError::BadArgument {
            name: "csr".into(),
            detail: format!(
                "values[{k}] is {}: the power method needs finite entries",
                crate::error::js_number(a.values[k] as f64)
            ),
        });
    }
    let n = a.rows;
    let start = random::uniform(1, n, 0.5, 1.5);
    let scale = (start.iter().map(|&v| (v as f64).powi(2)).sum::<f64>()).sqrt();
    let start: Vec<f32> = start.iter().map(|&v| (v as f64 / scale) as f32).collect();
    h.ready().await?;
    let (dev, mut x) = h.with(|e| {
        let long = long_default(e);
        let dev = DeviceCsr::upload_checked(e, a, long)?;
        dev.and_vectors(e, |dev, e| dev.vector(e, &start))
    })?;
    let (mut history, mut residuals) = (vec![], vec![]);
    let mut converged = false;
    let mut value = 0.0;
    let run = async {
        for _ in 0..max_iterations {
            let (y, _) = h.with(|e| dev.multiply(e, &x, false))?;
            let norms = async {
                let p = measure(h, affine(h, &y, Some(&x), 1.0, 1.0)?).await?;
                let m = measure(h, affine(h, &y, Some(&x), 1.0, -1.0)?).await?;
                let lambda = (p.sum_sq as f64 - m.sum_sq as f64) / 4.0;
                let rs = measure(h, affine(h, &y, Some(&x), 1.0, -(lambda as f32))?).await;
                let ys = stats(h, &y).await?;
                Ok::<_, GpgpuError>((
                    lambda,
                    (rs?.sum_sq as f64).sqrt(),
                    (ys.sum_sq as f64).sqrt(),
                ))
            }
            .await;
            let (lambda, residual, norm) = match norms {
                Ok(v) => v,
                Err(err) => {
                    free(h, y);
                    return Err(err);
                }
            };
            value = lambda;
            history.push(lambda);
            let relative = residual / lambda.abs().max(f64::MIN_POSITIVE);
            residuals.push(relative);
            if !(norm > 0.0 && norm.is_finite()) {
                free(h, y);
                break;
            }
            let next = affine(h, &y, None, (1.0 / norm) as f32, 0.0);
            free(h, y);
            free(h, std::mem::replace(&mut x, next?));
            if relative <= tolerance {
                converged = true;
                break;
            }
        }
        Ok::<(), GpgpuError>(())
    }
    .await;
    let vector = read_and_free(h, run, (x, n), vec![], dev).await;
    Ok(EigenPair {
        value,
        vector: vector?,
        converged,
        history,
        residuals,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_javascript_refuses_are_refused_from_rust_too() {
        let ok = PageRankSettings::default();
        assert!(ok.check().is_ok());
        for max_iterations in [0, MAX_ITERATIONS + 1] {
            let e = PageRankSettings {
                max_iterations,
                ..ok
            }
            .check()
            .unwrap_err();
            assert_eq!(e.code(), "BAD_COUNT", "{e}");
            assert!(e.to_string().starts_with("max_iterations = "), "{e}");
        }
        let e = PageRankSettings {
            tolerance: f64::NAN,
            ..ok
        };
        assert!(e
            .check()
            .unwrap_err()
            .to_string()
            .starts_with("tolerance: is NaN"));
        assert!(check_power(1e-5, 500).is_ok());
        for tolerance in [f64::NAN, 0.0, -1.0, f64::INFINITY] {
            let e = check_power(tolerance, 500).unwrap_err();
            assert_eq!(e.code(), "BAD_ARGUMENT", "{tolerance}");
        }
        assert_eq!(check_power(1e-5, 0).unwrap_err().code(), "BAD_COUNT");
    }

    /// A CPU engine with no workers: natively, its passes run on this thread.
    fn cpu() -> Engine {
        Engine::Cpu(crate::cpu::CpuEngine::new(Some(0)).unwrap())
    }

    #[test]
    fn a_device_csr_takes_only_vectors_of_its_own_sizes() {
        // 3x3 with a nonzero in the last column: A·x reads x[2].
        let csr = Csr::from_dense(3, 3, &[1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 3.0]).unwrap();
        let mut e = cpu();
        let dev = DeviceCsr::upload(&mut e, &csr).unwrap();
        // x of 2 numbers for 3 columns: its list was 2 long on the CPU, and the pass
        // panicked reading x[2] ("index out of bounds") when the queue ran.
        let e2 = dev.vector(&mut e, &[1.0, 1.0]).map(|_| ()).unwrap_err();
        assert_eq!(e2.code(), "BAD_ARGUMENT", "{e2}");
        assert!(e2.to_string().contains("3 columns"), "{e2}");
        // A list made otherwise, of another length: refused by multiply too.
        let short = e
            .upload(shape::Shape::new(1, 2), Layout::Scalar, &[1.0, 1.0], 0.0)
            .unwrap();
        let r = dev.multiply(&mut e, &short, false).map(|_| ());
        assert_eq!(r.unwrap_err().code(), "BAD_ARGUMENT");
        let x = dev.vector(&mut e, &[1.0, 1.0, 1.0]).unwrap();
        let r = dev.multiply_into(&mut e, &x, &short, false).map(|_| ());
        assert_eq!(r.unwrap_err().code(), "BAD_ARGUMENT");
        let (y, _) = dev.multiply(&mut e, &x, false).unwrap();
        let got = e.download(&y, "read", "readAsync").unwrap();
        assert_eq!(got[..3], [1.0, 2.0, 3.0]);
        for m in [short, x, y] {
            e.recycle(m);
        }
        dev.free(&mut e);
    }
}
