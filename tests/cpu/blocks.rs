//! Partitioned matrices on the CPU backend: tiled products, block-sparse products,
//! repeated squaring, the JavaScript class, errors and the leak check
//! (tests/common/blocks.rs); Fox's and Cannon's algorithms (tests/common/mesh.rs); a product
//! whose result no BlockSparse could hold.

use crate::common::*;
use gpgpu_matrix::js::blocks::JsBlockSparse;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

block_tests!(Setup::Cpu);
mesh_tests!(Backend::Cpu);

/// Calls `obj.method()` on a JS object.
fn call0(obj: &JsValue, method: &str) -> Result<JsValue, JsValue> {
    let f: js_sys::Function = prop(obj, method).dyn_into().unwrap();
    f.call0(obj)
}

/// A rows x cols BlockSparse (one of them 1) in blocks of `bs`, with one nonzero, at
/// its first entry.
fn vector(rows: f64, cols: f64, bs: f64) -> JsValue {
    let mut data = vec![0f32; (rows * cols) as usize];
    data[0] = 1.0;
    JsBlockSparse::from_dense(num(rows), num(cols), js(&data), num(bs)).unwrap()
}

/// A block-sparse product's result has A's rows and B's columns: the outer product of
/// two 30000-long vectors is a 30000 x 30000 BlockSparse, whose dense form (3.6 GB) no
/// wasm32 array holds, and that of two 65536-long vectors in blocks of 1 has 2^32
/// grid blocks, past wasm32's usize. fromDense and fromBlocks refuse such shapes; the
/// product made them, and then toDense() panicked ("capacity overflow", RuntimeError:
/// unreachable), as occupancy(), density() and productPlan did on the larger grid.
/// The product refuses such a result as fromBlocks refuses such a shape.
#[wasm_bindgen_test]
async fn a_block_sparse_product_no_block_sparse_could_hold_is_refused() {
    let g = js_on(Backend::Cpu).await;
    for (n, bs) in [(30000.0, 1024.0), (65536.0, 1.0)] {
        let (a, b) = (vector(n, 1.0, bs), vector(1.0, n, bs));
        let shape = format!("one {n}x{n} matrix");
        let plan = JsBlockSparse::product_plan(a.clone(), b.clone()).map(JsValue::from);
        assert_js_error(plan, "SIZE_OVER_LIMIT", &shape);
        let c = g.multiply_block_sparse(a.clone(), b.clone());
        assert_js_error(c, "SIZE_OVER_LIMIT", &shape);
        let c = settle(g.multiply_block_sparse_async(a, b)).await;
        assert_js_error(c, "SIZE_OVER_LIMIT", &shape);
    }
    // One whose dense form fits still runs, and says what it is.
    let (a, b) = (vector(20000.0, 1.0, 1024.0), vector(1.0, 20000.0, 1024.0));
    let c = g.multiply_block_sparse(a, b).unwrap();
    assert_eq!(get(&c, "nonzeroBlocks"), 1.0);
    assert_eq!(call0(&c, "density").unwrap().as_f64(), Some(1.0 / 400.0));
    let occupancy: js_sys::Uint8Array = call0(&c, "occupancy").unwrap().dyn_into().unwrap();
    assert_eq!(occupancy.length(), 400);
}

// GPU-resident block-sparse matrices: WebGPU only, an error here.
gpu_block_tests!(errors: Backend::Cpu);
