//! A batch of small products, C_s = A_s · B_s for every s, the matrices side by
//! side in atlases (see [`crate::plan::batched`]): one fragment (WebGL,
//! glsl/batched/batched_matmul.frag) or invocation (WebGPU, wgsl/batched/batched_matmul.wgsl) per
//! output entry, several matrices per workgroup; the CPU splits the batch among its
//! workers. A pass may be timed on the GPU (the kernel lab compares the learner's
//! pass with this one by the GPU clock).

pub mod webgl;
pub mod webgpu;

use crate::cpu::{passes, CpuEngine};
use crate::engine::{Engine, Forms, Matrix, Timer};
use crate::error::Result;
use crate::plan::batched::BatchedProduct;

impl Engine {
    /// A batch of small products: `out` (C's atlas) ← A_s · B_s for every s; the
    /// pass's timer when `timed` and the device grants GPU timing.
    pub fn batched_product(
        &mut self,
        p: &BatchedProduct,
        m: [&Matrix; 3],
        timed: bool,
    ) -> Result<Option<Timer>> {
        let p = *p;
        let forms = Forms {
            webgl: |e: &mut _, m| webgl::product(e, &p, m),
            webgpu: |e: &mut _, m, t: Option<&_>| webgpu::batched_product(e, &p, m, t),
            cpu: |e: &mut CpuEngine, [a, b, o]: [_; 3]| {
                e.pass([a, b], [o], move |ins, [o]| {
                    passes::batched_product(&p, ins, o)
                })
            },
        };
        self.by_backend_timed(m, timed, forms)
    }
}
