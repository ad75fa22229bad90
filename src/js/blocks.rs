//! Block-sparse matrices for JavaScript: the class `BlockSparse` (built on the CPU
//! from a dense array or a list of blocks) and the Gpgpu calls that multiply and
//! square them on the GPU.
//!
//! A freed BlockSparse passed to a call is a GpgpuError rather than wasm-bindgen's
//! "null pointer passed to rust": calls take the object as a plain value and find
//! its data through an id that outlives the object, in a table of weak references.

use super::registry::Registry;
use std::rc::Rc;

use js_sys::{Array, Float32Array, Object, Promise, Reflect, Uint32Array, Uint8Array};
use wasm_bindgen::prelude::*;

use super::args::{matrix_arg, number_arg, set, to_js_error};
use super::{op, pair, promise, JsGpgpu, JsResult, Op};
use crate::blocks::grid;
use crate::blocks::sparse::{self, Product, Squarings};
use crate::error::{GpgpuError, Result};
use crate::plan::blocks::{self, symbolic, BlockSparse};
use crate::plan::shape::{self, Shape};
use crate::work::tiled_dimension;

#[wasm_bindgen(typescript_custom_section)]
const TS_BLOCKS: &str = r#"
/** One block of `BlockSparse.fromBlocks`: its place on the block grid and its
 *  blockSize² values, row-major (entries past the matrix's edge are ignored). */
export interface Block { row: number; col: number; data: Matrix; }
/** What the symbolic phase of A·B finds, before any GPU work. */
export interface BlockProductPlan { products: number; denseProducts: number;
  storedBlocks: number; occupancy: Uint8Array; gridRows: number; gridCols: number; }
/** One squaring of squareBlockSparseRepeatedlyAsync. */
export interface BlockSquaring { storedBlocks: number; nonzeroBlocks: number;
  density: number; products: number; }
export interface BlockSquarings { result: BlockSparse; steps: BlockSquaring[];
  denseAfter: number | null; }
"#;

thread_local! {
    /// Every live BlockSparse by id (weak: the JS object owns the data).
    static LIVE: Registry<BlockSparse> = Registry::new(
        "__blockSparseId",
        "a BlockSparse (BlockSparse.fromDense or BlockSparse.fromBlocks)",
        "this BlockSparse was freed (free() was called on it): make a new one with \
         BlockSparse.fromDense or BlockSparse.fromBlocks",
    );
}

/// A matrix cut into square blocks of which only the nonzero ones are stored (the
/// CUDA report's block-sparse format, with its boolean per block). Made on the CPU
/// with `BlockSparse.fromDense` or `BlockSparse.fromBlocks`; multiplied on the GPU
/// with `gpu.multiplyBlockSparseAsync`. Call `free()` when done.
#[wasm_bindgen(js_name = BlockSparse)]
pub struct JsBlockSparse {
    id: u32,
    inner: Rc<BlockSparse>,
    /// Block products computed and a dense product's count, when made by a product.
    products: Option<(u64, u64)>,
    /// The numeric pass's GPU time, when made by a timed product.
    gpu_ms: Option<f64>,
}

impl Drop for JsBlockSparse {
    fn drop(&mut self) {
        let _ = LIVE.try_with(|live| live.forget(self.id));
    }
}

/// Wraps `m` as a JS BlockSparse carrying its id.
fn wrap(m: BlockSparse, products: Option<(u64, u64)>, gpu_ms: Option<f64>) -> JsValue {
    let (id, inner) = LIVE.with(|live| live.register(m));
    let value = JsValue::from(JsBlockSparse {
        id,
        inner,
        products,
        gpu_ms,
    });
    LIVE.with(|live| live.tag(&value, id));
    value
}

/// The BlockSparse behind a JS value: BAD_ARGUMENT if it is not one, or if it was
/// freed.
pub(crate) fn lookup(name: &str, value: &JsValue) -> Result<Rc<BlockSparse>> {
    LIVE.with(|live| live.find(name, value))
}

/// B of a product: a BlockSparse, or a dense row-major matrix with `a`'s columns
/// as rows, cut into blocks of `a`'s size.
fn right_operand(a: &BlockSparse, value: &JsValue) -> Result<Rc<BlockSparse>> {
    if LIVE.with(|live| live.is_tagged(value)) {
        return lookup("b", value);
    }
    let data = matrix_arg("b", value)?;
    let rows = a.shape.cols;
    if data.len() % rows != 0 || data.is_empty() {
        return Err(GpgpuError::BadLength {
            name: "b".into(),
            rows,
            cols: data.len().div_ceil(rows).max(1),
            actual: data.len(),
        });
    }
    let shape = Shape::new(rows, data.len() / rows);
    Ok(Rc::new(BlockSparse::from_dense(
        shape,
        &data,
        a.block_size,
    )?))
}

fn dims(rows: &JsValue, cols: &JsValue) -> Result<Shape> {
    let shape = Shape::new(
        tiled_dimension("rows", number_arg("rows", rows)?)?,
        tiled_dimension("cols", number_arg("cols", cols)?)?,
    );
    // In f64 first: rows·cols past memory would overflow usize on wasm32.
    grid::check_memory("a BlockSparse", &[], shape, grid::SMALLER_MATRICES)?;
    Ok(shape)
}

fn squarings_object(s: Squarings) -> Object {
    let o = Object::new();
    let steps = Array::new();
    for step in &s.steps {
        let st = Object::new();
        set(&st, "storedBlocks", step.stored_blocks as f64);
        set(&st, "nonzeroBlocks", step.nonzero_blocks as f64);
        set(&st, "density", step.density);
        set(&st, "products", step.products as f64);
        steps.push(&st);
    }
    set(&o, "result", wrap(s.result, None, None));
    set(&o, "steps", steps);
    set(
        &o,
        "denseAfter",
        s.dense_after.map_or(JsValue::NULL, |d| (d as f64).into()),
    );
    o
}

fn product_value(p: Product) -> JsValue {
    wrap(p.result, Some((p.products, p.dense_products)), p.gpu_ms)
}

#[wasm_bindgen(js_class = BlockSparse)]
impl JsBlockSparse {
    /// Cuts a rows×cols row-major matrix into blockSize×blockSize blocks (edges
    /// padded with zeros) and keeps those with any nonzero entry.
    #[wasm_bindgen(js_name = fromDense, unchecked_return_type = "BlockSparse")]
    pub fn from_dense(
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Matrix")] data: JsValue,
        #[wasm_bindgen(js_name = blockSize, unchecked_param_type = "number")] block_size: JsValue,
    ) -> JsResult<JsValue> {
        let make = || {
            let shape = dims(&rows, &cols)?;
            let bs = blocks::block_size(number_arg("blockSize", &block_size)?)?;
            let data = matrix_arg("data", &data)?;
            shape::check_len("data", shape, data.len())?;
            BlockSparse::from_dense(shape, &data, bs)
        };
        make().map(|m| wrap(m, None, None)).map_err(to_js_error)
    }

    /// A rows×cols matrix from its nonzero blocks: `[{ row, col, data }]`, row and
    /// col on the block grid, data blockSize² values row-major. A block whose entries
    /// inside the matrix are all zero is not stored, as in `fromDense`.
    #[wasm_bindgen(js_name = fromBlocks, unchecked_return_type = "BlockSparse")]
    pub fn from_blocks(
        #[wasm_bindgen(unchecked_param_type = "number")] rows: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] cols: JsValue,
        #[wasm_bindgen(js_name = blockSize, unchecked_param_type = "number")] block_size: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Block[]")] blocks: JsValue,
    ) -> JsResult<JsValue> {
        let make = || {
            let shape = dims(&rows, &cols)?;
            let bs = blocks::block_size(number_arg("blockSize", &block_size)?)?;
            let Some(list) = blocks.dyn_ref::<Array>() else {
                return Err(GpgpuError::BadArgument {
                    name: "blocks".into(),
                    detail: "expected an array of { row, col, data }".into(),
                });
            };
            let mut read = vec![];
            for (n, b) in list.iter().enumerate() {
                let field = |key: &str| Reflect::get(&b, &key.into()).unwrap_or(JsValue::UNDEFINED);
                let index = |key: &str| -> Result<usize> {
                    let v = number_arg(&format!("blocks[{n}].{key}"), &field(key))?;
                    Ok(shape::count(&format!("blocks[{n}].{key}"), v, u32::MAX as f64)? as usize)
                };
                let (i, j) = (index("row")?, index("col")?);
                read.push((
                    i,
                    j,
                    matrix_arg(&format!("blocks[{n}].data"), &field("data"))?,
                ));
            }
            let refs: Vec<(usize, usize, &[f32])> =
                read.iter().map(|(i, j, d)| (*i, *j, &d[..])).collect();
            BlockSparse::from_blocks(shape, bs, &refs)
        };
        make().map(|m| wrap(m, None, None)).map_err(to_js_error)
    }

    /// What the symbolic phase finds for A·B (B a BlockSparse or a dense matrix):
    /// block products, a dense product's count, C's stored blocks and occupancy.
    #[wasm_bindgen(js_name = productPlan, unchecked_return_type = "BlockProductPlan")]
    pub fn product_plan(
        #[wasm_bindgen(unchecked_param_type = "BlockSparse")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "BlockSparse | Matrix")] b: JsValue,
    ) -> JsResult<Object> {
        let plan = || {
            let a = lookup("a", &a)?;
            let b = right_operand(&a, &b)?;
            sparse::check_operands(&a, &b)?;
            let s = symbolic(&a.pattern, &b.pattern)?;
            let o = Object::new();
            set(&o, "products", s.products as f64);
            set(&o, "denseProducts", s.dense_products as f64);
            set(&o, "storedBlocks", s.out.stored() as f64);
            set(&o, "occupancy", Uint8Array::from(&s.out.occupancy()[..]));
            set(&o, "gridRows", s.out.grid_rows as f64);
            set(&o, "gridCols", s.out.grid_cols as f64);
            Ok(o)
        };
        plan().map_err(to_js_error)
    }

    #[wasm_bindgen(getter)]
    pub fn rows(&self) -> f64 {
        self.inner.shape.rows as f64
    }

    #[wasm_bindgen(getter)]
    pub fn cols(&self) -> f64 {
        self.inner.shape.cols as f64
    }

    #[wasm_bindgen(getter, js_name = blockSize)]
    pub fn block_size(&self) -> f64 {
        self.inner.block_size as f64
    }

    /// Block rows of the grid (rows / blockSize, rounded up).
    #[wasm_bindgen(getter, js_name = gridRows)]
    pub fn grid_rows(&self) -> f64 {
        self.inner.pattern.grid_rows as f64
    }

    /// Block columns of the grid.
    #[wasm_bindgen(getter, js_name = gridCols)]
    pub fn grid_cols(&self) -> f64 {
        self.inner.pattern.grid_cols as f64
    }

    /// How many blocks are stored (those with a nonzero entry).
    #[wasm_bindgen(getter, js_name = nonzeroBlocks)]
    pub fn nonzero_blocks(&self) -> f64 {
        self.inner.pattern.stored() as f64
    }

    /// For a product's result: the block products computed (else undefined).
    #[wasm_bindgen(getter, js_name = blockProducts)]
    pub fn block_products(&self) -> Option<f64> {
        self.products.map(|p| p.0 as f64)
    }

    /// For a product's result: the block products a dense product computes.
    #[wasm_bindgen(getter, js_name = denseBlockProducts)]
    pub fn dense_block_products(&self) -> Option<f64> {
        self.products.map(|p| p.1 as f64)
    }

    /// For a product's result: the numeric pass's GPU time in ms, where the device
    /// times passes (WebGPU timestamp queries, WebGL timer queries; else undefined).
    #[wasm_bindgen(getter, js_name = gpuMs)]
    pub fn gpu_ms(&self) -> Option<f64> {
        self.gpu_ms
    }

    /// Stored blocks over the grid's blocks, 0 to 1.
    pub fn density(&self) -> f64 {
        self.inner.pattern.density()
    }

    /// The CUDA report's booleans: one byte per block, 1 where stored, row-major
    /// over the block grid (gridRows × gridCols).
    pub fn occupancy(&self) -> Uint8Array {
        Uint8Array::from(&self.inner.pattern.occupancy()[..])
    }

    /// The stored blocks' (row, col) on the grid, two numbers per block, in order.
    #[wasm_bindgen(js_name = blockCoordinates)]
    pub fn block_coordinates(&self) -> Uint32Array {
        let v: Vec<u32> = self
            .inner
            .pattern
            .coordinates()
            .flat_map(|(i, j)| [i as u32, j as u32])
            .collect();
        Uint32Array::from(&v[..])
    }

    /// The matrix, row-major, zeros where no block is stored; a GpgpuError
    /// OUT_OF_MEMORY where WebAssembly memory cannot hold it beside what the page has
    /// there.
    #[wasm_bindgen(js_name = toDense)]
    pub fn to_dense(&self) -> JsResult<Float32Array> {
        let d = self.inner.to_dense().map_err(to_js_error)?;
        Ok(Float32Array::from(&d[..]))
    }
}

pair! {
    #[doc = " A·B for a BlockSparse A and a BlockSparse (or dense) B: the symbolic phase"]
    #[doc = " finds C's blocks, the GPU computes only the products of stored blocks."]
    #[doc = " WebGL and the CPU (WebGPU: multiplyBlockSparseAsync)."]
    multiply_block_sparse multiplyBlockSparse -> JsValue as "BlockSparse";
    #[doc = " `multiplyBlockSparse` as a Promise, on either backend."]
    multiply_block_sparse_async multiplyBlockSparseAsync as "Promise<BlockSparse>";
    (a: "BlockSparse", b: "BlockSparse | Matrix") => multiply_op
}

fn multiply_op(g: &JsGpgpu, a: &JsValue, b: &JsValue) -> Result<Op> {
    let a = lookup("a", a)?;
    let b = right_operand(&a, b)?;
    g.work(move |h| async move { Ok(product_value(sparse::multiply(&h, &a, &b).await?)) })
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// M^(2^times) for a square BlockSparse M, the atlases staying on the GPU
    /// between squarings. Resolves to { result, steps (per squaring: storedBlocks,
    /// nonzeroBlocks, density, products), denseAfter (the squaring after which
    /// every block was stored, or null) }.
    #[wasm_bindgen(
        js_name = squareBlockSparseRepeatedlyAsync,
        unchecked_return_type = "Promise<BlockSquarings>"
    )]
    pub fn square_block_sparse_repeatedly_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "BlockSparse")] m: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] times: JsValue,
    ) -> Promise {
        let args = lookup("m", &m).and_then(|m| {
            let max = crate::plan::passes::MAX_SQUARINGS as f64;
            Ok((
                m,
                shape::count("times", number_arg("times", &times)?, max)? as usize,
            ))
        });
        let handle = self.gpu.handle();
        promise(args.and_then(|(m, times)| {
            op(async move {
                let s = sparse::square_repeatedly(&handle, &m, times).await?;
                Ok(squarings_object(s).into())
            })
        }))
    }
}
