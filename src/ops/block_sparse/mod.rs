//! The numeric phase of a block-sparse product, C's stored blocks ← the block
//! products the symbolic phase listed (see [`crate::plan::blocks::Numeric`]), and
//! C's occupancy flags. WebGL: glsl/block_sparse/block_sparse.frag, glsl/block_sparse/block_flags.frag;
//! WebGPU: wgsl/block_sparse/block_sparse.wgsl, wgsl/block_sparse/block_flags.wgsl; CPU: `plan::cpu::passes`.

pub mod resident;
pub mod webgl;
pub mod webgpu;

use crate::cpu::{passes, CpuEngine};
use crate::engine::{Engine, Forms, Matrix, Timer};
use crate::error::Result;
use crate::plan::blocks::Numeric;

impl Engine {
    /// The numeric phase of a block-sparse product: `out` (C's atlas) ← the stored
    /// blocks of A·B (see [`crate::plan::blocks::Numeric`]); `m` is [A, B, index, out].
    pub fn block_product(
        &mut self,
        n: &Numeric,
        m: [&Matrix; 4],
        timed: bool,
    ) -> Result<Option<Timer>> {
        let n = *n;
        let forms = Forms {
            webgl: |e: &mut _, m| webgl::product(e, &n, m),
            webgpu: |e: &mut _, m, t: Option<&_>| webgpu::block_product(e, &n, m, t),
            cpu: |e: &mut CpuEngine, [a, b, i, o]: [_; 4]| {
                e.pass([a, b, i], [o], move |ins, [o]| {
                    passes::block_product(&n, ins, o)
                })
            },
        };
        self.by_backend_timed(m, timed, forms)
    }

    /// `flags` ← 1 for each stored block of the atlas `c` holding a nonzero, else 0.
    pub fn block_flags(&mut self, n: &Numeric, c: &Matrix, flags: &Matrix) -> Result<()> {
        let n = *n;
        let forms = Forms {
            webgl: |e: &mut _, [c, f]: [_; 2]| webgl::flags(e, &n, c, f),
            webgpu: |e: &mut _, [c, f]: [_; 2]| webgpu::block_flags(e, &n, c, f),
            cpu: |e: &mut CpuEngine, [c, f]: [_; 2]| {
                e.pass([c], [f], move |[c], [f]| passes::block_flags(&n, c, f))
            },
        };
        self.by_backend([c, flags], forms)
    }
}
