//! Gaussian elimination with partial pivoting (see [`crate::plan::lu`]): a step's
//! pivot and update, a factorization stopped part way, back substitution. WebGL
//! ping-pongs [A | B] between two textures (glsl/lu/pivot.frag, lu/eliminate.frag,
//! lu/back.frag); WebGPU and the CPU work in place (wgsl/lu/pivot.wgsl,
//! lu/update.wgsl, lu/back.wgsl; `plan::cpu::passes`).

pub mod webgl;
pub mod webgpu;

use crate::cpu;
use crate::engine::{foreign, Engine, Matrix};
use crate::error::Result;
use crate::kernels::Backend;
use crate::plan::lu::LuPlan;

impl Engine {
    /// Whether Gaussian elimination works in place (WebGPU, the CPU) or ping-pongs
    /// two textures (WebGL), so that `w_dst` and `state_dst` of
    /// [`lu_step`](Engine::lu_step) hold the result.
    pub fn lu_in_place(&self) -> bool {
        self.backend() != Backend::WebGl
    }

    /// Gaussian elimination's step k over [A | B] and the state row (see
    /// [`crate::plan::lu`]): WebGPU works in place on `w_src` and `state_src`
    /// (the destinations are ignored), WebGL writes `state_dst` and `w_dst`.
    pub fn lu_step(
        &mut self,
        p: &LuPlan,
        k: usize,
        [w_src, state_src, w_dst, state_dst]: [&Matrix; 4],
    ) -> Result<()> {
        match (self, w_src, state_src, w_dst, state_dst) {
            (Engine::WebGl(e), Matrix::Gl(w), Matrix::Gl(s), Matrix::Gl(wd), Matrix::Gl(sd)) => {
                webgl::step(e, p, k, [w, s, wd, sd])
            }
            (Engine::WebGpu(e), Matrix::Gpu(w), Matrix::Gpu(s), Matrix::Gpu(_), Matrix::Gpu(_)) => {
                webgpu::lu_step(e, p, k, [w, s])
            }
            (Engine::Cpu(e), Matrix::Cpu(w), Matrix::Cpu(s), Matrix::Cpu(_), Matrix::Cpu(_)) => {
                let p = *p;
                e.update([], [w, s], move |[], ws| cpu::passes::lu_step(&p, k, ws))
            }
            _ => Err(foreign()),
        }
    }

    /// Ends a factorization stopped after `steps` < n steps (WebGPU stores the
    /// last step's multipliers; WebGL's passes already have).
    pub fn lu_stop(&mut self, p: &LuPlan, steps: usize, [w, state]: [&Matrix; 2]) -> Result<()> {
        match (self, w, state) {
            (Engine::WebGl(_), Matrix::Gl(_), Matrix::Gl(_)) => Ok(()),
            (Engine::WebGpu(e), Matrix::Gpu(w), Matrix::Gpu(s)) => {
                if steps == 0 || steps == p.shape.n {
                    return Ok(());
                }
                webgpu::lu_stop(e, p, [w, s])
            }
            // Each CPU step has stored its own multipliers.
            (Engine::Cpu(_), Matrix::Cpu(_), Matrix::Cpu(_)) => Ok(()),
            _ => Err(foreign()),
        }
    }

    /// Back substitution over the eliminated [A | B] `w` into one of `x` (two
    /// n × nrhs matrices: WebGL ping-pongs them); returns which holds x.
    pub fn lu_back(&mut self, p: &LuPlan, w: &Matrix, [x0, x1]: [&Matrix; 2]) -> Result<usize> {
        match (self, w, x0, x1) {
            (Engine::WebGl(e), Matrix::Gl(w), Matrix::Gl(a), Matrix::Gl(b)) => {
                webgl::back(e, p, w, [a, b])
            }
            (Engine::WebGpu(e), Matrix::Gpu(w), Matrix::Gpu(a), Matrix::Gpu(_)) => {
                webgpu::lu_back(e, p, w, a).map(|()| 0)
            }
            (Engine::Cpu(e), Matrix::Cpu(w), Matrix::Cpu(x), Matrix::Cpu(_)) => {
                let p = *p;
                e.pass([w], [x], move |[w], [x]| cpu::passes::lu_back(&p, w, x))
                    .map(|()| 0)
            }
            _ => Err(foreign()),
        }
    }
}
