//! Sparse matrix × vector (CSR): y ← A·x, the matrix's arrays and both vectors as
//! lists (see [`crate::plan::sparse`]). WebGL: one fragment per row
//! (glsl/spmv/spmv.frag). WebGPU: one invocation per row (wgsl/spmv/spmv.wgsl), and rows
//! longer than a threshold a workgroup each (wgsl/spmv/long.wgsl), in one timed
//! span. CPU: the rows split among the workers (`plan::cpu::passes::spmv`).

pub mod webgl;
pub mod webgpu;

use crate::cpu;
use crate::engine::{foreign, gl_timed, gpu_timed, Engine, Matrix, Timer};
use crate::error::Result;

impl Engine {
    /// Sparse matrix × vector: `y` ← A·x for a CSR A of `rows` rows, every operand a
    /// list (see [`crate::plan::sparse`]); `long` (WebGPU only: the list of rows longer
    /// than a threshold, their count, the threshold) has those rows done by a
    /// workgroup each.
    pub fn spmv(
        &mut self,
        rows: usize,
        [values, columns, offsets, x, y]: [&Matrix; 5],
        long: Option<(&Matrix, usize, usize)>,
        timed: bool,
    ) -> Result<Option<Timer>> {
        match (self, values, columns, offsets, x, y) {
            (
                Engine::WebGl(e),
                Matrix::Gl(v),
                Matrix::Gl(c),
                Matrix::Gl(o),
                Matrix::Gl(x),
                Matrix::Gl(y),
            ) => gl_timed(e, timed, |e| webgl::spmv(e, rows, [v, c, o, x, y])),
            (
                Engine::WebGpu(e),
                Matrix::Gpu(v),
                Matrix::Gpu(c),
                Matrix::Gpu(o),
                Matrix::Gpu(x),
                Matrix::Gpu(y),
            ) => {
                let long = match long {
                    Some((Matrix::Gpu(l), count, threshold)) => Some((l, count, threshold)),
                    Some(_) => return Err(foreign()),
                    None => None,
                };
                gpu_timed(e, timed, |e, t| {
                    webgpu::spmv(e, rows, [v, c, o, x, y], long, t)
                })
            }
            // The CPU has no workgroups to share a long row: `long` is the GPU's.
            (
                Engine::Cpu(e),
                Matrix::Cpu(v),
                Matrix::Cpu(c),
                Matrix::Cpu(o),
                Matrix::Cpu(x),
                Matrix::Cpu(y),
            ) => e
                .pass([v, c, o, x], [y], move |ins, [y]| {
                    cpu::passes::spmv(rows, ins, y)
                })
                .map(|()| None),
            _ => Err(foreign()),
        }
    }
}
