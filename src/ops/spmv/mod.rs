//! Sparse matrix × vector (CSR): y ← A·x, the matrix's arrays and both vectors as
//! lists (see [`crate::plan::sparse`]). WebGL: one fragment per row
//! (glsl/spmv/spmv.frag). WebGPU: one invocation per row (wgsl/spmv/spmv.wgsl), and rows
//! longer than a threshold a workgroup each (wgsl/spmv/long.wgsl), in one timed
//! span. CPU: the rows split among the workers (`plan::cpu::passes::spmv`).

pub mod webgl;
pub mod webgpu;

use crate::cpu::{passes, CpuEngine};
use crate::engine::{foreign, Engine, Forms, Matrix, Timer};
use crate::error::Result;
use crate::kernels::Backend;

impl Engine {
    /// Sparse matrix × vector: `y` ← A·x for a CSR A of `rows` rows, `m` = [values,
    /// columns, offsets, x, y], every operand a list (see [`crate::plan::sparse`]);
    /// `long` (WebGPU only: the list of rows longer than a threshold, their count, the
    /// threshold) has those rows done by a workgroup each.
    pub fn spmv(
        &mut self,
        rows: usize,
        m: [&Matrix; 5],
        long: Option<(&Matrix, usize, usize)>,
        timed: bool,
    ) -> Result<Option<Timer>> {
        let long = match long {
            Some((Matrix::Gpu(l), count, threshold)) => Some((l, count, threshold)),
            Some(_) if self.backend() == Backend::WebGpu => return Err(foreign()),
            // The other backends have no workgroups to share a long row.
            _ => None,
        };
        let forms = Forms {
            webgl: |e: &mut _, m| webgl::spmv(e, rows, m),
            webgpu: |e: &mut _, m, t: Option<&_>| webgpu::spmv(e, rows, m, long, t),
            cpu: |e: &mut CpuEngine, [v, c, o, x, y]: [_; 5]| {
                e.pass([v, c, o, x], [y], move |ins, [y]| {
                    passes::spmv(rows, ins, y)
                })
            },
        };
        self.by_backend_timed(m, timed, forms)
    }
}
