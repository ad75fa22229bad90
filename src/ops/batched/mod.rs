//! A batch of small products, C_s = A_s · B_s for every s, the matrices side by
//! side in atlases (see [`crate::plan::batched`]): one fragment (WebGL,
//! glsl/batched/batched_matmul.frag) or invocation (WebGPU, wgsl/batched/batched_matmul.wgsl) per
//! output entry, several matrices per workgroup; the CPU splits the batch among its
//! workers.

pub mod webgl;
pub mod webgpu;

use crate::cpu;
use crate::engine::{foreign, Engine, Matrix};
use crate::error::Result;
use crate::plan::batched::BatchedProduct;

impl Engine {
    /// A batch of small products: `out` (C's atlas) ← A_s · B_s for every s.
    pub fn batched_product(&mut self, p: &BatchedProduct, [a, b, out]: [&Matrix; 3]) -> Result<()> {
        match (self, a, b, out) {
            (Engine::WebGl(e), Matrix::Gl(a), Matrix::Gl(b), Matrix::Gl(o)) => {
                webgl::product(e, p, [a, b, o])
            }
            (Engine::WebGpu(e), Matrix::Gpu(a), Matrix::Gpu(b), Matrix::Gpu(o)) => {
                webgpu::batched_product(e, p, [a, b, o])
            }
            (Engine::Cpu(e), Matrix::Cpu(a), Matrix::Cpu(b), Matrix::Cpu(o)) => {
                let p = *p;
                e.pass([a, b], [o], move |ins, [o]| {
                    cpu::passes::batched_product(&p, ins, o)
                })
            }
            _ => Err(foreign()),
        }
    }
}
