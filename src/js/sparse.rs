//! Sparse matrices for JavaScript: the classes `Csr` (compressed sparse row, with its
//! three arrays readable) and `Tridiagonal`, and the Gpgpu calls on them — sparse
//! matrix × vector, PageRank, Jacobi and the power method — plus PageRank's float64
//! reference for checking.
//!
//! A freed Csr passed to a call is a GpgpuError (as with BlockSparse): calls take the
//! object as a plain value and find its data through an id in a table of weak
//! references.

use super::registry::Registry;
use std::rc::Rc;

use js_sys::{Float32Array, Float64Array, Object, Promise, Uint32Array};
use wasm_bindgen::prelude::*;

use super::args::{
    array_len, check_copies, copy_checked, count_option, known_keys, matrix_arg, number_arg,
    number_option, set, source, to_js_error, views_wasm_memory,
};
use super::{op, promise, JsGpgpu, JsResult};
use crate::apps::eigen::EigenPair;
use crate::apps::jacobi::{JacobiSettings, MAX_ITERATIONS};
use crate::error::{GpgpuError, Result};
use crate::plan::shape::{self, Shape};
use crate::plan::sparse::{self, Csr, Tridiagonal};
use crate::sparse::{self as gpu_sparse, PageRankSettings};

#[wasm_bindgen(typescript_custom_section)]
const TS_SPARSE: &str = r#"
/** Indices (columns, row offsets, triplets' rows and columns): whole numbers from 0,
 *  as any numeric typed array (Uint32Array, Int32Array, …) or array of numbers. */
export type Indices = Matrix;
/** Options of `pagerankAsync` and `Csr.pagerankReference`. */
export interface PageRankOptions { damping?: number; tolerance?: number; maxIterations?: number; }
/** PageRank's ranks (summing to 1), whether Σ|Δx| fell to the tolerance, and
 *  Σ|Δx| after each iteration. */
export interface PageRankResult { ranks: Float32Array | Float64Array; converged: boolean;
  iterations: number; deltas: Float64Array; }
/** Options of `jacobiSparseAsync`: `jacobiAsync`'s but `kernel` (a sparse product
 *  has one kernel per backend). */
export type SparseJacobiOptions = Omit<JacobiOptions, "kernel">;
/** Options of `powerSparseAsync`: stop when ‖Ax − λx‖ ≤ tolerance·|λ|. */
export interface PowerSparseOptions { tolerance?: number; maxIterations?: number; }
/** The sparse power method's eigenpair: λ after each iteration (history) and
 *  ‖Ax − λx‖/|λ| after each (residuals). */
export interface PowerSparseResult { value: number; vector: Float32Array; converged: boolean;
  iterations: number; history: Float64Array; residuals: Float64Array; }
"#;

thread_local! {
    /// Every live Csr by id (weak: the JS object owns the data).
    static LIVE: Registry<Csr> = Registry::new(
        "__csrId",
        "a Csr (Csr.fromArrays, Csr.fromDense, Csr.fromTriplets or Tridiagonal.toCsr)",
        "this Csr was freed (free() was called on it): make a new one",
    );
}

/// A sparse matrix in compressed sparse row form, as the chapter stores it: the
/// nonzero `values` row by row, their `columns`, and `rowOffsets` (where each row
/// starts, then the end). Made with `Csr.fromArrays(rows, cols, values,
/// columns, rowOffsets)` (checked), `Csr.fromDense`, `Csr.fromTriplets` or
/// `Tridiagonal.toCsr()`. Call `free()` when done.
#[wasm_bindgen(js_name = Csr)]
pub struct JsCsr {
    id: u32,
    inner: Rc<Csr>,
}

impl Drop for JsCsr {
    fn drop(&mut self) {
        let _ = LIVE.try_with(|live| live.forget(self.id));
    }
}

fn register(m: Csr) -> JsCsr {
    let (id, inner) = LIVE.with(|live| live.register(m));
    JsCsr { id, inner }
}

/// The Csr behind a JS value: BAD_ARGUMENT if it is not one or was freed.
fn lookup(name: &str, value: &JsValue) -> Result<Rc<Csr>> {
    LIVE.with(|live| live.find(name, value))
}

/// An array of whole numbers 0 ..= u32::MAX (a Uint32Array, another numeric typed
/// array or an array of numbers).
fn index_arg(name: &str, value: &JsValue) -> Result<Vec<u32>> {
    if is_u32(value) {
        // array_len refuses a detached one, whose copy would throw a TypeError.
        let len = array_len(name, value)?;
        check_copies("this call", &[(name, len, 4)])?;
        // One over wasm memory is copied in JavaScript first: to_vec's room may grow
        // that memory, which detached it (to_vec then panicked). So is a subclass, whose
        // own `length` to_vec would read (crate::common::guard::plain).
        let a = source(value);
        let a: Uint32Array = match crate::common::guard::plain::<Uint32Array>(&a, "Uint32Array") {
            Some(plain) if !views_wasm_memory(&a) => plain,
            _ => Uint32Array::new(&a),
        };
        return Ok(if len == 0 { Vec::new() } else { a.to_vec() });
    }
    let v = f64_arg(name, value)?;
    // A loop, not a collect into Result (whose adapter is code of its own per use).
    let mut out = Vec::with_capacity(v.len());
    for (k, &x) in v.iter().enumerate() {
        if !(x.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&x)) {
            return Err(GpgpuError::BadArgument {
                name: name.into(),
                detail: format!(
                    "{name}[{k}] = {} is not a whole number >= 0: indices count from 0",
                    crate::error::js_number(x)
                ),
            });
        }
        out.push(x as u32);
    }
    Ok(out)
}

/// Bytes a number of an index array takes while it is copied: 4 from a
/// Uint32Array, else 8 (read as float64 first).
fn index_bytes(value: &JsValue) -> usize {
    match is_u32(value) {
        true => 4,
        false => 8,
    }
}

/// Whether `value` is a Uint32Array (or a subclass of it), asked of its internal slots:
/// `instanceof` would run a Proxy's `getPrototypeOf` trap.
fn is_u32(value: &JsValue) -> bool {
    crate::common::guard::typed_tag(value).as_deref() == Some("Uint32Array")
}

/// A call's arrays `(name, value, bytes per number of its copy)`: every kind checked,
/// and their copies' sizes (see [`check_copies`]), before any is copied.
fn check_arrays(what: &str, arrays: &[(&str, &JsValue, usize)]) -> Result<()> {
    let mut copies = Vec::with_capacity(arrays.len());
    for &(name, value, bytes) in arrays {
        copies.push((name, array_len(name, value)?, bytes));
    }
    check_copies(what, &copies)
}

fn f64_arg(name: &str, value: &JsValue) -> Result<Vec<f64>> {
    // Read as f64 so that indices past 2^24 stay exact (and not copied as f32 first,
    // only to check the kind: that took 4 bytes a number more).
    let len = array_len(name, value)?;
    check_copies("this call", &[(name, len, 8)])?;
    if len == 0 {
        // An empty view out of bounds of a shrunk resizable buffer: the Float64Array
        // constructor would throw a TypeError; there is nothing to copy.
        return Ok(Vec::new());
    }
    Ok(crate::common::guard::converted(name, &source(value), Float64Array::new)?.to_vec())
}

fn dims(rows: &JsValue, cols: &JsValue) -> Result<(usize, usize)> {
    Ok((
        sparse::side("rows", number_arg("rows", rows)?)?,
        sparse::side("cols", number_arg("cols", cols)?)?,
    ))
}

#[wasm_bindgen(js_class = Csr)]
impl JsCsr {
    /// A rows×cols CSR from its three arrays, checked: rowOffsets has rows + 1
    /// entries from 0 to nnz, never decreasing; values and columns have nnz each;
    /// every column is below cols.
    #[wasm_bindgen(js_name = fromArrays, unchecked_return_type = "Csr")]
    pub fn from_arrays(
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] values: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Indices")] columns: JsValue,
        #[wasm_bindgen(js_name = rowOffsets, unchecked_param_type = "Indices")]
        row_offsets: JsValue,
    ) -> JsResult<JsValue> {
        let make = || {
            let (r, c) = dims(&rows, &cols)?;
            let arrays = [
                ("values", &values, 4),
                ("columns", &columns, index_bytes(&columns)),
                ("rowOffsets", &row_offsets, index_bytes(&row_offsets)),
            ];
            check_arrays("Csr.fromArrays", &arrays)?;
            Csr::new(
                r,
                c,
                matrix_arg("values", &values)?,
                index_arg("columns", &columns)?,
                index_arg("rowOffsets", &row_offsets)?,
            )
        };
        make().map(|m| register(m).into_js()).map_err(to_js_error)
    }

    /// The nonzeros of a row-major rows×cols array.
    #[wasm_bindgen(js_name = fromDense, unchecked_return_type = "Csr")]
    pub fn from_dense(
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] data: JsValue,
    ) -> JsResult<JsValue> {
        let make = || {
            let (r, c) = dims(&rows, &cols)?;
            // Its length before it is copied; and as many nonzeros again at most.
            let len = array_len("data", &data)?;
            shape::check_len("data", Shape::new(r, c), len)?;
            let copies = [("data", len, 4), ("values", len, 4), ("columns", len, 4)];
            check_copies("Csr.fromDense", &copies)?;
            Csr::from_dense(r, c, &copy_checked("data", &data)?)
        };
        make().map(|m| register(m).into_js()).map_err(to_js_error)
    }

    /// A CSR from triplets `(rowIndices[k], columnIndices[k], values[k])` in any
    /// order; duplicates add up.
    #[wasm_bindgen(js_name = fromTriplets, unchecked_return_type = "Csr")]
    pub fn from_triplets(
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(js_name = rowIndices, unchecked_param_type = "Indices")]
        row_indices: JsValue,
        #[wasm_bindgen(js_name = columnIndices, unchecked_param_type = "Indices")]
        column_indices: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] values: JsValue,
    ) -> JsResult<JsValue> {
        let make = || {
            let (r, c) = dims(&rows, &cols)?;
            let arrays = [
                ("rowIndices", &row_indices, 8),
                ("columnIndices", &column_indices, 8),
                ("values", &values, 4),
            ];
            check_arrays("Csr.fromTriplets", &arrays)?;
            Csr::from_triplets(
                r,
                c,
                &f64_arg("rowIndices", &row_indices)?,
                &f64_arg("columnIndices", &column_indices)?,
                &matrix_arg("values", &values)?,
            )
        };
        make().map(|m| register(m).into_js()).map_err(to_js_error)
    }

    #[wasm_bindgen(getter)]
    pub fn rows(&self) -> f64 {
        self.inner.rows as f64
    }

    #[wasm_bindgen(getter)]
    pub fn cols(&self) -> f64 {
        self.inner.cols as f64
    }

    /// Stored entries.
    #[wasm_bindgen(getter)]
    pub fn nnz(&self) -> f64 {
        self.inner.nnz() as f64
    }

    /// The longest row's stored entries.
    #[wasm_bindgen(getter, js_name = maxRow)]
    pub fn max_row(&self) -> f64 {
        self.inner.max_row() as f64
    }

    /// The stored values, row by row.
    #[wasm_bindgen(getter)]
    pub fn values(&self) -> Float32Array {
        Float32Array::from(&self.inner.values[..])
    }

    /// Each stored value's column.
    #[wasm_bindgen(getter)]
    pub fn columns(&self) -> Uint32Array {
        Uint32Array::from(&self.inner.columns[..])
    }

    /// Where each row's values start, then the end (rows + 1 entries).
    #[wasm_bindgen(getter, js_name = rowOffsets)]
    pub fn row_offsets(&self) -> Uint32Array {
        Uint32Array::from(&self.inner.row_offsets[..])
    }

    /// The matrix, row-major (rows × cols floats).
    #[wasm_bindgen(js_name = toDense)]
    pub fn to_dense(&self) -> JsResult<Float32Array> {
        let dense = || {
            let d = self.inner.to_dense()?;
            let mut f = crate::error::room(d.len(), || "toDense's float32 copy".into())?;
            f.extend(d.iter().map(|&v| v as f32));
            Ok(f)
        };
        dense()
            .map(|f| Float32Array::from(&f[..]))
            .map_err(to_js_error)
    }

    /// A·x in float64 on the CPU (the reference of `gpu.spmvAsync`).
    #[wasm_bindgen(js_name = multiplyReference)]
    pub fn multiply_reference(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] x: JsValue,
    ) -> JsResult<Float64Array> {
        let run = || {
            let x = f64_arg("x", &x)?;
            self.inner.check_vector("x", x.len())?;
            Ok(Float64Array::from(&self.inner.spmv(&x)[..]))
        };
        run().map_err(to_js_error)
    }

    /// PageRank in float64 on the CPU, the reference of `gpu.pagerankAsync` (same
    /// options; default tolerance 1e-10 here).
    #[wasm_bindgen(js_name = pagerankReference, unchecked_return_type = "PageRankResult")]
    pub fn pagerank_reference(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "PageRankOptions")] options: JsValue,
    ) -> JsResult<Object> {
        let run = || {
            let s = pagerank_settings(&options, 1e-10)?;
            sparse::check_graph(&self.inner)?;
            let p = sparse::pagerank(&self.inner, s.damping, s.tolerance, s.max_iterations);
            let o = Object::new();
            set(&o, "ranks", Float64Array::from(&p.ranks[..]));
            set(&o, "converged", p.converged);
            set(&o, "iterations", p.deltas.len() as u32);
            set(&o, "deltas", Float64Array::from(&p.deltas[..]));
            Ok(o)
        };
        run().map_err(to_js_error)
    }

    /// A bench matrix: `perRow` nonzeros per row at seeded random columns.
    #[wasm_bindgen(js_name = randomUniform, unchecked_return_type = "Csr")]
    pub fn random_uniform(
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(js_name = perRow, unchecked_param_type = "number")] per_row: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] seed: JsValue,
    ) -> JsResult<JsValue> {
        let make = || {
            let (r, c) = dims(&rows, &cols)?;
            let k = number_arg("perRow", &per_row)?;
            if k.is_finite() && k > c as f64 {
                // Not a device limit (SIZE_OVER_LIMIT named info().maxDimension here, and
                // so did any perRow past wasm32's usize).
                return Err(GpgpuError::BadArgument {
                    name: "perRow".into(),
                    detail: format!(
                        "is {}, more than the {c} columns: a row holds at most one \
                         nonzero per column",
                        crate::error::js_number(k)
                    ),
                });
            }
            let k = shape::dimension("perRow", k, c)?;
            check_bench_nnz("rows x perRow", r as f64 * k as f64)?;
            let seed = shape::count("seed", number_arg("seed", &seed)?, u32::MAX as f64)?;
            Ok(sparse::random_uniform(r, c, k, seed as u32))
        };
        make().map(|m| register(m).into_js()).map_err(to_js_error)
    }

    /// A skewed bench matrix (rows × rows, about nnz nonzeros, row i's share ∝
    /// 1/(i + 1): a few hub rows, as in a graph).
    #[wasm_bindgen(js_name = randomSkewed, unchecked_return_type = "Csr")]
    pub fn random_skewed(
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] nnz: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] seed: JsValue,
    ) -> JsResult<JsValue> {
        let make = || {
            let (r, _) = dims(&rows, &rows)?;
            let nnz = number_arg("nnz", &nnz)?;
            check_bench_nnz("nnz", nnz)?;
            let nnz = shape::dimension("nnz", nnz, u32::MAX as usize)?;
            let seed = shape::count("seed", number_arg("seed", &seed)?, u32::MAX as f64)?;
            Ok(sparse::random_skewed(r, nnz, seed as u32))
        };
        make().map(|m| register(m).into_js()).map_err(to_js_error)
    }

    /// Which of a listing's arrays (values, columns, rowOffsets) differ from this
    /// CSR's: checks a CSR written by hand against the one derived from its matrix.
    #[wasm_bindgen(js_name = compareListing, unchecked_return_type = "string[]")]
    pub fn compare_listing(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] values: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Indices")] columns: JsValue,
        #[wasm_bindgen(js_name = rowOffsets, unchecked_param_type = "Indices")]
        row_offsets: JsValue,
    ) -> JsResult<js_sys::Array> {
        let run = || {
            let arrays = [
                ("values", &values, 4),
                ("columns", &columns, index_bytes(&columns)),
                ("rowOffsets", &row_offsets, index_bytes(&row_offsets)),
            ];
            check_arrays("compareListing", &arrays)?;
            let wrong = sparse::compare_listing(
                &self.inner,
                &matrix_arg("values", &values)?,
                &index_arg("columns", &columns)?,
                &index_arg("rowOffsets", &row_offsets)?,
            );
            Ok(wrong.into_iter().map(JsValue::from).collect())
        };
        run().map_err(to_js_error)
    }
}

impl JsCsr {
    /// Tags the JS object with its id, so calls can find (or miss) it after free().
    fn into_js(self) -> JsValue {
        let id = self.id;
        let value = JsValue::from(self);
        LIVE.with(|live| live.tag(&value, id));
        value
    }
}

/// A tridiagonal n×n matrix by its diagonals (the chapter's known pattern):
/// `lower` (n − 1: entries (i + 1, i)), `diagonal` (n), `upper` (n − 1: (i, i + 1)).
#[wasm_bindgen(js_name = Tridiagonal)]
pub struct JsTridiagonal {
    inner: Tridiagonal,
}

#[wasm_bindgen(js_class = Tridiagonal)]
impl JsTridiagonal {
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Matrix")] lower: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] diagonal: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] upper: JsValue,
    ) -> JsResult<JsTridiagonal> {
        let make = || {
            let arrays = [
                ("lower", &lower, 4),
                ("diagonal", &diagonal, 4),
                ("upper", &upper, 4),
            ];
            check_arrays("Tridiagonal", &arrays)?;
            Tridiagonal::new(
                matrix_arg("lower", &lower)?,
                matrix_arg("diagonal", &diagonal)?,
                matrix_arg("upper", &upper)?,
            )
        };
        make()
            .map(|inner| JsTridiagonal { inner })
            .map_err(to_js_error)
    }

    #[wasm_bindgen(getter)]
    pub fn n(&self) -> f64 {
        self.inner.n() as f64
    }

    /// The same matrix as a Csr (3n − 2 stored entries), for the GPU calls.
    #[wasm_bindgen(js_name = toCsr, unchecked_return_type = "Csr")]
    pub fn to_csr(&self) -> JsResult<JsValue> {
        check_csr_room(self.inner.n()).map_err(to_js_error)?;
        let csr = self.inner.to_csr().map_err(to_js_error)?;
        Ok(register(csr).into_js())
    }
}

/// Refuses a tridiagonal's Csr (values and columns of 3n − 2 entries and n + 1
/// offsets, 4 bytes each: about 28n bytes) that wasm memory cannot hold beside the
/// diagonals it is made from (12n bytes): past that the copy trapped (RuntimeError:
/// unreachable), after which the page's library was unusable.
fn check_csr_room(n: usize) -> Result<()> {
    let n = n as f64;
    let entries = (3.0 * n - 2.0).max(0.0);
    let needed = 8.0 * entries + 4.0 * (n + 1.0) + 12.0 * n;
    let limit = crate::blocks::grid::MAX_CALL_BYTES;
    if needed > limit {
        return Err(GpgpuError::DeviceLimit {
            what: format!(
                "toCsr: a tridiagonal matrix of n = {} with its Csr",
                crate::error::js_number(n)
            ),
            needed,
            unit: "bytes of WebAssembly memory",
            limit_name: "what the library may hold there (wasm32's 4 GiB less 256 MiB)",
            limit,
            hint: "A tridiagonal matrix and its Csr take 40 bytes a row together: n up to \
                   about 100 million. Use a smaller n.",
        });
    }
    Ok(())
}

/// Bench matrices live in wasm memory (8 bytes a nonzero, twice while uploading).
/// `name` is what the caller gave (it said "nnz" for benchStreamAsync's len too).
fn check_bench_nnz(name: &str, nnz: f64) -> Result<()> {
    gpu_sparse::timing::check_bench_len(name, nnz)
}

fn timing_object(t: gpu_sparse::timing::Timing) -> Object {
    let o = Object::new();
    set(&o, "wallMs", t.wall_ms);
    set(
        &o,
        "gpuMs",
        t.gpu_ms.map_or(JsValue::UNDEFINED, JsValue::from),
    );
    o
}

fn repeats_arg(repeats: &JsValue) -> Result<usize> {
    gpu_sparse::timing::repeats(number_arg("repeats", repeats)?)
}

fn pagerank_settings(options: &JsValue, tolerance: f64) -> Result<PageRankSettings> {
    let known = ["damping", "tolerance", "maxIterations"];
    known_keys(options, &known, "{ damping: 0.85 }")?;
    let damping = match number_option(options, "damping") {
        Ok(d) => d.unwrap_or(0.85),
        // NaN and ±Infinity: the damping's own message.
        Err(_) => crate::common::guard::field(options, "options", "damping")?
            .as_f64()
            .unwrap_or(f64::NAN),
    };
    sparse::check_damping(damping)?;
    let tolerance = match number_option(options, "tolerance")? {
        Some(t) if t > 0.0 => t,
        Some(t) => {
            return Err(GpgpuError::BadArgument {
                name: "options.tolerance".into(),
                detail: format!(
                    "is {}; it must be > 0 (the L1 change of the ranks to stop at)",
                    crate::error::js_number(t)
                ),
            })
        }
        None => tolerance,
    };
    Ok(PageRankSettings {
        damping,
        tolerance,
        max_iterations: count_option(options, "maxIterations", 200, MAX_ITERATIONS as f64)?,
    })
}

fn power_object(p: &EigenPair) -> Object {
    let o = Object::new();
    set(&o, "value", p.value);
    set(&o, "vector", Float32Array::from(&p.vector[..]));
    set(&o, "converged", p.converged);
    set(&o, "iterations", p.history.len() as u32);
    set(&o, "history", Float64Array::from(&p.history[..]));
    set(&o, "residuals", Float64Array::from(&p.residuals[..]));
    o
}

fn f32_as_f64(values: &[f32]) -> Float64Array {
    let v: Vec<f64> = values.iter().map(|&x| x as f64).collect();
    Float64Array::from(&v[..])
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// y = A·x on the GPU (one invocation or fragment per row of A), for a Csr A and
    /// a vector of A.cols entries.
    #[wasm_bindgen(js_name = spmvAsync, unchecked_return_type = "Promise<Float32Array>")]
    pub fn spmv_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Csr")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] x: JsValue,
    ) -> Promise {
        let args = lookup("a", &a).and_then(|a| Ok((a, matrix_arg("x", &x)?)));
        let handle = self.gpu.handle();
        promise(args.and_then(|(a, x)| {
            op(async move {
                let y = gpu_sparse::multiply(&handle, &a, &x).await?;
                Ok(Float32Array::from(&y[..]).into())
            })
        }))
    }

    /// PageRank of the graph whose adjacency matrix is `graph` (entry (i, j): the
    /// weight of link i → j, finite and >= 0) by the power method on the GPU.
    /// options: { damping (default 0.85, strictly between 0 and 1), tolerance (stop
    /// when Σ|Δx| ≤ it, default 1e-6, at least 2^-22 ≈ 2.4e-7: float32's resolution of
    /// ranks summing to 1), maxIterations (default 200) }. Resolves to
    /// { ranks, converged, iterations, deltas (Σ|Δx| per iteration) }.
    #[wasm_bindgen(js_name = pagerankAsync, unchecked_return_type = "Promise<PageRankResult>")]
    pub fn pagerank_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Csr")] graph: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PageRankOptions")] options: JsValue,
    ) -> Promise {
        let args =
            lookup("graph", &graph).and_then(|g| Ok((g, pagerank_settings(&options, 1e-6)?)));
        let handle = self.gpu.handle();
        promise(args.and_then(|(g, s)| {
            op(async move {
                let p = gpu_sparse::pagerank(&handle, &g, s).await?;
                let o = Object::new();
                set(&o, "ranks", Float32Array::from(&p.ranks[..]));
                set(&o, "converged", p.converged);
                set(&o, "iterations", p.deltas.len() as u32);
                set(&o, "deltas", f32_as_f64(&p.deltas));
                Ok(o.into())
            })
        }))
    }

    /// Solves A x = b by Jacobi iteration with a sparse A (x ← T·x + c, T kept in
    /// CSR). Options and result as `jacobiAsync`'s (epsilon, maxIterations,
    /// recordEvery; { x, converged, diverged, iterations, deltas, norms, history }).
    #[wasm_bindgen(js_name = jacobiSparseAsync, unchecked_return_type = "Promise<JacobiResult>")]
    pub fn jacobi_sparse_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Csr")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] b: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SparseJacobiOptions")] options: JsValue,
    ) -> Promise {
        let read = || -> Result<_> {
            let a = lookup("a", &a)?;
            let b = matrix_arg("b", &b)?;
            let known = ["epsilon", "maxIterations", "recordEvery"];
            known_keys(&options, &known, "{ epsilon: 1e-6 }")?;
            let epsilon = super::args::positive_option(&options, "options", "epsilon")?;
            let settings = JacobiSettings {
                epsilon: epsilon.unwrap_or(1e-6) as f32,
                max_iterations: count_option(
                    &options,
                    "maxIterations",
                    1000,
                    MAX_ITERATIONS as f64,
                )?,
                record_every: match number_option(&options, "recordEvery")? {
                    None => None,
                    Some(_) => Some(count_option(&options, "recordEvery", 1, 1e6)?),
                },
            };
            Ok((a, b, settings))
        };
        let args = read();
        let handle = self.gpu.handle();
        promise(args.and_then(|(a, b, settings)| {
            op(async move {
                let r = gpu_sparse::jacobi(&handle, &a, &b, settings).await?;
                Ok(super::apps::jacobi_object(&r).into())
            })
        }))
    }

    /// For the bench: SpMV with A resident on the GPU, `repeats` passes back to back
    /// after a warm-up; `longRow` (WebGPU): rows with more entries than this get a
    /// workgroup each. Resolves to { wallMs (per pass), gpuMs (a pass's median GPU
    /// time, where the device times passes) }.
    #[wasm_bindgen(js_name = benchSpmvAsync, unchecked_return_type = "Promise<{ wallMs: number; gpuMs?: number }>")]
    pub fn bench_spmv_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Csr")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] repeats: JsValue,
        #[wasm_bindgen(js_name = longRow, unchecked_optional_param_type = "number")]
        long_row: JsValue,
    ) -> Promise {
        let args = lookup("a", &a).and_then(|a| {
            let long = match long_row.is_undefined() || long_row.is_null() {
                true => None,
                false => {
                    Some(shape::count("longRow", number_arg("longRow", &long_row)?, 1e9)? as usize)
                }
            };
            Ok((a, repeats_arg(&repeats)?, long))
        });
        let handle = self.gpu.handle();
        promise(args.and_then(|(a, repeats, long)| {
            op(async move {
                let t = gpu_sparse::timing::spmv(&handle, &a, repeats, long).await?;
                Ok(timing_object(t).into())
            })
        }))
    }

    /// For the bench: the streaming ceiling, out = p + q over `len` floats (12·len
    /// bytes a pass), `repeats` passes. Resolves to { wallMs, gpuMs } per pass (gpuMs
    /// where the device has timestamp queries), as `benchSpmvAsync` does.
    #[wasm_bindgen(js_name = benchStreamAsync, unchecked_return_type = "Promise<{ wallMs: number; gpuMs?: number }>")]
    pub fn bench_stream_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] len: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] repeats: JsValue,
    ) -> Promise {
        let args = (|| {
            let len = number_arg("len", &len)?;
            check_bench_nnz("len", len)?;
            Ok::<_, GpgpuError>((
                shape::dimension("len", len, u32::MAX as usize)?,
                repeats_arg(&repeats)?,
            ))
        })();
        let handle = self.gpu.handle();
        promise(args.and_then(|(len, repeats)| {
            op(async move {
                let t = gpu_sparse::timing::stream(&handle, len, repeats).await?;
                Ok(timing_object(t).into())
            })
        }))
    }

    /// The dominant eigenpair of a square Csr by the power method on the GPU
    /// (x ← Ax/‖Ax‖). options: { tolerance (stop when ‖Ax − λx‖ ≤ tolerance·|λ|,
    /// default 1e-5), maxIterations (default 500) }. Resolves to { value, vector,
    /// converged, iterations, history (λ per iteration), residuals }.
    #[wasm_bindgen(js_name = powerSparseAsync, unchecked_return_type = "Promise<PowerSparseResult>")]
    pub fn power_sparse_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Csr")] a: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PowerSparseOptions")] options: JsValue,
    ) -> Promise {
        let read = || -> Result<_> {
            let a = lookup("a", &a)?;
            known_keys(
                &options,
                &["tolerance", "maxIterations"],
                "{ tolerance: 1e-5 }",
            )?;
            let tolerance = super::args::positive_option(&options, "options", "tolerance")?;
            let max = count_option(&options, "maxIterations", 500, MAX_ITERATIONS as f64)?;
            Ok((a, tolerance.unwrap_or(1e-5), max))
        };
        let args = read();
        let handle = self.gpu.handle();
        promise(args.and_then(|(a, tolerance, max)| {
            op(async move {
                let p = gpu_sparse::power(&handle, &a, tolerance, max).await?;
                Ok(power_object(&p).into())
            })
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tridiagonal_whose_csr_memory_cannot_hold_is_size_over_limit() {
        // n = 2^26 (2.7 GB with its Csr) converts; 2^27 trapped in toCsr.
        assert!(check_csr_room(1 << 26).is_ok());
        let err = check_csr_room(1 << 27).unwrap_err();
        assert_eq!(err.code(), "SIZE_OVER_LIMIT");
        let msg = err.to_string();
        assert!(
            msg.starts_with("toCsr: a tridiagonal matrix of n = 134217728"),
            "{msg}"
        );
        assert!(msg.contains("40 bytes a row"), "{msg}");
        assert!(check_csr_room(0).is_ok() && check_csr_room(1).is_ok());
    }
}
