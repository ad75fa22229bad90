//! Sparse matrices as the chapter stores them: compressed sparse row (values, column
//! indices, row offsets) and the known tridiagonal pattern; float64 references of
//! sparse matrix × vector, PageRank, Jacobi and the power method; and the flat
//! "lists" the GPU kernels read them from. Pure Rust: tested natively.
//!
//! On the GPU every array (values, columns, offsets, vectors) is a list: `width`
//! floats per row of a 2D texture (WebGL) or buffer (WebGPU), zero past its end.
//! WebGL textures hold indices as float values (exact below 2^24); WebGPU buffers
//! hold them as the u32's bits (see [`encode_index`]), so only the buffer size
//! limits them there.

use crate::error::{js_number, GpgpuError, Result};
use crate::shape::{Shape, SideBound};

/// Largest index (row, column, offset) a WebGL texture holds exactly as a float.
pub const F32_EXACT: usize = 1 << 24;

/// A rows×cols matrix in compressed sparse row form: row i's nonzeros are
/// `values[row_offsets[i]..row_offsets[i + 1]]` in columns `columns[..]` (same range).
#[derive(Clone, Debug, PartialEq)]
pub struct Csr {
    pub rows: usize,
    pub cols: usize,
    pub values: Vec<f32>,
    pub columns: Vec<u32>,
    pub row_offsets: Vec<u32>,
}

fn bad(name: &str, detail: String) -> GpgpuError {
    GpgpuError::BadArgument {
        name: name.into(),
        detail,
    }
}

/// BAD_LENGTH: the list `name` has `actual` entries where `why` says it needs `expected`.
fn bad_length(name: &str, expected: usize, actual: usize, why: String) -> GpgpuError {
    GpgpuError::BadListLength {
        name: name.into(),
        expected: expected as u64,
        actual,
        why,
    }
}

/// The most rows or columns a Csr takes: its row offsets (4 bytes a row) and the
/// vectors of A·x (4 bytes an entry) live in WebAssembly's 4 GiB memory, and 2^27 is
/// what the bench matrices hold too. Past 2^29 rows the offsets alone could not be
/// allocated (Csr.fromTriplets(2 ** 31, 2, [], [], []) ended in "capacity overflow").
pub const MAX_SIDE: usize = 1 << 27;

/// A Csr's rows or columns (`name`): a dimension from 1 to [`MAX_SIDE`].
pub fn side(name: &str, value: f64) -> Result<usize> {
    if value.is_finite() && value > MAX_SIDE as f64 {
        return Err(SideBound {
            limit: MAX_SIDE,
            named: "what a Csr takes (2^27: its row offsets and vectors live in \
                    WebAssembly's 4 GiB memory)",
            hint: "Use a smaller matrix, or split it into blocks of rows.",
        }
        .refuse(name, value));
    }
    crate::shape::dimension(name, value, MAX_SIDE)
}

/// Refuses a dense form (`to_dense`: float64, 8 bytes an entry, then float32 in
/// JavaScript) that one WebAssembly array cannot hold (under 2 GiB: fewer than 2^28
/// entries).
pub fn check_dense(rows: usize, cols: usize) -> Result<()> {
    let bytes = rows as f64 * cols as f64 * 8.0;
    if bytes > crate::shape::MAX_ARRAY_BYTES {
        return Err(GpgpuError::DeviceLimit {
            what: format!("toDense: a {rows}x{cols} Csr"),
            needed: bytes,
            unit: "bytes of WebAssembly memory",
            limit_name: "the largest array WebAssembly allocates",
            limit: crate::shape::MAX_ARRAY_BYTES,
            hint: "The dense form is built in float64 (8 bytes an entry): fewer than \
                   2^28 entries. Read a large sparse matrix through values, columns and \
                   rowOffsets instead.",
        });
    }
    Ok(())
}

impl Csr {
    /// A CSR from its three arrays, checked: `rows` and `cols` from 1 to [`MAX_SIDE`]
    /// (as [`side`] takes them); `row_offsets` has rows + 1 entries from 0 to nnz,
    /// never decreasing; `values` and `columns` have nnz entries each; every column is
    /// below `cols`.
    pub fn new(
        rows: usize,
        cols: usize,
        values: Vec<f32>,
        columns: Vec<u32>,
        row_offsets: Vec<u32>,
    ) -> Result<Csr> {
        let csr = Csr {
            rows,
            cols,
            values,
            columns,
            row_offsets,
        };
        csr.check()?;
        Ok(csr)
    }

    /// Checks what [`Csr::new`] checks, for a Csr whose public fields were set or
    /// changed by hand: every call that reads a Csr (the sparse products, PageRank,
    /// Jacobi, the power method) checks it first, as a column past `cols` or offsets
    /// past the values read outside the lists (on the GPU, whatever lay there: a
    /// wrong y with no error).
    pub fn check(&self) -> Result<()> {
        let Csr {
            rows,
            cols,
            values,
            columns,
            row_offsets,
        } = self;
        let (rows, cols) = (*rows, *cols);
        // As JavaScript's constructors check them: 0 columns made the message for a
        // column index panic (cols - 1), usize::MAX rows the check of the offsets (rows + 1).
        side("rows", rows as f64)?;
        side("cols", cols as f64)?;
        if row_offsets.len() != rows + 1 {
            return Err(bad_length(
                "rowOffsets",
                rows + 1,
                row_offsets.len(),
                format!(
                    "a matrix of {rows} rows has rows + 1 offsets (where each row starts, \
                     then the end)"
                ),
            ));
        }
        if values.len() != columns.len() {
            return Err(bad_length(
                "columns",
                values.len(),
                columns.len(),
                format!(
                    "one column index per stored value, as values has {}",
                    values.len()
                ),
            ));
        }
        if row_offsets[0] != 0 {
            return Err(bad(
                "rowOffsets",
                format!(
                    "starts at {}, not 0: row 0 starts at the first value",
                    row_offsets[0]
                ),
            ));
        }
        if let Some(i) = (0..rows).find(|&i| row_offsets[i + 1] < row_offsets[i]) {
            return Err(bad(
                "rowOffsets",
                format!(
                    "is not monotone: rowOffsets[{}] = {} is less than rowOffsets[{i}] = {} \
                     (offsets never decrease: a row cannot end before it starts)",
                    i + 1,
                    row_offsets[i + 1],
                    row_offsets[i]
                ),
            ));
        }
        if row_offsets[rows] as usize != values.len() {
            return Err(bad(
                "rowOffsets",
                format!(
                    "ends at {}, but there are {} values: the last offset is the count of \
                     stored values",
                    row_offsets[rows],
                    values.len()
                ),
            ));
        }
        if let Some(k) = columns.iter().position(|&c| c as usize >= cols) {
            return Err(bad(
                "columns",
                format!(
                    "columns[{k}] = {} is out of range: the matrix has {cols} columns (0 to {})",
                    columns[k],
                    cols - 1
                ),
            ));
        }
        Ok(())
    }

    /// The nonzeros of a row-major rows×cols array, row by row (NaN counts as nonzero).
    pub fn from_dense(rows: usize, cols: usize, data: &[f32]) -> Result<Csr> {
        crate::shape::check_len("data", Shape::new(rows, cols), data.len())?;
        let (mut values, mut columns, mut offsets) = (vec![], vec![], vec![0u32]);
        for row in data.chunks_exact(cols.max(1)).take(rows) {
            for (j, &v) in row.iter().enumerate() {
                if v != 0.0 {
                    values.push(v);
                    columns.push(j as u32);
                }
            }
            offsets.push(values.len() as u32);
        }
        Csr::new(rows, cols, values, columns, offsets)
    }

    /// A CSR from (row, column, value) triplets in any order; duplicates add up
    /// (as a graph's parallel edges do). Indices come as JavaScript numbers.
    pub fn from_triplets(
        rows: usize,
        cols: usize,
        row_index: &[f64],
        col_index: &[f64],
        values: &[f32],
    ) -> Result<Csr> {
        // Before `limit - 1` and `rows + 1` below (0 rows panicked, a huge count too).
        side("rows", rows as f64)?;
        side("cols", cols as f64)?;
        for (name, len) in [("columnIndices", col_index.len()), ("values", values.len())] {
            if len != row_index.len() {
                return Err(bad_length(
                    name,
                    row_index.len(),
                    len,
                    format!("one per triplet, as rowIndices has {}", row_index.len()),
                ));
            }
        }
        // A loop, not a collect into Result: that adapter cost the wasm about 1 KB.
        let index = |name: &str, list: &[f64], limit: usize, what: &str| -> Result<Vec<u32>> {
            let mut out = Vec::with_capacity(list.len());
            for (k, &v) in list.iter().enumerate() {
                if !(v.fract() == 0.0 && v >= 0.0 && v < limit as f64) {
                    return Err(bad(
                        name,
                        format!(
                            "{name}[{k}] = {} is out of range: the matrix has {limit} {what} \
                             (whole numbers 0 to {})",
                            js_number(v),
                            limit - 1
                        ),
                    ));
                }
                out.push(v as u32);
            }
            Ok(out)
        };
        let r = index("rowIndices", row_index, rows, "rows")?;
        let c = index("columnIndices", col_index, cols, "columns")?;
        let order = crate::shape::cell_order(
            (0..r.len())
                .map(|k| (r[k] as usize, c[k] as usize, k))
                .collect(),
        );
        let (mut vals, mut columns, mut offsets) =
            (Vec::<f32>::new(), vec![], vec![0u32; rows + 1]);
        let mut last = None;
        for k in order {
            if last == Some((r[k], c[k])) {
                *vals.last_mut().expect("a previous triplet") += values[k];
                continue;
            }
            last = Some((r[k], c[k]));
            vals.push(values[k]);
            columns.push(c[k]);
            offsets[r[k] as usize + 1] += 1;
        }
        for i in 0..rows {
            offsets[i + 1] += offsets[i];
        }
        Csr::new(rows, cols, vals, columns, offsets)
    }

    pub fn nnz(&self) -> usize {
        self.values.len()
    }

    /// The row-major dense array (float64). Past the largest array WebAssembly
    /// allocates ([`check_dense`]) it is SIZE_OVER_LIMIT, and OUT_OF_MEMORY where memory
    /// cannot give it: it was a capacity-overflow panic or an aborting allocation.
    pub fn to_dense(&self) -> Result<Vec<f64>> {
        check_dense(self.rows, self.cols)?;
        let mut d = crate::error::filled(self.rows * self.cols, 0.0, || {
            format!("the dense form of a {}x{} Csr", self.rows, self.cols)
        })?;
        for i in 0..self.rows {
            for k in self.range(i) {
                d[i * self.cols + self.columns[k] as usize] += self.values[k] as f64;
            }
        }
        Ok(d)
    }

    fn range(&self, i: usize) -> std::ops::Range<usize> {
        self.row_offsets[i] as usize..self.row_offsets[i + 1] as usize
    }

    /// y = A·x in float64.
    pub fn spmv(&self, x: &[f64]) -> Vec<f64> {
        (0..self.rows)
            .map(|i| {
                self.range(i)
                    .map(|k| self.values[k] as f64 * x[self.columns[k] as usize])
                    .sum()
            })
            .collect()
    }

    /// The longest row's nonzeros.
    pub fn max_row(&self) -> usize {
        (0..self.rows)
            .map(|i| self.range(i).len())
            .max()
            .unwrap_or(0)
    }

    /// The rows with more than `threshold` entries, in order (the long-row pass's list).
    pub fn long_rows(&self, threshold: usize) -> Vec<u32> {
        (0..self.rows)
            .filter(|&i| self.range(i).len() > threshold)
            .map(|i| i as u32)
            .collect()
    }

    /// A vector for A·x must have `cols` entries (and the Csr must pass [`Csr::check`]).
    pub fn check_vector(&self, name: &str, len: usize) -> Result<()> {
        self.check()?;
        if len != self.cols {
            return Err(bad_length(
                name,
                self.cols,
                len,
                format!(
                    "A·x needs one entry per column of the {}×{} matrix",
                    self.rows, self.cols
                ),
            ));
        }
        Ok(())
    }

    /// A square matrix (Jacobi, the power method and PageRank iterate x ← A·x) that
    /// passes [`Csr::check`].
    pub fn check_square(&self, what: &str) -> Result<()> {
        self.check()?;
        if self.rows != self.cols {
            return Err(bad(
                "csr",
                format!(
                    "is {}×{}, not square: {what} needs a square matrix",
                    self.rows, self.cols
                ),
            ));
        }
        Ok(())
    }

    /// Its indices must be exact in a float texture (WebGL) and its lists must fit.
    pub fn check_f32_indices(&self) -> Result<()> {
        let largest = self.nnz().max(self.rows).max(self.cols);
        if largest >= F32_EXACT {
            return Err(bad(
                "csr",
                format!(
                    "has {largest} entries or rows: WebGL stores indices as floats, exact below \
                     2^24 = {F32_EXACT}; use the WebGPU backend (u32 indices) for this one"
                ),
            ));
        }
        Ok(())
    }
}

/// A tridiagonal n×n matrix by its three diagonals (the chapter's known pattern):
/// `lower[i]` is entry (i + 1, i), `upper[i]` entry (i, i + 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Tridiagonal {
    pub lower: Vec<f32>,
    pub diagonal: Vec<f32>,
    pub upper: Vec<f32>,
}

impl Tridiagonal {
    /// A tridiagonal matrix from its diagonals, checked: `diagonal` has n >= 1
    /// entries, `lower` and `upper` n − 1 each.
    pub fn new(lower: Vec<f32>, diagonal: Vec<f32>, upper: Vec<f32>) -> Result<Tridiagonal> {
        let t = Tridiagonal {
            lower,
            diagonal,
            upper,
        };
        t.check()?;
        Ok(t)
    }

    /// Checks what [`Tridiagonal::new`] checks, for a Tridiagonal whose public fields
    /// were set or changed by hand: [`Tridiagonal::to_csr`], its one use, checks it
    /// first, as sides of other lengths read past `lower` or `upper` (a panic).
    pub fn check(&self) -> Result<()> {
        let n = self.n();
        if n == 0 {
            return Err(bad("diagonal", "is empty: a matrix needs n >= 1".into()));
        }
        for (name, d) in [("lower", &self.lower), ("upper", &self.upper)] {
            if d.len() != n - 1 {
                return Err(bad_length(
                    name,
                    n - 1,
                    d.len(),
                    format!(
                        "a tridiagonal matrix of order {n} (the diagonal's length) has n − 1 \
                         entries off the diagonal on each side"
                    ),
                ));
            }
        }
        Ok(())
    }

    pub fn n(&self) -> usize {
        self.diagonal.len()
    }

    /// The same matrix in CSR (3n − 2 stored entries, zeros on the diagonals kept:
    /// the pattern is known, not the values); a Tridiagonal that fails
    /// [`Tridiagonal::check`] is its error.
    pub fn to_csr(&self) -> Result<Csr> {
        self.check()?;
        let n = self.n();
        // Exact capacities: grown by doubling, the arrays of n = 2^26 (1.9 GB in all)
        // passed through 2 + 2 GiB of capacity and ran WebAssembly out of memory.
        let nnz = (3 * n).saturating_sub(2);
        let mut values = Vec::with_capacity(nnz);
        let mut columns = Vec::with_capacity(nnz);
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        for i in 0..n {
            if i > 0 {
                values.push(self.lower[i - 1]);
                columns.push(i as u32 - 1);
            }
            values.push(self.diagonal[i]);
            columns.push(i as u32);
            if i + 1 < n {
                values.push(self.upper[i]);
                columns.push(i as u32 + 1);
            }
            offsets.push(values.len() as u32);
        }
        Ok(Csr {
            rows: n,
            cols: n,
            values,
            columns,
            row_offsets: offsets,
        })
    }
}

/// A bench matrix: `per_row` nonzeros in every row at seeded random columns
/// (repeats allowed: they add up), values in [0.5, 1.5).
pub fn random_uniform(rows: usize, cols: usize, per_row: usize, seed: u32) -> Csr {
    let mut rng = crate::random::Mulberry32::new(seed);
    let nnz = rows * per_row;
    let columns = (0..nnz)
        .map(|_| (rng.next_f64() * cols as f64) as u32)
        .collect();
    let values = (0..nnz).map(|_| (0.5 + rng.next_f64()) as f32).collect();
    let row_offsets = (0..=rows).map(|i| (i * per_row) as u32).collect();
    Csr {
        rows,
        cols,
        values,
        columns,
        row_offsets,
    }
}

/// A skewed bench matrix: about `nnz` nonzeros with row i holding a share ∝ 1/(i + 1)
/// (Zipf, as a graph's few hubs), at least one per row, seeded random columns; its
/// first row is the longest.
pub fn random_skewed(rows: usize, nnz: usize, seed: u32) -> Csr {
    let harmonic: f64 = (1..=rows).map(|i| 1.0 / i as f64).sum();
    let spare = nnz.saturating_sub(rows) as f64;
    let mut row_offsets = vec![0u32];
    for i in 0..rows {
        let len = 1 + (spare / (harmonic * (i + 1) as f64)) as usize;
        row_offsets.push(row_offsets[i] + len as u32);
    }
    let total = row_offsets[rows] as usize;
    let mut rng = crate::random::Mulberry32::new(seed);
    let columns = (0..total)
        .map(|_| (rng.next_f64() * rows as f64) as u32)
        .collect();
    let values = (0..total).map(|_| (0.5 + rng.next_f64()) as f32).collect();
    Csr {
        rows,
        cols: rows,
        values,
        columns,
        row_offsets,
    }
}

/// Bytes one SpMV moves at least, by the usual count: each nonzero's value, column
/// and x entry (4 bytes each), each row's offset and y entry.
pub fn spmv_bytes(rows: usize, nnz: usize) -> f64 {
    12.0 * nnz as f64 + 8.0 * rows as f64 + 4.0
}

/// Which of a CSR listing's arrays disagree with the CSR derived from its matrix.
pub fn compare_listing(
    derived: &Csr,
    values: &[f32],
    columns: &[u32],
    row_offsets: &[u32],
) -> Vec<&'static str> {
    let mut wrong = vec![];
    if derived.values != values {
        wrong.push("values");
    }
    if derived.columns != columns {
        wrong.push("columns");
    }
    if derived.row_offsets != row_offsets {
        wrong.push("rowOffsets");
    }
    wrong
}

/// A damping factor must lie strictly between 0 and 1.
pub fn check_damping(damping: f64) -> Result<()> {
    if !(damping > 0.0 && damping < 1.0) {
        return Err(bad(
            "damping",
            format!(
                "is {}: PageRank's damping is the chance of following a link, strictly between \
                 0 and 1 (0.85 is usual)",
                js_number(damping)
            ),
        ));
    }
    Ok(())
}

/// A graph's edge weights must be finite and not negative (they become
/// probabilities of following each link).
pub fn check_graph(csr: &Csr) -> Result<()> {
    csr.check_square("PageRank (a graph's adjacency matrix)")?;
    if let Some(k) = csr
        .values
        .iter()
        .position(|v| !(v.is_finite() && *v >= 0.0))
    {
        let row = csr.row_offsets.partition_point(|&o| o as usize <= k) - 1;
        return Err(bad(
            "csr",
            format!(
                "values[{k}] (edge {row} → {}) is {}: PageRank needs finite, non-negative edge \
                 weights",
                csr.columns[k],
                js_number(csr.values[k] as f64)
            ),
        ));
    }
    Ok(())
}

/// PageRank's iteration matrix d·Mᵀ, where M is the adjacency matrix with each row
/// divided by its weight (row i → column j = chance of following i → j). Applied to
/// ranks x it gives what the links pass on; what it loses (teleports and dangling
/// nodes, rows with no weight) is 1 − Σ, spread evenly by the caller.
pub fn pagerank_matrix(graph: &Csr, damping: f64) -> Csr {
    let (row_offsets, columns, values) = transition(graph, damping);
    Csr {
        rows: graph.rows,
        cols: graph.rows,
        values: values.iter().map(|&v| v as f32).collect(),
        columns,
        row_offsets,
    }
}

/// d·Mᵀ's arrays, its values in float64 (the reference keeps them so).
fn transition(graph: &Csr, damping: f64) -> (Vec<u32>, Vec<u32>, Vec<f64>) {
    let n = graph.rows;
    let out: Vec<f64> = (0..n)
        .map(|i| graph.range(i).map(|k| graph.values[k] as f64).sum())
        .collect();
    let mut counts = vec![0u32; n + 1];
    for &c in &graph.columns {
        counts[c as usize + 1] += 1;
    }
    for i in 0..n {
        counts[i + 1] += counts[i];
    }
    let mut next = counts.clone();
    let mut values = vec![0f64; graph.nnz()];
    let mut columns = vec![0u32; graph.nnz()];
    for (i, weight) in out.iter().enumerate() {
        for k in graph.range(i) {
            let j = graph.columns[k] as usize;
            let slot = next[j] as usize;
            next[j] += 1;
            // A row of stored zeros has no weight: dangling, it passes nothing on.
            if *weight > 0.0 {
                values[slot] = damping * graph.values[k] as f64 / weight;
            }
            columns[slot] = i as u32;
        }
    }
    (counts, columns, values)
}

/// PageRank's float64 reference.
#[derive(Clone, Debug, PartialEq)]
pub struct PageRank {
    pub ranks: Vec<f64>,
    /// Σ|x_k − x_(k−1)| after each iteration.
    pub deltas: Vec<f64>,
    pub converged: bool,
}

/// PageRank by the power method in float64: x ← d·Mᵀx + (1 − Σ d·Mᵀx)/n, from
/// x = 1/n, until Σ|Δx| ≤ tolerance. Dangling nodes spread their rank evenly.
pub fn pagerank(graph: &Csr, damping: f64, tolerance: f64, max_iterations: usize) -> PageRank {
    let n = graph.rows;
    let (offsets, columns, values) = transition(graph, damping);
    let mut x = vec![1.0 / n as f64; n];
    let mut deltas = vec![];
    for _ in 0..max_iterations {
        let mut y: Vec<f64> = (0..n)
            .map(|j| {
                (offsets[j] as usize..offsets[j + 1] as usize)
                    .map(|k| values[k] * x[columns[k] as usize])
                    .sum()
            })
            .collect();
        let lost = (1.0 - y.iter().sum::<f64>()) / n as f64;
        y.iter_mut().for_each(|v| *v += lost);
        let delta = y.iter().zip(&x).map(|(a, b)| (a - b).abs()).sum::<f64>();
        deltas.push(delta);
        x = y;
        if delta <= tolerance {
            return PageRank {
                ranks: x,
                deltas,
                converged: true,
            };
        }
    }
    PageRank {
        ranks: x,
        deltas,
        converged: false,
    }
}

/// Jacobi's iteration x ← T·x + c for A x = b: T = −D⁻¹O (A's off-diagonal part over
/// its diagonal), stored sparse as A is, and c = D⁻¹b.
pub fn jacobi_parts(a: &Csr, b: &[f32]) -> Result<(Csr, Vec<f32>)> {
    a.check_square("Jacobi")?;
    if b.len() != a.rows {
        // A list, worded as spmv's x is (BadLength's "a 37x1 matrix … row-major" read
        // as if b were a matrix).
        return Err(bad_length(
            "b",
            a.rows,
            b.len(),
            format!(
                "A x = b needs one entry per row of the {}×{} matrix",
                a.rows, a.cols
            ),
        ));
    }
    let diagonal: Vec<f64> = (0..a.rows)
        .map(|i| {
            a.range(i)
                .filter(|&k| a.columns[k] as usize == i)
                .map(|k| a.values[k] as f64)
                .sum()
        })
        .collect();
    if let Some(i) = diagonal.iter().position(|&d| d == 0.0) {
        return Err(bad(
            "a",
            format!("a[{i}][{i}] is 0 (or not stored): Jacobi divides by the diagonal"),
        ));
    }
    let (mut values, mut columns, mut offsets) = (vec![], vec![], vec![0u32]);
    for (i, &d) in diagonal.iter().enumerate() {
        for k in a.range(i) {
            let j = a.columns[k];
            if j as usize != i {
                values.push((-(a.values[k] as f64) / d) as f32);
                columns.push(j);
            }
        }
        offsets.push(values.len() as u32);
    }
    let c = b
        .iter()
        .zip(&diagonal)
        .map(|(&bi, &d)| (bi as f64 / d) as f32)
        .collect();
    let t = Csr::new(a.rows, a.cols, values, columns, offsets)?;
    Ok((t, c))
}

/// The shape of a list of `len` floats, `width` per row (at least one row, and at
/// least one float per row: a width of 0 is taken as 1, where it divided by zero).
pub fn list_shape(len: usize, width: usize) -> Shape {
    let width = width.max(1);
    Shape::new(len.div_ceil(width).max(1), width)
}

/// A list's width as `pack` and `pack_indices` take it: 0 is BAD_ARGUMENT (a Rust
/// caller can pass it; the library passes the device's list width).
fn list_width(width: usize) -> Result<usize> {
    if width == 0 {
        return Err(bad(
            "width",
            "is 0: a list holds at least one float per row (the library uses the device's \
             list width, at most its largest texture side)"
                .into(),
        ));
    }
    Ok(width)
}

/// `data` as a list `width` wide, zero past its end; OUT_OF_MEMORY where WebAssembly
/// memory cannot give the copy (`list_room`).
pub fn pack(data: &[f32], width: usize) -> Result<(Shape, Vec<f32>)> {
    let shape = list_shape(data.len(), list_width(width)?);
    let mut out = list_room("values", shape)?;
    out.extend_from_slice(data);
    out.resize(shape.len(), 0.0);
    Ok((shape, out))
}

/// An index as a GPU list stores it: its value (WebGL float textures, exact below
/// 2^24) or its u32's bits (WebGPU buffers, read back with `bitcast<u32>`).
pub fn encode_index(i: u32, as_bits: bool) -> f32 {
    if as_bits {
        f32::from_bits(i)
    } else {
        i as f32
    }
}

/// A list of indices, packed `width` wide (one copy: it used to be encoded into one
/// and then packed into another, twice the bytes at once).
pub fn pack_indices(data: &[u32], width: usize, as_bits: bool) -> Result<(Shape, Vec<f32>)> {
    let shape = list_shape(data.len(), list_width(width)?);
    let mut out = list_room("indices", shape)?;
    out.extend(data.iter().map(|&i| encode_index(i, as_bits)));
    out.resize(shape.len(), 0.0);
    Ok((shape, out))
}

/// Room for a packed list of `shape` (`crate::error::room`: spmvAsync of a
/// tridiagonal of n = 2^26 aborted here, beside the 2.7 GB that matrix and its Csr
/// held).
fn list_room(what: &str, shape: Shape) -> Result<Vec<f32>> {
    let len = shape.rows.saturating_mul(shape.cols);
    crate::error::room(len, || {
        format!("a sparse matrix's {what}, copied for the GPU")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Csr built or changed through its public fields is checked where it is used:
    /// unchecked, a column past `cols` read whatever lay past x (a wrong y, no
    /// error), and offsets past the values made jacobi_parts panic.
    #[test]
    fn a_hand_built_csr_is_checked_where_it_is_used() {
        let column_out = Csr {
            rows: 2,
            cols: 2,
            values: vec![1.0, 2.0],
            columns: vec![0, 7],
            row_offsets: vec![0, 1, 2],
        };
        let offsets_past = Csr {
            rows: 2,
            cols: 2,
            values: vec![1.0],
            columns: vec![0],
            row_offsets: vec![0, 1, 9],
        };
        let short_offsets = Csr {
            row_offsets: vec![0, 1],
            ..column_out.clone()
        };
        for (csr, name, says) in [
            (&column_out, "columns", "columns[1] = 7 is out of range"),
            (
                &offsets_past,
                "rowOffsets",
                "ends at 9, but there are 1 values",
            ),
            (&short_offsets, "rowOffsets", "has 2 entries but needs 3"),
        ] {
            let errors = [
                csr.check(),
                csr.check_vector("x", 2),
                csr.check_square("Jacobi"),
                jacobi_parts(csr, &[1.0, 1.0]).map(|_| ()),
                check_graph(csr),
            ];
            // A list of the wrong length is BAD_LENGTH, as everywhere in the library.
            let code = match csr.row_offsets.len() {
                2 => "BAD_LENGTH",
                _ => "BAD_ARGUMENT",
            };
            for err in errors {
                let err = err.expect_err("a malformed Csr");
                assert_eq!(err.code(), code, "{err}");
                assert!(err.to_string().starts_with(name), "{err}");
                assert!(err.to_string().contains(says), "{err}");
            }
        }
        let good = Csr::new(2, 2, vec![1.0, 2.0], vec![0, 1], vec![0, 1, 2]).unwrap();
        assert!(good.check().is_ok() && good.check_vector("x", 2).is_ok());
    }
    use crate::random::Mulberry32;

    struct Rng(Mulberry32);
    impl Rng {
        fn new(seed: u32) -> Rng {
            Rng(Mulberry32::new(seed))
        }
        fn below(&mut self, n: u64) -> u64 {
            (self.0.next_f64() * n as f64) as u64
        }
    }

    #[test]
    fn a_packed_list_memory_cannot_give_is_out_of_memory_not_an_abort() {
        let err = list_room("indices", Shape::new(usize::MAX / 8, 4)).unwrap_err();
        assert_eq!(err.code(), "OUT_OF_MEMORY");
        let msg = err.to_string();
        assert!(msg.starts_with("WebAssembly ran out of memory"), "{msg}");
        assert!(msg.contains("indices") && msg.contains("free()"), "{msg}");
        // Packing itself: one copy, zero past the end, indices by value or by bits.
        let (shape, v) = pack_indices(&[1, 2, 3], 2, false).unwrap();
        assert_eq!((shape, v), (Shape::new(2, 2), vec![1.0, 2.0, 3.0, 0.0]));
        let (_, v) = pack_indices(&[7], 1, true).unwrap();
        assert_eq!(v[0].to_bits(), 7);
    }

    #[test]
    fn sizes_past_what_memory_holds_are_size_over_limit_naming_a_csr() {
        // 2^31 rows once reached vec![0u32; rows + 1] and panicked ("capacity
        // overflow"); 2^32 was refused with the GPU's "info().maxDimension" message.
        for rows in [(1u64 << 27) as f64 + 1.0, 2f64.powi(31), 2f64.powi(32)] {
            let err = side("rows", rows).unwrap_err();
            assert_eq!(err.code(), "SIZE_OVER_LIMIT");
            let message = err.to_string();
            assert!(message.contains("what a Csr takes"), "{message}");
            assert!(!message.contains("maxDimension"), "{message}");
        }
        assert_eq!(side("rows", (1u64 << 27) as f64).unwrap(), 1 << 27);
        assert_eq!(side("cols", 0.0).unwrap_err().code(), "BAD_DIMENSION");
        assert_eq!(side("cols", f64::NAN).unwrap_err().code(), "BAD_DIMENSION");
        // toDense of a huge sparse matrix panicked allocating rows × cols floats.
        let err = check_dense(1 << 27, 1 << 27).unwrap_err();
        assert_eq!(err.code(), "SIZE_OVER_LIMIT");
        assert!(err.to_string().contains("toDense"), "{err}");
        check_dense(1 << 14, (1 << 14) - 1).unwrap();
        assert!(check_dense(1 << 14, 1 << 14).is_err());
    }

    /// A 5×5 example in the chapter's style (rows with 1–2 nonzeros, an empty
    /// column pattern per row): its CSR worked out by hand.
    const EXAMPLE: [f32; 25] = [
        3.0, 0.0, 0.0, 1.0, 0.0, //
        0.0, 4.0, 0.0, 0.0, 0.0, //
        2.0, 0.0, 5.0, 0.0, 0.0, //
        0.0, 0.0, 0.0, 7.0, 6.0, //
        0.0, 8.0, 0.0, 0.0, 9.0,
    ];

    #[test]
    fn csr_of_a_dense_matrix_is_its_nonzeros_row_by_row() {
        let c = Csr::from_dense(5, 5, &EXAMPLE).unwrap();
        assert_eq!(c.values, [3.0, 1.0, 4.0, 2.0, 5.0, 7.0, 6.0, 8.0, 9.0]);
        assert_eq!(c.columns, [0, 3, 1, 0, 2, 3, 4, 1, 4]);
        assert_eq!(c.row_offsets, [0, 2, 3, 5, 7, 9]);
        let back: Vec<f32> = c.to_dense().unwrap().iter().map(|&v| v as f32).collect();
        assert_eq!(back, EXAMPLE);
        // A listing with one wrong array is caught, and only that array named.
        let mut offsets = c.row_offsets.clone();
        offsets[2] = 4;
        assert_eq!(
            compare_listing(&c, &c.values, &c.columns, &offsets),
            ["rowOffsets"]
        );
        assert!(compare_listing(&c, &c.values, &c.columns, &c.row_offsets).is_empty());
    }

    #[test]
    fn triplets_in_any_order_with_duplicates_give_the_same_csr() {
        let mut rng = Rng::new(7);
        let (rows, cols) = (13, 9);
        let mut dense = vec![0f32; rows * cols];
        let (mut r, mut c, mut v) = (vec![], vec![], vec![]);
        for _ in 0..60 {
            let (i, j) = (
                rng.below(rows as u64) as usize,
                rng.below(cols as u64) as usize,
            );
            let x = (rng.below(9) + 1) as f32; // integers: sums exact in f32
            dense[i * cols + j] += x;
            r.push(i as f64);
            c.push(j as f64);
            v.push(x);
        }
        let t = Csr::from_triplets(rows, cols, &r, &c, &v).unwrap();
        assert_eq!(t, Csr::from_dense(rows, cols, &dense).unwrap());
    }

    #[test]
    fn sides_out_of_range_are_errors_not_panics() {
        // 0 columns with a column index panicked on `cols - 1` in the message, 0 rows
        // with a triplet on `limit - 1`, usize::MAX rows on `rows + 1`.
        let code = |r: Result<Csr>| r.unwrap_err().code();
        assert_eq!(
            code(Csr::new(1, 0, vec![1.0], vec![0], vec![0, 1])),
            "BAD_DIMENSION"
        );
        assert_eq!(
            code(Csr::new(0, 0, vec![], vec![], vec![0])),
            "BAD_DIMENSION"
        );
        assert_eq!(
            code(Csr::new(usize::MAX, 1, vec![], vec![], vec![0])),
            "SIZE_OVER_LIMIT"
        );
        assert_eq!(
            code(Csr::from_triplets(0, 1, &[0.0], &[0.0], &[1.0])),
            "BAD_DIMENSION"
        );
        assert_eq!(
            code(Csr::from_triplets(1, 0, &[0.0], &[0.0], &[1.0])),
            "BAD_DIMENSION"
        );
        assert_eq!(
            code(Csr::from_triplets(usize::MAX, 1, &[], &[], &[])),
            "SIZE_OVER_LIMIT"
        );
        assert_eq!(code(Csr::from_dense(3, 0, &[])), "BAD_DIMENSION");
    }

    #[test]
    fn every_malformed_csr_is_refused_with_what_is_wrong() {
        let msg = |r: Result<Csr>| r.unwrap_err().to_string();
        let e = msg(Csr::new(2, 2, vec![1.0, 2.0], vec![0, 1], vec![0, 2, 1]));
        assert!(e.contains("not monotone"), "{e}");
        let e = msg(Csr::new(2, 2, vec![1.0, 2.0], vec![0, 2], vec![0, 1, 2]));
        assert!(
            e.starts_with("columns: columns[1] = 2 is out of range"),
            "{e}"
        );
        let e = msg(Csr::new(2, 2, vec![1.0], vec![0], vec![0, 1, 2]));
        assert!(e.contains("ends at 2, but there are 1 values"), "{e}");
        let e = msg(Csr::new(1, 2, vec![1.0], vec![0], vec![1, 1]));
        assert!(e.contains("starts at 1"), "{e}");
        let e = msg(Csr::from_triplets(
            2,
            2,
            &[0.0, 2.0],
            &[0.0, 0.0],
            &[1.0, 1.0],
        ));
        assert!(
            e.starts_with("rowIndices: rowIndices[1] = 2 is out of range"),
            "{e}"
        );
        let e = msg(Csr::from_triplets(2, 2, &[0.0], &[0.5], &[1.0]));
        assert!(e.contains("columnIndices[0] = 0.5"), "{e}");
    }

    /// A list of the wrong length is BAD_LENGTH naming the length it needs and the one
    /// it has, as a matrix of the wrong length is (it was BAD_ARGUMENT here).
    #[test]
    fn lists_of_the_wrong_length_are_bad_length_with_both_lengths() {
        let (m23, x) = (Csr::from_dense(2, 3, &[1.0; 6]).unwrap(), "x");
        let tri = |l: usize, u: usize| Tridiagonal::new(vec![1.0; l], vec![2.0; 3], vec![1.0; u]);
        let cases = [
            (
                Csr::new(2, 2, vec![1.0, 2.0], vec![0], vec![0, 1, 2]).map(|_| ()),
                "columns has 1 entries but needs 2: one column index per stored value, \
                 as values has 2",
            ),
            (
                Csr::new(2, 2, vec![1.0], vec![0], vec![0, 1]).map(|_| ()),
                "rowOffsets has 2 entries but needs 3: a matrix of 2 rows has rows + 1",
            ),
            (
                Csr::from_triplets(2, 2, &[0.0], &[0.0], &[1.0, 2.0]).map(|_| ()),
                "values has 2 entries but needs 1: one per triplet, as rowIndices has 1",
            ),
            (
                Csr::from_triplets(2, 2, &[0.0, 1.0], &[0.0], &[1.0, 2.0]).map(|_| ()),
                "columnIndices has 1 entries but needs 2: one per triplet",
            ),
            (
                tri(1, 2).map(|_| ()),
                "lower has 1 entries but needs 2: a tridiagonal matrix of order 3",
            ),
            (
                tri(2, 3).map(|_| ()),
                "upper has 3 entries but needs 2: a tridiagonal matrix of order 3",
            ),
            (
                m23.check_vector(x, 2),
                "x has 2 entries but needs 3: A·x needs one entry per column of the 2×3 matrix",
            ),
        ];
        for (r, says) in cases {
            let e = r.expect_err(says);
            assert_eq!(e.code(), "BAD_LENGTH", "{e}");
            assert!(e.to_string().starts_with(says), "{e}");
        }
        assert!(m23.check_vector(x, 3).is_ok() && tri(2, 2).is_ok());
    }

    #[test]
    fn tridiagonal_as_csr_multiplies_like_its_dense_form() {
        let t = Tridiagonal::new(vec![1.0, 2.0], vec![4.0, 5.0, 6.0], vec![-1.0, 3.0]).unwrap();
        let c = t.to_csr().unwrap();
        assert_eq!(c.row_offsets, [0, 2, 5, 7]);
        assert_eq!(
            c.to_dense().unwrap(),
            [4.0, -1.0, 0.0, 1.0, 5.0, 3.0, 0.0, 2.0, 6.0]
        );
        assert_eq!(c.spmv(&[1.0, 2.0, 3.0]), [2.0, 20.0, 22.0]);
        let n1 = Tridiagonal::new(vec![], vec![2.0], vec![])
            .unwrap()
            .to_csr()
            .unwrap();
        assert_eq!(n1.spmv(&[3.0]), [6.0]);
        let e = Tridiagonal::new(vec![1.0], vec![1.0, 2.0], vec![]).unwrap_err();
        assert!(e.to_string().starts_with("upper has 0 entries"), "{e}");
    }

    /// A Tridiagonal built or changed through its public fields is checked where it is
    /// used: to_csr read lower[i - 1] and upper[i] for every row, so sides shorter than
    /// n − 1 panicked (index out of bounds), and an empty one made a Csr of 0 rows.
    #[test]
    fn a_hand_built_tridiagonal_is_checked_where_it_is_used() {
        let good = Tridiagonal::new(vec![1.0, 2.0], vec![4.0, 5.0, 6.0], vec![-1.0, 3.0]).unwrap();
        let cases = [
            (
                Tridiagonal {
                    lower: vec![1.0],
                    ..good.clone()
                },
                "lower has 1 entries but needs 2: a tridiagonal matrix of order 3",
            ),
            (
                Tridiagonal {
                    upper: vec![],
                    ..good.clone()
                },
                "upper has 0 entries but needs 2: a tridiagonal matrix of order 3",
            ),
            (
                Tridiagonal {
                    upper: vec![1.0, 2.0, 3.0],
                    ..good.clone()
                },
                "upper has 3 entries but needs 2",
            ),
            (
                Tridiagonal {
                    lower: vec![],
                    diagonal: vec![],
                    upper: vec![],
                },
                "diagonal: is empty",
            ),
        ];
        for (t, says) in cases {
            let code = match t.diagonal.len() {
                0 => "BAD_ARGUMENT",
                _ => "BAD_LENGTH",
            };
            for err in [t.check(), t.to_csr().map(|_| ())] {
                let err = err.expect_err("mismatched sides");
                assert_eq!(err.code(), code, "{err}");
                assert!(err.to_string().starts_with(says), "{err}");
            }
        }
        assert!(good.check().is_ok());
        assert_eq!(good.to_csr().unwrap().row_offsets, [0, 2, 5, 7]);
    }

    #[test]
    fn a_dense_form_past_the_largest_array_is_an_error_not_a_panic() {
        // 100 000² float64 entries: 80 GB (it was a capacity-overflow panic, or an
        // aborting allocation in wasm32).
        let wide = Csr::new(100_000, 100_000, vec![], vec![], vec![0; 100_001]).unwrap();
        let e = wide.to_dense().unwrap_err();
        assert_eq!(e.code(), "SIZE_OVER_LIMIT");
        assert!(
            e.to_string().contains("toDense: a 100000x100000 Csr"),
            "{e}"
        );
        let small = Csr::new(1, 2, vec![3.0], vec![1], vec![0, 1]).unwrap();
        assert_eq!(small.to_dense().unwrap(), [0.0, 3.0]);
    }

    #[test]
    fn graph_errors_say_what_is_wrong() {
        for d in [0.0, 1.0, -0.5, f64::NAN, 1.5] {
            assert!(check_damping(d)
                .unwrap_err()
                .to_string()
                .starts_with("damping: is"));
        }
        assert!(check_damping(0.85).is_ok());
        let g = Csr::new(2, 2, vec![1.0, f32::NAN], vec![1, 0], vec![0, 1, 2]).unwrap();
        let e = check_graph(&g).unwrap_err().to_string();
        assert!(e.contains("values[1] (edge 1 → 0) is NaN"), "{e}");
        let r = Csr::new(1, 2, vec![1.0], vec![1], vec![0, 1]).unwrap();
        assert!(check_graph(&r)
            .unwrap_err()
            .to_string()
            .contains("not square"));
    }

    /// The float64 PageRank against the dense Google matrix's own power iteration.
    #[test]
    fn pagerank_matches_the_dense_google_matrix() {
        let mut rng = Rng::new(3);
        let n = 37;
        let (mut r, mut c, mut v) = (vec![], vec![], vec![]);
        for _ in 0..120 {
            let i = rng.below(n as u64 - 5); // the last 5 nodes dangle
            r.push(i as f64);
            c.push(rng.below(n as u64) as f64);
            v.push(1.0);
        }
        let g = Csr::from_triplets(n, n, &r, &c, &v).unwrap();
        let d = 0.85;
        let p = pagerank(&g, d, 1e-13, 500);
        assert!(p.converged);
        let a = g.to_dense().unwrap();
        let mut google = vec![0.0; n * n]; // google[j][i]: i → j
        for i in 0..n {
            let out: f64 = a[i * n..(i + 1) * n].iter().sum();
            for j in 0..n {
                let follow = if out > 0.0 {
                    a[i * n + j] / out
                } else {
                    1.0 / n as f64
                };
                google[j * n + i] = d * follow + (1.0 - d) / n as f64;
            }
        }
        let mut x = vec![1.0 / n as f64; n];
        for _ in 0..500 {
            x = (0..n)
                .map(|j| (0..n).map(|i| google[j * n + i] * x[i]).sum())
                .collect();
        }
        for (a, b) in p.ranks.iter().zip(&x) {
            assert!((a - b).abs() < 1e-12, "{a} vs {b}");
        }
        assert!((p.ranks.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    /// Ranks of a small graph from networkx 3.x (`pagerank(G, alpha=0.85, tol=1e-12)`,
    /// run once; see tests/fixtures/pagerank-networkx.json for versions and command).
    #[test]
    fn pagerank_matches_networkx_on_the_fixture_graph() {
        let text = include_str!("../../tests/fixtures/pagerank-networkx.json");
        let fixture = parse_fixture(text);
        let g = Csr::from_triplets(
            fixture.n,
            fixture.n,
            &fixture.edges.iter().map(|e| e.0 as f64).collect::<Vec<_>>(),
            &fixture.edges.iter().map(|e| e.1 as f64).collect::<Vec<_>>(),
            &vec![1.0; fixture.edges.len()],
        )
        .unwrap();
        let p = pagerank(&g, 0.85, 1e-14, 1000);
        for (i, (a, b)) in p.ranks.iter().zip(&fixture.ranks).enumerate() {
            assert!((a - b).abs() < 1e-9, "node {i}: {a} vs networkx {b}");
        }
    }

    struct Fixture {
        n: usize,
        edges: Vec<(usize, usize)>,
        ranks: Vec<f64>,
    }

    /// The fixture's numbers: "n", "edges" ([[s, t], ...]) and "ranks" ([...]).
    fn parse_fixture(text: &str) -> Fixture {
        let numbers = |key: &str| -> Vec<f64> {
            let start = text.find(&format!("\"{key}\"")).expect(key);
            let rest = &text[start + key.len() + 2..];
            let open = rest.find('[').unwrap_or(usize::MAX);
            let colon = rest.find(':').unwrap();
            let body = if open < rest.find(',').unwrap_or(usize::MAX) {
                let mut depth = 0;
                let end = rest[open..]
                    .char_indices()
                    .find(|&(_, ch)| {
                        depth += (ch == '[') as i32 - (ch == ']') as i32;
                        depth == 0
                    })
                    .unwrap()
                    .0;
                &rest[open..open + end]
            } else {
                &rest[colon + 1..rest.find(',').unwrap()]
            };
            body.split(|c: char| !(c.is_ascii_digit() || "eE.-+".contains(c)))
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect()
        };
        let n = numbers("n")[0] as usize;
        let e = numbers("edges");
        Fixture {
            n,
            edges: e
                .chunks(2)
                .map(|p| (p[0] as usize, p[1] as usize))
                .collect(),
            ranks: numbers("ranks"),
        }
    }

    #[test]
    fn jacobi_parts_converge_to_the_solution_of_a_dominant_tridiagonal_system() {
        let n = 50;
        let t = Tridiagonal::new(vec![-1.0; n - 1], vec![4.0; n], vec![-1.0; n - 1]).unwrap();
        let a = t.to_csr().unwrap();
        let x_true: Vec<f64> = (0..n).map(|i| (i % 7) as f64 - 3.0).collect();
        let b: Vec<f32> = a.spmv(&x_true).iter().map(|&v| v as f32).collect();
        let (tm, c) = jacobi_parts(&a, &b).unwrap();
        let mut x = vec![0.0; n];
        for _ in 0..60 {
            x = tm
                .spmv(&x)
                .iter()
                .zip(&c)
                .map(|(v, &ci)| v + ci as f64)
                .collect();
        }
        for (a, b) in x.iter().zip(&x_true) {
            assert!((a - b).abs() < 1e-6);
        }
        let zero = Csr::from_dense(2, 2, &[0.0, 1.0, 1.0, 1.0]).unwrap();
        let e = jacobi_parts(&zero, &[1.0, 1.0]).unwrap_err().to_string();
        assert!(e.contains("a[0][0] is 0"), "{e}");
        // b is a list, worded as spmv's x is: it read "a 50x1 matrix … row-major".
        let e = jacobi_parts(&a, &b[1..]).unwrap_err();
        assert_eq!(e.code(), "BAD_LENGTH");
        assert_eq!(
            e.to_string(),
            "b has 49 entries but needs 50: A x = b needs one entry per row of the 50×50 \
             matrix."
        );
    }

    #[test]
    fn bench_matrices_are_valid_csrs() {
        let u = random_uniform(50, 40, 3, 1);
        let v = Csr::new(
            50,
            40,
            u.values.clone(),
            u.columns.clone(),
            u.row_offsets.clone(),
        );
        assert_eq!(v.unwrap().nnz(), 150);
        let s = random_skewed(1000, 20_000, 2);
        let checked = Csr::new(
            1000,
            1000,
            s.values.clone(),
            s.columns.clone(),
            s.row_offsets.clone(),
        );
        assert!(checked.is_ok());
        assert!((19_000..=20_000).contains(&s.nnz()), "{}", s.nnz());
        assert!(
            s.max_row() > 2000,
            "the first row is a hub: {}",
            s.max_row()
        );
    }

    #[test]
    fn lists_pad_with_zeros_and_indices_round_trip() {
        let (s, v) = pack(&[1.0, 2.0, 3.0], 2).unwrap();
        assert_eq!((s.rows, s.cols), (2, 2));
        assert_eq!(v, [1.0, 2.0, 3.0, 0.0]);
        assert_eq!(list_shape(0, 8), Shape::new(1, 8));
        // Width 0 divided by zero (a panic): refused where packing, 1 in the shape.
        for e in [
            pack(&[1.0], 0).unwrap_err(),
            pack_indices(&[1], 0, true).unwrap_err(),
        ] {
            assert_eq!(e.code(), "BAD_ARGUMENT");
            assert!(e.to_string().starts_with("width: is 0"), "{e}");
        }
        assert_eq!(list_shape(3, 0), Shape::new(3, 1));
        let big = (1u32 << 24) + 1;
        assert_eq!(encode_index(big, true).to_bits(), big);
        assert_eq!(encode_index(5, false), 5.0);
    }
}
