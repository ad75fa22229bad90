//! The batched SVD by one-sided Jacobi (see [`crate::plan::svd`]). WebGPU and the
//! CPU run a whole batch's sweeps in one dispatch or pass (wgsl/svd/jacobi.wgsl, an
//! invocation per column); WebGL, whose fragments cannot share a sweep, runs round
//! by round: the pairs' rotations, the round applied, what is left to rotate, and
//! the sorted results (glsl/svd_*.frag). `crate::batched::svd` drives both forms.

pub mod webgl;
pub mod webgpu;

use crate::cpu;
use crate::engine::{foreign, Engine, Matrix};
use crate::error::{GpgpuError, Result};
use crate::kernels::Backend;
use crate::plan::svd::SvdPlan;

/// The batched SVD runs as one dispatch on WebGPU and as passes per round on
/// WebGL: a call of the other backend's form.
fn svd_form(backend: Backend) -> GpgpuError {
    GpgpuError::BadArgument {
        name: "engine".into(),
        detail: format!(
            "this SVD pass is not the {} form: WebGPU and the CPU run svd_jacobi (one \
             dispatch), WebGL svd_round, svd_measure and svd_finish (crate::batched::svd \
             drives both)",
            backend.name()
        ),
    }
}

impl Engine {
    /// A batch of SVDs in one dispatch (WebGPU): `out` ← the [U; V; σᵀ] tiles and
    /// `sweeps` ← each matrix's sweeps, from the atlas `a` (see [`SvdPlan`]).
    pub fn svd_jacobi(&mut self, p: &SvdPlan, [a, out, sweeps]: [&Matrix; 3]) -> Result<()> {
        match (self, a, out, sweeps) {
            (Engine::WebGpu(e), Matrix::Gpu(a), Matrix::Gpu(o), Matrix::Gpu(n)) => {
                webgpu::svd_jacobi(e, p, [a, o, n])
            }
            (Engine::WebGl(_), ..) => Err(svd_form(Backend::WebGl)),
            (Engine::Cpu(e), Matrix::Cpu(a), Matrix::Cpu(o), Matrix::Cpu(n)) => {
                let p = *p;
                e.pass([a], [o, n], move |[a], outs| {
                    cpu::passes::svd_jacobi(&p, a, outs)
                })
            }
            _ => Err(foreign()),
        }
    }

    /// One round of the batched SVD's rotations (WebGL): `dst` ← `src` with the
    /// round's pairs of every [A; V] tile rotated (`rotations`: the pairs'
    /// rotations, one float per column).
    pub fn svd_round(
        &mut self,
        p: &SvdPlan,
        round: usize,
        [src, rotations, dst]: [&Matrix; 3],
    ) -> Result<()> {
        match (self, src, rotations, dst) {
            (Engine::WebGl(e), Matrix::Gl(s), Matrix::Gl(r), Matrix::Gl(d)) => {
                webgl::round(e, p, round, [s, r, d])
            }
            (Engine::WebGpu(_), ..) => Err(svd_form(Backend::WebGpu)),
            (Engine::Cpu(_), ..) => Err(svd_form(Backend::Cpu)),
            _ => Err(foreign()),
        }
    }

    /// What is left to rotate in each [A; V] tile of `work` (WebGL): `out` gets one
    /// float per matrix, 0 once no pair would rotate.
    pub fn svd_measure(&mut self, p: &SvdPlan, work: &Matrix, out: &Matrix) -> Result<()> {
        match (self, work, out) {
            (Engine::WebGl(e), Matrix::Gl(w), Matrix::Gl(o)) => webgl::measure(e, p, w, o),
            (Engine::WebGpu(_), ..) => Err(svd_form(Backend::WebGpu)),
            (Engine::Cpu(_), ..) => Err(svd_form(Backend::Cpu)),
            _ => Err(foreign()),
        }
    }

    /// The [U; V; σᵀ] tiles of the converged [A; V] tiles of `work` (WebGL).
    pub fn svd_finish(&mut self, p: &SvdPlan, work: &Matrix, out: &Matrix) -> Result<()> {
        match (self, work, out) {
            (Engine::WebGl(e), Matrix::Gl(w), Matrix::Gl(o)) => webgl::finish(e, p, w, o),
            (Engine::WebGpu(_), ..) => Err(svd_form(Backend::WebGpu)),
            (Engine::Cpu(_), ..) => Err(svd_form(Backend::Cpu)),
            _ => Err(foreign()),
        }
    }
}
