//! Gaussian elimination with partial pivoting (see [`crate::plan::lu`]): a step's
//! pivot and update, a factorization stopped part way, back substitution. WebGL
//! ping-pongs [A | B] between two textures (glsl/lu/pivot.frag, lu/eliminate.frag,
//! lu/back.frag); WebGPU and the CPU work in place (wgsl/lu/pivot.wgsl,
//! lu/update.wgsl, lu/back.wgsl; `plan::cpu::passes`).

pub mod webgl;
pub mod webgpu;

use crate::cpu::{passes, CpuEngine};
use crate::engine::{Engine, Forms, Matrix};
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
    /// [`crate::plan::lu`]), `m` = [w_src, state_src, w_dst, state_dst]: WebGPU and
    /// the CPU work in place on `w_src` and `state_src` (the destinations are
    /// ignored), WebGL writes `state_dst` and `w_dst`.
    pub fn lu_step(&mut self, p: &LuPlan, k: usize, m: [&Matrix; 4]) -> Result<()> {
        let p = *p;
        let forms = Forms {
            webgl: |e: &mut _, m| webgl::step(e, &p, k, m),
            webgpu: |e: &mut _, [w, s, _, _]: [_; 4]| webgpu::lu_step(e, &p, k, [w, s]),
            cpu: |e: &mut CpuEngine, [w, s, _, _]: [_; 4]| {
                e.pass_with([], [w, s], None, move |[], ws| passes::lu_step(&p, k, ws))
            },
        };
        self.by_backend(m, forms)
    }

    /// Ends a factorization stopped after `steps` < n steps (WebGPU stores the
    /// last step's multipliers; WebGL's passes and each CPU step already have).
    pub fn lu_stop(&mut self, p: &LuPlan, steps: usize, m: [&Matrix; 2]) -> Result<()> {
        let stopped = steps > 0 && steps < p.shape.n;
        let forms = Forms {
            webgl: |_: &mut _, _| Ok(()),
            webgpu: |e: &mut _, m| match stopped {
                true => webgpu::lu_stop(e, p, m),
                false => Ok(()),
            },
            cpu: |_: &mut _, _| Ok(()),
        };
        self.by_backend(m, forms)
    }

    /// Back substitution over the eliminated [A | B] `w` into one of `x` (two
    /// n × nrhs matrices: WebGL ping-pongs them); returns which holds x.
    pub fn lu_back(&mut self, p: &LuPlan, w: &Matrix, [x0, x1]: [&Matrix; 2]) -> Result<usize> {
        let p = *p;
        let forms = Forms {
            webgl: |e: &mut _, [w, a, b]: [_; 3]| webgl::back(e, &p, w, [a, b]),
            webgpu: |e: &mut _, [w, a, _]: [_; 3]| webgpu::lu_back(e, &p, w, a).map(|()| 0),
            cpu: |e: &mut CpuEngine, [w, x, _]: [_; 3]| {
                e.pass([w], [x], move |[w], [x]| passes::lu_back(&p, w, x))
                    .map(|()| 0)
            },
        };
        self.by_backend([w, x0, x1], forms)
    }
}
