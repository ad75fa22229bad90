//! The numeric phase of a block-sparse product, C's stored blocks ← the block
//! products the symbolic phase listed (see [`crate::plan::blocks::Numeric`]), and
//! C's occupancy flags. WebGL: glsl/block_sparse/block_sparse.frag, glsl/block_sparse/block_flags.frag;
//! WebGPU: wgsl/block_sparse/block_sparse.wgsl, wgsl/block_sparse/block_flags.wgsl; CPU: `plan::cpu::passes`.

pub mod webgl;
pub mod webgpu;

use crate::cpu;
use crate::engine::{foreign, gl_timed, gpu_timed, Engine, Matrix, Timer};
use crate::error::Result;
use crate::plan::blocks::Numeric;

impl Engine {
    /// The numeric phase of a block-sparse product: `out` (C's atlas) ← the stored
    /// blocks of A·B (see [`crate::plan::blocks::Numeric`]).
    pub fn block_product(
        &mut self,
        n: &Numeric,
        [a, b, index, out]: [&Matrix; 4],
        timed: bool,
    ) -> Result<Option<Timer>> {
        match (self, a, b, index, out) {
            (Engine::WebGl(e), Matrix::Gl(a), Matrix::Gl(b), Matrix::Gl(i), Matrix::Gl(o)) => {
                gl_timed(e, timed, |e| webgl::product(e, n, [a, b, i, o]))
            }
            (Engine::WebGpu(e), Matrix::Gpu(a), Matrix::Gpu(b), Matrix::Gpu(i), Matrix::Gpu(o)) => {
                gpu_timed(e, timed, |e, t| {
                    webgpu::block_product(e, n, [a, b, i, o], t)
                })
            }
            (Engine::Cpu(e), Matrix::Cpu(a), Matrix::Cpu(b), Matrix::Cpu(i), Matrix::Cpu(o)) => {
                let n = *n;
                e.pass([a, b, i], [o], move |ins, [o]| {
                    cpu::passes::block_product(&n, ins, o)
                })
                .map(|()| None)
            }
            _ => Err(foreign()),
        }
    }

    /// `flags` ← 1 for each stored block of the atlas `c` holding a nonzero, else 0.
    pub fn block_flags(&mut self, n: &Numeric, c: &Matrix, flags: &Matrix) -> Result<()> {
        match (self, c, flags) {
            (Engine::WebGl(e), Matrix::Gl(c), Matrix::Gl(f)) => webgl::flags(e, n, c, f),
            (Engine::WebGpu(e), Matrix::Gpu(c), Matrix::Gpu(f)) => webgpu::block_flags(e, n, c, f),
            (Engine::Cpu(e), Matrix::Cpu(c), Matrix::Cpu(f)) => {
                let n = *n;
                e.pass([c], [f], move |[c], [f]| cpu::passes::block_flags(&n, c, f))
            }
            _ => Err(foreign()),
        }
    }
}
