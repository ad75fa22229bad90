//! Fox's and Cannon's algorithms for JavaScript (see `blocks::mesh`): Promise
//! forms only, on either backend. Each resolves to the product with the run's
//! steps as plain objects, for a page to replay message by message.

use js_sys::{Array, Float32Array, Object, Promise};
use wasm_bindgen::prelude::*;

use crate::blocks::mesh::{self, MeshRun};
use crate::error::Result;
use crate::js::args::{matrix_pair, number_arg, objects, set};
use crate::js::{export, op, promise, JsGpgpu};
use crate::plan::mesh::{mesh_side, Algorithm, Index, MeshStep};

#[wasm_bindgen(typescript_custom_section)]
const TS_MESH: &str = r#"
/** A node [i, j] of the q×q mesh, or a block [r, c] of a matrix. */
export type MeshIndex = [number, number];
/** What a node holds after a step: its block of A and its block of B. */
export interface MeshHold { node: MeshIndex; a: MeshIndex; b: MeshIndex; }
/** One point-to-point message; bytes = rows × cols × 4 of the block. */
export interface MeshSend { from: MeshIndex; to: MeshIndex; matrix: "A" | "B";
  block: MeshIndex; bytes: number; }
export interface MeshStep { label: string; kind: "skew" | "broadcast" | "multiply" | "roll";
  holds: MeshHold[]; sends: MeshSend[]; }
/** `result`: A·B (n×n); `messages`, `bytes`: totals over the steps;
 *  `blockProducts`: the local block products (q³). */
export interface MeshResult { result: Float32Array; q: number; steps: MeshStep[];
  messages: number; bytes: number; blockProducts: number; }
"#;

fn index(i: Index) -> Array {
    i.iter().map(|&v| JsValue::from(v as u32)).collect()
}

fn step_object(step: &MeshStep) -> Object {
    let o = Object::new();
    set(&o, "label", step.label.as_str());
    set(&o, "kind", step.kind.name());
    let holds = objects(&step.holds, |h, hold| {
        set(hold, "node", index(h.node));
        set(hold, "a", index(h.a));
        set(hold, "b", index(h.b));
    });
    set(&o, "holds", holds);
    let sends = objects(&step.messages, |m, send| {
        set(send, "from", index(m.from));
        set(send, "to", index(m.to));
        set(send, "matrix", m.matrix.name());
        set(send, "block", index(m.block));
        set(send, "bytes", m.bytes as f64);
    });
    set(&o, "sends", sends);
    o
}

fn result_object(run: &MeshRun) -> Object {
    let plan = &run.plan;
    let o = Object::new();
    set(&o, "result", Float32Array::from(&run.result[..]));
    set(&o, "q", plan.q as u32);
    let steps: Array = plan
        .steps
        .iter()
        .map(|s| JsValue::from(step_object(s)))
        .collect();
    set(&o, "steps", steps);
    set(&o, "messages", plan.messages() as f64);
    set(&o, "bytes", plan.bytes() as f64);
    set(&o, "blockProducts", plan.block_products() as f64);
    o
}

impl JsGpgpu {
    /// Reads the arguments now; the Promise rejects with their error, or runs the
    /// algorithm and resolves to its MeshResult.
    fn mesh_async(&self, algorithm: Algorithm, [n, a, b, q]: [&JsValue; 4]) -> Promise {
        let read = || -> Result<_> {
            let n = self.gpu.dim("n", number_arg("n", n)?)?;
            let q = mesh_side(number_arg("q", q)?, n)?;
            let (a, b) = matrix_pair(("a", a), ("b", b))?;
            Ok((n, a, b, q))
        };
        let args = read();
        let handle = self.gpu.handle();
        promise(args.and_then(|(n, a, b, q)| {
            op(async move {
                let run = mesh::run(&handle, algorithm, n, &a, &b, q).await?;
                Ok(result_object(&run).into())
            })
        }))
    }
}

/// Fox's and Cannon's exports: the same parameters and result, one algorithm each.
macro_rules! mesh_exports {
    ($($(#[doc = $doc:tt])* $name:ident $js:ident $algorithm:ident;)*) => {$(
        export! {
            $(#[doc = $doc])*
            $name $js as "Promise<MeshResult>" -> Promise;
            [&self] (n: "number", a: "Matrix", b: "Matrix", q: "number")
                => self.mesh_async(Algorithm::$algorithm, [&n, &a, &b, &q])
        }
    )*};
}

mesh_exports! {
    #[doc = " A·B by Fox's algorithm, simulated on a q×q mesh of virtual nodes (q a whole"]
    #[doc = " number from 1 to 8, q ≤ n): at stage k node (i, (i+k) mod q) broadcasts its A"]
    #[doc = " block along row i, every node multiplies it into its C on the GPU, and B rolls"]
    #[doc = " up one node. Resolves to { result, q, steps, messages, bytes, blockProducts }."]
    fox_async foxAsync Fox;
    #[doc = " A·B by Cannon's algorithm on a q×q mesh: a skew (row i of A left by i, column"]
    #[doc = " j of B up by j), then q multiply steps with A rolling left and B up between"]
    #[doc = " them. Resolves like foxAsync."]
    cannon_async cannonAsync Cannon;
}
