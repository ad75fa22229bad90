//! Block-sparse matrices resident on the GPU, for JavaScript (WebGPU only): the
//! class `GpuBlockSparse`, made by `gpu.generateBlockSparseAsync` (seeded, exactly k
//! blocks), `gpu.gpuBlockSparse` then `writeBlocks` in parts, or
//! `gpu.uploadBlockSparse`; multiplied by `gpu.multiplyGpuBlockSparseAsync`; read
//! back in parts by `readBlocksAsync`. See [`crate::blocks::resident`].

use super::registry::Registry;
use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Float32Array, Float64Array, Object, Promise, Reflect, Uint32Array};
use wasm_bindgen::prelude::*;

use super::args::{known_keys, number_arg, options_object, set, string_option, to_js_error};
use super::{export, op, promise, JsGpgpu, JsResult};
use crate::blocks::resident::{self, coordinates, GpuBlocks, NumericPath};
use crate::engine::Handle;
use crate::error::{GpgpuError, Result};
use crate::plan::blockgen::{reference_block, Generated};
use crate::plan::shape;

#[wasm_bindgen(typescript_custom_section)]
const TS_GPU_BLOCKS: &str = r#"
/** Blocks read back from a GpuBlockSparse: each block's row and column on the block
 *  grid, and its blockSize² values, row-major, block after block. */
export interface GpuBlocksPart { rows: Uint32Array; cols: Uint32Array; data: Float32Array; }
"#;

/// A GpuBlockSparse's matrix, and how many products in flight were given it: their
/// work reads it when it runs, after the call returned, so a writeBlocks meanwhile
/// is refused as busy rather than changing the product.
struct Cell {
    m: RefCell<GpuBlocks>,
    readers: std::cell::Cell<u32>,
}

impl std::ops::Deref for Cell {
    type Target = RefCell<GpuBlocks>;
    fn deref(&self) -> &RefCell<GpuBlocks> {
        &self.m
    }
}

/// An operand of a product in flight, counted from the call until the work is done.
struct Reading(Rc<Cell>);

impl Reading {
    fn new(m: Rc<Cell>) -> Reading {
        m.readers.set(m.readers.get() + 1);
        Reading(m)
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        self.0.readers.set(self.0.readers.get() - 1);
    }
}

thread_local! {
    static LIVE: Registry<Cell> = Registry::new(
        "__gpuBlockSparseId",
        "a GpuBlockSparse (gpu.generateBlockSparseAsync, gpu.gpuBlockSparse or \
         gpu.uploadBlockSparse)",
        "this GpuBlockSparse was freed (free() was called on it): make a new one",
    );
}

/// A square block-sparse matrix whose map and blocks live in WebGPU buffers (the
/// CUDA report's format, past what WebAssembly memory holds). Call `free()` when
/// done: its buffers go to the device's spares, which later products reuse
/// (`gpu.trim()` releases them).
#[wasm_bindgen(js_name = GpuBlockSparse)]
pub struct JsGpuBlockSparse {
    id: u32,
    /// None only while it is dropped.
    inner: Option<Rc<Cell>>,
    handle: Handle,
}

impl JsGpuBlockSparse {
    fn cell(&self) -> &Cell {
        self.inner.as_deref().expect("set until the drop")
    }
}

impl Drop for JsGpuBlockSparse {
    fn drop(&mut self) {
        let _ = LIVE.try_with(|live| live.forget(self.id));
        // Its last holder hands the buffers to the device's spares, for the next
        // product's C (`resident::give_back`); a call in flight holds it until done.
        if let Some(cell) = self.inner.take().and_then(|c| Rc::try_unwrap(c).ok()) {
            let m = cell.m.into_inner();
            let _ = self.handle.with(|e| {
                resident::give_back(e, m);
                Ok(())
            });
        }
    }
}

fn wrap(m: GpuBlocks, handle: Handle) -> JsValue {
    let (id, inner) = LIVE.with(|live| {
        live.register(Cell {
            m: RefCell::new(m),
            readers: std::cell::Cell::new(0),
        })
    });
    let inner = Some(inner);
    let value = JsValue::from(JsGpuBlockSparse { id, inner, handle });
    LIVE.with(|live| live.tag(&value, id));
    value
}

fn lookup(name: &str, value: &JsValue) -> Result<Rc<Cell>> {
    LIVE.with(|live| live.find(name, value))
}

/// What a call on a matrix another call is still using says.
fn busy(name: &str) -> GpgpuError {
    GpgpuError::BadArgument {
        name: name.into(),
        detail: "a call in flight is using this GpuBlockSparse: await it first".into(),
    }
}

fn whole(name: &str, value: &JsValue, max: f64) -> Result<usize> {
    Ok(shape::count(name, number_arg(name, value)?, max)? as usize)
}

/// n and blockSize, read.
fn size_args(n: &JsValue, bs: &JsValue) -> Result<(usize, usize)> {
    let n = whole("n", n, u32::MAX as f64)?;
    let bs = crate::plan::blocks::block_size(number_arg("blockSize", bs)?)?;
    resident::grid(n, bs)?;
    Ok((n, bs))
}

/// `{ numeric }` of multiplyGpuBlockSparseAsync: 'auto' (the default), 'sparse' or 'dense'.
fn numeric_path(options: &JsValue) -> Result<NumericPath> {
    const ACCEPTED: &str = "'auto', 'sparse' or 'dense'";
    known_keys(options, &["numeric"], "{ numeric: 'dense' }")?;
    let Some(obj) = options_object(options, "options", "{ numeric: 'dense' }")? else {
        return Ok(NumericPath::Auto);
    };
    if Reflect::get(obj, &"numeric".into()).is_ok_and(|v| v.is_undefined()) {
        return Ok(NumericPath::Auto);
    }
    match string_option(obj, "numeric", ACCEPTED)?.as_str() {
        "auto" => Ok(NumericPath::Auto),
        "sparse" => Ok(NumericPath::Sparse),
        "dense" => Ok(NumericPath::Dense),
        other => Err(GpgpuError::BadArgument {
            name: "options.numeric".into(),
            detail: format!("'{other}': use {ACCEPTED}"),
        }),
    }
}

/// Getters of a count or size the matrix keeps, as `jsName rust_name => method` rows.
macro_rules! numbers {
    ($($(#[doc = $doc:tt])* $js:ident $name:ident => $method:ident),* $(,)?) => {
        #[wasm_bindgen(js_class = GpuBlockSparse)]
        impl JsGpuBlockSparse {
            $($(#[doc = $doc])*
            #[wasm_bindgen(getter, js_name = $js)]
            pub fn $name(&self) -> f64 {
                self.cell().borrow().$method() as f64
            })*
        }
    };
}

numbers! {
    n n => n,
    blockSize block_size => block_size,
    #[doc = " Blocks along a side (n / blockSize)."]
    gridSize grid_size => grid,
    storedBlocks stored_blocks => stored,
    capacity capacity => capacity,
    #[doc = " For a product: bytes of the temporary GPU buffers the call held besides A, B"]
    #[doc = " and C (the symbolic phase's, and the dense forms where it ran dense)."]
    scratchBytes scratch_bytes => scratch_bytes,
    #[doc = " Bytes of the GPU buffers this matrix holds."]
    gpuBytes gpu_bytes => gpu_bytes,
}

#[wasm_bindgen(js_class = GpuBlockSparse)]
impl JsGpuBlockSparse {
    /// Block products computed, for a product (else undefined).
    #[wasm_bindgen(getter, js_name = blockProducts)]
    pub fn block_products(&self) -> Option<f64> {
        self.cell().borrow().products().map(|p| p as f64)
    }

    /// For a product: ms of its symbolic phase (until C's size was known) and of its
    /// numeric phase (until the GPU finished), as [symbolic, numeric].
    #[wasm_bindgen(getter, js_name = phaseMs)]
    pub fn phase_ms(&self) -> Option<Vec<f64>> {
        self.cell().borrow().phase_ms().map(|p| p.to_vec())
    }

    /// For a product: 'dense' if its numeric phase ran on the dense product kernel,
    /// else 'sparse' (undefined for other matrices).
    #[wasm_bindgen(getter, js_name = numericPath)]
    pub fn numeric_path(&self) -> Option<String> {
        let dense = self.cell().borrow().ran_dense()?;
        Some(if dense { "dense" } else { "sparse" }.into())
    }

    /// Adds blocks after those written before: `rows[b]`, `cols[b]` on the block grid,
    /// data blockSize² values per block, row-major. The blocks of all parts come in
    /// increasing row-major order, each once.
    #[wasm_bindgen(js_name = writeBlocks)]
    pub fn write_blocks(&self, rows: &[u32], cols: &[u32], data: &[f32]) -> JsResult<()> {
        let mut m = match self.cell().readers.get() {
            0 => self.cell().try_borrow_mut().ok(),
            _ => None,
        }
        .ok_or_else(|| to_js_error(busy("this")))?;
        self.handle
            .with(|e| m.write(e, rows, cols, data))
            .map_err(to_js_error)
    }

    /// Blocks `start..start + count` (by slot: a product's in row-major order of the
    /// cells) with their coordinates; the values come as a Float32Array outside
    /// WebAssembly memory.
    #[wasm_bindgen(js_name = readBlocksAsync, unchecked_return_type = "Promise<GpuBlocksPart>")]
    pub fn read_blocks_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] start: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] count: JsValue,
    ) -> Promise {
        let read = || {
            let max = u32::MAX as f64;
            let (start, count) = (whole("start", &start, max)?, whole("count", &count, max)?);
            let m = self.cell().try_borrow().map_err(|_| busy("this"))?;
            self.handle.with(|e| m.start_read(e, start, count))
        };
        promise(read().and_then(|r| {
            op(async move {
                let data = match r.values {
                    Some(v) => v.wait_js().await?,
                    None => Float32Array::new_with_length(0),
                };
                let (rows, cols) = coordinates(r.cells, r.grid).await?;
                let o = Object::new();
                set(&o, "rows", Uint32Array::from(&rows[..]));
                set(&o, "cols", Uint32Array::from(&cols[..]));
                set(&o, "data", data);
                Ok(o.into())
            })
        }))
    }

    /// Block (row, col) of A·B in float64, where A and B are the matrices
    /// `generateBlockSparseAsync(n, blockSize, kA, seedA)` and `(…, kB, seedB)`
    /// make: computed on the CPU from the generator (2·n/blockSize lookups), to
    /// check a product's blocks without reading A and B back.
    #[wasm_bindgen(js_name = generatedProductBlock)]
    #[allow(clippy::too_many_arguments)]
    pub fn generated_product_block(
        n: f64,
        #[wasm_bindgen(js_name = blockSize)] block_size: f64,
        #[wasm_bindgen(js_name = kA)] k_a: f64,
        #[wasm_bindgen(js_name = seedA)] seed_a: f64,
        #[wasm_bindgen(js_name = kB)] k_b: f64,
        #[wasm_bindgen(js_name = seedB)] seed_b: f64,
        row: f64,
        col: f64,
    ) -> JsResult<Float64Array> {
        let block = || {
            let (n, bs) = size_args(&n.into(), &block_size.into())?;
            let t = resident::grid(n, bs)?;
            let max = (t * t) as f64;
            let g = |k: f64, seed: f64, what: [&str; 2]| -> Result<Generated> {
                let k = shape::count(what[0], k, max)? as u32;
                let seed = shape::count(what[1], seed, u32::MAX as f64)? as u32;
                Ok(Generated::new(t as u32, bs as u32, k, seed))
            };
            let (a, b) = (
                g(k_a, seed_a, ["kA", "seedA"])?,
                g(k_b, seed_b, ["kB", "seedB"])?,
            );
            let last = (t - 1) as f64;
            let (i, j) = (
                shape::count("row", row, last)?,
                shape::count("col", col, last)?,
            );
            Ok(Float64Array::from(
                &reference_block(&a, &b, i as u32, j as u32).0[..],
            ))
        };
        block().map_err(to_js_error)
    }
}

export! {
    #[doc = " An n×n GpuBlockSparse of blockSize blocks with exactly k distinct nonzero"]
    #[doc = " blocks at seeded random places, values uniform in [-1, 1): made on the GPU"]
    #[doc = " (WebGPU only). Resolves once made."]
    generate_block_sparse_async generateBlockSparseAsync as "Promise<GpuBlockSparse>" -> Promise;
    [&self] (n: "number", bs as blockSize: "number", k: "number", seed: "number") => {
        let args = || {
            let (n, bs) = size_args(&n, &bs)?;
            let max = u32::MAX as f64;
            Ok((
                n,
                bs,
                whole("k", &k, max)?,
                whole("seed", &seed, max)? as u32,
            ))
        };
        promise(args().and_then(|(n, bs, k, seed)| {
            self.work(move |h| async move {
                let m = resident::generate(&h, n, bs, k, seed).await?;
                Ok(wrap(m, h))
            })
        }))
    }
}

export! {
    #[doc = " An n×n GpuBlockSparse of blockSize blocks with room for `capacity` blocks and"]
    #[doc = " none stored: `writeBlocks` adds them (WebGPU only)."]
    gpu_block_sparse gpuBlockSparse as "GpuBlockSparse" -> JsResult<JsValue>;
    [&self] (n: "number", bs as blockSize: "number", capacity: "number") => {
        let make = || {
            let (n, bs) = size_args(&n, &bs)?;
            let capacity = whole("capacity", &capacity, u32::MAX as f64)?;
            self.gpu
                .handle()
                .with(|e| GpuBlocks::empty(e, n, bs, capacity))
        };
        self.made(make())
    }
}

export! {
    #[doc = " A square BlockSparse (its side a multiple of its block size) copied into a"]
    #[doc = " GpuBlockSparse (WebGPU only)."]
    upload_block_sparse uploadBlockSparse as "GpuBlockSparse" -> JsResult<JsValue>;
    [&self] (m: "BlockSparse") => {
        let make = || {
            let m = super::blocks::lookup("m", &m)?;
            self.gpu.handle().with(|e| resident::upload(e, &m))
        };
        self.made(make())
    }
}

impl JsGpgpu {
    /// A GpuBlockSparse made on this Gpgpu, as JavaScript gets it.
    fn made(&self, m: Result<GpuBlocks>) -> JsResult<JsValue> {
        m.map(|m| wrap(m, self.gpu.handle())).map_err(to_js_error)
    }
}

#[wasm_bindgen(js_class = Gpgpu)]
impl JsGpgpu {
    /// A·B for GpuBlockSparse A and B of one size and block size, on the GPU: the
    /// symbolic and numeric phases both run there. Resolves to C (its
    /// `blockProducts` counted) once the GPU has computed it. `options.numeric`:
    /// 'dense' writes A and B out dense and runs the dense product kernel, 'sparse'
    /// sums each block of C over the list of its block products; 'auto' (the default)
    /// takes the one whose time, as measured on an H100 per block product and per n³,
    /// is shorter, where the dense forms fit the device.
    #[wasm_bindgen(
        js_name = multiplyGpuBlockSparseAsync,
        unchecked_return_type = "Promise<GpuBlockSparse>"
    )]
    // A and B are counted as read from the call (Reading) and borrowed while the work
    // runs: a writeBlocks meanwhile is refused as busy.
    #[allow(clippy::await_holding_refcell_ref)]
    pub fn multiply_gpu_block_sparse_async(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GpuBlockSparse")] a: JsValue,
        #[wasm_bindgen(unchecked_param_type = "GpuBlockSparse")] b: JsValue,
        #[wasm_bindgen(
            unchecked_optional_param_type = "{ numeric?: 'auto' | 'sparse' | 'dense' }"
        )]
        options: JsValue,
    ) -> Promise {
        let args = || {
            let (a, b) = (lookup("a", &a)?, lookup("b", &b)?);
            Ok((Reading::new(a), Reading::new(b), numeric_path(&options)?))
        };
        promise(args().and_then(|(a, b, path)| {
            self.work(move |h| async move {
                let (ra, rb) = (a.0.try_borrow(), b.0.try_borrow());
                let (ra, rb) = (ra.map_err(|_| busy("a"))?, rb.map_err(|_| busy("b"))?);
                let c = resident::multiply(&h, &ra, &rb, path).await?;
                Ok(wrap(c, h))
            })
        }))
    }
}
